package por

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringcheck/mc/model"
)

// Reducer is the static structure partial-order reduction works from (see
// the package doc): the actions are grouped by rule and process, group
// g = rule·Procs + process, which is also the order in which a state's
// successors are enumerated; for each group, the groups that must join it
// in an ample set, derived from the rules' footprints. It is built once per
// run and only read by the workers.
type Reducer struct {
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

// New derives the reducer from sys's footprints. It returns nil and why
// when reduction cannot apply: a rule without a footprint is dependent on
// every action, and an invariant, step or witness property without Reads
// (or a liveness property with a state goal: checker.CanReduce) makes
// every action visible, so either leaves nothing to reduce. The
// caller leaves out the measures without Reads, which Reads ignores.
func New[S any](sys *model.System[S]) (*Reducer, string, error) {
	var noFootprint, noReads []string
	for _, r := range sys.Rules {
		if r.Footprint == nil {
			noFootprint = append(noFootprint, r.Name)
		}
	}
	for i := range sys.Props {
		if p := &sys.Props[i]; definesVisibility(p) && p.Reads == nil {
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
	r := &Reducer{groups: n, always: make([][]int32, n), senders: make([][]int32, n), fifoHead: make([]bool, n),
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
func (r *Reducer) waitFor(g int, enabled, idle bool, empty func(c int) bool, join func(hs []int32) bool) bool {
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

// Groups is the number of groups, rules × processes.
func (r *Reducer) Groups() int { return r.groups }

// Reads lists the Reads of the invariant, step and witness properties, of
// the liveness properties with a state goal, and of the measures of sys:
// together they say which variables are visible (C2 in the package doc).
func Reads[S any](sys *model.System[S]) []func(buf []byte, s *S) []byte {
	var out []func(buf []byte, s *S) []byte
	for i := range sys.Props {
		if p := &sys.Props[i]; definesVisibility(p) {
			out = append(out, p.Reads)
		}
	}
	for _, m := range sys.Measures {
		if m.Reads != nil { // a reduced run leaves the others unmeasured
			out = append(out, m.Reads)
		}
	}
	return out
}

// definesVisibility reports whether what p reads is visible (C2): true of
// invariants, step and witness properties, and of liveness properties but
// for "eventually a terminal state", whose goal no action changes the
// truth of without ending the run. End properties need no visibility:
// terminal states are kept exactly. A run that checks liveness under
// reduction decides it by a termination measure (checker.CanReduce; the
// package doc's section on liveness).
func definesVisibility[S any](p *model.Property[S]) bool {
	switch p.Kind {
	case model.Invariant, model.Step, model.Witness, model.LeadsTo:
		return true
	case model.Eventually:
		return !p.Terminal
	}
	return false
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
