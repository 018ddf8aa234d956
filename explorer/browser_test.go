//go:build unix

package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringcheck/mc/model"
)

// pageVar is one row of the page's variables table.
type pageVar struct {
	Value   string `json:"value"`
	Changed bool   `json:"changed"`
}

// What the page shows, read from its DOM.
const (
	jsProcs    = `[...document.querySelectorAll("#ring .proc")].map(g => g.dataset.name)`
	jsMessages = `Object.fromEntries([...document.querySelectorAll("#ring .link")].map(g => [g.dataset.from + ">" + g.dataset.to, [...g.querySelectorAll(".msg")].map(m => m.textContent)]))`
	jsVars     = `Object.fromEntries([...document.querySelectorAll("#vars tr")].map(r => [r.dataset.name, {value: r.cells[1].textContent, changed: r.classList.contains("changed")}]))`
	jsProps    = `Object.fromEntries([...document.querySelectorAll("#props tr")].map(r => [r.dataset.name, r.dataset.status]))`
	jsMoves    = `[...document.querySelectorAll("#moves button.move")].map(b => b.textContent)`
	jsWhere    = `document.getElementById("where").textContent`
	jsSettled  = `document.body.dataset.busy === "false"`
)

// The explorer in a real headless Chromium: the page loads, an enabled
// action is clicked and the ring and variables follow; then a
// counterexample trace is loaded through the file input and stepped
// through to its end. It needs Debian's chromium; MC_SKIP_BROWSER=1 skips it.
func TestExplorerInChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, ctx)
	srv := httptest.NewServer(LocalOnly(New(build(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})).Handler()))
	defer srv.Close()

	if err := b.call("Page.navigate", map[string]any{"url": srv.URL + "/"}, nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `document.body.dataset.ready === "true"`)
	var procs, moves []string
	must(t, b.eval(jsProcs, &procs))
	if want := []string{"p0", "p1", "p2", "p3"}; !reflect.DeepEqual(procs, want) {
		t.Fatalf("ring draws %v, want %v", procs, want)
	}
	var msgs map[string][]string
	must(t, b.eval(jsMessages, &msgs))
	if want := map[string][]string{"3>0": {}, "0>1": {}, "1>2": {}, "2>3": {}}; !reflect.DeepEqual(msgs, want) {
		t.Fatalf("initial links %v, want the four empty links of the ring", msgs)
	}
	must(t, b.eval(jsMoves, &moves))
	if len(moves) != 4 || moves[0] != "start p0 (sends ⟨elect 3⟩)" {
		t.Fatalf("enabled actions %v", moves)
	}
	var initialsShown bool
	var where string
	must(t, b.eval(`getComputedStyle(document.getElementById("initials")).display !== "none"`, &initialsShown))
	must(t, b.eval(jsWhere, &where))
	if initialsShown || where != "initial state" {
		t.Fatalf("one initial state: the list of initial states shown %v, the state shown is %q", initialsShown, where)
	}

	// Click "start p0": ⟨elect 3⟩ waits on the link p0 → p1.
	must(t, b.eval(`document.querySelector("#moves button.move").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "1" && `+jsSettled)
	must(t, b.eval(jsMessages, &msgs))
	if !reflect.DeepEqual(msgs["0>1"], []string{"⟨elect 3⟩"}) || len(msgs["1>2"]) != 0 {
		t.Fatalf("after start p0 the ring shows %v", msgs)
	}
	var vars map[string]pageVar
	must(t, b.eval(jsVars, &vars))
	if vars["p1.in"] != (pageVar{"[⟨elect 3⟩]", true}) || vars["p0.participant"] != (pageVar{"true", true}) || vars["p2.in"] != (pageVar{"[]", false}) {
		t.Fatalf("variables after start p0: %v", vars)
	}
	var acted bool
	must(t, b.eval(`document.querySelector('#ring .proc[data-name="p0"]').classList.contains("acted")`, &acted))
	if !acted {
		t.Fatal("the ring does not mark p0 as the process that acted")
	}
	// Back undoes it; forward redoes it.
	must(t, b.eval(`document.getElementById("back").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "0" && `+jsSettled)
	must(t, b.eval(jsMessages, &msgs))
	if len(msgs["0>1"]) != 0 {
		t.Fatalf("back: the ring still shows %v", msgs)
	}
	must(t, b.eval(`document.getElementById("forward").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "1" && `+jsSettled)

	// Load the README's counterexample, of other parameters: the page
	// switches to them and opens the trace at its end, where it fails.
	path := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(path, traceFileOf(t, literal, "election-complete"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, b.setFile("#tracefile", path))
	b.waitFor(t, `document.getElementById("trace").dataset.loaded === "true" && document.body.dataset.step === "3" && `+jsSettled)
	var header string
	must(t, b.eval(`document.getElementById("system").textContent`, &header))
	if header != "changroberts (variant raynal-literal) n=4 ids=3,1,4,2 chan=fifo initiators=0" {
		t.Fatalf("header after loading the trace: %q", header)
	}
	// The end: p2 swallowed ⟨elect 3⟩, shown by the link it came on, and
	// the state is terminal with election-complete failing; the run has
	// ended (election-terminates's goal) without a leader.
	var swallowed string
	must(t, b.eval(`document.querySelector('#ring .link[data-from="1"][data-to="2"] .recv').textContent`, &swallowed))
	if swallowed != "⟨elect 3⟩ received" {
		t.Fatalf("the ring shows %q by the link p1 → p2", swallowed)
	}
	var props map[string]string
	must(t, b.eval(jsProps, &props))
	must(t, b.eval(jsMoves, &moves))
	var current, forward bool
	must(t, b.eval(`document.querySelector('#tracesteps li[data-step="3"]').classList.contains("current")`, &current))
	must(t, b.eval(`document.getElementById("forward").disabled && document.getElementById("last").disabled`, &forward))
	if props["election-complete"] != "fails" || props["at-most-one-leader"] != "holds" || props["election-terminates"] != "goal" ||
		props["eventually-leader"] != "n/a" || len(moves) != 0 || !current || !forward {
		t.Fatalf("at the end: properties %v, moves %v, step 3 current %v, forward and last disabled %v", props, moves, current, forward)
	}
	var note, replay string
	must(t, b.eval(`document.getElementById("tracenote").textContent`, &note))
	must(t, b.eval(`document.getElementById("replay").textContent`, &replay))
	if note != "deadlock: no action is enabled, and end property election-complete fails" ||
		replay != "Replays against this spec: the run replays and still ends in a deadlock: the terminal state violates election-complete" {
		t.Fatalf("trace note %q, replay note %q", note, replay)
	}
	// « first goes to the beginning; forward walks the trace.
	must(t, b.eval(`document.getElementById("first").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "0" && `+jsSettled)
	must(t, b.eval(jsProps, &props))
	if props["election-terminates"] != "n/a" || props["eventually-leader"] != "n/a" {
		t.Fatalf("eventually properties in the initial state: %v", props)
	}
	steps := []struct {
		where string
		link  string
	}{
		{"after step 1: start p0 (sends ⟨elect 3⟩)", "0>1"},
		{"after step 2: recv p1 ⟨elect 3⟩", "1>2"},
		{"after step 3: recv p2 ⟨elect 3⟩", ""},
	}
	for i, s := range steps {
		must(t, b.eval(`document.getElementById("forward").click()`, nil))
		b.waitFor(t, fmt.Sprintf(`document.body.dataset.step === "%d" && `, i+1)+jsSettled)
		var where string
		must(t, b.eval(jsWhere, &where))
		must(t, b.eval(jsMessages, &msgs))
		busy := 0
		for link, m := range msgs {
			busy += len(m)
			if len(m) > 0 && (link != s.link || m[0] != "⟨elect 3⟩") {
				t.Fatalf("step %d: link %s holds %v", i+1, link, m)
			}
		}
		if where != s.where || (s.link != "" && busy != 1) || (s.link == "" && busy != 0) {
			t.Fatalf("step %d: %q with messages %v, want %q", i+1, where, msgs, s.where)
		}
	}
	// There is one set of navigation buttons (the pager of the list of
	// initial states, hidden here, pages that list).
	var buttons []string
	must(t, b.eval(`[...document.querySelectorAll("button:not(.move):not(.pager)")].map(b => b.id)`, &buttons))
	if want := []string{"first", "back", "forward", "last"}; !reflect.DeepEqual(buttons, want) {
		t.Fatalf("navigation buttons %v, want %v", buttons, want)
	}
}

// A spec with several initial states (vlt n=3 without --orientation, one
// per orientation assignment): the page lists them, the search box filters
// the list, and clicking one starts the path from it; a step taken from
// there and « first keep to it. A spec with one initial state shows no list
// (TestExplorerInChromium's changroberts).
func TestExplorerStartsFromAChosenInitialStateInChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, ctx)
	srv := httptest.NewServer(LocalOnly(New(vltFree(t)).Handler()))
	defer srv.Close()
	if err := b.call("Page.navigate", map[string]any{"url": srv.URL + "/"}, nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `document.body.dataset.ready === "true"`)
	const jsListed = `[...document.querySelectorAll("#initlist li")].map(li => li.dataset.index + " " + li.lastChild.textContent)`
	var listed []string
	var shown bool
	var where, count string
	must(t, b.eval(`!document.getElementById("initials").hidden`, &shown))
	must(t, b.eval(jsListed, &listed))
	must(t, b.eval(jsWhere, &where))
	must(t, b.eval(`document.getElementById("initmatch").textContent`, &count))
	if !shown || len(listed) != 8 || listed[0] != "0 the one the others are compared with" || listed[6] != "6 orientation=110" ||
		where != "initial state 0 (of 8)" || count != "8 initial states" {
		t.Fatalf("the list shown %v: %v (%q); the state shown is %q", shown, listed, count, where)
	}
	var vars map[string]pageVar
	must(t, b.eval(jsVars, &vars))
	if vars["orientation"].Value != "000" {
		t.Fatalf("initial state 0 shows orientation %q", vars["orientation"].Value)
	}

	// Filter: orientation=11 leaves 110 and 111.
	must(t, b.eval(`(() => { const s = document.getElementById("initsearch"); s.value = "orientation=11"; s.dispatchEvent(new Event("input")); })()`, nil))
	b.waitFor(t, `document.querySelectorAll("#initlist li").length === 2 && `+jsSettled)
	must(t, b.eval(jsListed, &listed))
	must(t, b.eval(`document.getElementById("initmatch").textContent`, &count))
	if want := []string{"6 orientation=110", "7 orientation=111"}; !reflect.DeepEqual(listed, want) || count != "2 of 8 initial states match" {
		t.Fatalf("filtered by orientation=11: %v (%q), want %v", listed, count, want)
	}

	// Choose initial state 6: the path starts there.
	must(t, b.eval(`document.querySelector('#initlist li[data-index="6"]').click()`, nil))
	b.waitFor(t, `document.body.dataset.init === "6" && `+jsSettled)
	var step string
	var current []string
	must(t, b.eval(jsWhere, &where))
	must(t, b.eval(jsVars, &vars))
	must(t, b.eval(`document.body.dataset.step`, &step))
	must(t, b.eval(`[...document.querySelectorAll("#initlist li.current")].map(li => li.dataset.index)`, &current))
	if where != "initial state 6 (of 8)" || vars["orientation"].Value != "110" || step != "0" || !reflect.DeepEqual(current, []string{"6"}) {
		t.Fatalf("after choosing initial state 6: %q, orientation %q, step %s, marked %v", where, vars["orientation"].Value, step, current)
	}
	// A step from it, and back to its start with « first.
	must(t, b.eval(`document.querySelector("#moves button.move").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "1" && `+jsSettled)
	must(t, b.eval(`document.getElementById("first").click()`, nil))
	b.waitFor(t, `document.body.dataset.step === "0" && `+jsSettled)
	must(t, b.eval(jsVars, &vars))
	var init string
	must(t, b.eval(`document.body.dataset.init`, &init))
	if init != "6" || vars["orientation"].Value != "110" {
		t.Fatalf("« first goes to initial state %s, orientation %q", init, vars["orientation"].Value)
	}
}

// A lasso of a spec without a picture (misra, which does not draw its
// ring): the page hides the empty picture, opens at the end, marks where
// the loop starts, and shows the leads-to property awaiting its goal there.
func TestExplorerShowsALassoInChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, ctx)
	target, f := lasso(t)
	srv := New(target)
	if err := srv.LoadTrace(f); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(LocalOnly(srv.Handler()))
	defer web.Close()
	if err := b.call("Page.navigate", map[string]any{"url": web.URL + "/"}, nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `document.body.dataset.ready === "true"`)
	end, loop := len(f.Steps), *f.LoopStart
	var step string
	var pictureShown bool
	must(t, b.eval(`document.body.dataset.step`, &step))
	must(t, b.eval(`getComputedStyle(document.getElementById("picture")).display !== "none"`, &pictureShown))
	var header string
	must(t, b.eval(`document.getElementById("system").textContent`, &header))
	if step != fmt.Sprint(end) || pictureShown || strings.Contains(header, "ids=") {
		t.Fatalf("the lasso opens at step %s (want %d), the empty picture shown %v, header %q (misra has no ids)", step, end, pictureShown, header)
	}
	var marked []string
	must(t, b.eval(`[...document.querySelectorAll("#tracesteps li.loop-start")].map(li => li.dataset.step)`, &marked))
	var note string
	must(t, b.eval(`document.getElementById("tracenote").textContent`, &note))
	if !reflect.DeepEqual(marked, []string{fmt.Sprint(loop)}) || !strings.HasPrefix(note, fmt.Sprintf("↻ back to the state after step %d", loop)) {
		t.Fatalf("loop start marked at %v (want %d); note at the end %q", marked, loop, note)
	}
	must(t, b.eval(`document.querySelector("#tracesteps li.loop-start").click()`, nil))
	b.waitFor(t, fmt.Sprintf(`document.body.dataset.step === "%d" && `, loop)+jsSettled)
	var props map[string]string
	must(t, b.eval(jsProps, &props))
	var text string
	must(t, b.eval(`document.querySelector('#props tr[data-name="`+f.Property.Name+`"]').cells[2].textContent`, &text))
	must(t, b.eval(`document.getElementById("tracenote").textContent`, &note))
	if props[f.Property.Name] != "awaits" || text != "awaiting its goal, which this run never reaches" || !strings.HasPrefix(note, "↻ the loop starts here") {
		t.Fatalf("at the loop start: %s is %q (%q), note %q", f.Property.Name, props[f.Property.Name], text, note)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// statusLog records the status of every POST /api/trace a handler answers.
type statusLog struct {
	mu    sync.Mutex
	codes []int
}

func (l *statusLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(sw, r)
		if r.Method == http.MethodPost && r.URL.Path == "/api/trace" {
			l.mu.Lock()
			l.codes = append(l.codes, sw.code)
			l.mu.Unlock()
		}
	})
}

func (l *statusLog) seen() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.codes...)
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// A page on another port, open in the same Chromium, posts a trace file to
// the explorer as a page can without a preflight (no-cors, text/plain),
// then tries again as JSON (which needs a preflight). The first request
// reaches the explorer and is refused; the session is unchanged.
func TestCrossSiteUploadIsRefusedInChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, ctx)
	var log statusLog
	explorer := httptest.NewServer(log.wrap(LocalOnly(New(build(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})).Handler())))
	defer explorer.Close()
	var before sessionJSON
	get(t, explorer.URL+"/api/session", &before)

	body, err := json.Marshal(string(traceFileOf(t, literal, "election-complete")))
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf(`<!doctype html><title>elsewhere</title><script>
const target = %q, trace = %s;
async function attack() {
  try { await fetch(target, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: trace}); } catch (e) {}
  try { await fetch(target, {method: "POST", headers: {"Content-Type": "application/json"}, body: trace}); } catch (e) {}
  document.title = "done";
}
attack();
</script>`, explorer.URL+"/api/trace", body)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer elsewhere.Close()
	if elsewhere.URL == explorer.URL {
		t.Fatal("the two servers share an origin")
	}
	if err := b.call("Page.navigate", map[string]any{"url": elsewhere.URL + "/"}, nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `document.title === "done"`)
	codes := log.seen()
	if len(codes) == 0 {
		t.Fatal("no cross-site POST reached the explorer: the test shows nothing")
	}
	for _, code := range codes {
		if code != http.StatusForbidden {
			t.Errorf("a cross-site POST was answered %d, want 403 (all: %v)", code, codes)
		}
	}
	var after sessionJSON
	get(t, explorer.URL+"/api/session", &after)
	if after.Gen != before.Gen || after.Trace != nil || after.Variant != before.Variant {
		t.Fatalf("the cross-site POST changed the session: %+v", after)
	}
}
