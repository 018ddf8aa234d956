package allids

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/ring"
)

// fake checks a class by its representative: the classes whose ids start
// with one of fail fail, those in stop stop the run (the memory limit),
// the others pass with as many states as the first id.
func fake(fail, stop []int) func(ring.ArrangementClass) (Outcome, error) {
	return func(cl ring.ArrangementClass) (Outcome, error) {
		o := Outcome{Variant: "v", Verdict: checker.Pass, States: int64(cl.Rep[0]), Transitions: 1}
		for _, id := range fail {
			if cl.Rep[1] == id {
				o.Verdict = checker.Fail
			}
		}
		for _, id := range stop {
			if cl.Rep[1] == id {
				o.Verdict, o.Reason = checker.Incomplete, "memory limit 1MiB reached"
			}
		}
		return o, nil
	}
}

// At n = 4 under rotation there are 6 classes of 4 arrangements, their
// representatives starting 1 (1,2,3,4 1,2,4,3 1,3,2,4 1,3,4,2 1,4,2,3
// 1,4,3,2).
func TestCheckSumsEveryClass(t *testing.T) {
	sum, err := Check("s", 4, ring.Rotation, false, fake(nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Classes != 6 || len(sum.Rows) != 6 || sum.Arrangements != 24 || sum.States != 6 || sum.Transitions != 6 ||
		sum.Verdict != checker.Pass || sum.FirstFailure != -1 || len(sum.Unchecked) != 0 {
		t.Fatalf("%+v", sum)
	}
}

func TestCheckStopsAtTheFirstFailingClass(t *testing.T) {
	sum, err := Check("s", 4, ring.Rotation, false, fake([]int{3}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Rows) != 3 || sum.FirstFailure != 2 || !sum.StoppedAtViolation || len(sum.Unchecked) != 3 || sum.Verdict != checker.Fail {
		t.Fatalf("%+v", sum)
	}
	var out bytes.Buffer
	sum.WriteText(&out, "mc check", func(w io.Writer) { w.Write([]byte("the run\n")) })
	want := "mc check s --all-ids (variant v) n=4: 6 classes under rotation, covering 12 of 24 arrangements, 3 states in all\n" +
		"  fail       ids 1,3,2,4 (class of 4)\n" +
		"  stopped at the first failing arrangement: 3 of 6 classes not checked; --continue checks them all\n" +
		"\nfirst failing arrangement:\nthe run\nverdict: fail\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if sum, _ := Check("s", 4, ring.Rotation, true, fake([]int{3}, nil)); len(sum.Rows) != 6 || sum.FirstFailure != 2 || sum.StoppedAtViolation {
		t.Errorf("--continue: %+v", sum)
	}
}

// The memory limit stops every class after it; the verdict is then
// incomplete unless a class failed before.
func TestCheckStopsAtTheMemoryLimit(t *testing.T) {
	sum, _ := Check("s", 4, ring.Rotation, true, fake(nil, []int{3}))
	if len(sum.Rows) != 3 || sum.Verdict != checker.Incomplete || sum.StoppedAtViolation || !strings.Contains(sum.LastReason, "memory") {
		t.Fatalf("%+v", sum)
	}
	sum, _ = Check("s", 4, ring.Rotation, true, fake([]int{2}, []int{4}))
	if len(sum.Rows) != 5 || sum.Verdict != checker.Fail {
		t.Fatalf("%+v", sum)
	}
}

func TestCheckReturnsTheClassError(t *testing.T) {
	bad := errors.New("bad")
	if _, err := Check("s", 3, ring.Rotation, false, func(ring.ArrangementClass) (Outcome, error) { return Outcome{}, bad }); err != bad {
		t.Errorf("got %v", err)
	}
}

func TestRefusalsNameTheFlag(t *testing.T) {
	if err := Refuse(func(f string) bool { return f == "trace-out" }); err == nil || !strings.HasPrefix(err.Error(), "--all-ids cannot be combined with --trace-out: ") {
		t.Errorf("got %v", err)
	}
	if err := Refuse(func(string) bool { return false }); err != nil {
		t.Errorf("got %v", err)
	}
	if CheckN(MaxN) != nil || CheckN(MaxN+1) == nil {
		t.Error("CheckN")
	}
}

// Each class's vacuous passes are its row's, and the text counts, per
// property, the classes where it was vacuous.
func TestVacuityPerClass(t *testing.T) {
	sum, err := Check("s", 4, ring.Rotation, false, func(cl ring.ArrangementClass) (Outcome, error) {
		o := Outcome{Variant: "v", Verdict: checker.Pass, States: 1, Vacuous: []string{"always"}}
		if cl.Rep[1] == 2 {
			o.Vacuous = append(o.Vacuous, "sometimes")
		}
		return o, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := sum.Rows[0]; len(r.Vacuous) != 2 || len(sum.Rows[5].Vacuous) != 1 {
		t.Fatalf("rows %+v", sum.Rows)
	}
	var out bytes.Buffer
	sum.WriteText(&out, "mc check", nil)
	if want := "  vacuous passes (their situation never arose in the class; --json lists the classes): always in 6 of 6, sometimes in 2 of 6\n"; !strings.Contains(out.String(), want) {
		t.Errorf("got\n%s\nwant a line\n%s", out.String(), want)
	}
}
