package sweep

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
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
			l := model.ChanView{From: 0, To: 0}
			for range s.sent {
				l.Msgs, l.Kinds = append(l.Msgs, "⟨m⟩"), append(l.Kinds, "a")
			}
			return model.View{Chans: []model.ChanView{l}}
		},
	}
}

func TestCostTakesFewestAndMostMessages(t *testing.T) {
	// 0 →(1) 2, or 0 →(2) 1 →(1) 2: the two complete runs send 1 and 3.
	sys := toySystem([][3]int{{0, 2, 1}, {0, 1, 2}, {1, 2, 1}})
	c, err := CostOf(context.Background(), checker.Of(sys), CostOptions{})
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
	c, err := CostOf(context.Background(), checker.Of(sys), CostOptions{})
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
	_, err := CostOf(context.Background(), checker.Of(sys), CostOptions{})
	if err == nil || !strings.Contains(err.Error(), "no View") {
		t.Fatalf("err = %v, want a refusal naming the missing View", err)
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
	c, err := CostOf(context.Background(), checker.Of(sys), CostOptions{Bits: "sent", Phases: "pos"})
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxBits != 3 || c.Phases != 2 {
		t.Fatalf("max bits %d, phases %d; want 3 and 2", c.MaxBits, c.Phases)
	}
	if _, err := CostOf(context.Background(), checker.Of(sys), CostOptions{Phases: "nosuch"}); err == nil {
		t.Fatal("an unknown phase measure was accepted")
	}
}

// Messages count by the kind the View gives them, not by their text (here
// ⟨m⟩ of kind a); uncounted kinds never count, whatever Kinds says; and a
// View whose messages name no kind cannot be counted by kind.
func TestMessagesCountByTheirKind(t *testing.T) {
	sys := toySystem([][3]int{{0, 2, 1}, {0, 1, 2}, {1, 2, 1}})
	for _, c := range []struct {
		kinds, uncounted []string
		min, max         int
	}{
		{nil, nil, 1, 3},
		{[]string{"a"}, nil, 1, 3},
		{[]string{"m"}, nil, 0, 0},
		{nil, []string{"a"}, 0, 0},
		{[]string{"a"}, []string{"a"}, 0, 0},
	} {
		got, err := CostOf(context.Background(), checker.Of(sys), CostOptions{Kinds: c.kinds, Uncounted: c.uncounted})
		if err != nil || got.Min != c.min || got.Max != c.max {
			t.Errorf("kinds %v, uncounted %v: min %d max %d (%v), want %d %d", c.kinds, c.uncounted, got.Min, got.Max, err, c.min, c.max)
		}
	}
	view := sys.View
	sys.View = func(s *toy) model.View {
		v := view(s)
		v.Chans[0].Kinds = nil
		return v
	}
	if _, err := CostOf(context.Background(), checker.Of(sys), CostOptions{Kinds: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "names no kind") {
		t.Fatalf("messages without kinds counted by kind: %v", err)
	}
	if _, err := CostOf(context.Background(), checker.Of(sys), CostOptions{}); err != nil {
		t.Fatalf("messages without kinds, every one counted: %v", err)
	}
}
