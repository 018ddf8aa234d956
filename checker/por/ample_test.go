package por

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
)

// Two processes on a ring of two FIFO channels (channel p from p to the
// other), each with three rules: local (its own variables only), send (to
// its outgoing channel) and recv (from its incoming one). Group g is rule
// g/2 at process g%2: local 0, 1; send 2, 3; recv 4, 5.
func pairSystem(capacity int) *model.System[struct{}] {
	fp := map[string]func(p int) model.Footprint{
		"local": func(p int) model.Footprint { return model.Footprint{Proc: p} },
		"send":  func(p int) model.Footprint { return model.Footprint{Proc: p, Send: []int{p}} },
		"recv":  func(p int) model.Footprint { return model.Footprint{Proc: p, Recv: []int{1 - p}} },
	}
	sys := &model.System[struct{}]{Spec: "pair", Procs: 2,
		Chans: []model.ChanSemantics{{Kind: model.FIFO, Cap: capacity}, {Kind: model.FIFO, Cap: capacity}}}
	for _, name := range []string{"local", "send", "recv"} {
		sys.Rules = append(sys.Rules, model.Rule[struct{}]{Name: name, Footprint: fp[name]})
	}
	return sys
}

const (
	local0, local1 = 0, 1
	send0, send1   = 2, 3
	recv0, recv1   = 4, 5
)

// state is what computing each group's successors finds in one state:
// its number of successors and the flags of Group.
type state map[int]Group

// every is a state in which every group has one successor, new
// (Later) and invisible.
func every() state {
	s := state{}
	for g := 0; g < 6; g++ {
		s[g] = Group{To: 1, Later: true}
	}
	return s
}

func (s state) with(g int, f func(*Group)) state {
	x := s[g]
	f(&x)
	s[g] = x
	return s
}

// choose runs Choose on st and returns the chosen groups, nil when no
// ample set qualifies; it fails the test if a group is computed twice.
func choose(t *testing.T, r *Reducer, st state) []int32 {
	t.Helper()
	var a *Ample
	computed := map[int]int{}
	next := int32(0)
	a = NewAmple(r, func(g int) {
		f := a.Fill(g)
		if f == nil {
			return
		}
		computed[g]++
		*f = st[g]
		f.From, f.To = next, next+st[g].To-st[g].From
		next = f.To
	}, func(int) bool { return false })
	a.Next()
	if !a.Choose() {
		return nil
	}
	for g, n := range computed {
		if n > 1 {
			t.Fatalf("group %d computed %d times", g, n)
		}
	}
	return slices.Clone(a.Chosen())
}

func reducer(t *testing.T, sys *model.System[struct{}]) *Reducer {
	t.Helper()
	r, why, err := New(sys)
	if err != nil || r == nil {
		t.Fatalf("no reducer: %s %v", why, err)
	}
	return r
}

// The dependencies New derives from the footprints: a group depends on
// its process's other groups; a receive on the senders to its channel
// (unless it is enabled on a FIFO channel, C1 (b)); a send on a bounded
// channel on its receivers, who alone can make room.
func TestDependenciesFromFootprints(t *testing.T) {
	r := reducer(t, pairSystem(0))
	for g, want := range map[int][]int32{local0: {send0, recv0}, send1: {local1, recv1}, recv0: {local0, send0}} {
		if got := r.always[g]; !slices.Equal(got, want) {
			t.Errorf("group %d joins %v, want %v", g, got, want)
		}
	}
	if !slices.Equal(r.senders[recv0], []int32{send1}) || !r.fifoHead[recv0] {
		t.Errorf("recv p0: senders %v, FIFO head %v; want [%d], true", r.senders[recv0], r.fifoHead[recv0], send1)
	}
	if len(r.receivers[send0]) != 0 {
		t.Errorf("send p0 on an unbounded channel: receivers %v", r.receivers[send0])
	}
	if got := reducer(t, pairSystem(1)).receivers[send0]; !slices.Equal(got, []int32{recv1}) {
		t.Errorf("send p0 on a bounded channel: receivers %v, want [%d]", got, recv1)
	}
}

// With every group enabled, invisible and new, the first process's groups
// are an ample set (C0, C1: closed under its own dependencies; the
// receive is enabled on its FIFO channel, so no other process's send can
// change what it does).
func TestTheFirstProcessIsAmple(t *testing.T) {
	if got := choose(t, reducer(t, pairSystem(0)), every()); fmt.Sprint(got) != "[0 2 4]" {
		t.Fatalf("chosen %v, want p0's groups [0 2 4]", got)
	}
}

// C1: a receive that is disabled waits for the other process's send,
// which may enable it, so p0 alone is not ample and p1 is chosen; unless
// the receive's rule is not Ready (Idle), when only p0 can enable it.
func TestADisabledReceiveJoinsItsSenders(t *testing.T) {
	r := reducer(t, pairSystem(0))
	disabled := every().with(recv0, func(g *Group) { g.To = 0 })
	if got := choose(t, r, disabled); fmt.Sprint(got) != "[1 3 5]" {
		t.Errorf("recv p0 disabled: chosen %v, want p1's groups [1 3 5]", got)
	}
	idle := every().with(recv0, func(g *Group) { g.To, g.Idle = 0, true })
	if got := choose(t, r, idle); fmt.Sprint(got) != "[0 2 4]" {
		t.Errorf("recv p0 not ready: chosen %v, want p0's groups [0 2 4]", got)
	}
}

// C1: a blocked send on a bounded channel waits for the receiver, on the
// other process: p0 alone is not ample.
func TestABlockedSendJoinsItsReceivers(t *testing.T) {
	blocked := every().with(send0, func(g *Group) { g.Blocked = true })
	if got := choose(t, reducer(t, pairSystem(1)), blocked); fmt.Sprint(got) != "[1 3 5]" {
		t.Errorf("send p0 blocked: chosen %v, want p1's groups [1 3 5]", got)
	}
}

// C2: a set with a visible successor is never ample: p0's visible local
// step moves the choice to p1; with both processes visible nothing
// qualifies, and the state is expanded in full.
func TestAVisibleStepIsNeverAmple(t *testing.T) {
	r := reducer(t, pairSystem(0))
	visible := every().with(local0, func(g *Group) { g.Visible = true })
	if got := choose(t, r, visible); fmt.Sprint(got) != "[1 3 5]" {
		t.Errorf("local p0 visible: chosen %v, want [1 3 5]", got)
	}
	both := visible.with(recv1, func(g *Group) { g.Visible = true })
	if got := choose(t, r, both); got != nil {
		t.Errorf("a visible step in each process: chosen %v, want none", got)
	}
}

// C3, the cycle proviso: an ample set needs a successor that is new or
// stored after the state; p0's successors are all older, so p1 is chosen,
// and when every successor is older no set qualifies.
func TestTheProviso(t *testing.T) {
	r := reducer(t, pairSystem(0))
	old := every()
	for _, g := range []int{local0, send0, recv0} {
		old = old.with(g, func(g *Group) { g.Later = false })
	}
	if got := choose(t, r, old); fmt.Sprint(got) != "[1 3 5]" {
		t.Errorf("p0's successors all older: chosen %v, want [1 3 5]", got)
	}
	for _, g := range []int{local1, send1, recv1} {
		old = old.with(g, func(g *Group) { g.Later = false })
	}
	if got := choose(t, r, old); got != nil {
		t.Errorf("every successor older: chosen %v, want none", got)
	}
}

// C0: a process with nothing enabled is skipped; the set chosen holds an
// enabled group.
func TestAnAmpleSetIsNotEmpty(t *testing.T) {
	r := reducer(t, pairSystem(0))
	st := every()
	for _, g := range []int{local0, send0, recv0} {
		st = st.with(g, func(g *Group) { g.To = 0; g.Idle = true })
	}
	if got := choose(t, r, st); fmt.Sprint(got) != "[1 3 5]" {
		t.Errorf("p0 with nothing enabled: chosen %v, want [1 3 5]", got)
	}
}
