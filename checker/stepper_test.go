package checker

import (
	"reflect"
	"testing"

	"github.com/ringcheck/mc/model"
)

func TestStepperFollowsTheEnumerationOrder(t *testing.T) {
	sys := countersSystem(1,
		model.InvariantProp("x0-zero", "test", "", func(s *counters) bool { return s.x[0] == 0 }),
		model.EndProp("ends-with-x1", "test", "", func(s *counters) bool { return s.x[1] == 1 }),
		model.StepProp("x1-never-moves", "test", "", func(b *counters, _ model.Action, a *counters) bool { return b.x[1] == a.x[1] }))
	st := Of(sys)
	init := st.Initial()
	moves, err := st.Moves(init[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[0].Label != "inc p0" || moves[1].Label != "inc p1" || moves[1].Broken[0] != "x1-never-moves" || moves[0].Broken != nil {
		t.Fatalf("moves %+v", moves)
	}
	// Both orders reach the same state, which is terminal and fails x0-zero.
	a, err := st.Step(moves[0].To, model.Action{Proc: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Step(moves[1].To, model.Action{Proc: 0})
	if err != nil || a.To != b.To || a.To.Key() != b.To.Key() {
		t.Fatalf("x0 then x1 and x1 then x0 differ: %v", err)
	}
	snap, err := st.Inspect(a.To)
	if err != nil {
		t.Fatal(err)
	}
	want := []PropStatus{{Name: "x0-zero", Kind: model.Invariant, Evaluated: true}, {Name: "ends-with-x1", Kind: model.End, Evaluated: true, Holds: true},
		{Name: model.Deadlock, Kind: model.End, Evaluated: true, Holds: true}}
	if !snap.Terminal || !reflect.DeepEqual(snap.Props, want) || snap.Vars[0].Value != "1" {
		t.Fatalf("snapshot %+v", snap)
	}
	if start, _ := st.Inspect(init[0]); start.Terminal || start.Props[1].Evaluated {
		t.Fatalf("the initial state is terminal or has its end property evaluated: %+v", start)
	}
	if _, err := st.Step(a.To, model.Action{Proc: 0}); err == nil {
		t.Fatal("a disabled action was taken")
	}
	if _, err := st.Step(a.To, model.Action{Rule: 7}); err == nil {
		t.Fatal("a rule that does not exist was taken")
	}
}

func TestMessagesAreTheChannelDifferences(t *testing.T) {
	before := &model.View{Chans: []model.ChanView{{From: 0, To: 1, Msgs: []string{"a", "b", "a"}}, {From: 1, To: 0}}}
	after := &model.View{Chans: []model.ChanView{{From: 0, To: 1, Msgs: []string{"b", "a"}}, {From: 1, To: 0, Msgs: []string{"a"}}}}
	sent, received := Messages(before, after)
	if !reflect.DeepEqual(received, []Message{{From: 0, To: 1, Text: "a"}}) || !reflect.DeepEqual(sent, []Message{{From: 1, To: 0, Text: "a"}}) {
		t.Fatalf("sent %v received %v", sent, received)
	}
}
