package checker_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/changroberts"
)

func crSystem(t *testing.T, p model.Params) checker.Target {
	t.Helper()
	sys, err := changroberts.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return checker.Of(sys)
}

// summary is every figure a run reports, and every trace.
func summary(r checker.Result) string {
	s := fmt.Sprintf("%s states=%d transitions=%d terminal=%d depth=%d", r.Verdict, r.States, r.Transitions, r.Terminal, r.Depth)
	for _, p := range r.Props {
		s += fmt.Sprintf(" %s=%s", p.Name, p.Verdict)
		if p.Trace != nil {
			for _, st := range p.Trace.Steps {
				s += "|" + st.Label
			}
		}
	}
	return s
}

// Memory, disk, exact and any number of workers give the same figures and
// the same traces.
func TestEveryStoreAndWorkerCountAgrees(t *testing.T) {
	for _, p := range []model.Params{
		{N: 7, IDs: ring.DescendingIDs(7)},
		{N: 5, IDs: []int{3, 1, 5, 2, 4}, Chan: model.Bag, Claims: true},
		{N: 5, IDs: []int{3, 1, 5, 2, 4}, Variant: "raynal-literal", Initiators: []int{0}},
	} {
		sys := crSystem(t, p)
		base := sys.Check(context.Background(), checker.Options{Workers: 1})
		if base.Err != nil {
			t.Fatal(base.Err)
		}
		for name, opt := range map[string]checker.Options{
			"2 workers":       {Workers: 2},
			"exact":           {Exact: true, Workers: 2},
			"disk":            {Disk: t.TempDir(), Workers: 1},
			"disk, 2 workers": {Disk: t.TempDir(), Workers: 2},
		} {
			r := sys.Check(context.Background(), opt)
			if r.Err != nil {
				t.Fatalf("%+v %s: %v", p, name, r.Err)
			}
			if got, want := summary(r), summary(base); got != want {
				t.Fatalf("%+v %s:\n got %s\nwant %s", p, name, got, want)
			}
		}
	}
}

// A run interrupted after some checkpoints and resumed ends with the same
// figures as one that was never interrupted, in memory and on disk.
func TestCheckpointAndResume(t *testing.T) {
	sys := crSystem(t, model.Params{N: 7, IDs: ring.DescendingIDs(7)})
	want := summary(sys.Check(context.Background(), checker.Options{}))
	for _, disk := range []bool{false, true} {
		dir := t.TempDir()
		opt := checker.Options{Checkpoint: filepath.Join(dir, "ckpt"), Workers: 2}
		if disk {
			opt.Disk = filepath.Join(dir, "store")
		}
		ctx, cancel := context.WithCancel(context.Background())
		stopAt := opt
		stopAt.ProgressEvery = 1
		stopAt.Progress = func(p checker.Progress) {
			if p.Depth >= 15 {
				cancel()
			}
		}
		first := sys.Check(ctx, stopAt)
		if first.Verdict != checker.Incomplete || first.Err != nil {
			t.Fatalf("disk=%v: interrupted run gave %s (%v)", disk, first.Verdict, first.Err)
		}
		opt.Resume = true
		if got := summary(sys.Check(context.Background(), opt)); got != want {
			t.Fatalf("disk=%v: resumed run\n got %s\nwant %s", disk, got, want)
		}
	}
}

func TestResumeRefusesAnotherRunOrACorruptFile(t *testing.T) {
	dir := t.TempDir()
	sys := crSystem(t, model.Params{N: 5, IDs: ring.DescendingIDs(5)})
	if r := sys.Check(context.Background(), checker.Options{Checkpoint: dir}); r.Err != nil {
		t.Fatal(r.Err)
	}
	other := crSystem(t, model.Params{N: 5, IDs: []int{1, 2, 3, 4, 5}})
	r := other.Check(context.Background(), checker.Options{Checkpoint: dir, Resume: true})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "--ids: the checkpoint has 5,4,3,2,1, this run has 1,2,3,4,5") {
		t.Fatalf("resume with other ids: %v", r.Err)
	}
	path := filepath.Join(dir, "checkpoint")
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0xff
	os.WriteFile(path, data, 0o644)
	r = sys.Check(context.Background(), checker.Options{Checkpoint: dir, Resume: true})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "corrupted") {
		t.Fatalf("resume from a corrupted checkpoint: %v", r.Err)
	}
}

// --safety leaves liveness unchecked and says so; the safety verdicts and
// counts are those of the full run.
func TestSafetyOnlySkipsLiveness(t *testing.T) {
	sys := crSystem(t, model.Params{N: 5, IDs: ring.DescendingIDs(5)})
	full := sys.Check(context.Background(), checker.Options{})
	safe := sys.Check(context.Background(), checker.Options{Safety: true})
	if fmt.Sprint(safe.SkippedLiveness) != "[eventually-leader election-terminates]" || safe.Liveness != nil {
		t.Fatalf("skipped %v, liveness %+v", safe.SkippedLiveness, safe.Liveness)
	}
	if safe.States != full.States || len(safe.Props) != len(full.Props)-2 || safe.Verdict != checker.Pass {
		t.Fatalf("safety run: %s, %d states, %d properties; full: %d states, %d properties", safe.Verdict, safe.States, len(safe.Props), full.States, len(full.Props))
	}
	for _, p := range safe.Props {
		if p.Kind.Liveness() {
			t.Fatalf("liveness property %s has a verdict under --safety", p.Name)
		}
	}
}
