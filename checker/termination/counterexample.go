package termination

import (
	"context"
	"fmt"

	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/model"
)

// Counterexample finds a shortest run that violates p by ending in a
// terminal state with p pending, the counterexample the graph method gives
// on an acyclic graph, as a lasso with no loop, by its breadth-first
// search over (state, phase) (liveness.FindLasso): phase 0 before P held, phase 1 once P ∧ ¬Q
// held ("eventually Q" starts in phase 1), following only ¬Q states. It
// stores only the states it visits, and runs only for a property the marks
// showed to fail.
func Counterexample[S any](ctx context.Context, sys *model.System[S], p *model.Property[S]) (*liveness.Lasso, error) {
	type node struct {
		enc    []byte
		pred   int // -1 for a root
		action model.Action
		step   bool // reached from pred by action, not by P's holding
		phase  uint8
	}
	type key struct {
		fp    uint64
		phase uint8
	}
	var nodes []node
	seen := map[key]bool{}
	discover := func(enc []byte, s *S, pred int, a model.Action, step bool, phase uint8) {
		fp := model.Fingerprint(enc)
		if !seen[key{fp, phase}] {
			seen[key{fp, phase}] = true
			nodes = append(nodes, node{enc: enc, pred: pred, action: a, step: step, phase: phase})
		}
		if phase == 0 && p.Kind == model.LeadsTo && p.From(s) && !p.State(s) && !seen[key{fp, 1}] {
			seen[key{fp, 1}] = true
			nodes = append(nodes, node{enc: enc, pred: len(nodes) - 1, phase: 1})
		}
	}
	for i := range sys.Init {
		s := &sys.Init[i]
		enc := sys.Encode(nil, s)
		switch {
		case p.Kind == model.LeadsTo:
			discover(enc, s, -1-i, model.Action{}, false, 0)
		case !p.State(s):
			discover(enc, s, -1-i, model.Action{}, false, 1)
		}
	}
	var cur, next S
	for head := 0; head < len(nodes); head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted while finding the counterexample to %s", p.Name)
		}
		n := nodes[head]
		if err := sys.Decode(n.enc, &cur); err != nil {
			return nil, fmt.Errorf("internal error: a state does not decode: %v", err)
		}
		enabled := false
		for a := range sys.Steps(&cur, &next) {
			enabled = true
			if n.phase == 1 && p.State(&next) {
				continue
			}
			discover(sys.Encode(nil, &next), &next, head, a, true, n.phase)
		}
		if n.phase == 1 && !enabled {
			var stem []model.Action
			x := head
			for nodes[x].pred >= 0 {
				if nodes[x].step {
					stem = append(stem, nodes[x].action)
				}
				x = nodes[x].pred
			}
			for i, j := 0, len(stem)-1; i < j; i, j = i+1, j-1 {
				stem[i], stem[j] = stem[j], stem[i]
			}
			return &liveness.Lasso{Init: -1 - nodes[x].pred, Stem: stem, EntryFP: model.Fingerprint(n.enc), Terminating: true}, nil
		}
	}
	return nil, fmt.Errorf("internal error: the marks say %s fails, but no run ends in a terminal state with it pending", p.Name)
}
