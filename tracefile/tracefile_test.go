package tracefile_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
	"github.com/ringcheck/mc/tracefile/tracefiletest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json from the current code")

// literal is the README's example: the seed's slip deadlocks the election.
func literal(t *testing.T) (checker.Target, *tracefile.File) {
	return tracefiletest.Record(t, "changroberts", model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}}, "election-complete")
}

func roundTrip(t *testing.T, f *tracefile.File) *tracefile.File {
	t.Helper()
	var buf bytes.Buffer
	if err := tracefile.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	g, err := tracefile.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRoundTrip(t *testing.T) {
	_, f := literal(t)
	if g := roundTrip(t, f); !reflect.DeepEqual(f, g) {
		t.Fatalf("read back differs:\n%+v\n%+v", f, g)
	}
	_, w := tracefiletest.Record(t, "lelann", model.Params{N: 3, IDs: []int{1, 3, 2}, Chan: model.Bag, Cap: 2}, "leader-elected")
	if g := roundTrip(t, w); !reflect.DeepEqual(w, g) || g.Property.Verdict != "pass" || g.Run.Params.Chan != "bag" || g.Run.Params.Cap != 2 {
		t.Fatalf("witness run read back as %+v", g)
	}
}

// The schema is pinned by a golden file: a change to any field's name,
// type or meaning shows up here, and must come with a new Version.
func TestSchemaIsPinned(t *testing.T) {
	_, f := literal(t)
	var buf bytes.Buffer
	if err := tracefile.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/changroberts-raynal-literal.json"
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("trace file differs from %s (a schema change needs a new Version and a docs/runs.md update):\n%s", golden, buf.String())
	}
	for _, key := range []string{`"format": "mc-trace"`, `"version": 2`, `"mc_version": "test"`, `"run": {`, `"spec": "changroberts"`, `"variant": "raynal-literal"`,
		`"chan": "fifo"`, `"initiators": [`, `"links": "default"`, `"orientation": ""`, `"drift": 0`, `"bound": 0`, `"fair": "process"`, `"safety": false`, `"reduce": false`, `"kind": "end"`, `"verdict": "fail"`, `"deadlock": true`, `"states": [`,
		`"rule": "recv"`, `"process": 2`, `"choice": 0`, `"action": "recv p2 ⟨elect 3⟩"`, `"received": [`, `"sent": []`, `"message": "⟨elect 3⟩"`,
		`"vars": [`, `"view": {`, `"links": [`} {
		if !bytes.Contains(want, []byte(key)) {
			t.Errorf("golden trace lacks %s", key)
		}
	}
}

func TestReadRejectsWhatIsNotAValidTrace(t *testing.T) {
	_, f := literal(t)
	var good bytes.Buffer
	if err := tracefile.Write(&good, f); err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string { return strings.Replace(good.String(), old, new, 1) }
	cases := map[string]string{
		"not json":        "{",
		"other format":    edit(`"format": "mc-trace"`, `"format": "otf"`),
		"newer version":   edit(`"version": 2`, `"version": 3`),
		"version 1":       edit(`"version": 2`, `"version": 1`),
		"missing state":   edit(`"states": [`, `"states": [], "x": [`),
		"bad loop start":  edit(`"init": 0,`, `"init": 0, "loop_start": 3,`),
		"negative choice": edit(`"choice": 0`, `"choice": -1`),
		"wrong type":      edit(`"init": 0`, `"init": "zero"`),
	}
	for name, text := range cases {
		if _, err := tracefile.Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
	if _, err := tracefile.Read(strings.NewReader(cases["version 1"])); err == nil || !strings.Contains(err.Error(), "version 1 does not record") {
		t.Errorf("version 1: %v", err)
	}
}

func TestReplayReachesTheRecordedFailure(t *testing.T) {
	target, f := literal(t)
	if out := tracefile.Replay(f, target); !out.Reached || out.Step != 3 || !strings.Contains(out.Why, "deadlock") {
		t.Fatalf("replay: %+v", out)
	}
	rebuilt, err := tracefile.Target(f)
	if err != nil {
		t.Fatal(err)
	}
	if out := tracefile.Replay(f, rebuilt); !out.Reached {
		t.Fatalf("replay against the rebuilt target: %+v", out)
	}
}

// A spec that changed under a trace: the raynal-literal run, presented as
// a run of the canonical variant, replayed against the canonical rule,
// where p2 (id 4, not a participant) answers ⟨elect 3⟩ with its own id.
func TestReplayDetectsASpecThatChanged(t *testing.T) {
	_, f := literal(t)
	f.Run.Variant = "canonical"
	e, err := specs.Lookup("changroberts")
	if err != nil {
		t.Fatal(err)
	}
	canonical, err := e.Build(model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Initiators: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	out := tracefile.Replay(f, canonical)
	if out.Reached || out.Step != 3 || !strings.Contains(out.Why, "it sends ⟨elect 4⟩ on p2→p3 on replay, nothing in the trace") {
		t.Fatalf("replay against canonical: %+v", out)
	}
}

func TestReplayDetectsATraceThatNoLongerMatches(t *testing.T) {
	target, f := literal(t)
	cases := []struct {
		name string
		edit func(f *tracefile.File)
		step int
		why  string
	}{
		{"action not enabled", func(f *tracefile.File) { f.Steps[1].Process = 3 }, 2, "is not enabled"},
		{"no such rule", func(f *tracefile.File) { f.Steps[0].Rule = "wake" }, 1, `no rule "wake"`},
		{"state differs", func(f *tracefile.File) { f.States[2].Vars[3].Value = "false" }, 2, "p1.participant = true on replay, false in the trace"},
		{"variable gone", func(f *tracefile.File) { f.States[0].Vars[0].Name = "p0.colour" }, 0, "p0.participant that the trace does not record"},
		{"property renamed", func(f *tracefile.File) { f.Property.Name = "election-finishes" }, 0, "the spec has no property election-finishes"},
		{"kind changed", func(f *tracefile.File) { f.Property.Kind = "invariant" }, 0, "the trace says election-complete is a invariant property; the spec's election-complete is a end property"},
		{"doc changed", func(f *tracefile.File) { f.Property.Doc = "anything" }, 0, `the trace describes election-complete as "anything"`},
		{"ref changed", func(f *tracefile.File) { f.Property.Ref = "§9" }, 0, `the trace cites "§9"`},
		{"verdict changed", func(f *tracefile.File) { f.Property.Verdict = "pass" }, 0, `claims verdict "pass" for end property election-complete`},
		{"parameter changed", func(f *tracefile.File) { f.Run.Params.Cap = 2 }, 0, "--cap: the trace's run has 2, the system replayed has unbounded"},
		{"unknown fairness", func(f *tracefile.File) { f.Run.Fair = "strong" }, 0, `unknown fairness "strong"`},
		{"invariant now holds", func(f *tracefile.File) { f.Property = invariant(t, target, "at-most-one-leader") }, 3, "now holds"},
		{"a loop claimed for an end property", func(f *tracefile.File) { one := 1; f.LoopStart = &one; f.Deadlock = false }, 3, "ends in a loop, which shows nothing about end property"},
		{"initial state out of range", func(f *tracefile.File) { f.Init = 1 }, 0, "initial state 1"},
		{"action text", func(f *tracefile.File) { f.Steps[1].Action = "recv p1 ⟨elect 9⟩" }, 2, `the trace as "recv p1 ⟨elect 9⟩"`},
		{"message received", func(f *tracefile.File) { f.Steps[1].Received[0].Text = "⟨elect 9⟩" }, 2, "it receives ⟨elect 3⟩ on p0→p1 on replay, ⟨elect 9⟩ on p0→p1 in the trace"},
		{"message sent", func(f *tracefile.File) { f.Steps[0].Sent = nil }, 1, "it sends ⟨elect 3⟩ on p0→p1 on replay, nothing in the trace"},
		{"view", func(f *tracefile.File) { f.States[1].View.Procs[2].Status = "leader" }, 1, "the picture shows process 2 as"},
		{"view dropped", func(f *tracefile.File) { f.States[2].View = nil }, 2, "the trace records none"},
	}
	for _, c := range cases {
		g := roundTrip(t, f)
		c.edit(g)
		out := tracefile.Replay(g, target)
		if out.Reached || out.Step != c.step || !strings.Contains(out.Why, c.why) {
			t.Errorf("%s: %+v, want step %d and %q", c.name, out, c.step, c.why)
		}
	}
}

// invariant is the spec's property called name, as a trace file records
// a counterexample to it.
func invariant(t *testing.T, target checker.Target, name string) tracefile.Property {
	for _, p := range target.Props() {
		if p.Name == name {
			return tracefile.Property{Name: p.Name, Kind: p.Kind.String(), Ref: p.Ref, Doc: p.Doc, Verdict: "fail"}
		}
	}
	t.Fatalf("no property %s", name)
	return tracefile.Property{}
}

func TestWitnessRunReplays(t *testing.T) {
	target, f := tracefiletest.Record(t, "changroberts", model.Params{N: 3, IDs: []int{1, 3, 2}}, "leader-elected")
	if out := tracefile.Replay(f, target); !out.Reached || !strings.Contains(out.Why, "witness leader-elected") {
		t.Fatalf("witness replay: %+v", out)
	}
}

// token is a lasso-shaped system: one token goes round a ring of two
// forever, so its only run is a loop, and it never terminates.
type token struct{ at int }

func tokenRing() *model.System[token] {
	return &model.System[token]{
		Spec: "token", Procs: 2, Init: []token{{}},
		Rules: []model.Rule[token]{{
			Name:  "pass",
			Guard: func(s *token, p int) bool { return s.at == p },
			Do:    func(s *token, p, _ int) bool { s.at = 1 - p; return true },
		}},
		Props:  []model.Property[token]{model.TerminationProp[token]("terminates", "test", "the token stops")},
		Copy:   func(d, s *token) { *d = *s },
		Encode: func(b []byte, s *token) []byte { return model.AppendUint(b, uint64(s.at)) },
		Decode: func(b []byte, s *token) error { d := model.NewDecoder(b); s.at = d.Int(); return d.Finish() },
		Vars:   func(s *token) []model.Var { return []model.Var{{Name: "token", Value: fmt.Sprintf("p%d", s.at)}} },
	}
}

func TestLassoReplaysOnlyIfItsLoopCloses(t *testing.T) {
	target := checker.Of(tokenRing())
	r := target.Check(context.Background(), checker.Options{})
	if r.Verdict != checker.Fail || r.Props[0].Trace == nil || r.Props[0].Trace.LoopStart == nil {
		t.Fatalf("the token ring's run: %s %+v", r.Verdict, r.Props)
	}
	f, err := tracefile.Build(target, r.Meaning, &r.Props[0], "test")
	if err != nil {
		t.Fatal(err)
	}
	g := roundTrip(t, f)
	if g.LoopStart == nil || *g.LoopStart != 0 || len(g.Steps) != 2 {
		t.Fatalf("loop_start read back as %v, %d steps", g.LoopStart, len(g.Steps))
	}
	if out := tracefile.Replay(g, target); !out.Reached || !strings.Contains(out.Why, "closes its loop") {
		t.Fatalf("lasso replay: %+v", out)
	}
	one := 1
	g.LoopStart = &one
	if out := tracefile.Replay(g, target); out.Reached || !strings.Contains(out.Why, "the loop from state 1 does not close") {
		t.Fatalf("a loop back to the wrong state replayed: %+v", out)
	}
}

// A liveness counterexample that stops in a deadlock (the literal rule's
// election that nobody wins) replays as one: the run stops in a terminal
// state and the goal never holds on it. Claimed as a loop, it does not.
func TestLivenessDeadlockReplays(t *testing.T) {
	target, f := tracefiletest.Record(t, "changroberts", model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}}, "eventually-leader")
	if !f.Deadlock || f.LoopStart != nil {
		t.Fatalf("the counterexample to eventually-leader: deadlock %v, loop %v", f.Deadlock, f.LoopStart)
	}
	if out := tracefile.Replay(f, target); !out.Reached || !strings.Contains(out.Why, "stops in a deadlock without ever satisfying eventually-leader") {
		t.Fatalf("replay: %+v", out)
	}
	zero := 0
	f.LoopStart, f.Deadlock = &zero, false
	if out := tracefile.Replay(f, target); out.Reached || !strings.Contains(out.Why, "the loop from state 0 does not close") {
		t.Fatalf("the deadlock claimed as a loop: %+v", out)
	}
}
