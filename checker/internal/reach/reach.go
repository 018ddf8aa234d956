// Package reach walks the states a system can reach, breadth-first from
// its initial states, each once. It is for the checks that need every
// reachable state as a state value, not the explorer, which keeps
// encodings and fingerprints: the check of a spec's codec
// (checker.CheckCodec), of its ghost variables' erasure
// (checker.CheckErasure) and of its footprints (por.CheckFootprints).
// Successors come from the successor kernel, model.Successors.
package reach

import (
	"context"
	"iter"

	"github.com/ringcheck/mc/model"
)

// Walk is a breadth-first walk over the states of Sys.
//
// States are told apart by their full encodings (System.Encode), and the
// walk holds each state it has yet to visit as a copy (System.Copy) of the
// state reached, not decoded from its encoding, so that a walk that checks
// the codec does not lean on it. A state visited is dropped: only the
// encodings of the states reached stay.
type Walk[S any] struct {
	Sys *model.System[S]
	// Limit, if positive, is the most states the walk visits.
	Limit int
	// Reached, if not nil, is called on each state when the walk first
	// reaches it, with its number (states are numbered from 0 in the order
	// they are reached, which is the order they are visited in), the state
	// as reached, valid during the call only, and the copy the walk keeps.
	// from is the number of the state it was reached from by action a, or
	// −1−i for initial state i. An error stops the walk.
	Reached func(n int, s, kept *S, from int, a model.Action) error
}

// Visit is one state of a walk, as Run hands it to its visit function,
// which passes its successors on to the walk: all of them with Steps, or
// one by one with Add.
type Visit[S any] struct {
	// N is the state's number.
	N int
	// State is the walk's copy of the state, valid during the visit.
	State *S
	w     *walker[S]
}

type walker[S any] struct {
	Walk[S]
	seen  map[string]bool
	queue []S
	// reached is the number of states reached so far.
	reached int
	cur     S
	succ    model.Successors[S]
	next    S
	err     error
}

// Run walks the states: it reaches the initial states in order, then
// visits each state reached in turn, calling visit with it. It returns the
// number of states visited and whether the walk visited every reachable
// state. It stops at the first error of Reached or visit, and when ctx is
// done, with ctx's error.
func (w Walk[S]) Run(ctx context.Context, visit func(v *Visit[S]) error) (states int, complete bool, err error) {
	wk := &walker[S]{Walk: w, seen: map[string]bool{}, succ: w.Sys.Successors(0)}
	for i := range w.Sys.Init {
		if err := wk.add(&w.Sys.Init[i], -1-i, model.Action{}); err != nil {
			return 0, false, err
		}
	}
	for len(wk.queue) > 0 {
		if w.Limit > 0 && states >= w.Limit {
			return states, false, nil
		}
		if err := ctx.Err(); err != nil {
			return states, false, err
		}
		wk.cur = wk.queue[0]
		wk.queue[0] = *new(S)
		wk.queue = wk.queue[1:]
		v := Visit[S]{N: states, State: &wk.cur, w: wk}
		if err := visit(&v); err != nil {
			return states, false, err
		}
		if wk.err != nil {
			return states, false, wk.err
		}
		states++
	}
	return states, true, nil
}

// Steps yields the state's successors in the enumeration order
// (model.Successors), each with the action that leads to it, and passes
// each on to the walk (Add) once the loop's body has seen it. The
// successor is valid during the body only, which must not change it. A
// Reached error ends the sequence, and Run returns it.
func (v *Visit[S]) Steps() iter.Seq2[model.Action, *S] {
	return func(yield func(model.Action, *S) bool) {
		w := v.w
		for w.succ.Of(v.State); w.succ.Next(&w.next); {
			a := w.succ.Action()
			if !yield(a, &w.next) {
				return
			}
			if err := v.Add(&w.next, a); err != nil {
				w.err = err
				return
			}
		}
	}
}

// Add passes on next, the state's successor by a, computed by the caller:
// the walk will visit it unless it was reached before. The error is
// Reached's.
func (v *Visit[S]) Add(next *S, a model.Action) error {
	return v.w.add(next, v.N, a)
}

func (w *walker[S]) add(s *S, from int, a model.Action) error {
	enc := string(w.Sys.Encode(nil, s))
	if w.seen[enc] {
		return nil
	}
	w.seen[enc] = true
	w.queue = append(w.queue, *new(S))
	kept := &w.queue[len(w.queue)-1]
	w.Sys.Copy(kept, s)
	n := w.reached
	w.reached++
	if w.Reached != nil {
		return w.Reached(n, s, kept, from, a)
	}
	return nil
}
