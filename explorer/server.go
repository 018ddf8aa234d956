// Package explorer is mc explore: a local web page that steps through a
// spec one action at a time, or through a trace file, drawing the ring with
// the messages waiting on each link, the state's variables, and which
// properties hold there.
//
// Nothing is explored ahead: the server computes a state's successors when
// the page asks for that state (checker.Stepper). It keeps the states it has
// handed out in a table and the page names them by id, so a request can only
// ever refer to a state the spec itself produced; it never decodes state
// bytes from the client, and it reads no file: a trace comes as the body of
// a request (the page reads the file the user picks) or, for mc explore
// --trace, from the one file the user named on the command line.
//
// The page and its script are embedded (go:embed): no CDN, no network.
//
// API, all JSON:
//
//	GET  /api/session       the spec, its properties, initial state 0, loaded trace
//	GET  /api/initials      a page of the initial states, filtered (initial.go)
//	GET  /api/initial?index=K  initial state K, to start from it
//	GET  /api/state?id=ID   one state: variables, view, properties, enabled moves
//	POST /api/trace         body: a trace file; replays it, makes it the session's
//
// The API answers only the explorer's own page: a request from another
// site is refused, and a POST must be application/json (guard.go). Uploads
// are bounded in size and loaded one at a time.
package explorer

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ringcheck/mc/chart"
	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
)

//go:embed assets
var assets embed.FS

// MaxStates bounds the states one session hands out, so that no client can
// make the server grow without end; a person clicking never comes near it.
const MaxStates = 200_000

// maxTraceBytes bounds a trace uploaded from the page; a trace of a ring a
// person steps through is far smaller.
const maxTraceBytes = 16 << 20

// heavyWait is how long a trace upload waits for the one that is being
// loaded before it is answered 503.
const heavyWait = 5 * time.Second

// Server serves one session at a time: a spec with its parameters, and
// possibly a trace of it. Loading a trace of other parameters starts a new
// session; ids of the old one are then refused.
type Server struct {
	mu  sync.Mutex
	cur *session
	gen int
	// heavy admits one trace upload at a time: reading, rebuilding and
	// replaying a trace is the one request whose memory and time grow with
	// what the client sends, and it holds mu while it replays.
	heavy chan struct{}
	// wait is how long an upload waits for heavy (heavyWait).
	wait time.Duration
}

type session struct {
	gen    int
	target checker.Target
	info   checker.Info
	// params are the session's system's, as a trace file records them.
	params runinfo.Params
	// initial are the spec's initial states, in its order; base and diffs
	// describe them for the search of the page's list, computed when it
	// first searches (initialDiffs).
	initial []checker.State
	base    []model.Var
	diffs   []initialDiff
	states  map[string]checker.State
	trace   *traceJSON
}

// New returns a server exploring t.
func New(t checker.Target) *Server {
	s := &Server{heavy: make(chan struct{}, 1), wait: heavyWait}
	s.start(t)
	return s
}

func (s *Server) start(t checker.Target) *session {
	s.gen++
	info := t.Info()
	s.cur = &session{gen: s.gen, target: t, info: info, params: runinfo.ParamsOf(info.Params), initial: t.Initial(), states: map[string]checker.State{}}
	return s.cur
}

// LoadTrace replays f against the spec as it is now and makes it the
// session's trace, switching to f's spec and parameters if they differ.
func (s *Server) LoadTrace(f *tracefile.File) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.loadTrace(f)
	return err
}

func (s *Server) loadTrace(f *tracefile.File) (*session, error) {
	se := s.cur
	if se.info.Spec != f.Run.Spec || se.info.Variant != f.Run.Variant || !reflect.DeepEqual(se.params, f.Run.Params) {
		t, err := tracefile.Target(f)
		if err != nil {
			return nil, fmt.Errorf("cannot rebuild the trace's spec: %v", err)
		}
		se = s.start(t)
	}
	tr, err := se.replay(f)
	if err != nil {
		return nil, err
	}
	se.trace = tr
	return se, nil
}

// Handler returns the HTTP handler: the embedded page and the API.
func (s *Server) Handler() http.Handler {
	page, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", pageHandler(page))
	mux.HandleFunc("GET /api/session", s.handleSession)
	mux.HandleFunc("GET /api/initials", s.handleInitials)
	mux.HandleFunc("GET /api/initial", s.handleInitial)
	mux.HandleFunc("GET /api/state", s.handleState)
	mux.HandleFunc("POST /api/trace", s.handleTrace)
	return recoverer(guard(mux))
}

// pageHandler serves the embedded page. A path that is no valid file name
// (invalid UTF-8, say) is not found: http.FileServer would answer 500.
func pageHandler(page fs.FS) http.Handler {
	files := http.FileServer(http.FS(page))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// recoverer turns a panic in a handler into a 500, so that no request,
// however malformed, takes the explorer down.
func recoverer(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				http.Error(w, fmt.Sprintf("internal error: %v", v), http.StatusInternalServerError)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// httpError is an error with the HTTP status it should be answered with.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func fail(w http.ResponseWriter, err error) {
	var he *httpError
	if errors.As(err, &he) {
		http.Error(w, he.msg, he.code)
		return
	}
	http.Error(w, err.Error(), http.StatusBadRequest)
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

type sessionJSON struct {
	Gen     int        `json:"gen"`
	Spec    string     `json:"spec"`
	Variant string     `json:"variant"`
	Params  string     `json:"params"`
	Props   []propInfo `json:"props"`
	// Initial is initial state 0's id, where the page starts unless told
	// otherwise; Initials is how many initial states the spec has.
	Initial  string     `json:"initial"`
	Initials int        `json:"initials"`
	Trace    *traceJSON `json:"trace"`
}

type propInfo struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
	Doc  string `json:"doc"`
}

func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, err := s.cur.describe()
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, out)
}

func (se *session) describe() (*sessionJSON, error) {
	params := se.info.Params
	if e, err := specs.Lookup(se.info.Spec); err == nil && e.Anonymous() {
		params.IDs = nil // placeholders that nothing reads
	}
	out := &sessionJSON{Gen: se.gen, Spec: se.info.Spec, Variant: se.info.Variant, Params: params.String(), Trace: se.trace}
	for _, p := range se.info.Props {
		out.Props = append(out.Props, propInfo{Name: p.Name, Kind: p.Kind.String(), Ref: p.Ref, Doc: p.Doc})
	}
	out.Initials = len(se.initial)
	if len(se.initial) > 0 {
		var err error
		if out.Initial, err = se.register(se.initial[0]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// register records st in the session's table and returns its id.
func (se *session) register(st checker.State) (string, error) {
	id := fmt.Sprintf("%d-%016x", se.gen, st.Key())
	if _, ok := se.states[id]; !ok {
		if len(se.states) >= MaxStates {
			return "", &httpError{http.StatusServiceUnavailable, fmt.Sprintf("this session has handed out %d states; restart mc explore", MaxStates)}
		}
		se.states[id] = st
	}
	return id, nil
}

// lookup finds a state the session handed out.
func (se *session) lookup(id string) (checker.State, error) {
	if st, ok := se.states[id]; ok {
		return st, nil
	}
	if gen, _, found := strings.Cut(id, "-"); found && gen != strconv.Itoa(se.gen) {
		return checker.State{}, &httpError{http.StatusConflict, "this state belongs to an earlier session (a trace of other parameters was loaded): reload the page"}
	}
	return checker.State{}, &httpError{http.StatusNotFound, fmt.Sprintf("no state %q in this session", id)}
}

type stateJSON struct {
	ID       string       `json:"id"`
	Vars     []model.Var  `json:"vars"`
	View     *model.View  `json:"view"`
	Terminal bool         `json:"terminal"`
	Props    []propStatus `json:"props"`
	Moves    []moveJSON   `json:"moves"`
}

type propStatus struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Status is, for a state property, "holds", "fails" or, for an end
	// property outside a terminal state, "n/a". A liveness property is
	// about runs, not states; its status says where this state stands:
	// "goal" when its goal Q holds here, "awaits" when P of "P leads to Q"
	// holds here and Q does not (a run from here must reach Q), "n/a"
	// otherwise.
	Status string `json:"status"`
}

type moveJSON struct {
	Label    string            `json:"label"`
	Rule     string            `json:"rule"`
	Proc     int               `json:"proc"`
	Choice   int               `json:"choice"`
	Sent     []checker.Message `json:"sent"`
	Received []checker.Message `json:"received"`
	Broken   []string          `json:"broken"`
	To       string            `json:"to"`
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := r.URL.Query().Get("id")
	if id == "" {
		fail(w, &httpError{http.StatusBadRequest, "missing id"})
		return
	}
	st, err := s.cur.lookup(id)
	if err == nil {
		var out *stateJSON
		if out, err = s.cur.state(id, st); err == nil {
			reply(w, out)
			return
		}
	}
	fail(w, err)
}

func (se *session) state(id string, st checker.State) (*stateJSON, error) {
	snap, err := se.target.Inspect(st)
	if err != nil {
		return nil, err
	}
	moves, err := se.target.Moves(st)
	if err != nil {
		return nil, err
	}
	out := &stateJSON{ID: id, Vars: snap.Vars, View: snap.View, Terminal: snap.Terminal, Props: []propStatus{}, Moves: []moveJSON{}}
	for _, p := range snap.Props {
		ps := propStatus{Name: p.Name, Kind: p.Kind.String(), Status: "n/a"}
		switch {
		case p.Evaluated && p.Holds:
			ps.Status = "holds"
		case p.Evaluated:
			ps.Status = "fails"
		}
		out.Props = append(out.Props, ps)
	}
	for _, g := range snap.Goals {
		out.Props = append(out.Props, goalStatus(g))
	}
	for _, m := range moves {
		mj, err := se.move(m)
		if err != nil {
			return nil, err
		}
		out.Moves = append(out.Moves, mj)
	}
	return out, nil
}

// goalStatus is where a state stands for a liveness property.
func goalStatus(g checker.GoalStatus) propStatus {
	ps := propStatus{Name: g.Name, Kind: g.Kind.String(), Status: "n/a"}
	switch {
	case g.Goal:
		ps.Status = "goal"
	case g.From:
		ps.Status = "awaits"
	}
	return ps
}

// move describes m for the page, registering the state it leads to.
func (se *session) move(m checker.Move) (moveJSON, error) {
	to, err := se.register(m.To)
	if err != nil {
		return moveJSON{}, err
	}
	return moveJSON{Label: m.Label, Rule: m.Rule, Proc: m.Action.Proc, Choice: m.Action.Choice,
		Sent: m.Sent, Received: m.Received, Broken: m.Broken, To: to}, nil
}

type traceJSON struct {
	Property  tracefile.Property `json:"property"`
	Headline  string             `json:"headline"`
	Deadlock  bool               `json:"deadlock"`
	LoopStart *int               `json:"loop_start"`
	// Init is the index of the trace's initial state, Start its id, and
	// Steps the replayed steps, each with the id of the state it leads
	// to: all of them when the trace still replays, up to where it
	// diverges otherwise.
	Init     int        `json:"init"`
	Start    string     `json:"start"`
	Steps    []moveJSON `json:"steps"`
	Recorded int        `json:"recorded_steps"`
	Replay   replayJSON `json:"replay"`
}

type replayJSON struct {
	Reached bool   `json:"reached"`
	Step    int    `json:"step"`
	Why     string `json:"why"`
}

// replay walks f through the session's spec as far as it goes.
func (se *session) replay(f *tracefile.File) (*traceJSON, error) {
	out := tracefile.Replay(f, se.target)
	tr := &traceJSON{Property: f.Property, Headline: chart.Headline(f), Deadlock: f.Deadlock, LoopStart: f.LoopStart, Init: f.Init,
		Recorded: len(f.Steps), Steps: []moveJSON{}, Replay: replayJSON{Reached: out.Reached, Step: out.Step, Why: out.Why}}
	if f.Init < 0 || f.Init >= len(se.initial) {
		return tr, nil
	}
	cur := se.initial[f.Init]
	var err error
	if tr.Start, err = se.register(cur); err != nil {
		return nil, err
	}
	for _, s := range f.Steps {
		m, err := se.target.Step(cur, model.Action{Rule: se.info.RuleIndex(s.Rule), Proc: s.Process, Choice: s.Choice})
		if err != nil {
			break
		}
		mj, err := se.move(m)
		if err != nil {
			return nil, err
		}
		tr.Steps = append(tr.Steps, mj)
		cur = m.To
	}
	return tr, nil
}

func (s *Server) handleTrace(w http.ResponseWriter, r *http.Request) {
	if !s.admitHeavy(w, r) {
		return
	}
	defer func() { <-s.heavy }()
	f, err := tracefile.Read(http.MaxBytesReader(w, r.Body, maxTraceBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			err = &httpError{http.StatusRequestEntityTooLarge, "trace file too large"}
		}
		fail(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	se, err := s.loadTrace(f)
	if err != nil {
		fail(w, err)
		return
	}
	out, err := se.describe()
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, out)
}

// admitHeavy waits, at most s.wait, for the turn of r, a trace upload. It
// answers 503 and returns false when the turn does not come.
func (s *Server) admitHeavy(w http.ResponseWriter, r *http.Request) bool {
	timer := time.NewTimer(s.wait)
	defer timer.Stop()
	select {
	case s.heavy <- struct{}{}:
		return true
	case <-timer.C:
	case <-r.Context().Done():
	}
	w.Header().Set("Retry-After", "1")
	http.Error(w, "mc explore is busy loading another trace; try again", http.StatusServiceUnavailable)
	return false
}

// LocalOnly wraps h so that, served on a loopback address, it answers only
// requests addressed to a loopback host name: a web page elsewhere cannot
// reach the explorer by pointing a DNS name of its own at 127.0.0.1.
func LocalOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "mc explore answers only requests to localhost", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
