// mc explore: the page. It asks the server for one state at a time
// (GET /api/state?id=…), each with its enabled moves and their successors'
// ids, and keeps the path walked so far as a history for back and forward.
// A path is, as a trace file records it, an initial state's index and the
// actions taken from it.
"use strict";

const app = {
  session: null,   // GET /api/session
  init: 0,         // the index of the path's initial state
  initials: { q: "", offset: 0, seq: 0, page: null }, // the list of initial states (GET /api/initials)
  history: [],     // [{id, via}]: via is the move that led here (null at the start)
  pos: 0,          // index of the state shown
  traceLen: 0,     // how many leading history entries are the loaded trace's
  cache: new Map() // id → state
};

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, opts) {
  const r = await fetch(path, opts);
  if (!r.ok) throw new Error((await r.text()).trim() || r.statusText);
  return r.json();
}

async function getState(id) {
  if (!app.cache.has(id)) app.cache.set(id, await api("/api/state?id=" + encodeURIComponent(id)));
  return app.cache.get(id);
}

function showError(err) {
  $("error").textContent = err ? String(err.message || err) : "";
  $("error").classList.toggle("shown", !!err);
}

// run performs an action of the page, showing any error it meets.
async function run(f) {
  document.body.dataset.busy = "true";
  try {
    await f();
    showError(null);
  } catch (err) {
    showError(err);
  } finally {
    document.body.dataset.busy = "false";
  }
}

async function loadSession(s) {
  app.session = s;
  app.cache.clear();
  $("system").textContent = `${s.spec} (variant ${s.variant}) ${s.params}`;
  document.title = `mc explore: ${s.spec}`;
  renderTraceList();
  $("initials").hidden = s.initials <= 1;
  $("initcount").textContent = String(s.initials);
  $("initsearch").value = "";
  app.initials.q = "";
  app.initials.offset = 0;
  if (s.initials > 1) await listInitials();
  // A trace opens where it fails (or where its witness holds): its end.
  if (s.trace) await goTrace(s.trace.steps.length);
  else await startFrom(0);
}

// startFrom starts a new path from initial state k.
async function startFrom(k) {
  const id = k === 0 ? app.session.initial : (await api("/api/initial?index=" + k)).id;
  app.init = k;
  app.history = [{ id: id, via: null }];
  app.pos = 0;
  app.traceLen = 0;
  await show();
}

// listInitials shows the page of initial states app.initials asks for. A
// reply that a later request has overtaken (the user kept typing) is
// dropped.
async function listInitials() {
  const q = app.initials, seq = ++q.seq;
  const page = await api(`/api/initials?q=${encodeURIComponent(q.q)}&offset=${q.offset}`);
  if (seq !== q.seq) return;
  q.page = page;
  renderInitials();
}

function renderInitials() {
  const page = app.initials.page, list = $("initlist");
  list.replaceChildren();
  for (const it of page.items) {
    const summary = it.index === 0 ? "the one the others are compared with"
      : it.differs.length === 0 ? "the same variables as initial state 0"
      : it.differs.map((v) => `${v.name}=${v.value}`).join(", ");
    const li = el("li", { "data-index": it.index, title: summary });
    li.appendChild(el("span", { class: "index" }, `#${it.index}`));
    li.appendChild(document.createTextNode(summary));
    li.addEventListener("click", () => run(() => startFrom(it.index)));
    list.appendChild(li);
  }
  const first = page.offset + 1, last = page.offset + page.items.length;
  const which = page.matched === page.total ? `${page.total} initial states` : `${page.matched} of ${page.total} initial states match`;
  $("initmatch").textContent = page.items.length === 0 ? `no initial state matches (of ${page.total})`
    : page.matched > page.items.length ? `${which}; showing ${first}–${last}` : which;
  $("initprev").disabled = page.offset === 0;
  $("initnext").disabled = last >= page.matched;
  $("initpager").hidden = page.offset === 0 && last >= page.matched;
  renderInitialCursor();
}

function renderInitialCursor() {
  for (const li of $("initlist").children) li.classList.toggle("current", li.dataset.index === String(app.init));
}

// goTrace shows the state after step k of the loaded trace.
async function goTrace(k) {
  const t = app.session.trace;
  app.init = t.init;
  app.history = [{ id: t.start, via: null }].concat(t.steps.map((s) => ({ id: s.to, via: s })));
  app.traceLen = app.history.length;
  app.pos = Math.max(0, Math.min(k, app.history.length - 1));
  await show();
}

async function take(move) {
  app.history = app.history.slice(0, app.pos + 1);
  app.traceLen = Math.min(app.traceLen, app.history.length);
  app.history.push({ id: move.to, via: move });
  app.pos++;
  await show();
}

async function show() {
  const entry = app.history[app.pos];
  const st = await getState(entry.id);
  const prev = app.pos > 0 ? await getState(app.history[app.pos - 1].id) : null;
  document.querySelector("main").classList.toggle("no-picture", !st.view);
  renderRing(st, entry.via);
  renderWhere(entry.via);
  renderVars(st, prev);
  renderProps(st, entry.via);
  renderMoves(st);
  renderNav();
  renderTraceCursor();
  renderInitialCursor();
  document.body.dataset.state = st.id;
  document.body.dataset.init = String(app.init);
  document.body.dataset.step = String(app.pos);
}

function renderWhere(via) {
  const n = app.session.initials;
  const start = n > 1 ? `initial state ${app.init} (of ${n})` : "initial state";
  $("where").textContent = app.pos === 0 ? start : `after step ${app.pos}: ${via.label}`;
  $("tracenote").textContent = traceNote();
}

// traceNote says where the state shown stands on the loaded trace: where
// its loop starts, and at its end what the run shows.
function traceNote() {
  const t = app.session.trace;
  if (!t || app.pos >= app.traceLen) return "";
  const lasso = t.loop_start !== null && t.loop_start !== undefined;
  if (lasso && app.pos === t.loop_start) return `↻ the loop starts here: steps ${t.loop_start + 1}–${t.recorded_steps} repeat forever`;
  if (app.pos !== t.steps.length || t.steps.length !== t.recorded_steps) return "";
  if (lasso) return `↻ back to the state after step ${t.loop_start}: the loop repeats forever, and ${t.property.name} fails`;
  return t.headline;
}

// renderRing draws the processes clockwise from the top, p0 first, and on
// each link the messages waiting there; the process that took the last step
// is outlined, the messages it sent are highlighted and the one it received
// is shown faded by the link's end.
function renderRing(st, via) {
  const svg = $("ring");
  svg.replaceChildren();
  const v = st.view;
  if (!v) return; // the panel is hidden: this spec has no picture of its ring
  const defs = el("svg:defs");
  const marker = el("svg:marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" });
  marker.appendChild(el("svg:path", { d: "M0,0 L10,5 L0,10 z", fill: "#1f4e8c" }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  const n = v.procs.length, cx = 280, cy = 255, R = 170, r = 36;
  const pos = v.procs.map((_, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [cx + R * Math.cos(a), cy + R * Math.sin(a)];
  });
  const sent = new Set(((via && via.sent) || []).map((m) => `${m.from}>${m.to}>${m.message}`));
  const pairs = new Set(v.links.map((l) => `${l.from}>${l.to}`));
  for (const l of v.links) {
    const [x1, y1] = pos[l.from], [x2, y2] = pos[l.to];
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
    // two links between the same processes are drawn side by side
    const off = pairs.has(`${l.to}>${l.from}`) ? 9 : 0;
    const ox = -uy * off, oy = ux * off;
    const g = el("svg:g", { class: "link" + (l.messages.length ? " busy" : ""), "data-from": l.from, "data-to": l.to, "data-name": l.name });
    g.appendChild(el("svg:line", { x1: x1 + ux * r + ox, y1: y1 + uy * r + oy, x2: x2 - ux * r + ox, y2: y2 - uy * r + oy, "marker-end": "url(#arrow)" }));
    // messages stacked beside the link's middle, on the side away from the centre
    const mx = (x1 + x2) / 2 + ox, my = (y1 + y2) / 2 + oy;
    let nx = mx - cx, ny = my - cy;
    const nd = Math.hypot(nx, ny) || 1;
    nx /= nd; ny /= nd;
    l.messages.forEach((m, k) => {
      const t = el("svg:text", {
        class: "msg" + (sent.has(`${l.from}>${l.to}>${m}`) ? " new" : ""),
        x: mx + nx * (16 + 16 * k), y: my + ny * (16 + 16 * k) + 4,
        "text-anchor": Math.abs(nx) < 0.3 ? "middle" : nx > 0 ? "start" : "end"
      }, m);
      g.appendChild(t);
    });
    // the message the last step took off this link, faded, by its receiver
    ((via && via.received) || []).filter((m) => m.from === l.from && m.to === l.to).forEach((m, k) => {
      const px = x1 + (x2 - x1) * 0.75 + ox, py = y1 + (y2 - y1) * 0.75 + oy;
      g.appendChild(el("svg:text", {
        class: "recv", x: px + nx * (16 + 16 * k), y: py + ny * (16 + 16 * k) + 4,
        "text-anchor": Math.abs(nx) < 0.3 ? "middle" : nx > 0 ? "start" : "end"
      }, `${m.message} received`));
    });
    svg.appendChild(g);
  }
  v.procs.forEach((p, i) => {
    const [x, y] = pos[i];
    const acted = via && via.proc === i;
    const g = el("svg:g", { class: "proc" + (acted ? " acted" : ""), "data-name": p.name, "data-status": p.status || "" });
    const fill = { leader: "#c8efc8", lost: "#e4e4e4" }[p.status] || (p.status ? "#fff4d6" : "white");
    g.appendChild(el("svg:circle", { cx: x, cy: y, r: r, fill: fill }));
    g.appendChild(el("svg:text", { class: "name", x: x, y: y - 4 }, p.name));
    g.appendChild(el("svg:text", { x: x, y: y + 13 }, p.label));
    if (p.status) g.appendChild(el("svg:text", { class: "status", x: x, y: y + r + 16 }, p.status));
    svg.appendChild(g);
  });
}

function renderVars(st, prev) {
  const old = new Map(((prev && prev.vars) || []).map((v) => [v.name, v.value]));
  const t = $("vars");
  t.replaceChildren();
  for (const v of st.vars) {
    const changed = prev && old.get(v.name) !== v.value;
    const tr = el("tr", { class: changed ? "changed" : "", "data-name": v.name });
    tr.appendChild(el("td", {}, v.name));
    tr.appendChild(el("td", {}, v.value));
    t.appendChild(tr);
  }
}

function renderProps(st, via) {
  const status = new Map(st.props.map((p) => [p.name, p.status]));
  const table = $("props");
  table.replaceChildren();
  const t = app.session.trace, onTrace = t && app.pos < app.traceLen;
  for (const p of app.session.props) {
    let s = status.get(p.name), text;
    if (p.kind === "eventually" || p.kind === "leads-to") {
      text = { goal: "goal holds here", awaits: "awaiting its goal", "n/a": p.kind === "leads-to" ? "not awaiting its goal" : "goal not reached here" }[s];
      if (onTrace && t.property.name === p.name && t.property.verdict !== "pass" && s !== "goal") text += ", which this run never reaches";
    } else if (p.kind === "step") {
      s = !via ? "n/a" : (via.broken || []).includes(p.name) ? "fails" : "holds";
      text = { "n/a": "no step yet", fails: "broken by the last step", holds: "holds on the last step" }[s];
    } else if (p.kind === "end" && s === "n/a") {
      text = "not a terminal state";
    } else if (p.kind === "witness") {
      text = s === "holds" ? "holds here" : "not here";
      s = s === "holds" ? "holds" : "n/a";
    } else {
      text = s;
    }
    const tr = el("tr", { "data-name": p.name, "data-status": s, title: `${p.ref}: ${p.doc}` });
    tr.appendChild(el("td", {}, p.name));
    tr.appendChild(el("td", { class: "na" }, p.kind));
    tr.appendChild(el("td", { class: { holds: "holds", fails: "fails", goal: "holds", awaits: "awaits" }[s] || "na" }, text));
    table.appendChild(tr);
  }
}

function renderMoves(st) {
  const box = $("moves");
  box.replaceChildren();
  if (st.moves.length === 0) {
    box.appendChild(el("span", { class: "none" }, "no action is enabled: a terminal state"));
    return;
  }
  for (const m of st.moves) {
    const b = el("button", { class: "move" + (m.broken && m.broken.length ? " breaks" : ""), "data-rule": m.rule, "data-proc": m.proc }, m.label);
    if (m.broken && m.broken.length) b.title = "violates " + m.broken.join(", ");
    b.addEventListener("click", () => run(() => take(m)));
    box.appendChild(b);
  }
}

// renderNav enables the one set of buttons, which walk the path shown: the
// loaded trace, or the actions taken.
function renderNav() {
  $("first").disabled = $("back").disabled = app.pos === 0;
  $("forward").disabled = $("last").disabled = app.pos >= app.history.length - 1;
}

async function goTo(pos) {
  app.pos = Math.max(0, Math.min(pos, app.history.length - 1));
  await show();
}

function renderTraceList() {
  const t = app.session.trace, info = $("traceinfo"), list = $("tracesteps");
  info.replaceChildren();
  list.replaceChildren();
  $("trace").dataset.loaded = t ? "true" : "false";
  if (!t) {
    info.textContent = "No trace loaded.";
    return;
  }
  info.appendChild(el("div", { class: t.property.verdict === "pass" ? "good" : "bad" }, t.headline));
  info.appendChild(el("div", {}, t.property.doc));
  info.appendChild(el("div", { class: t.replay.reached ? "good" : "bad", id: "replay" },
    (t.replay.reached ? "Replays against this spec: " : "No longer matches this spec: ") + t.replay.why));
  const lasso = t.loop_start !== null && t.loop_start !== undefined;
  const items = [{ label: app.session.initials > 1 ? `initial state ${t.init}` : "initial state" }].concat(t.steps);
  items.forEach((s, k) => {
    const li = el("li", { "data-step": k, class: !lasso || k < t.loop_start ? "" : k === t.loop_start ? "loop-start" : "in-loop" }, s.label);
    if (lasso && k === t.loop_start) li.appendChild(el("span", { class: "badge" }, "↻ loop starts here"));
    li.addEventListener("click", () => run(() => goTrace(k)));
    list.appendChild(li);
  });
  if (t.steps.length < t.recorded_steps) {
    list.appendChild(el("li", { class: "diverged" }, `… ${t.recorded_steps - t.steps.length} recorded steps do not replay`));
  } else if (lasso) {
    const li = el("li", { class: "loop-back" }, `↻ back to the state after step ${t.loop_start}; the loop repeats forever`);
    li.addEventListener("click", () => run(() => goTrace(t.loop_start)));
    list.appendChild(li);
  }
}

function renderTraceCursor() {
  for (const li of $("tracesteps").children) {
    li.classList.toggle("current", app.pos < app.traceLen && li.dataset.step === String(app.pos));
  }
}

async function loadTraceFile(file) {
  const text = await file.text();
  const s = await api("/api/trace", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  await loadSession(s);
}

function wire() {
  $("first").addEventListener("click", () => run(() => goTo(0)));
  $("back").addEventListener("click", () => run(() => goTo(app.pos - 1)));
  $("forward").addEventListener("click", () => run(() => goTo(app.pos + 1)));
  $("last").addEventListener("click", () => run(() => goTo(app.history.length - 1)));
  let typing = null;
  $("initsearch").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => run(() => {
      app.initials.q = $("initsearch").value;
      app.initials.offset = 0;
      return listInitials();
    }), 200);
  });
  const turn = (by) => run(() => {
    const page = app.initials.page;
    app.initials.offset = Math.max(0, page.offset + by * page.limit);
    return listInitials();
  });
  $("initprev").addEventListener("click", () => turn(-1));
  $("initnext").addEventListener("click", () => turn(1));
  $("tracefile").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) run(() => loadTraceFile(f));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    const button = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[e.key];
    if (button) $(button).click();
  });
}

wire();
run(async () => {
  await loadSession(await api("/api/session"));
  // ?step=N (or end) opens a loaded trace at that step; ?init=K starts
  // from initial state K instead.
  const query = new URLSearchParams(location.search), step = query.get("step"), init = query.get("init");
  if (step !== null && app.session.trace) await goTrace(step === "end" ? app.session.trace.steps.length : Number(step) || 0);
  else if (init !== null) await startFrom(Number(init));
  document.body.dataset.ready = "true";
});
