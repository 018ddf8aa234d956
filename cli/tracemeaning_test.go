package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTrace runs mc check with args and --trace-out, and returns the
// trace file.
func writeTrace(t *testing.T, wantCode int, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.json")
	code, out, errs := mc(t, context.Background(), append(append([]string{"check"}, args...), "--trace-out", path)...)
	if code != wantCode || !strings.Contains(errs, "wrote the") {
		t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, wantCode, out, errs)
	}
	return path
}

// Issue 17: trace files did not record --links, --orientation, --drift or
// --bound, so the README's own vlt --links full trace did not replay, and
// mc explore showed it with half-duplex links. Each of these traces now
// replays with exit 0 and opens in the explorer with its options.
// (-short: the vlt --links full run at n = 4, which fails the same way.)
func TestTracesReplayAndExploreWithTheirOptions(t *testing.T) {
	full := []string{"vlt", "--variant", "e", "--links", "full"} // README's example
	if testing.Short() {
		full = append(full, "--n", "4")
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // what the explorer's description of the system shows
	}{
		{"links", full, exitFail, "links=full"},
		{"drift", []string{"vitanyi", "--drift", "1"}, exitPass, "drift=1"},
		{"orientation", []string{"vlt", "--orientation", "01101"}, exitPass, "links=half orientation=01101"},
		{"bound", []string{"suzukikasami", "--n", "2", "--bound", "2"}, exitPass, "bound=2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeTrace(t, c.code, c.args...)
			code, out, errs := mc(t, context.Background(), "trace", path, "--replay")
			if code != exitPass || !strings.Contains(out, c.want) {
				t.Fatalf("replay: exit %d, want 0 and %q\n%s%s", code, c.want, out, errs)
			}
			session := exploredSession(t, path)
			if !strings.Contains(session.Params, c.want) || !session.Trace.Replay.Reached {
				t.Fatalf("mc explore --trace shows %+v, want %q and the trace replayed", session, c.want)
			}
		})
	}
}

type exploreSession struct {
	Params string
	Trace  struct {
		Replay struct {
			Reached bool
			Why     string
		}
	}
}

// exploredSession is what mc explore --trace path serves as its session.
func exploredSession(t *testing.T, path string) exploreSession {
	t.Helper()
	var f checkFlags
	fs := newFlagSet("explore", "", nil)
	f.addParamFlags(fs)
	tr, err := readTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := exploreServer(fs, &f, tr)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/session", nil))
	var s exploreSession
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		t.Fatalf("session: %v\n%s", err, rec.Body)
	}
	return s
}

// Issue 24: a lasso's replay re-checked neither its property nor its
// fairness, nor the actions and messages it records. The misra n = 2 lasso
// under no fairness replays; changed in any claim, it no longer does, and
// the replay names the first difference.
func TestReplayRefusesWhatTheRunDoesNotShow(t *testing.T) {
	path := writeTrace(t, exitFail, "misra", "--n", "2", "--fair", "none")
	code, out, _ := mc(t, context.Background(), "trace", path, "--replay")
	if code != exitPass || !strings.Contains(out, "closes its loop") || !strings.Contains(out, "fair under fairness none") {
		t.Fatalf("untampered lasso: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		name string
		edit func(f map[string]any)
		want string
	}{
		{"property name", func(f map[string]any) { field(f, "property")["name"] = "request-granted-p5" }, "the spec has no property request-granted-p5"},
		{"property kind", func(f map[string]any) { field(f, "property")["kind"] = "eventually" },
			"the trace says request-granted-p0 is a eventually property; the spec's request-granted-p0 is a leads-to property"},
		{"fairness", func(f map[string]any) { field(f, "run")["fair"] = "action" },
			"it is no counterexample to request-granted-p0 under fairness action: the loop is unfair to"},
		{"action text", func(f map[string]any) { step(f, 1)["action"] = "request p1" },
			`step 2 (request p1): the spec says this action as`},
		{"message", func(f map[string]any) {
			step(f, 0)["received"] = []any{map[string]any{"from": 1, "to": 0, "message": "⟨ping +1⟩"}}
		}, "it receives nothing on replay, ⟨ping +1⟩ on p1→p0 in the trace"},
	} {
		tampered := filepath.Join(t.TempDir(), "l.json")
		editTrace(t, path, tampered, c.edit)
		code, out, errs := mc(t, context.Background(), "trace", tampered, "--replay")
		if code != exitFail || !strings.Contains(out, "no longer matches: ") || !strings.Contains(out, c.want) {
			t.Errorf("%s changed: exit %d, want 1 and %q\n%s%s", c.name, code, c.want, out, errs)
		}
	}
}

func field(f map[string]any, name string) map[string]any { return f[name].(map[string]any) }

func step(f map[string]any, i int) map[string]any { return f["steps"].([]any)[i].(map[string]any) }

// editTrace writes the trace file at from, edited, to to.
func editTrace(t *testing.T, from, to string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	edit(f)
	if data, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A file whose run cannot be built is no run that stopped failing: ring
// size -4 or an unknown spec was exit 1, "no longer matches"; it is bad
// input, refused in one line.
func TestReplayRefusesARunThatCannotBeBuilt(t *testing.T) {
	path := traceFile(t)
	for name, edit := range map[string]func(f map[string]any){
		"n = -4":       func(f map[string]any) { field(field(f, "run"), "params")["n"] = -4 },
		"unknown spec": func(f map[string]any) { field(f, "run")["spec"] = "nosuchspec" },
	} {
		bad := filepath.Join(t.TempDir(), "bad.json")
		editTrace(t, path, bad, edit)
		code, out, errs := mc(t, context.Background(), "trace", bad, "--replay")
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "is not a run this mc can replay") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
	}
}
