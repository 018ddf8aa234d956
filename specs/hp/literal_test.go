package hp

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// ELECT with the distance counter checked first, as 003 prints it
// (variant elect-literal), against mc's reading (elect), over every
// arrangement of n = 3..6 (n ≤ 5 with -short): the worst edge counts, the
// arrangements on which each property of the proof of Theorem 1 fails
// (none fails in elect), and those that elect another node. Every other
// property holds in both: the literal reading still elects one leader,
// the one its own rules give round by round. Reference: 003 Promotion by
// distance, Complexity, Theorem 1.
func TestElectLiteralAgainstElect(t *testing.T) {
	type counts struct {
		literal, elect       int
		pairs, total, lemma1 int // arrangements that break each
		otherWinner          int
	}
	want := map[int]counts{
		3: {9, 9, 0, 0, 0, 0},
		4: {16, 12, 8, 8, 0, 0},
		5: {25, 18, 35, 10, 80, 15},
		6: {30, 27, 204, 108, 0, 312},
	}
	maxN := 6
	if testing.Short() {
		maxN = 5
	}
	for n := 3; n <= maxN; n++ {
		var got counts
		for _, a := range ring.Arrangements(n) {
			for _, v := range []string{"elect-literal", "elect"} {
				sys := build(t, model.Params{N: n, IDs: a, Variant: v, Claims: true})
				edges := spectest.MeasureEnds(sys, func(s *State) int { return s.Ghost.Edges })
				r := spectest.Run(t, sys, checker.Options{Continue: true})
				for _, pr := range r.Props {
					if pr.Verdict == checker.Pass {
						continue
					}
					switch {
					case v == "elect-literal" && pr.Name == "theorem-1-round-pairs":
						got.pairs++
					case v == "elect-literal" && pr.Name == "theorem-1-total":
						got.total++
					case v == "elect-literal" && pr.Name == "lemma-1-host-distance":
						got.lemma1++
					default:
						t.Fatalf("%s %v: %s %s", v, a, pr.Name, pr.Verdict)
					}
				}
				if v == "elect" {
					got.elect = max(got.elect, edges.Hi)
				} else {
					got.literal = max(got.literal, edges.Hi)
				}
			}
			p, _, _ := roundByRound(a, variantRules("elect-literal"), 1000)
			q, _, _ := roundByRound(a, variantRules("elect"), 1000)
			if p != q {
				got.otherWinner++
			}
		}
		if got != want[n] {
			t.Errorf("n=%d: got %+v, want %+v", n, got, want[n])
		}
	}
}

// Where the literal reading breaks the proof of Theorem 1, ids 1,3,2,4:
// ⟨rnd 1, id 1⟩ reaches p3, a round-1 sender with label 2, as its counter
// runs out. Read literally it is promoted to round 2 "without checking any
// other conditions", though BASIC destroys it there (odd round, 1 < 2).
// Lemma 3 says that each message promoted out of an even round i saves F_i
// edges of BASIC's n: here round 2 promotes one message (⟨rnd 3, id 1⟩ at
// p1) and its messages traverse 4 = n edges, over n − x·F_2 = 3. mc's
// reading destroys ⟨rnd 1, id 1⟩ at p3. The trace replays to a state that
// breaks the inequality, from one that keeps it.
func TestElectLiteralBreaksLemma3(t *testing.T) {
	p := model.Params{N: 4, IDs: []int{1, 3, 2, 4}, Variant: "elect-literal", Claims: true}
	r := spectest.Check(t, New, p)
	f := r.Failure()
	if r.Verdict != checker.Fail || f.Name != "theorem-1-round-pairs" {
		t.Fatalf("%s, failure %+v", r.Verdict, f)
	}
	spectest.TraceIs(t, f.Trace, `start p0 (sends ⟨rnd 0, id 1⟩)
start p1 (sends ⟨rnd 0, id 3⟩)
start p2 (sends ⟨rnd 0, id 2⟩)
start p3 (sends ⟨rnd 0, id 4⟩)
recv p0 ⟨rnd 0, id 4⟩
recv p1 ⟨rnd 0, id 1⟩
recv p2 ⟨rnd 0, id 3⟩
recv p2 ⟨rnd 1, id 1, counter 2⟩
recv p3 ⟨rnd 0, id 2⟩
recv p0 ⟨rnd 1, id 2, counter 2⟩
recv p1 ⟨rnd 1, id 2, counter 1⟩
recv p2 ⟨rnd 2, id 2⟩
recv p3 ⟨rnd 1, id 1, counter 1⟩
recv p0 ⟨rnd 2, id 1⟩
recv p1 ⟨rnd 2, id 1⟩`)
	sp, err := newSpec(p)
	if err != nil {
		t.Fatal(err)
	}
	sys := sp.system()
	var actions []model.Action
	for _, st := range f.Trace.Steps {
		actions = append(actions, st.Action)
	}
	before, err := checker.Replay(sys, f.Trace.Init, actions[:len(actions)-1])
	if err != nil {
		t.Fatal(err)
	}
	after, err := checker.Replay(sys, f.Trace.Init, actions)
	if err != nil {
		t.Fatal(err)
	}
	g := &after.Ghost
	if !sp.roundPairsHold(&before) || sp.roundPairsHold(&after) || g.EdgesIn[2] != 4 || g.Born[3] != 1 || before.Label[3] != 1 || before.Rnd[3] != 2 {
		t.Fatalf("replay: before holds %v, after holds %v; round 2 edges %d, round 3 born %d; p3 hosts round %d label %d",
			sp.roundPairsHold(&before), sp.roundPairsHold(&after), g.EdgesIn[2], g.Born[3], before.Rnd[3], before.Label[3])
	}
	// Read as mc reads it, the same arrangement keeps the inequality.
	p.Variant = "elect"
	if r := spectest.Check(t, New, p); r.Verdict != checker.Pass {
		t.Fatalf("elect 1,3,2,4: %s", r.Verdict)
	}
}
