package checker

import (
	"fmt"
	"slices"
	"strings"

	"mc/model"
)

// reducer is the static structure partial-order reduction works from (see
// the package doc): the actions are grouped by rule and process, group
// g = rule·Procs + process, which is also the order in which a state's
// successors are enumerated; for each group, the groups that must join it
// in an ample set, derived from the rules' footprints. It is built once per
// run and only read by the workers.
type reducer struct {
	groups int
	// always[g] must join any set holding g: the groups of g's process,
	// the other receivers from g's channels and the other senders to them,
	// and every shared (ghost-writing) group if g is one.
	always [][]int32
	// senders[g] are the senders to g's Recv channels. They join unless g
	// is enabled with one FIFO channel to receive from: that channel is
	// then non-empty, and no other process can change its oldest message;
	// or unless g's rule is not Ready: only g's process can enable it.
	senders  [][]int32
	fifoHead []bool
	// recv[g] are g's Recv channels, and for each channel c, fifo[c] tells
	// whether it is FIFO and sendOf[c] lists its senders: with the
	// system's ChanLen, only the senders to g's bags and empty FIFO
	// channels join, since an append to a non-empty FIFO channel leaves
	// its oldest message, all that g reads of it, as it was.
	recv   [][]int32
	fifo   []bool
	sendOf [][]int32
	// chanLen reports whether the system gives ChanLen.
	chanLen bool
	// receivers[g] are the receivers from g's bounded Send channels. They
	// join when a send of g is blocked, as only they can make room.
	receivers [][]int32
	// proc[g] is the process of g's footprint.
	proc []int32
}

// newReducer derives the reducer from sys's footprints. It returns nil and
// why when reduction cannot apply: a rule without a footprint is dependent
// on every action, and an invariant, step or witness property without
// Reads makes every action visible, so either leaves nothing to reduce. A
// measure without Reads is not measured under reduction (declaredMeasures).
func newReducer[S any](sys *model.System[S]) (*reducer, string, error) {
	var noFootprint, noReads []string
	for _, r := range sys.Rules {
		if r.Footprint == nil {
			noFootprint = append(noFootprint, r.Name)
		}
	}
	for _, p := range sys.Props {
		if visibleKind(p.Kind) && p.Reads == nil {
			noReads = append(noReads, p.Name)
		}
	}
	switch {
	case len(noFootprint) > 0:
		return nil, "n/a for rules without footprints (" + strings.Join(noFootprint, ", ") + "): every interleaving explored", nil
	case len(noReads) > 0:
		return nil, "n/a for properties that do not declare what they read (" + strings.Join(noReads, ", ") + "): every interleaving explored", nil
	}
	n := len(sys.Rules) * sys.Procs
	fps := make([]model.Footprint, n)
	recvOf := make([][]int32, len(sys.Chans))
	sendOf := make([][]int32, len(sys.Chans))
	ofProc := make([][]int32, sys.Procs)
	var shared, ghost []int32
	for ri := range sys.Rules {
		for p := 0; p < sys.Procs; p++ {
			g := ri*sys.Procs + p
			f := sys.Rules[ri].Footprint(p)
			fps[g] = f
			if f.Proc < model.NoProc || f.Proc >= sys.Procs {
				return nil, "", fmt.Errorf("spec %s: the footprint of rule %s at p%d names process %d", sys.Spec, sys.Rules[ri].Name, p, f.Proc)
			}
			for _, c := range slices.Concat(f.Recv, f.Send) {
				if c < 0 || c >= len(sys.Chans) {
					return nil, "", fmt.Errorf("spec %s: the footprint of rule %s at p%d names channel %d; the system has %d", sys.Spec, sys.Rules[ri].Name, p, c, len(sys.Chans))
				}
			}
			for _, c := range f.Recv {
				recvOf[c] = append(recvOf[c], int32(g))
			}
			for _, c := range f.Send {
				sendOf[c] = append(sendOf[c], int32(g))
			}
			if f.Shared {
				shared = append(shared, int32(g))
			}
			if f.Ghost {
				ghost = append(ghost, int32(g))
			}
			if f.Proc != model.NoProc {
				ofProc[f.Proc] = append(ofProc[f.Proc], int32(g))
			}
		}
	}
	r := &reducer{groups: n, always: make([][]int32, n), senders: make([][]int32, n), fifoHead: make([]bool, n),
		receivers: make([][]int32, n), proc: make([]int32, n), recv: make([][]int32, n), fifo: make([]bool, len(sys.Chans)),
		sendOf: sendOf, chanLen: sys.ChanLen != nil}
	for c, l := range sys.Chans {
		r.fifo[c] = l.Kind == model.FIFO
	}
	for g, f := range fps {
		var always, senders, receivers groupSet
		if f.Proc != model.NoProc {
			always.add(ofProc[f.Proc]...)
		}
		if f.Shared {
			always.add(shared...)
		}
		if f.Ghost {
			always.add(ghost...)
		}
		for _, c := range f.Recv {
			always.add(recvOf[c]...)
			senders.add(sendOf[c]...)
			r.recv[g] = append(r.recv[g], int32(c))
		}
		for _, c := range f.Send {
			always.add(sendOf[c]...)
			if sys.Chans[c].Cap > 0 {
				receivers.add(recvOf[c]...)
			}
		}
		r.always[g], r.senders[g], r.receivers[g] = always.without(g), senders.without(g), receivers.without(g)
		r.fifoHead[g] = len(f.Recv) == 1 && sys.Chans[f.Recv[0]].Kind == model.FIFO
		r.proc[g] = int32(f.Proc)
	}
	return r, "", nil
}

// waitFor calls join with each list of groups that may change what group g
// can do in the current state by sending to one of its Recv channels (C1
// (b)), and stops at the first false. None if g's rule is not Ready (only
// g's own process can enable it) or g is enabled with one FIFO channel to
// receive from; with ChanLen, the senders to g's bags and empty FIFO
// channels (empty(c)); otherwise the senders to all of them.
func (r *reducer) waitFor(g int, enabled, idle bool, empty func(c int) bool, join func(hs []int32) bool) bool {
	switch {
	case idle || (r.fifoHead[g] && enabled):
		return true
	case !r.chanLen:
		return join(r.senders[g])
	}
	for _, c := range r.recv[g] {
		if (!r.fifo[c] || empty(int(c))) && !join(r.sendOf[c]) {
			return false
		}
	}
	return true
}

// readsOf lists the Reads of the invariant, step and witness properties and
// of the measures of sys: together they say which variables are visible
// (C2 in the package doc).
func readsOf[S any](sys *model.System[S]) []func(buf []byte, s *S) []byte {
	var out []func(buf []byte, s *S) []byte
	for _, p := range sys.Props {
		if visibleKind(p.Kind) {
			out = append(out, p.Reads)
		}
	}
	for _, m := range sys.Measures {
		if m.Reads != nil { // Run leaves the others unmeasured (declaredMeasures)
			out = append(out, m.Reads)
		}
	}
	return out
}

// visibleKind reports whether properties of kind k define visibility: the
// invariants, step and witness properties. End properties do not need it,
// and liveness properties are refused or skipped (CanReduce).
func visibleKind(k model.Kind) bool {
	return k == model.Invariant || k == model.Step || k == model.Witness
}

// groupSet is a small set of groups that keeps its insertion order, so
// that the reducer's lists, and hence its choices, are deterministic.
type groupSet []int32

func (s *groupSet) add(gs ...int32) {
	for _, g := range gs {
		if !slices.Contains(*s, g) {
			*s = append(*s, g)
		}
	}
}

func (s groupSet) without(g int) []int32 {
	return slices.DeleteFunc(slices.Clone(s), func(x int32) bool { return int(x) == g })
}

// ample is one worker's scratch space for choosing a state's ample set.
// A group's successors are computed on demand, by need, at most once per
// state (done[g] == gen), so that a state whose ample set is found among
// its first groups costs only those groups' successors.
type ample struct {
	need func(g int)
	// empty reports whether channel c is empty in the current state.
	empty func(c int) bool
	done  []uint32
	gen   uint32
	// Once group g is computed, from[g], to[g] delimit its successors in
	// the expander's successor list; blocked[g] is set when a send of g
	// was blocked; idle[g] when g's rule is not Ready, so that only its own
	// process can enable it; visible[g] when one of its successors is
	// visible;
	// later[g] when one is new or was stored after the current state (the
	// proviso, C3).
	from, to []int32
	blocked  []bool
	idle     []bool
	visible  []bool
	later    []bool
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

func newAmple(groups int, need func(g int), empty func(c int) bool) *ample {
	return &ample{need: need, empty: empty, done: make([]uint32, groups), from: make([]int32, groups), to: make([]int32, groups),
		blocked: make([]bool, groups), idle: make([]bool, groups), visible: make([]bool, groups), later: make([]bool, groups), in: make([]uint32, groups)}
}

// next starts a new state: no group is computed yet.
func (a *ample) next() {
	if a.gen++; a.gen == 0 { // wrapped: clear the stale marks
		clear(a.done)
		a.gen = 1
	}
}

// choose picks the ample set of the current state among the closures of
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
// and stores half the states that preferring single actions does.
func (a *ample) choose(r *reducer) bool {
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
		total += a.to[g] - a.from[g]
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
func (a *ample) enabled(g int32) bool {
	a.need(int(g))
	return a.to[g] > a.from[g] && !a.visible[g]
}

// closure builds into members the smallest set holding group g that is
// closed under the reducer's rules (C1), and returns its number of
// successors. It gives up (false) as soon as the set holds a group with a
// visible successor (C2), reaches limit successors (if limit ≥ 0) or, if
// local, holds a group of another process; and it fails if no successor
// satisfies C3. Group g must be computed.
func (a *ample) closure(r *reducer, g int, limit int32, local bool) (int32, bool) {
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
		enabled := a.to[h] - a.from[h]
		if size += enabled; limit >= 0 && size >= limit {
			return 0, false
		}
		later = later || a.later[h]
		if !a.push(r, r.always[h], only) {
			return 0, false
		}
		if !r.waitFor(int(h), enabled > 0, a.idle[h], a.empty, func(hs []int32) bool { return a.push(r, hs, only) }) {
			return 0, false
		}
		if a.blocked[h] && !a.push(r, r.receivers[h], only) {
			return 0, false
		}
	}
	return size, later
}

// push adds groups hs to the set being built; false if one has a visible
// successor or, when only is a process, belongs to another.
func (a *ample) push(r *reducer, hs []int32, only int32) bool {
	for _, h := range hs {
		if a.in[h] == a.mark {
			continue
		}
		if only != -2 && r.proc[h] != only {
			return false
		}
		if a.need(int(h)); a.visible[h] {
			return false
		}
		a.in[h] = a.mark
		a.stack = append(a.stack, h)
		a.members = append(a.members, h)
	}
	return true
}
