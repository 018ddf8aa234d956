package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
	"github.com/ringcheck/mc/tracefile/tracefiletest"
)

// The README's example: the seed's literal rule, one initiator, deadlock.
var literal = model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}}

func build(t testing.TB, p model.Params) checker.Target {
	t.Helper()
	e, err := specs.Lookup("changroberts")
	if err != nil {
		t.Fatal(err)
	}
	target, err := e.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	return target
}

// traceFileOf returns the trace file of property name of changroberts
// with parameters p.
func traceFileOf(t testing.TB, p model.Params, name string) []byte {
	return tracefiletest.JSON(t, "changroberts", p, name)
}

func get(t *testing.T, url string, out any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

func post(t *testing.T, url string, body []byte, out any) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, string(data)
}

func TestStatesAreComputedOnDemand(t *testing.T) {
	srv := httptest.NewServer(New(build(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})).Handler())
	defer srv.Close()
	var s sessionJSON
	if code := get(t, srv.URL+"/api/session", &s); code != http.StatusOK || s.Initials != 1 || s.Trace != nil {
		t.Fatalf("session: %d %+v", code, s)
	}
	var st stateJSON
	get(t, srv.URL+"/api/state?id="+s.Initial, &st)
	if len(st.Moves) != 4 || st.Moves[0].Label != "start p0 (sends ⟨elect 3⟩)" || st.Terminal || st.View == nil {
		t.Fatalf("initial state: %+v", st)
	}
	var next stateJSON
	get(t, srv.URL+"/api/state?id="+st.Moves[0].To, &next)
	if next.View.Chans[1].Msgs[0] != "⟨elect 3⟩" || st.Moves[0].Sent[0] != (checker.Message{From: 0, To: 1, Text: "⟨elect 3⟩"}) {
		t.Fatalf("after start p0: links %+v, sent %+v", next.View.Chans, st.Moves[0].Sent)
	}
}

func TestMalformedRequestsGetAnHTTPError(t *testing.T) {
	srv := httptest.NewServer(LocalOnly(New(build(t, literal)).Handler()))
	defer srv.Close()
	for path, want := range map[string]int{
		"/api/state":                       http.StatusBadRequest,
		"/api/state?id=1-00000000000000ff": http.StatusNotFound,
		"/api/state?id=%ff%fe":             http.StatusNotFound,
		"/api/trace":                       http.StatusNotFound, // only POST
		"/../server.go":                    http.StatusNotFound,
		"/..%2fserver.go":                  http.StatusNotFound,
		"/explorer_test.go":                http.StatusNotFound,
		"/nosuchfile":                      http.StatusNotFound,
	} {
		if code := get(t, srv.URL+path, nil); code != want {
			t.Errorf("GET %s: %d, want %d", path, code, want)
		}
	}
	trace := traceFileOf(t, literal, "election-complete")
	for name, body := range map[string]string{
		"empty":        "",
		"not json":     "{{",
		"not a trace":  `{"format": "other"}`,
		"unknown spec": strings.Replace(string(trace), `"spec": "changroberts"`, `"spec": "bully"`, 1),
		"bad ids":      strings.Replace(string(trace), `"n": 4`, `"n": 5`, 1),
		"bad chan":     strings.Replace(string(trace), `"chan": "fifo"`, `"chan": "lifo"`, 1),
	} {
		if code, msg := post(t, srv.URL+"/api/trace", []byte(body), nil); code != http.StatusBadRequest || msg == "" {
			t.Errorf("POST /api/trace (%s): %d %q, want 400 with a message", name, code, msg)
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/session", nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request for host attacker.example: %d, want 403", resp.StatusCode)
	}
	if code := get(t, srv.URL+"/api/session", nil); code != http.StatusOK {
		t.Fatalf("the server no longer answers after bad requests: %d", code)
	}
}

func TestATraceOfOtherParametersStartsANewSession(t *testing.T) {
	srv := httptest.NewServer(New(build(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})).Handler())
	defer srv.Close()
	var old sessionJSON
	get(t, srv.URL+"/api/session", &old)
	var s sessionJSON
	if code, msg := post(t, srv.URL+"/api/trace", traceFileOf(t, literal, "election-complete"), &s); code != http.StatusOK {
		t.Fatalf("POST trace: %d %s", code, msg)
	}
	if s.Variant != "raynal-literal" || s.Gen != old.Gen+1 || s.Trace == nil || !s.Trace.Replay.Reached || len(s.Trace.Steps) != 3 {
		t.Fatalf("session after loading the trace: %+v", s)
	}
	if code := get(t, srv.URL+"/api/state?id="+old.Initial, nil); code != http.StatusConflict {
		t.Fatalf("a state of the old session: %d, want 409", code)
	}
	var end stateJSON
	get(t, srv.URL+"/api/state?id="+s.Trace.Steps[2].To, &end)
	if !end.Terminal || len(end.Moves) != 0 {
		t.Fatalf("the trace's last state: %+v", end)
	}
}

func TestATraceThatNoLongerReplaysIsShownAsFarAsItGoes(t *testing.T) {
	srv := httptest.NewServer(New(build(t, literal)).Handler())
	defer srv.Close()
	// The recorded initial state has p0.in = [x], which the spec never
	// had: the trace diverges at once.
	trace := strings.Replace(string(traceFileOf(t, literal, "election-complete")), `"value": "[]"`, `"value": "[x]"`, 1)
	var s sessionJSON
	if code, msg := post(t, srv.URL+"/api/trace", []byte(trace), &s); code != http.StatusOK {
		t.Fatalf("POST: %d %s", code, msg)
	}
	if s.Trace.Replay.Reached || !strings.Contains(s.Trace.Replay.Why, "initial state") {
		t.Fatalf("replay of an edited trace: %+v", s.Trace.Replay)
	}
}

func TestTheTraceFileNamedIsTheOnlyFileRead(t *testing.T) {
	// The server has no endpoint taking a path: a trace comes as a body.
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(secret, traceFileOf(t, literal, "election-complete"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(build(t, literal)).Handler())
	defer srv.Close()
	for _, path := range []string{"/api/trace?path=" + secret, "/" + secret, "/api/session?trace=" + secret} {
		var s sessionJSON
		if code := get(t, srv.URL+path, &s); code == http.StatusOK && s.Trace != nil {
			t.Fatalf("GET %s loaded a file from disk", path)
		}
	}
}

// lasso returns misra on a ring of 2 and the lasso mc check finds without
// fairness: the token pair circulates forever and p0's request is never
// granted.
func lasso(t testing.TB) (checker.Target, *tracefile.File) {
	t.Helper()
	e, err := specs.Lookup("misra")
	if err != nil {
		t.Fatal(err)
	}
	target, err := e.Build(model.Params{N: 2, IDs: e.IDs(2)})
	if err != nil {
		t.Fatal(err)
	}
	r := target.Check(context.Background(), checker.Options{Fair: model.FairNone})
	f := r.Failure()
	if f == nil || f.Trace == nil || f.Trace.LoopStart == nil {
		t.Fatalf("misra n=2 without fairness has no lasso: %+v", f)
	}
	file, err := tracefile.Build(target, r.Meaning, f, "test")
	if err != nil {
		t.Fatal(err)
	}
	return target, file
}
