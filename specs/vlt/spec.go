package vlt

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"
	"slices"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "e", Doc: "000 §2 Algorithm E with the §3 inauguration; half-duplex links by default"},
	{Name: "modified", Doc: "000 §4: Algorithm E with the 1-bit q field; full-duplex links by default"},
}

// Ref is the seed section the spec comes from.
const Ref = "000 §2–§4"

// spec is one instance: ids, variant and duplex mode.
type spec struct {
	ids      []int
	sorted   []int // ids in increasing order: a colour's rank (claims)
	n        int
	mode     model.Duplex
	modified bool
	claims   bool
	// initiator[i]: i may begin spontaneously (--initiators).
	initiator []bool
	fault     fault
}

// maxFreeOrientationN is the largest ring whose orientation assignments are
// all enumerated as initial states when --orientation is not given: 2^16
// assignments, far more than any exploration from them can finish.
const maxFreeOrientationN = 16

// New builds the system for p: one initial state per orientation
// assignment that p selects (ring.InitialOrientations).
func New(p model.Params) (*model.System[State], error) { return build(p, noFault) }

// build is New with a deliberate fault switched on (faults.go).
func build(p model.Params, f fault) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("vlt", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	switch {
	case p.N < 3:
		return nil, fmt.Errorf("vlt needs a ring of at least 3 (the phase-0 test compares two distinct neighbours), got n=%d", p.N)
	case p.Chan != model.FIFO:
		return nil, fmt.Errorf("vlt runs on FIFO links (000 §2: the links and queues preserve the order of messages); --chan %s does not apply", p.Chan)
	case p.Cap != 0:
		return nil, fmt.Errorf("vlt's links are unbounded (full-duplex) or hold one message (half-duplex); --cap does not apply")
	case p.Orientation == nil && p.N > maxFreeOrientationN:
		return nil, fmt.Errorf("vlt at n=%d would start from up to 2^%d orientation assignments; fix one with --orientation, or keep n ≤ %d", p.N, p.N, maxFreeOrientationN)
	}
	if p.Duplex == model.DefaultDuplex {
		p.Duplex = model.HalfDuplex
		if variant == "modified" {
			p.Duplex = model.FullDuplex
		}
	}
	p.Variant = variant
	sp := &spec{ids: p.IDs, sorted: slices.Sorted(slices.Values(p.IDs)), n: p.N, mode: p.Duplex,
		modified: variant == "modified", claims: p.Claims, initiator: make([]bool, p.N), fault: f}
	for i := range sp.initiator {
		sp.initiator[i] = p.IsInitiator(i)
	}
	var inits []State
	for _, f := range ring.InitialOrientations(&p) {
		inits = append(inits, sp.initial(f))
	}
	return &model.System[State]{
		Spec:     "vlt",
		Variant:  variant,
		Params:   p,
		Procs:    p.N,
		Init:     inits,
		Rules:    sp.rules(),
		Props:    sp.properties(),
		Ends:     model.EveryEnd[State], // election-complete judges every terminal state
		Copy:     copyState,
		Encode:   encode,
		Decode:   decoder(p.N),
		Erase:    func(s *State) { s.Ghost = Ghost{} },
		Vars:     vars(sp.modified, p.Claims),
		Measures: sp.measures(),
		View: func(s *State) model.View {
			return model.View{Procs: invariants.ProcViews(sp.ids, s), Chans: s.Chans.LinkViews(s.links())}
		},
		InTransit:   func(s *State, visit func(int, string, []byte)) { s.Chans.LinkInTransit(s.links(), visit) },
		Termination: sp.termination(),
	}, nil
}

// Rule indexes, in enumeration order.
const (
	ruleSend0 = iota
	ruleRecv0
	ruleTest0
	ruleRecv
)

func (sp *spec) rules() []model.Rule[State] {
	init := "000 §2 Algorithm E 1 (initialization)"
	return []model.Rule[State]{
		ruleSend0: {Name: "send0", Ref: init + ": send ⟨u,0⟩ to both neighbours (at once, §2)",
			Guard: sp.canSend0, Do: sp.send0, Label: sp.send0Label},
		ruleRecv0: {Name: "recv0", Ref: init + ": wait for ⟨u1,0⟩ and ⟨u2,0⟩",
			Guard: sp.canRecv0, Choices: sp.recv0Choices, Do: sp.recv0, Label: sp.recv0Label},
		ruleTest0: {Name: "test0", Ref: init + ": the test (reconstructed) and 2a active",
			Guard: sp.canTest0, Choices: sp.test0Choices, Do: sp.test0, Label: sp.test0Label},
		ruleRecv: {Name: "recv", Ref: "000 §2 Algorithm E 2b observant, 2a active, inauguration; §4 q field",
			Guard: sp.canRecv, Choices: sp.recvChoices, Do: sp.recv, Label: sp.recvLabel},
	}
}

// initial is the state before anything happens, for orientation f: every
// processor in phase 0 with its own id in ID, PNUM = 0, no DIR yet.
func (sp *spec) initial(f []bool) State {
	s := State{Proc: make([]Proc, sp.n), Flipped: append([]bool(nil), f...)}
	s.Chans = ring.NewChans[Msg](s.links())
	for i := range s.Proc {
		s.Proc[i] = Proc{ID: sp.ids[i], DIR: noDir}
	}
	if sp.claims {
		s.Ghost.start(sp.ids)
	}
	return s
}

// net is how s's links carry messages: its orientation and the spec's
// duplex mode.
func (sp *spec) net(s *State) ring.Net {
	n := s.links()
	n.Duplex = sp.mode
	return n
}

// rank is a colour's position among the sorted ids.
func (sp *spec) rank(id int) int {
	r, _ := slices.BinarySearch(sp.sorted, id)
	return r
}

// chase builds a phase message with the variant's q field.
func (sp *spec) chase(v, p int, q int8) Msg {
	if !sp.modified {
		q = noQ
	}
	return Msg{Kind: Chase, V: v, P: p, Q: q}
}

// sendChase sends ⟨v, PNUM(, q)⟩ over port; false if the link is busy.
func (sp *spec) sendChase(s *State, i int, port ring.Port, v int, q int8) bool {
	p := s.Proc[i].PNUM
	if !s.Chans.Send(sp.net(s), i, port, sp.chase(v, p, q)) {
		return false
	}
	if sp.claims {
		s.Ghost.sent(s.links().Ring, i, port, p)
	}
	return true
}

// from names the sender of what waits at i's port: "⟨4,1⟩ from p3 at left".
func from(s *State, i int, port ring.Port, m Msg) string {
	j, _ := s.links().Ring.Peer(i, port)
	return fmt.Sprintf("%v from p%d at %s", m, j, port)
}

func (sp *spec) recvLabel(s *State, i, k int) string {
	taken := s.Chans.JointPorts(s.links(), i, k)
	var parts []string
	for _, port := range ports {
		if taken.Has(port) {
			parts = append(parts, from(s, i, port, s.Chans.Head(s.links(), i, port)))
		}
	}
	return fmt.Sprintf("recv p%d %s", i, strings.Join(parts, " + "))
}
