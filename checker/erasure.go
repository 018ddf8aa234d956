package checker

import (
	"context"
	"fmt"

	"github.com/ringcheck/mc/checker/internal/reach"
	"github.com/ringcheck/mc/model"
)

// CheckErasure checks that ghosted's ghost variables are pure history:
// erasing them (System.Erase) from every reachable state and transition of
// ghosted yields exactly the reachable states and transitions of plain, the
// same spec with claims off. It explores both fully, holding every state in
// a map, so it is meant for the small instances of tests.
func CheckErasure[S any](ctx context.Context, ghosted, plain *model.System[S]) error {
	if ghosted.Erase == nil {
		return fmt.Errorf("spec %s has no Erase function", ghosted.Spec)
	}
	gStates, gEdges, err := graph(ctx, ghosted, ghosted.Erase)
	if err != nil {
		return err
	}
	pStates, pEdges, err := graph(ctx, plain, nil)
	if err != nil {
		return err
	}
	if len(gStates) != len(pStates) {
		return fmt.Errorf("erased ghost states: %d distinct, plain states: %d", len(gStates), len(pStates))
	}
	for fp := range pStates {
		if !gStates[fp] {
			return fmt.Errorf("plain state %016x has no ghosted counterpart", fp)
		}
	}
	if len(gEdges) != len(pEdges) {
		return fmt.Errorf("erased ghost transitions: %d distinct, plain transitions: %d", len(gEdges), len(pEdges))
	}
	for e := range pEdges {
		if !gEdges[e] {
			return fmt.Errorf("plain transition %v has no ghosted counterpart", e)
		}
	}
	return nil
}

type edge struct {
	from, to uint64
	action   model.Action
}

// graph explores sys with full states (reach.Walk) and returns the fingerprints
// of its states and transitions, each state first passed through erase when
// it is not nil.
func graph[S any](ctx context.Context, sys *model.System[S], erase func(*S)) (map[uint64]bool, map[edge]bool, error) {
	var buf []byte
	key := func(s *S) uint64 {
		var c S
		sys.Copy(&c, s)
		if erase != nil {
			erase(&c)
		}
		buf = sys.Encode(buf[:0], &c)
		return model.Fingerprint(buf)
	}
	states, edges := map[uint64]bool{}, map[edge]bool{}
	_, _, err := reach.Walk[S]{Sys: sys}.Run(ctx, func(v *reach.Visit[S]) error {
		from := key(v.State)
		states[from] = true
		for a, next := range v.Steps() {
			edges[edge{from: from, to: key(next), action: a}] = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return states, edges, nil
}
