package checker

import (
	"context"
	"strings"
	"testing"

	"mc/model"
)

// toy is a hand-made system for the cost DP: pos is where the run is, sent
// the messages put on its one link so far (never received).
type toy struct{ pos, sent int }

// toySystem moves along edges {from, to, messages}; a state with no edge
// is terminal.
func toySystem(edges [][3]int) *model.System[toy] {
	enabled := func(s *toy, k int) bool { return edges[k][0] == s.pos }
	return &model.System[toy]{
		Spec: "toy", Procs: 1, Init: []toy{{}},
		Rules: []model.Rule[toy]{{Name: "go",
			Guard:   func(s *toy, _ int) bool { return true },
			Choices: func(s *toy, _ int) int { return len(edges) },
			Do: func(s *toy, _, k int) bool {
				if !enabled(s, k) {
					return false
				}
				s.pos, s.sent = edges[k][1], s.sent+edges[k][2]
				return true
			}}},
		Copy: func(dst, src *toy) { *dst = *src },
		Encode: func(buf []byte, s *toy) []byte {
			return model.AppendUint(model.AppendUint(buf, uint64(s.pos)), uint64(s.sent))
		},
		Decode: func(data []byte, s *toy) error {
			d := model.NewDecoder(data)
			s.pos, s.sent = d.Int(), d.Int()
			return d.Err()
		},
		Vars: func(s *toy) []model.Var { return []model.Var{{Name: "pos", Value: string(rune('0' + s.pos))}} },
		View: func(s *toy) model.View {
			return model.View{Chans: []model.ChanView{{From: 0, To: 0, Msgs: make([]string, s.sent)}}}
		},
	}
}

func TestCostTakesFewestAndMostMessages(t *testing.T) {
	// 0 →(1) 2, or 0 →(2) 1 →(1) 2: the two complete runs send 1 and 3.
	sys := toySystem([][3]int{{0, 2, 1}, {0, 1, 2}, {1, 2, 1}})
	c, err := Of(sys).Cost(context.Background(), CostOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Cycle != nil || c.Min != 1 || c.Max != 3 || c.Terminals != 2 {
		t.Fatalf("cost = %+v, want min 1, max 3, two terminals (pos 2 with 1 or 3 sent), no cycle", c)
	}
	if len(c.MinRun.Steps) != 1 || len(c.MaxRun.Steps) != 2 {
		t.Errorf("witnesses have %d and %d steps, want 1 and 2", len(c.MinRun.Steps), len(c.MaxRun.Steps))
	}
}

func TestCostReportsACycle(t *testing.T) {
	// 0 → 1 → 2 → 1: runs never end, so no cost is bounded.
	sys := toySystem([][3]int{{0, 1, 0}, {1, 2, 0}, {2, 1, 0}})
	c, err := Of(sys).Cost(context.Background(), CostOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Cycle == nil || c.Cycle.LoopStart == nil {
		t.Fatalf("cost = %+v, want a cycle", c)
	}
	if got := len(c.Cycle.Steps) - *c.Cycle.LoopStart; got != 2 {
		t.Errorf("cycle has %d steps, want 2 (1 → 2 → 1)", got)
	}
}

func TestCostNeedsAViewOrAMeasure(t *testing.T) {
	sys := toySystem([][3]int{{0, 1, 1}})
	sys.View = nil
	_, err := Of(sys).Cost(context.Background(), CostOptions{})
	if err == nil || !strings.Contains(err.Error(), "no View") {
		t.Fatalf("err = %v, want a refusal naming the missing View", err)
	}
}

func TestMessageKind(t *testing.T) {
	for in, want := range map[string]string{"⟨elect 5⟩": "elect", "⟨wakeup⟩": "wakeup", "⟨probe 3 1 2⟩": "probe"} {
		if got := MessageKind(in); got != want {
			t.Errorf("MessageKind(%q) = %q, want %q", in, got, want)
		}
	}
}

// Bits weighs each transition by a measure's increase in a second DP, and
// Phases is a measure's maximum over the reachable states: here the
// measure sent (the most any run sends is 3) and pos (the largest is 2).
func TestCostBitsAndPhases(t *testing.T) {
	sys := toySystem([][3]int{{0, 2, 1}, {0, 1, 2}, {1, 2, 1}})
	sys.Measures = []model.Measure[toy]{
		{Name: "sent", Value: func(s *toy) int { return s.sent }},
		{Name: "pos", Value: func(s *toy) int { return s.pos }},
	}
	c, err := Of(sys).Cost(context.Background(), CostOptions{Bits: "sent", Phases: "pos"})
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxBits != 3 || c.Phases != 2 {
		t.Fatalf("max bits %d, phases %d; want 3 and 2", c.MaxBits, c.Phases)
	}
	if _, err := Of(sys).Cost(context.Background(), CostOptions{Phases: "nosuch"}); err == nil {
		t.Fatal("an unknown phase measure was accepted")
	}
}

// Uncounted kinds never count, whatever Kinds says.
func TestCounted(t *testing.T) {
	for _, c := range []struct {
		text             string
		kinds, uncounted []string
		want             bool
	}{
		{"⟨leader 5⟩", nil, []string{"leader"}, false},
		{"⟨1, 5⟩", nil, []string{"leader"}, true},
		{"⟨elect 5⟩", []string{"elect"}, nil, true},
		{"⟨done 5⟩", []string{"elect"}, nil, false},
	} {
		if got := counted(c.text, c.kinds, c.uncounted); got != c.want {
			t.Errorf("counted(%q, %v, %v) = %v", c.text, c.kinds, c.uncounted, got)
		}
	}
}
