// Package misra is Misra's ping–pong algorithm for detecting the loss of a
// token and regenerating it, on a unidirectional ring (seed 002 §4.2,
// "Loss of token: Misra's algorithm"), with the privilege of mutual
// exclusion carried by the ping token (§4.1).
//
// Ring: processes 0..n-1; process i sends only to (i+1) mod n, over FIFO
// channels by default (--chan bag lets a token overtake the other). Ids are
// not used (--ids is ignored) and there are no initiators.
//
// Messages: the two tokens ⟨ping +v⟩ and ⟨pong −v⟩, each carrying its number
// (nbping = +v, nbpong = −v), v counted modulo n+1 as §4.2 proposes.
//
// State per process i: its phase (idle, waiting, in-cs), m_i (the number of
// the token that last passed through i, initially 0), the tokens i holds
// (received and not yet sent on), its input channel; and, for the
// environment, the number of tokens lost so far. Initially both tokens are
// held by process 0 ("both in an arbitrarily chosen process") with
// nbping = 1, nbpong = −1.
//
// One step is one action of one process:
//
//   - request(i) — environment (never forced by fairness): idle → waiting.
//   - recv(i) — i receives the token at the head of its channel and holds
//     it. "when received (ping, nbping): if m_i = nbping then (pong is lost,
//     regenerate it) nbping ← nbping + 1; nbpong ← −nbping else m_i ←
//     nbping": a regenerated pong is created in i's hands. For pong "as
//     before, interchanging ping and pong". Then, if i holds the other
//     token (and did not just regenerate it), the tokens meet: "when meeting
//     (ping, pong): nbping ← nbping + 1; nbpong ← nbpong − 1".
//   - enter(i) — a waiting process that holds ping enters its critical
//     section (the privilege is ping's).
//   - leave(i) — it leaves and sends ping on, in one step (§4.1, "send
//     (token)").
//   - pass-ping(i), pass-pong(i) — i sends a token it holds to its
//     successor; ping only when idle (a waiting holder enters instead).
//   - lose(i) — environment: a token in i's input channel is lost. At most
//     Bound losses (--bound, default 1), and only while both tokens exist:
//     §4.2 promises recovery "only when one token having been lost, the
//     other makes a complete turn round the ring without itself being
//     lost".
//
// Reconstructions. (1) Interchanging ping and pong in the regeneration
// makes the magnitude grow, as a meeting does: nbpong ← nbpong − 1,
// nbping ← −nbpong. (2) "Increment them modulo (n+1)" applies to the
// magnitudes, and m_i keeps the sign: the text's argument needs "the
// negative values recognized by P_i" (it tells a pong number from a ping
// number). Variant literal-residues instead keeps every number as a residue
// modulo n+1, where −v and +v can coincide. (3) A token created by
// regeneration does not also meet its creator: the regeneration's increment
// is the encounter. (4) Tokens are held between receipt and sending, so
// that they can meet at any process, as the seed's bound assumes ("the
// tokens meet only once in a process").
//
// Finiteness: the numbers are bounded by the modulus and the losses by
// Bound; in the faulty variants, where false regenerations could multiply
// the tokens without end, a third copy of a token is never created
// (maxCopies).
//
// Claims (--claims): regenerated-only-when-lost (ghost counts of losses
// and regenerations) and loss-detected-in-one-passage, 002 §4.2's "the loss
// of a token is detected by the other in one passage round the ring",
// which lost-token-regenerated only checks as "eventually". The ghost
// passage counts the surviving token's receipts since the loss; the claim
// is that at most n of them go by without regenerating the other, so the
// (n+1)-th regenerates it at the latest. n fails, n+1 is reached
// (TestLossDetectedInOnePassageIsTight): where the tokens last met, m_i
// holds the older number, so the survivor passes that process once more
// without a match and detects the loss at the next one (n = 2: ping meets
// pong at p0, ⟨ping +2⟩ is lost, ⟨pong −2⟩ is received at p1, at p0, and
// regenerates ping at p1). "One passage round the ring" is read so: once
// round, and on to the next process. Both claims meet their situation on
// the default ring (n = 3, one loss): a regeneration, and a survivor
// received after the other's loss; and pass there
// (TestClaimsMeetTheirSituation, issue 35).
//
// What mc finds (see spec_test.go). The signed variant keeps every claim
// for n ≤ 4 with one loss (and n ≤ 3 with two), over FIFO links, under
// weak fairness per action class. Under weak fairness per process the
// liveness of requests fails, and rightly: a process that holds ping may
// keep serving pong (receive it, send it on) forever, which counts as its
// steps, and never use or pass ping. Without fairness the holder of ping
// may simply never act while pong circulates. With --chan bag, ping can
// overtake pong on a link and reach a process whose m_i it set itself:
// a false regeneration (9 steps, n = 3), so the algorithm needs FIFO links.
//
// Variant literal-residues fails at n = 2 in 6 steps: after one meeting,
// pong's number −2 is the residue 1 of ping's earlier +1 left in m_1, and
// p1 "regenerates" a ping that exists.
//
// Variant mod-n is the faulty counter: magnitudes modulo n. It fails: the
// two tokens can meet at every one of the n processes during one round of a
// token (pong meets ping at p1, p2 and p0 for n = 3), so the token comes
// back to a process with the number it left there and "detects" the loss
// of a token that exists (14 steps for n = 3, 10 for n = 2).
package misra

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Ref is the seed section the spec comes from.
const Ref = "002 §4.2"

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "signed", Doc: "002 §4.2: numbers ±v with v modulo n+1; m_i keeps the sign"},
	{Name: "literal-residues", Doc: "002 §4.2 read literally: every number a residue modulo n+1, so −v and +v may coincide"},
	{Name: "mod-n", Doc: "the faulty counter: magnitudes modulo n instead of n+1"},
}

// Kind names a token.
type Kind uint8

const (
	Ping Kind = iota
	Pong
)

// Other is the other token.
func (k Kind) Other() Kind { return 1 - k }

func (k Kind) String() string {
	if k == Ping {
		return "ping"
	}
	return "pong"
}

// Token is ⟨ping +V⟩ or ⟨pong −V⟩.
type Token struct {
	Kind Kind
	V    uint8
}

// Compare orders tokens by kind, then magnitude.
func (t Token) Compare(o Token) int {
	if t.Kind != o.Kind {
		return int(t.Kind) - int(o.Kind)
	}
	return int(t.V) - int(o.V)
}

// AppendTo writes the token's canonical bytes.
func (t Token) AppendTo(buf []byte) []byte { return append(buf, byte(t.Kind), t.V) }

func (t Token) String() string {
	if t.Kind == Ping {
		return fmt.Sprintf("⟨ping +%d⟩", t.V)
	}
	return fmt.Sprintf("⟨pong −%d⟩", t.V)
}

func readToken(d *model.Decoder) Token { return Token{Kind: Kind(d.Int()), V: uint8(d.Int())} }

// Mark is m_i: in the signed variants the token that last passed (Passed:
// 0 for none yet, 1 + its Kind) and its magnitude; in literal-residues just
// a residue V (Passed stays 0).
type Mark struct {
	Passed uint8
	V      uint8
}

// State is the global state.
type State struct {
	Phase invariants.Phases
	M     []Mark
	Hand  []ring.Chan[Token] // tokens held, sorted
	In    ring.Chans[Token]  // from the predecessor
	// Losses counts the tokens lost so far (the environment's budget).
	Losses int
	Ghost  Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go).
type Ghost struct {
	// Lost[k] counts the losses of the last copy of token k, and
	// Regenerated[k] its regenerations.
	Lost, Regenerated [2]int
	// Passage counts the receipts of the surviving token since the other's
	// last copy was lost, the one that regenerates it excluded: 0 while
	// both exist, and at most n+1 (past the claim's n it has failed).
	Passage int
}

type spec struct {
	n, mod   int
	residues bool
	bound    int
	net      ring.Net
	claims   bool
}

// maxCopies bounds the copies of a token in the faulty variants, which
// otherwise multiply without end: a regeneration that would make a third
// copy makes none. The first duplicate, which every safety property
// notices, is still created, so counterexamples are not affected; and the
// signed variant never has two copies (one-token-each passes), so the
// bound never acts there.
const maxCopies = 2

// hand is the bag semantics of what a process holds.
var hand = model.ChanSemantics{Kind: model.Bag}

// MaxProcs is the largest n: a token's magnitude, modulo n+1, is held in
// a byte.
const MaxProcs = 254

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("misra", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	if p.Initiators != nil {
		return nil, fmt.Errorf("spec misra has no initiators")
	}
	if p.N > MaxProcs {
		return nil, fmt.Errorf("spec misra supports at most %d processes, got %d", MaxProcs, p.N)
	}
	if p.Bound == 0 {
		p.Bound = 1
	}
	p.Variant = variant
	sp := &spec{n: p.N, mod: p.N + 1, residues: variant == "literal-residues", bound: p.Bound,
		net: ring.Net{Ring: ring.Ring{N: p.N}, Sem: p.ChanSemantics()}, claims: p.Claims}
	if variant == "mod-n" {
		sp.mod = p.N
	}
	return &model.System[State]{
		Spec: "misra", Variant: variant, Params: p, Procs: p.N,
		Init: []State{sp.initial()},
		Rules: []model.Rule[State]{
			{Name: "request", Ref: Ref + " (the user asks)", Env: true, Guard: sp.idle, Do: sp.request},
			{Name: "recv", Ref: Ref + " when received; when meeting", Guard: sp.hasToken, Choices: sp.recvChoices, Do: sp.recv, Label: sp.recvLabel},
			{Name: "enter", Ref: "002 §4.1 wait (token)", Guard: sp.canEnter, Do: sp.enter},
			{Name: "leave", Ref: "002 §4.1 send (token)", Guard: sp.inCS, Do: sp.leave, Label: sp.leaveLabel},
			{Name: "pass-ping", Ref: Ref + " (the tokens circulate)", Guard: sp.canPass(Ping), Choices: sp.passChoices(Ping), Do: sp.pass(Ping), Label: sp.passLabel(Ping)},
			{Name: "pass-pong", Ref: Ref + " (the tokens circulate)", Guard: sp.canPass(Pong), Choices: sp.passChoices(Pong), Do: sp.pass(Pong), Label: sp.passLabel(Pong)},
			{Name: "lose", Ref: Ref + " (loss of a token)", Env: true, Guard: sp.canLose, Choices: sp.loseChoices, Do: sp.lose, Label: sp.loseLabel},
		},
		Props:  sp.properties(),
		Copy:   copyState,
		Encode: encode,
		Decode: sp.decode,
		Erase:  func(s *State) { s.Ghost = Ghost{} },
		Vars:   sp.vars,
	}, nil
}

func (sp *spec) initial() State {
	n := sp.n
	s := State{Phase: make(invariants.Phases, n), M: make([]Mark, n), Hand: make([]ring.Chan[Token], n), In: make(ring.Chans[Token], n)}
	s.Hand[0].Send(hand, Token{Kind: Ping, V: 1})
	s.Hand[0].Send(hand, Token{Kind: Pong, V: 1})
	return s
}

// inc adds one to a magnitude.
func (sp *spec) inc(v uint8) uint8 { return uint8((int(v) + 1) % sp.mod) }

// mark is what m_i becomes when t passes.
func (sp *spec) mark(t Token) Mark {
	if !sp.residues {
		return Mark{Passed: 1 + uint8(t.Kind), V: t.V}
	}
	if t.Kind == Pong {
		return Mark{V: uint8((sp.mod - int(t.V)) % sp.mod)}
	}
	return Mark{V: t.V}
}

// count is how many copies of token k exist, in channels and hands.
func count(s *State, k Kind) int {
	c := 0
	for i := range s.In {
		for _, t := range s.In[i].Messages() {
			if t.Kind == k {
				c++
			}
		}
		for _, t := range s.Hand[i].Messages() {
			if t.Kind == k {
				c++
			}
		}
	}
	return c
}

func holds(s *State, i int, k Kind) bool {
	for _, t := range s.Hand[i].Messages() {
		if t.Kind == k {
			return true
		}
	}
	return false
}

func (sp *spec) idle(s *State, i int) bool { return s.Phase[i] == invariants.Idle }

func (sp *spec) request(s *State, i, _ int) bool {
	s.Phase[i] = invariants.Waiting
	return true
}

func (sp *spec) hasToken(s *State, i int) bool { return s.In[i].Len() > 0 }

func (sp *spec) recvChoices(s *State, i int) int { return s.In[i].Choices(sp.net.Sem) }

func (sp *spec) recv(s *State, i, k int) bool {
	t := s.In[i].Recv(sp.net.Sem, k)
	other := t.Kind.Other()
	if sp.claims && count(s, other) == 0 {
		s.Ghost.Passage = min(s.Ghost.Passage+1, sp.n+2)
	}
	if s.M[i] == sp.mark(t) {
		// "m_i = nb": the other token is lost; regenerate it (unless two
		// copies exist already: see the package doc).
		t.V = sp.inc(t.V)
		if count(s, other) < maxCopies {
			s.Hand[i].Send(hand, Token{Kind: other, V: t.V})
		}
		if sp.claims {
			// Saturating at Bound+1 keeps the faulty variants finite; past
			// Bound (≥ Lost) the claim has failed already.
			s.Ghost.Regenerated[other] = min(s.Ghost.Regenerated[other]+1, sp.bound+1)
			s.Ghost.Passage = 0
		}
	} else {
		s.M[i] = sp.mark(t)
		if holds(s, i, other) {
			// The tokens meet: both numbers grow by one (every held copy of
			// the other, should there be several).
			t.V = sp.inc(t.V)
			var met []Token
			for j := s.Hand[i].Len() - 1; j >= 0; j-- {
				if s.Hand[i].Messages()[j].Kind == other {
					met = append(met, s.Hand[i].Drop(j))
				}
			}
			for _, h := range met {
				s.Hand[i].Send(hand, Token{Kind: other, V: sp.inc(h.V)})
			}
		}
	}
	s.Hand[i].Send(hand, t)
	return true
}

func (sp *spec) recvLabel(s *State, i, k int) string {
	t := s.In[i].Peek(sp.net.Sem, k)
	switch {
	case s.M[i] == sp.mark(t):
		return fmt.Sprintf("recv p%d %v (m = %s: regenerates %v)", i, t, sp.show(s.M[i]), t.Kind.Other())
	case holds(s, i, t.Kind.Other()):
		return fmt.Sprintf("recv p%d %v (meets %v)", i, t, t.Kind.Other())
	}
	return fmt.Sprintf("recv p%d %v", i, t)
}

func (sp *spec) canEnter(s *State, i int) bool {
	return s.Phase[i] == invariants.Waiting && holds(s, i, Ping)
}

func (sp *spec) enter(s *State, i, _ int) bool {
	s.Phase[i] = invariants.InCS
	return true
}

func (sp *spec) inCS(s *State, i int) bool { return s.Phase[i] == invariants.InCS }

func (sp *spec) leave(s *State, i, _ int) bool {
	s.Phase[i] = invariants.Idle
	return sp.pass(Ping)(s, i, 0)
}

func (sp *spec) leaveLabel(s *State, i, _ int) string {
	return fmt.Sprintf("leave p%d (sends ping to p%d)", i, sp.net.Ring.Succ(i))
}

// passable lists the distinct tokens of kind k in i's hand.
func passable(s *State, i int, k Kind) []Token {
	var out []Token
	for _, t := range s.Hand[i].Messages() {
		if t.Kind == k && (len(out) == 0 || out[len(out)-1] != t) {
			out = append(out, t)
		}
	}
	return out
}

func (sp *spec) canPass(k Kind) func(*State, int) bool {
	return func(s *State, i int) bool {
		return holds(s, i, k) && (k == Pong || s.Phase[i] == invariants.Idle)
	}
}

func (sp *spec) passChoices(k Kind) func(*State, int) int {
	return func(s *State, i int) int { return len(passable(s, i, k)) }
}

// pass sends the c-th distinct held token of kind k to i's successor.
func (sp *spec) pass(k Kind) func(*State, int, int) bool {
	return func(s *State, i, c int) bool {
		t := passable(s, i, k)[c]
		for j, h := range s.Hand[i].Messages() {
			if h == t {
				s.Hand[i].Drop(j)
				break
			}
		}
		return s.In.Send(sp.net, i, ring.Right, t)
	}
}

func (sp *spec) passLabel(k Kind) func(*State, int, int) string {
	return func(s *State, i, c int) string {
		return fmt.Sprintf("pass p%d %v to p%d", i, passable(s, i, k)[c], sp.net.Ring.Succ(i))
	}
}

func (sp *spec) canLose(s *State, i int) bool {
	return s.Losses < sp.bound && s.In[i].Len() > 0 && count(s, Ping) > 0 && count(s, Pong) > 0
}

func (sp *spec) loseChoices(s *State, i int) int { return s.In[i].Len() }

func (sp *spec) lose(s *State, i, c int) bool {
	t := s.In[i].Drop(c)
	s.Losses++
	if sp.claims && count(s, t.Kind) == 0 {
		s.Ghost.Lost[t.Kind]++
	}
	return true
}

func (sp *spec) loseLabel(s *State, i, c int) string {
	return fmt.Sprintf("lose %v on its way to p%d", s.In[i].Messages()[c], i)
}

// properties are mutual exclusion for ping's privilege and its liveness
// (invariants.MutexProperties), the seed's claims about the numbers and regeneration,
// and the regeneration's liveness.
func (sp *spec) properties() []model.Property[State] {
	props := invariants.MutexProperties(sp.n, "002 §4.2 (the privilege goes with ping)", Ref+" (the privilege circulates)",
		func(s *State) invariants.Phases { return s.Phase })
	props = append(props,
		model.InvariantProp("one-token-each", Ref+" (a token is regenerated only when it is really lost)",
			"at most one ping and one pong exist (in channels or held)",
			func(s *State) bool { return count(s, Ping) <= 1 && count(s, Pong) <= 1 }),
		model.InvariantProp("numbers-balance", Ref+" (nbping + nbpong = 0)",
			fmt.Sprintf("whenever both tokens exist, nbping + nbpong = 0 (mod %d)", sp.mod),
			func(s *State) bool { return balanced(s) }),
		model.LeadsToProp("lost-token-regenerated", Ref+" (the loss of a token is detected by the other in one passage)",
			"after a token is lost, both tokens eventually exist again",
			func(s *State) bool { return count(s, Ping) == 0 || count(s, Pong) == 0 },
			func(s *State) bool { return count(s, Ping) > 0 && count(s, Pong) > 0 }))
	if sp.claims {
		props = append(props, model.InvariantProp("regenerated-only-when-lost", Ref+" (a token is regenerated only when it is really lost)",
			"no token is regenerated more often than its last copy was lost (ghost counters)",
			func(s *State) bool {
				return s.Ghost.Regenerated[Ping] <= s.Ghost.Lost[Ping] && s.Ghost.Regenerated[Pong] <= s.Ghost.Lost[Pong]
			}).When("no token was regenerated", func(s *State) bool { return s.Ghost.Regenerated[Ping]+s.Ghost.Regenerated[Pong] > 0 }),
			model.InvariantProp("loss-detected-in-one-passage", Ref+" (the loss of a token is detected by the other in one passage round the ring)",
				fmt.Sprintf("once a token's last copy is lost, the other regenerates it by its (n+1)-th receipt: at most n = %d that do not (ghost counter)", sp.n),
				func(s *State) bool { return s.Ghost.Passage <= sp.n }).
				When("no token was received after the other's last copy was lost", func(s *State) bool { return s.Ghost.Passage > 0 }))
	}
	return props
}

// balanced holds when every ping's magnitude equals every pong's, which is
// nbping + nbpong = 0 in both readings of the numbers.
func balanced(s *State) bool {
	v := [2]int{-1, -1}
	for i := range s.In {
		for _, c := range [2]*ring.Chan[Token]{&s.In[i], &s.Hand[i]} {
			for _, t := range c.Messages() {
				if w := v[t.Kind.Other()]; w >= 0 && w != int(t.V) {
					return false
				}
				v[t.Kind] = int(t.V)
			}
		}
	}
	return true
}

func copyState(d, s *State) {
	n := len(s.Phase)
	if len(d.Phase) != n {
		d.Phase, d.M, d.Hand, d.In = make(invariants.Phases, n), make([]Mark, n), make([]ring.Chan[Token], n), make(ring.Chans[Token], n)
	}
	copy(d.Phase, s.Phase)
	copy(d.M, s.M)
	for i := 0; i < n; i++ {
		d.Hand[i].CopyFrom(&s.Hand[i])
		d.In[i].CopyFrom(&s.In[i])
	}
	d.Losses, d.Ghost = s.Losses, s.Ghost
}

func encode(buf []byte, s *State) []byte {
	buf = s.Phase.AppendTo(buf)
	for i := range s.Phase {
		buf = append(buf, s.M[i].Passed, s.M[i].V)
		buf = s.Hand[i].AppendTo(buf)
		buf = s.In[i].AppendTo(buf)
	}
	buf = model.AppendUint(buf, uint64(s.Losses))
	for _, c := range [5]int{s.Ghost.Lost[0], s.Ghost.Lost[1], s.Ghost.Regenerated[0], s.Ghost.Regenerated[1], s.Ghost.Passage} {
		buf = model.AppendUint(buf, uint64(c))
	}
	return buf
}

func (sp *spec) decode(data []byte, s *State) error {
	if len(s.Phase) != sp.n {
		*s = sp.initial()
	}
	d := model.NewDecoder(data)
	s.Phase.DecodeFrom(&d)
	for i := range s.Phase {
		s.M[i] = Mark{Passed: uint8(d.Int()), V: uint8(d.Int())}
		s.Hand[i].DecodeFrom(&d, readToken)
		s.In[i].DecodeFrom(&d, readToken)
	}
	s.Losses = d.Int()
	s.Ghost.Lost[0], s.Ghost.Lost[1], s.Ghost.Regenerated[0], s.Ghost.Regenerated[1] = d.Int(), d.Int(), d.Int(), d.Int()
	s.Ghost.Passage = d.Int()
	return d.Finish()
}

// show renders m_i as the seed writes numbers: +v, −v, or 0 before any
// token passed (a residue in literal-residues).
func (sp *spec) show(m Mark) string {
	switch m.Passed {
	case 1 + uint8(Ping):
		return fmt.Sprintf("+%d", m.V)
	case 1 + uint8(Pong):
		return fmt.Sprintf("−%d", m.V)
	}
	return fmt.Sprint(m.V)
}

func (sp *spec) vars(s *State) []model.Var {
	out := s.Phase.Vars(nil)
	for i := range s.Phase {
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d.m", i), Value: sp.show(s.M[i])},
			model.Var{Name: fmt.Sprintf("p%d.holds", i), Value: s.Hand[i].String()},
			model.Var{Name: fmt.Sprintf("p%d.in", i), Value: s.In[i].String()})
	}
	out = append(out, model.Var{Name: "losses", Value: fmt.Sprint(s.Losses)})
	if sp.claims {
		out = append(out,
			model.Var{Name: "ghost.lost", Value: fmt.Sprintf("ping %d, pong %d", s.Ghost.Lost[Ping], s.Ghost.Lost[Pong])},
			model.Var{Name: "ghost.regenerated", Value: fmt.Sprintf("ping %d, pong %d", s.Ghost.Regenerated[Ping], s.Ghost.Regenerated[Pong])},
			model.Var{Name: "ghost.passage", Value: fmt.Sprint(s.Ghost.Passage)})
	}
	return out
}
