package por

import (
	"slices"

	"github.com/ringcheck/mc/model"
)

// Ample is one worker's scratch space for choosing a state's ample set.
// A group's successors are computed on demand, by the caller's need
// function, at most once per state (Computing), so that a state whose
// ample set is found among its first groups costs only those groups'
// successors; need reports what it found with Record.
type Ample struct {
	r    *Reducer
	need func(g int)
	// empty reports whether channel c is empty in the current state.
	empty func(c int) bool
	done  []uint32
	gen   uint32
	// found[g] is what computing group g found (Fill).
	found []Group
	// in marks the groups of the set being built (in[g] == mark), members
	// lists them and stack is the work list; best lists the chosen set's
	// groups in increasing order; tried lists the processes tried.
	in      []uint32
	mark    uint32
	members []int32
	stack   []int32
	best    []int32
	tried   []int32
}

// NewAmple returns the scratch space for choosing ample sets under r. need
// computes group g's successors in the current state, reporting them with
// Fill; empty reports whether channel c is empty there.
func NewAmple(r *Reducer, need func(g int), empty func(c int) bool) *Ample {
	groups := r.groups
	return &Ample{r: r, need: need, empty: empty, done: make([]uint32, groups), found: make([]Group, groups), in: make([]uint32, groups)}
}

// Group is what computing one group's successors in the current state
// found: they are From..To-1 in the caller's list of successors; Blocked
// when a send of the group was blocked; Idle when its rule is not Ready, so
// that only its own process can enable it; Visible when one of its
// successors is visible (C2); Later when one is new or was stored after the
// current state (the proviso, C3).
type Group struct {
	From, To                      int32
	Blocked, Idle, Visible, Later bool
}

// Fill returns group g's record, emptied, for need to fill as it computes
// the group's successors in the current state; nil if they are computed
// already: a group is computed at most once per state.
func (a *Ample) Fill(g int) *Group {
	if a.done[g] == a.gen {
		return nil
	}
	a.done[g] = a.gen
	a.found[g] = Group{}
	return &a.found[g]
}

// Span is where group g's successors lie in the caller's list.
func (a *Ample) Span(g int) (from, to int32) { return a.found[g].From, a.found[g].To }

// Chosen lists the groups of the ample set Choose chose, in enumeration
// order.
func (a *Ample) Chosen() []int32 { return a.best }

// Groups is the number of groups.
func (a *Ample) Groups() int { return len(a.found) }

// Next starts a new state: no group is computed yet.
func (a *Ample) Next() {
	if a.gen++; a.gen == 0 { // wrapped: clear the stale marks
		clear(a.done)
		a.gen = 1
	}
}

// Choose picks the ample set of the current state among the closures of
// its enabled groups, each of which satisfies C0 and C1 of the package doc;
// a closure qualifies if it satisfies C2 (no visible successor) and C3 (a
// successor new or stored after the current state). Like SPIN, it first
// tries single processes: it takes the process of the first enabled group,
// in enumeration order (rule, then process), whose closure holds only
// groups of that process. Failing that, it computes every group and takes
// the qualifying closure with the fewest successors that is not the whole
// enabled set (the first in enumeration order on a tie). It reports false
// when no closure qualifies: the state is then expanded in full. Otherwise
// best lists the chosen groups in enumeration order. (A single process's
// closure may happen to hold every enabled action; taking it is then a
// full expansion, which needs no condition.)
//
// Taking the first such process rather than the one with the fewest
// actions is deliberate: on Chang–Roberts (start before recv), it settles
// each process's race between starting and receiving as soon as it arises,
// and stores fewer states than preferring single actions does
// (docs/performance.md, "Partial-order reduction").
func (a *Ample) Choose() bool {
	r := a.r
	a.tried = a.tried[:0]
	for g := 0; g < r.groups; g++ {
		p := r.proc[g]
		if p == model.NoProc || slices.Contains(a.tried, p) || !a.enabled(int32(g)) {
			continue
		}
		a.tried = append(a.tried, p)
		if _, ok := a.closure(r, g, -1, true); ok {
			a.best = append(a.best[:0], a.members...)
			slices.Sort(a.best)
			return true
		}
	}
	var total int32
	for g := 0; g < r.groups; g++ {
		a.need(g)
		total += a.found[g].To - a.found[g].From
	}
	bestSize, found := total, false
	for g := 0; g < r.groups; g++ {
		if !a.enabled(int32(g)) {
			continue
		}
		if size, ok := a.closure(r, g, bestSize, false); ok {
			a.best = append(a.best[:0], a.members...)
			bestSize, found = size, true
		}
	}
	slices.Sort(a.best)
	return found
}

// enabled reports whether group g has a successor and none is visible: a
// group that can seed an ample set.
func (a *Ample) enabled(g int32) bool {
	a.need(int(g))
	f := &a.found[g]
	return f.To > f.From && !f.Visible
}

// closure builds into members the smallest set holding group g that is
// closed under the reducer's rules (C1), and returns its number of
// successors. It gives up (false) as soon as the set holds a group with a
// visible successor (C2), reaches limit successors (if limit ≥ 0) or, if
// local, holds a group of another process; and it fails if no successor
// satisfies C3. Group g must be computed.
func (a *Ample) closure(r *Reducer, g int, limit int32, local bool) (int32, bool) {
	if a.mark++; a.mark == 0 { // wrapped: clear the stale marks
		clear(a.in)
		a.mark = 1
	}
	a.stack = append(a.stack[:0], int32(g))
	a.members = append(a.members[:0], int32(g))
	a.in[g] = a.mark
	only := r.proc[g]
	if !local {
		only = -2
	}
	var size int32
	later := false
	for len(a.stack) > 0 {
		h := a.stack[len(a.stack)-1]
		a.stack = a.stack[:len(a.stack)-1]
		f := &a.found[h]
		enabled := f.To - f.From
		if size += enabled; limit >= 0 && size >= limit {
			return 0, false
		}
		later = later || f.Later
		if !a.push(r, r.always[h], only) {
			return 0, false
		}
		if !r.waitFor(int(h), enabled > 0, f.Idle, a.empty, func(hs []int32) bool { return a.push(r, hs, only) }) {
			return 0, false
		}
		if f.Blocked && !a.push(r, r.receivers[h], only) {
			return 0, false
		}
	}
	return size, later
}

// push adds groups hs to the set being built; false if one has a visible
// successor or, when only is a process, belongs to another.
func (a *Ample) push(r *Reducer, hs []int32, only int32) bool {
	for _, h := range hs {
		if a.in[h] == a.mark {
			continue
		}
		if only != -2 && r.proc[h] != only {
			return false
		}
		if a.need(int(h)); a.found[h].Visible {
			return false
		}
		a.in[h] = a.mark
		a.stack = append(a.stack, h)
		a.members = append(a.members, h)
	}
	return true
}
