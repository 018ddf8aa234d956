package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/changroberts"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/tracefile"
)

// kring is Dijkstra's K-state token ring (EWD 426), the spec that needed a
// parameter of its own: process 0 holds the privilege when its value
// equals its predecessor's, and then increments it modulo K; any other
// process holds it when its value differs from its predecessor's, and
// then copies it. From all values 0 the privilege goes round the ring,
// one value after another: n·K states, each with exactly one privilege.
// Property "max-reaches-last" is a witness that process n-1 takes the
// value K-1, after (K-1)·n steps.
type kring struct{ X []int }

func kRingSpec() specs.Entry {
	return specs.Of(specdef.Spec[kring]{Info: specdef.Info{Name: "kring", Title: "Dijkstra's K-state token ring (a test's)",
		Ref: "EWD 426", Defaults: specdef.Defaults{N: 3}, Variants: []model.Variant{{Name: "dijkstra"}},
		Params: []specdef.Param{{Name: "k", Doc: "states per process (EWD 426)", Default: 3, Min: 2, Max: 8}},
		Source: fstest.MapFS{"kring.go": {Data: []byte("package kring\n")}}}, Build: buildKRing})
}

func buildKRing(p model.Params) (*model.System[kring], error) {
	k, err := p.Param("k")
	if err != nil {
		return nil, err
	}
	n := p.N
	privileged := func(s *kring, i int) bool {
		if i == 0 {
			return s.X[0] == s.X[n-1]
		}
		return s.X[i] != s.X[i-1]
	}
	return &model.System[kring]{Spec: "kring", Variant: "dijkstra", Params: p, Procs: n,
		Init: []kring{{X: make([]int, n)}},
		Rules: []model.Rule[kring]{{Name: "move", Guard: privileged, Do: func(s *kring, i, _ int) bool {
			if i == 0 {
				s.X[0] = (s.X[0] + 1) % k
			} else {
				s.X[i] = s.X[i-1]
			}
			return true
		}}},
		Props: []model.Property[kring]{
			model.InvariantProp("one-privilege", "EWD 426", "exactly one process is privileged", func(s *kring) bool {
				count := 0
				for i := range n {
					if privileged(s, i) {
						count++
					}
				}
				return count == 1
			}),
			model.WitnessProp("max-reaches-last", "EWD 426", "process n-1 takes the value K-1", func(s *kring) bool { return s.X[n-1] == k-1 }),
		},
		Copy: func(d, s *kring) { d.X = append(d.X[:0], s.X...) },
		Encode: func(b []byte, s *kring) []byte {
			for _, x := range s.X {
				b = model.AppendUint(b, uint64(x))
			}
			return b
		},
		Decode: func(b []byte, s *kring) error {
			d := model.NewDecoder(b)
			s.X = s.X[:0]
			for range n {
				s.X = append(s.X, d.Int())
			}
			return d.Finish()
		},
		Vars: func(s *kring) []model.Var {
			vs := make([]model.Var, n)
			for i, x := range s.X {
				vs[i] = model.Var{Name: fmt.Sprintf("p%d.x", i), Value: strconv.Itoa(x)}
			}
			return vs
		},
	}, nil
}

// withKRing registers kring beside mc's own specs for the test.
func withKRing(t *testing.T) {
	if err := specs.Use(true, kRingSpec()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { specs.Use(true) })
}

// --param k changes the system: n·K states, 9 at K = 3 (the default) and
// 12 at K = 4, as the header and the JSON say.
func TestSpecParamChangesTheStateCount(t *testing.T) {
	withKRing(t)
	for _, c := range []struct {
		args   []string
		states int
		k      int
	}{{nil, 9, 3}, {[]string{"--param", "k=4"}, 12, 4}, {[]string{"--param=k=2"}, 6, 2}} {
		args := append([]string{"check", "kring", "--no-db"}, c.args...)
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitPass || !strings.Contains(out, fmt.Sprintf("%d distinct states", c.states)) || !strings.Contains(out, fmt.Sprintf(" k=%d", c.k)) {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
		code, out, _ = mc(t, context.Background(), append(args, "--json")...)
		var r struct {
			States int
			Param  map[string]int
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || r.States != c.states || fmt.Sprint(r.Param) != fmt.Sprintf("map[k:%d]", c.k) {
			t.Fatalf("%v --json: exit %d, %v, %+v", args, code, err, r)
		}
	}
	code, out, errs := mc(t, context.Background(), "simulate", "kring", "--param", "k=5", "--runs", "1", "--max-steps", "100")
	if code != exitPass || !strings.Contains(out, "n=3 k=5,") {
		t.Fatalf("simulate: exit %d\n%s%s", code, out, errs)
	}
}

// Every mistake in --param is one line and exit 2, before anything is
// built, in every command that builds a system.
func TestSpecParamMistakesAreOneLineUsageErrors(t *testing.T) {
	withKRing(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "kring", "--param", "k"}, `--param: "k": want NAME=VALUE, e.g. k=3`},
		{[]string{"check", "kring", "--param", "K=3"}, `--param: "K=3": want NAME=VALUE`},
		{[]string{"check", "kring", "--param", "k=three"}, `--param: "k=three": the value of k is not an integer`},
		{[]string{"check", "kring", "--param", "k=1"}, "--param: parameter k of spec kring must be from 2 to 8, got 1"},
		{[]string{"check", "kring", "--param", "k=9"}, "must be from 2 to 8, got 9"},
		{[]string{"check", "kring", "--param", "m=3"}, `--param: spec kring has no parameter "m"; its parameters: k (2..8) (see mc list)`},
		{[]string{"check", "kring", "--param", "k=3", "--param", "k=4"}, "--param: parameter k is given twice"},
		{[]string{"check", "changroberts", "--param", "k=3"}, `--param: spec changroberts has no parameter "k": it declares none (see mc list)`},
		{[]string{"check", "changroberts", "--all-ids", "--param", "k=3"}, `spec changroberts has no parameter "k"`},
		{[]string{"simulate", "kring", "--param", "k=0"}, "must be from 2 to 8, got 0"},
		{[]string{"explore", "kring", "--param", "m=1", "--addr", "127.0.0.1:0"}, `has no parameter "m"`},
	} {
		code, out, errs := mc(t, context.Background(), c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

// --param is part of a run's meaning: a checkpoint resumes with its own
// value and refuses another, naming --param k; a trace replays with its
// own and not against a system of another; the explorer refuses to change
// a trace's; and the run store keeps the two values apart.
func TestSpecParamIsPartOfTheRunMeaning(t *testing.T) {
	withKRing(t)
	dir := interrupted(t, "kring", "--param", "k=4", "--no-db")
	code, out, errs := mc(t, context.Background(), "check", "--resume", dir, "--param", "k=5")
	if code != exitUsage || out != "" || errs != "mc check: --param k: the checkpoint has 4, the command line has 5\n" {
		t.Fatalf("resume with another k: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "--resume", dir, "--param", "m=5")
	if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `--param: spec kring has no parameter "m"`) {
		t.Fatalf("resume with an undeclared parameter: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "--resume", dir, "--param", "k=4", "--no-db")
	if code != exitPass || !strings.Contains(out, "12 distinct states") {
		t.Fatalf("resume with the same k: exit %d\n%s%s", code, out, errs)
	}

	path := writeTrace(t, exitPass, "kring", "--param", "k=4", "--no-db")
	code, out, errs = mc(t, context.Background(), "trace", path, "--replay")
	if code != exitPass || !strings.Contains(out, "replaying 9 steps") || !strings.Contains(out, "k=4") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	tr, err := readTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := kRingSpec().Build(model.Params{N: 3, IDs: []int{3, 2, 1}, Own: []model.Param{{Name: "k", Value: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	if o := tracefile.Replay(tr, other); o.Reached || o.Why != "--param k: the trace's run has 4, the system replayed has 5" {
		t.Fatalf("replayed against k=5: %+v", o)
	}
	code, _, errs = mc(t, context.Background(), "explore", "--trace", path, "--param", "k=5", "--addr", "127.0.0.1:0")
	if code != exitUsage || !strings.Contains(errs, "--param: the trace fixes the spec and its parameters") {
		t.Fatalf("explore --trace --param: exit %d, stderr %q", code, errs)
	}

	db := filepath.Join(t.TempDir(), "db")
	for _, k := range []string{"3", "4", "3"} {
		if code, out, errs := mc(t, context.Background(), "check", "kring", "--param", "k="+k, "--db", db); code != exitPass {
			t.Fatalf("k=%s: exit %d\n%s%s", k, code, out, errs)
		}
	}
	code, out, errs = mc(t, context.Background(), "runs", "--db", db)
	if code != exitPass || strings.Count(out, "--param k=3") != 2 || strings.Count(out, "--param k=4") != 1 {
		t.Fatalf("mc runs: exit %d\n%s%s", code, out, errs)
	}
}

// mc list shows a spec's own parameters: on its line, and in the JSON's
// params with their docs, defaults and ranges; a spec without any has none.
func TestListShowsSpecParams(t *testing.T) {
	withKRing(t)
	code, out, _ := mc(t, context.Background(), "list")
	if code != exitPass || !strings.Contains(out, "--param k=3 (2..8: states per process (EWD 426))") {
		t.Fatalf("mc list: exit %d\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "list", "--json")
	var l struct {
		Specs []struct {
			Name   string
			Params []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || code != exitPass {
		t.Fatalf("mc list --json: exit %d, %v", code, err)
	}
	for _, s := range l.Specs {
		want := "[]"
		if s.Name == "kring" {
			want = "[map[default:3 doc:states per process (EWD 426) max:8 min:2 name:k]]"
		}
		if fmt.Sprint(s.Params) != want {
			t.Errorf("%s: params %v, want %s", s.Name, s.Params, want)
		}
	}
}

// withParam registers s under name with the parameters params, which its
// Build ignores: a spec that sends messages, to sweep.
func withParam[S any](t *testing.T, s specdef.Spec[S], name string, params []specdef.Param) {
	build := s.Build
	s.Name, s.Params, s.Sweeps = name, params, nil
	s.Build = func(p model.Params) (*model.System[S], error) {
		sys, err := build(p)
		if err == nil {
			sys.Spec = name
		}
		return sys, err
	}
	if err := specs.Use(true, specs.Of(s)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { specs.Use(true) })
}

// mc sweep takes --param too: the table names it, its JSON and witness
// runs record it, and the runs replay; --sample and sweep all refuse it.
func TestSweepTakesSpecParams(t *testing.T) {
	withParam(t, changroberts.Spec, "crparam", []specdef.Param{{Name: "extra", Doc: "unused", Default: 1, Min: 1, Max: 3}})
	dir := t.TempDir()
	code, out, errs := mc(t, context.Background(), "sweep", "crparam", "--n", "3", "--param", "extra=2", "--out", dir, "--no-db")
	if code != exitPass || !strings.Contains(out, "mc sweep crparam --param extra=2: all messages") {
		t.Fatalf("sweep: exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "crparam.json"))
	if err != nil || !strings.Contains(string(data), `"param": {`) || !strings.Contains(string(data), `"extra": 2`) {
		t.Fatalf("crparam.json (%v):\n%s", err, data)
	}
	if md, err := os.ReadFile(filepath.Join(dir, "crparam.md")); err != nil || !strings.Contains(string(md), "Spec crparam, --param extra=2") {
		t.Fatalf("crparam.md (%v):\n%s", err, md)
	}
	trace := filepath.Join(dir, "traces", "crparam-n3-worst.json")
	if code, out, errs := mc(t, context.Background(), "trace", trace, "--replay"); code != exitPass || !strings.Contains(out, "extra=2") {
		t.Fatalf("the worst run does not replay: exit %d\n%s%s", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "crparam", "--n", "3", "--param", "extra=4", "--no-db"}, "mc sweep: --param: parameter extra of spec crparam must be from 1 to 3, got 4"},
		{[]string{"sweep", "changroberts", "--n", "3", "--param", "extra=2", "--no-db"}, `mc sweep: --param: spec changroberts has no parameter "extra"`},
		{[]string{"sweep", "crparam", "--sample", "2", "--n", "3", "--param", "extra=2"}, "--param does not apply to a sampled sweep"},
		{[]string{"sweep", "all", "--param", "extra=2"}, "mc sweep all: takes only"},
	} {
		code, out, errs := mc(t, context.Background(), c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}
