package termination

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/model"
)

// node is a state of the tests' systems: one number.
type node struct{ v int }

// twoGoals is a system with a measure and two liveness properties with a
// state goal, so two bits of marks.
func twoGoals() *model.System[node] {
	goal := func(s *node) bool { return s.v == 0 }
	return &model.System[node]{
		Spec:        "two-goals",
		Init:        []node{{v: 2}},
		Termination: &model.Termination[node]{Value: func(buf []int, s *node) []int { return append(buf, s.v) }},
		Props: []model.Property[node]{
			{Name: "a", Kind: model.Eventually, State: goal},
			{Name: "b", Kind: model.Eventually, State: goal},
		},
	}
}

func section(t *testing.T, write func(w *diskio.SectionWriter)) *diskio.Section {
	t.Helper()
	var buf bytes.Buffer
	w := diskio.NewSectionWriter(&buf, 64)
	write(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return diskio.NewSection(buf.Bytes())
}

// A checkpoint's section brings back the goals left unmet, or the
// transition that broke the measure, as written; a section that does not
// fit the run (a measure where the run has none, or the reverse, or a
// property the spec does not have) is refused, not taken in.
func TestSectionRoundTrip(t *testing.T) {
	sys := twoGoals()
	pending := New(sys, false, nil)
	pending.pending = 0b10
	r := section(t, pending.WriteSection)
	back := New(sys, false, nil)
	if err := back.ReadSection(r); err != nil || back.Pending() != 0b10 || back.WrongTransition() != nil {
		t.Fatalf("pending %b, wrong %v, err %v; want 10, none", back.Pending(), back.WrongTransition(), err)
	}

	broken := New(sys, false, nil)
	broken.wrong = &Wrong{Parent: 7, Action: model.Action{Rule: 1, Proc: 2, Choice: 3}, FP: 0xfeed, Before: []int{3, 1}, After: []int{3, 2}}
	back = New(sys, false, nil)
	if err := back.ReadSection(section(t, broken.WriteSection)); err != nil || !reflect.DeepEqual(back.WrongTransition(), broken.wrong) || back.Active() {
		t.Fatalf("wrong transition read back as %+v (err %v), want %+v", back.WrongTransition(), err, broken.wrong)
	}

	var none *Measure[node]
	var bad *SectionError
	if err := back.ReadSection(section(t, none.WriteSection)); !errors.As(err, &bad) {
		t.Fatalf("a section without a measure, read by a run with one: %v", err)
	}
	if err := none.ReadSection(section(t, pending.WriteSection)); !errors.As(err, &bad) {
		t.Fatalf("a section with a measure, read by a run without one: %v", err)
	}
	pending.pending = 0b100 // a third property, which the spec does not have
	if err := New(sys, false, nil).ReadSection(section(t, pending.WriteSection)); !errors.As(err, &bad) {
		t.Fatalf("a section naming a third property of two: %v", err)
	}
}
