package simulate

import (
	"sync"

	"github.com/ringcheck/mc/model"
)

// Coverage (Options.Coverage) counts, as mc check --coverage does, per rule
// and process: how often it fired — the steps the runs took with it — and
// how many new distinct states it produced — the steps that reached a
// state no earlier step of the simulation had reached, taking the runs in
// the order of their numbers and each run's steps in order. A state is
// known by a 64-bit fingerprint of its encoding with its ghost variables
// zeroed (model.System.Erase): the counters a simulation keeps for its
// measures are history, not state, and would make every state new. Two
// states with one fingerprint would be counted as one: among k distinct
// states that happens with probability below k²/2⁶⁵.
//
// Runs are added to the counts in the order of their numbers, whatever the
// workers, so the counts are the same for any --workers with the same
// seed. The fingerprints are held in memory, 8 bytes each and the set's
// overhead, which --max-memory bounds like everything else.
type Coverage struct {
	// Runs is the number of runs counted: runs First..First+Runs−1.
	Runs int
	// Fired[g] and New[g] are the counts of group g = rule·Procs + process.
	Fired, New []int64
	// Distinct is the number of distinct states the runs reached, initial
	// states included.
	Distinct int64
}

// visit is one state a run reached: by the step of group (−1 for its
// initial state), with its fingerprint.
type visit struct {
	group int32
	fp    uint64
}

// fingerprint is the fingerprint of s as Coverage counts it.
func (r *runner[S]) fingerprint(s *S) uint64 {
	sys := r.sys
	if sys.Erase != nil {
		sys.Copy(&r.scratch, s)
		sys.Erase(&r.scratch)
		s = &r.scratch
	}
	r.enc = sys.Encode(r.enc[:0], s)
	return model.Fingerprint(r.enc)
}

// covering merges the runs' visits into the counts in run order: a run's
// visits wait until every run before it is merged.
type covering struct {
	mu      sync.Mutex
	next    int
	waiting map[int][]visit
	seen    map[uint64]struct{}
	c       Coverage
}

func newCovering(groups int) *covering {
	return &covering{waiting: map[int][]visit{}, seen: map[uint64]struct{}{},
		c: Coverage{Fired: make([]int64, groups), New: make([]int64, groups)}}
}

// add takes run i's visits (i counted from the simulation's first run) and
// merges every run now next in order, up to last: no run after the first
// failing one is counted.
func (cv *covering) add(i int, visits []visit, last func() int) {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	cv.waiting[i] = visits
	for cv.next <= last() {
		vs, ok := cv.waiting[cv.next]
		if !ok {
			return
		}
		delete(cv.waiting, cv.next)
		for _, v := range vs {
			_, old := cv.seen[v.fp]
			if !old {
				cv.seen[v.fp] = struct{}{}
				cv.c.Distinct++
			}
			if v.group >= 0 {
				cv.c.Fired[v.group]++
				if !old {
					cv.c.New[v.group]++
				}
			}
		}
		cv.next++
		cv.c.Runs = cv.next
	}
}
