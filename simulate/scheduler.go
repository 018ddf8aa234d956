package simulate

import (
	"math/rand/v2"

	"github.com/ringcheck/mc/model"
)

// scheduler draws a uniformly random enabled action of the current state.
// Actions are grouped by rule and process, group g = rule·Procs + process
// (the checker's order); each group's weight is its number of enabled
// actions, kept in a Fenwick tree (weights.go).
//
// After a step only the groups that the action's rule footprint
// (model.Footprint) says it may have touched are looked at again: those of
// its process, those that receive from or send to a channel it received
// from or sent to, and, if it touches shared variables, every group that
// does. On a ring that is a handful of groups, so a step costs the same
// whatever n. A system with a rule that declares no footprint has every
// group looked at again after every step.
//
// A rule's guard may hold while its effect blocks (a send to a full
// channel, model.Rule.Do). When the drawn action blocks, the scheduler tries
// every choice of its group, keeps the ones that do not block (open) and
// draws again: rejection, so that the action taken is uniform among the
// actions that can happen.
type scheduler[S any] struct {
	sys   *model.System[S]
	procs int
	w     *weights
	// footprints[g] is group g's footprint; nil when some rule has none.
	footprints []model.Footprint
	// byProc[p], byChan[c] and shared index the groups by the process, the
	// channels and the shared variables their footprints name.
	byProc, byChan [][]int32
	shared         []int32
	// seen marks the groups already refreshed after this step (seen[g] ==
	// epoch).
	seen  []uint32
	epoch uint32
	// open[g], once an action of g blocked, lists g's choices that do not.
	open map[int][]int
	// succ tries out a group's choices into scratch, to find which block.
	succ    model.Successors[S]
	scratch S
}

func newScheduler[S any](sys *model.System[S]) *scheduler[S] {
	groups := len(sys.Rules) * sys.Procs
	sc := &scheduler[S]{sys: sys, procs: sys.Procs, w: newWeights(groups), seen: make([]uint32, groups), open: map[int][]int{},
		succ: sys.Successors(0)}
	for _, r := range sys.Rules {
		if r.Footprint == nil {
			return sc
		}
	}
	sc.footprints = make([]model.Footprint, groups)
	sc.byProc = make([][]int32, sys.Procs)
	sc.byChan = make([][]int32, len(sys.Chans))
	for g := range groups {
		f := sys.Rules[g/sys.Procs].Footprint(g % sys.Procs)
		sc.footprints[g] = f
		if f.Proc != model.NoProc {
			sc.byProc[f.Proc] = append(sc.byProc[f.Proc], int32(g))
		}
		for _, c := range f.Recv {
			sc.byChan[c] = append(sc.byChan[c], int32(g))
		}
		for _, c := range f.Send {
			sc.byChan[c] = append(sc.byChan[c], int32(g))
		}
		if f.Shared {
			sc.shared = append(sc.shared, int32(g))
		}
	}
	return sc
}

// reset weighs every group in s, a run's initial state.
func (sc *scheduler[S]) reset(s *S) {
	clear(sc.open)
	for g := range sc.w.of {
		sc.refresh(s, g)
	}
}

// refresh weighs group g anew in s.
func (sc *scheduler[S]) refresh(s *S, g int) {
	if len(sc.open) > 0 {
		delete(sc.open, g)
	}
	sc.w.set(g, sc.sys.Rules[g/sc.procs].ChoicesAt(s, g%sc.procs))
}

// draw returns a uniformly random action among those whose guard holds in
// the current state (blocking aside: see taken), or false if there is none.
func (sc *scheduler[S]) draw(gen *rand.Rand) (model.Action, bool) {
	if sc.w.sum == 0 {
		return model.Action{}, false
	}
	g, k := sc.w.find(gen.IntN(sc.w.sum))
	if open, ok := sc.open[g]; ok {
		k = open[k]
	}
	return model.Action{Rule: g / sc.procs, Proc: g % sc.procs, Choice: k}, true
}

// blocked records that action a blocks in s: its group keeps only the
// choices that do not.
func (sc *scheduler[S]) blocked(s *S, a model.Action) {
	g := a.Rule*sc.procs + a.Proc
	var open []int
	for sc.succ.OfGroup(s, a.Rule, a.Proc); sc.succ.Next(&sc.scratch); {
		open = append(open, sc.succ.Action().Choice)
	}
	sc.open[g] = open
	sc.w.set(g, len(open))
}

// taken weighs again, in s, the state after action a, the groups a may
// have enabled or disabled.
func (sc *scheduler[S]) taken(s *S, a model.Action) {
	if sc.footprints == nil {
		sc.reset(s)
		return
	}
	sc.epoch++
	if sc.epoch == 0 { // wrapped: clear the marks of 2³² steps ago
		clear(sc.seen)
		sc.epoch = 1
	}
	g := a.Rule*sc.procs + a.Proc
	sc.mark(s, int32(g))
	f := &sc.footprints[g]
	if f.Proc != model.NoProc {
		sc.markAll(s, sc.byProc[f.Proc])
	}
	for _, c := range f.Recv {
		sc.markAll(s, sc.byChan[c])
	}
	for _, c := range f.Send {
		sc.markAll(s, sc.byChan[c])
	}
	if f.Shared {
		sc.markAll(s, sc.shared)
	}
}

func (sc *scheduler[S]) markAll(s *S, gs []int32) {
	for _, g := range gs {
		sc.mark(s, g)
	}
}

func (sc *scheduler[S]) mark(s *S, g int32) {
	if sc.seen[g] != sc.epoch {
		sc.seen[g] = sc.epoch
		sc.refresh(s, int(g))
	}
}
