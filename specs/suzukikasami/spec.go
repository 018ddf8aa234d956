// Package suzukikasami is the Ricart–Agrawala / Suzuki–Kasami token
// algorithm for mutual exclusion (seed 002 §3.4, "The algorithm"; §3.2–3.6).
//
// Network: n processes 0..n-1 (the seed's P_1..P_n), fully connected (002
// §3.2 (a)); ids are not used (--ids is ignored) and there are no
// initiators. Each process has one input channel; it is a bag by default,
// since "desequencing is possible" (§3.2 (d)); --chan fifo is accepted and
// checks the algorithm on the stronger FIFO network.
//
// Messages: ⟨request k from j⟩ (the seed's (request, k, j): j's clock k) and
// ⟨token t⟩ (the seed's (access, token), carrying the array t: t(k) is the
// clock of k's last request served).
//
// State per process i, as declared in §3.4: clock, token_present,
// token_held (here the phase: in-cs), the array token (where the token is),
// requests; plus its input channel and, for the bound below, how many times
// its user has asked. The token starts present at process 0, all clocks,
// arrays and requests 0.
//
// One step is one action of one process:
//
//   - ask(i) — an environment action (fairness never forces it): i's user
//     wants the critical section, at most Bound times (--bound, default 1).
//     The prelude, atomically: if token_present, token_held ← T and i is in
//     its critical section (no message); otherwise clock ← clock + 1,
//     broadcast ⟨request clock from i⟩ to the n−1 others, and wait.
//   - recv(i) — one message of i's channel (any one of a bag):
//     ⟨request k from j⟩: requests(j) ← max(requests(j), k); then, if
//     token_present ∧ ¬token_held, the text of the postlude.
//     ⟨token t⟩: "wait (access, token)" completes: token ← t,
//     token_present ← T, token_held ← T: i is in its critical section.
//   - exit(i) — the postlude: token(i) ← clock, token_held ← F, then scan
//     j = i+1, …, n, 1, …, i−1 for the first j with requests(j) > token(j)
//     and send it the token (token_present ← F).
//
// Reconstruction and abstraction: the wait of the prelude is the phase
// waiting, and the token's arrival both ends it and starts the critical
// section, as in the seed's text. A process that has sent the token keeps
// no copy of it: the seed's local array is dead there (it is read only
// when token_present) until the next token overwrites it, so it is zeroed.
//
// The bound. Clocks grow with every request, so the state space is finite
// only if requests are bounded: each user asks at most Bound times. Every
// action then consumes a request, a message or a pending request's grant,
// so the state graph is acyclic and every run is finite. What is verified
// is therefore: in every run in which each process asks at most Bound
// times, mutual exclusion, at most one token, and every request granted
// before the run ends. Not covered: runs in which some process asks more
// often, e.g. a token holder re-entering its critical section Bound+1
// times while a request waits; and, since all runs end, fairness plays no
// part here.
//
// Recurring requests (variant recurring, 002 §3.5's fairness over infinite
// runs). Users ask again after leaving, for ever, with no --bound. The
// clocks then grow without end, but the algorithm reads them only in the
// postlude's test requests(j) > token(j), and a process has at most one
// request outstanding, so token(j) is clock_j − 1 while j's current
// request is unserved and clock_j once it is served. The variant keeps an
// abstraction of the state that decides every test exactly: clock_j
// modulo 2; the token's entries modulo 2 (token(j) < clock_j when their
// parities differ); and requests_i(j) as one bit, whether i has heard j's
// current request (requests_i(j) = clock_j: it can lag any number of
// requests behind, and any lag above zero answers the test alike). When j
// asks anew, the bits of j at every process are cleared and j's older
// request messages leave the channels: each records a clock below clock_j,
// so receiving it would change nothing (an idle holder's scan finds no
// one owed the token, or it would have sent it already), and dropping a
// receipt that changes nothing preserves every property up to stuttering.
// Every channel then holds at most one request of each process and the
// token, and the state space is finite with cycles. This bookkeeping reads
// and writes across processes, so the variant declares no footprints
// (--por explores it whole). Clocks print as their parity.
//
// Fairness there: the seed assumes every message is delivered in finite
// time (§3.2). mc's fairness classes are per process or per rule, not per
// message, so on a bag a request can stay in a channel for ever while its
// receiver keeps receiving others, a run that is fair by every --fair
// but not by the seed; on FIFO channels the head message must be received
// before any other, and with --fair action every request is granted
// (n = 2, 3). A hand-off that always scans from process 0 starves the
// highest-numbered process there, with a lasso (spec_test.go).
//
// Claims (--claims): a ghost Cost[i] counts the messages sent for i's
// current request (n−1 for its broadcast, 1 for the token sent to it). The
// seed claims (§3.6) "either n messages (n−1 to broadcast the request and 1
// to transfer the token) when the requesting process does not already hold
// the token, or 0 when it does" — n, not n−1. The claim meets its
// situation, an entry into the critical section, on the default
// configuration (n = 3, one request each) and in variant recurring, and
// passes there (TestClaimsMeetTheirSituation, issue 35).
package suzukikasami

import (
	"fmt"
	"github.com/ringcheck/mc/invariants"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Ref is the seed section the spec comes from.
const Ref = "002 §3.4"

// MaxProcs is the largest n: a token's array travels inside a message.
const MaxProcs = 8

// Variants of the spec; the first is the default.
var Variants = []model.Variant{
	{Name: "seed", Doc: "002 §3.4 as printed: broadcast a request, wait for the token, pass it on in the postlude"},
	{Name: "recurring", Doc: "002 §3.4 with users that ask again after leaving, for ever: clocks kept modulo 2 and requests as heard or not, in bounded state"},
}

// Kind is a message's type.
type Kind uint8

const (
	Request Kind = iota
	Access
)

// Msg is ⟨request Clock from From⟩ or ⟨token Token[:N]⟩ (N, the number of
// processes, is the same in every message of a system).
type Msg struct {
	Kind  Kind
	From  uint8
	Clock uint8
	N     uint8
	Token [MaxProcs]uint8
}

// Compare orders messages by kind, sender, clock, then token array (a bag's
// canonical order).
func (m Msg) Compare(o Msg) int {
	switch {
	case m.Kind != o.Kind:
		return int(m.Kind) - int(o.Kind)
	case m.From != o.From:
		return int(m.From) - int(o.From)
	case m.Clock != o.Clock:
		return int(m.Clock) - int(o.Clock)
	}
	for i := range m.Token {
		if m.Token[i] != o.Token[i] {
			return int(m.Token[i]) - int(o.Token[i])
		}
	}
	return 0
}

// AppendTo writes the message's canonical bytes.
func (m Msg) AppendTo(buf []byte) []byte {
	buf = append(buf, byte(m.Kind), m.From, m.Clock, m.N)
	return append(buf, m.Token[:]...)
}

func (m Msg) String() string {
	if m.Kind == Request {
		return fmt.Sprintf("⟨request %d from p%d⟩", m.Clock, m.From)
	}
	return fmt.Sprintf("⟨token %v⟩", m.Token[:m.N])
}

func readMsg(d *model.Decoder) Msg {
	m := Msg{Kind: Kind(d.Int()), From: uint8(d.Int()), Clock: uint8(d.Int()), N: uint8(d.Int())}
	for i := range m.Token {
		m.Token[i] = uint8(d.Int())
	}
	return m
}

// State is the global state.
type State struct {
	Phase   invariants.Phases // waiting: in the prelude's wait; in-cs: token_held
	Clock   []int
	Present []bool           // token_present
	Token   [][]int          // the token array; all zero where the token is not
	Reqs    [][]int          // requests(j) as known to i
	Asked   []int            // how often i's user has asked (bounded)
	In      []ring.Chan[Msg] // i's input channel
	Ghost   Ghost
}

// Ghost is the history kept with --claims (see model/ghost.go).
type Ghost struct {
	// Cost[i] is the number of messages sent for i's current request.
	Cost []int
}

// Procs is the number of processes.
func (s *State) Procs() int { return len(s.Phase) }

type spec struct {
	n      int
	bound  int
	sem    model.ChanSemantics
	claims bool
	// recurring is the variant whose users ask for ever (package doc).
	recurring bool
}

// New builds the system for p.
func New(p model.Params) (*model.System[State], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	variant, err := model.PickVariant("suzukikasami", Variants, p.Variant)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Initiators != nil:
		return nil, fmt.Errorf("spec suzukikasami has no initiators")
	case p.N > MaxProcs:
		return nil, fmt.Errorf("spec suzukikasami supports at most %d processes, got %d", MaxProcs, p.N)
	case p.Bound > 255:
		return nil, fmt.Errorf("spec suzukikasami supports at most 255 requests per process, got %d", p.Bound)
	case p.Bound != 0 && variant == "recurring":
		return nil, fmt.Errorf("spec suzukikasami: variant recurring takes no --bound: its users ask for ever")
	}
	if p.Bound == 0 && variant != "recurring" {
		p.Bound = 1
	}
	p.Variant = variant
	sp := &spec{n: p.N, bound: p.Bound, sem: p.ChanSemantics(), claims: p.Claims, recurring: variant == "recurring"}
	footprint := sp.footprint
	if sp.recurring {
		footprint = func(bool) func(int) model.Footprint { return nil } // package doc: the abstraction reads and writes across processes
	}
	return &model.System[State]{
		Spec: "suzukikasami", Variant: variant, Params: p, Procs: p.N,
		Init: []State{sp.initial()},
		Rules: []model.Rule[State]{
			{Name: "ask", Ref: Ref + " prelude", Env: true, Guard: sp.canAsk, Do: sp.ask, Label: sp.askLabel, Footprint: footprint(false)},
			{Name: "recv", Ref: Ref + " when received; wait (access, token)", Guard: sp.hasMessage, Choices: sp.recvChoices, Do: sp.recv, Label: sp.recvLabel, Footprint: footprint(true)},
			{Name: "exit", Ref: Ref + " postlude", Guard: sp.inCS, Do: sp.exit, Label: sp.exitLabel, Footprint: footprint(false)},
		},
		Chans:   sp.chans(),
		ChanLen: chanLen,
		Props:   sp.properties(),
		// A run ends once the bound on requests is used up; whether every
		// request was granted is request-granted's to say.
		Ends:   model.EveryEnd[State],
		Copy:   sp.copy,
		Encode: sp.encode,
		Decode: sp.decode,
		Erase: func(s *State) {
			for i := range s.Ghost.Cost {
				s.Ghost.Cost[i] = 0
			}
		},
		Vars: sp.vars,
	}, nil
}

// properties are mutual exclusion and its liveness (invariants.MutexProperties), the
// seed's token invariants (§3.5) and, with claims, the entry cost (§3.6).
func (sp *spec) properties() []model.Property[State] {
	n := sp.n
	props := invariants.MutexProperties(n, Ref+"; §3.5 mutual exclusion", Ref+"; §3.5 fairness and absence of deadlock",
		func(s *State) invariants.Phases { return s.Phase })
	props = append(props,
		model.InvariantProp("at-most-one-token-present", "002 §3.5", "at most one process has token_present = T",
			func(s *State) bool { return count(s.Present) <= 1 }).Reading(appendPresent),
		model.InvariantProp("token-in-transit-iff-none-present", "002 §3.5 (all F when and only when the token is being transferred)",
			"every token_present is F exactly when a token is in transit, and then only one is",
			func(s *State) bool { return count(s.Present)+tokensInTransit(s) == 1 }).Reading(appendPresent))
	if sp.claims {
		props = append(props, model.StepProp("entry-cost", "002 §3.6 (n messages, or 0 when the token is held)",
			fmt.Sprintf("every entry into the critical section costs n = %d messages, or 0 when the token was already present", n),
			func(b *State, _ model.Action, a *State) bool {
				for i := range a.Phase {
					if b.Phase[i] != invariants.InCS && a.Phase[i] == invariants.InCS {
						want := n
						if b.Present[i] {
							want = 0
						}
						if a.Ghost.Cost[i] != want {
							return false
						}
					}
				}
				return true
			}).Reading(appendEntry).
			WhenStep("no process entered its critical section", func(b *State, _ model.Action, a *State) bool {
				for i := range a.Phase {
					if b.Phase[i] != invariants.InCS && a.Phase[i] == invariants.InCS {
						return true
					}
				}
				return false
			}))
	}
	return props
}

func count(bs []bool) int {
	c := 0
	for _, b := range bs {
		if b {
			c++
		}
	}
	return c
}

func tokensInTransit(s *State) int {
	c := 0
	for i := range s.In {
		for _, m := range s.In[i].Messages() {
			if m.Kind == Access {
				c++
			}
		}
	}
	return c
}

func (sp *spec) initial() State {
	n := sp.n
	s := State{Phase: make(invariants.Phases, n), Clock: make([]int, n), Present: make([]bool, n), Token: make([][]int, n),
		Reqs: make([][]int, n), Asked: make([]int, n), In: make([]ring.Chan[Msg], n), Ghost: Ghost{Cost: make([]int, n)}}
	for i := 0; i < n; i++ {
		s.Token[i], s.Reqs[i] = make([]int, n), make([]int, n)
		if sp.recurring {
			for j := range s.Reqs[i] {
				s.Reqs[i][j] = 1 // requests(j) = clock_j = 0: j's current request, heard
			}
		}
	}
	s.Present[0] = true
	return s
}

func (sp *spec) canAsk(s *State, i int) bool {
	return s.Phase[i] == invariants.Idle && (sp.recurring || s.Asked[i] < sp.bound)
}

func (sp *spec) ask(s *State, i, _ int) bool {
	if !sp.recurring {
		s.Asked[i]++
	}
	if s.Present[i] {
		s.Phase[i] = invariants.InCS
		if sp.claims {
			s.Ghost.Cost[i] = 0
		}
		return true
	}
	if sp.recurring {
		sp.renew(s, i)
	} else {
		s.Clock[i]++
	}
	s.Phase[i] = invariants.Waiting
	for j := 0; j < sp.n; j++ {
		if j != i && !s.In[j].Send(sp.sem, Msg{Kind: Request, From: uint8(i), Clock: uint8(s.Clock[i])}) {
			return false
		}
	}
	if sp.claims {
		s.Ghost.Cost[i] = sp.n - 1
	}
	return true
}

// renew is the recurring variant's clock ← clock + 1 at i, on the
// abstract state (package doc): the clock's parity flips, every process's
// record of i's request becomes "not heard" (it holds an older clock now),
// and i's older request messages, whose receipt would change nothing,
// leave the channels.
func (sp *spec) renew(s *State, i int) {
	s.Clock[i] ^= 1
	for k := range s.Reqs {
		if k != i {
			s.Reqs[k][i] = 0
		}
		for x := s.In[k].Len() - 1; x >= 0; x-- {
			if m := s.In[k].Messages()[x]; m.Kind == Request && int(m.From) == i {
				s.In[k].Drop(x)
			}
		}
	}
}

func (sp *spec) askLabel(s *State, i, _ int) string {
	if s.Present[i] {
		return fmt.Sprintf("ask p%d (token present: enters, no message)", i)
	}
	clock := s.Clock[i] + 1
	if sp.recurring {
		clock = s.Clock[i] ^ 1
	}
	return fmt.Sprintf("ask p%d (broadcasts ⟨request %d from p%d⟩)", i, clock, i)
}

func (sp *spec) hasMessage(s *State, i int) bool { return s.In[i].Len() > 0 }

func (sp *spec) recvChoices(s *State, i int) int { return s.In[i].Choices(sp.sem) }

func (sp *spec) recv(s *State, i, k int) bool {
	m := s.In[i].Recv(sp.sem, k)
	if m.Kind == Access {
		for j := range s.Token[i] {
			s.Token[i][j] = int(m.Token[j])
		}
		s.Present[i] = true
		s.Phase[i] = invariants.InCS
		return true
	}
	j := int(m.From)
	if sp.recurring {
		s.Reqs[i][j] = 1 // every request in transit is j's current one
	} else {
		s.Reqs[i][j] = max(s.Reqs[i][j], int(m.Clock))
	}
	if s.Present[i] && s.Phase[i] != invariants.InCS {
		return sp.postlude(s, i)
	}
	return true
}

func (sp *spec) recvLabel(s *State, i, k int) string {
	return fmt.Sprintf("recv p%d %v", i, s.In[i].Peek(sp.sem, k))
}

func (sp *spec) inCS(s *State, i int) bool { return s.Phase[i] == invariants.InCS }

func (sp *spec) exit(s *State, i, _ int) bool {
	s.Phase[i] = invariants.Idle
	return sp.postlude(s, i)
}

func (sp *spec) exitLabel(s *State, i, _ int) string {
	if j := sp.next(s, i); j >= 0 {
		return fmt.Sprintf("exit p%d (sends the token to p%d)", i, j)
	}
	return fmt.Sprintf("exit p%d (keeps the token)", i)
}

// next is the process the postlude at i would send the token to, or -1: the
// first j after i, cyclically, with requests(j) > token(j) (i's own entry is
// token(i) = clock after the postlude's first line, never smaller).
func (sp *spec) next(s *State, i int) int {
	for d := 1; d < sp.n; d++ {
		if j := (i + d) % sp.n; sp.owed(s, i, j) {
			return j
		}
	}
	return -1
}

// owed is the postlude's test requests(j) > token(j) at i. In the
// recurring variant requests(j) exceeds token(j) exactly when i has heard
// j's current request and the token has not served it: token(j) is
// clock_j − 1, of the other parity (package doc).
func (sp *spec) owed(s *State, i, j int) bool {
	if sp.recurring {
		return s.Reqs[i][j] == 1 && s.Token[i][j] != s.Clock[j]
	}
	return s.Reqs[i][j] > s.Token[i][j]
}

// postlude records i's clock in the token and sends the token to the next
// requester, if any.
func (sp *spec) postlude(s *State, i int) bool {
	s.Token[i][i] = s.Clock[i]
	j := sp.next(s, i)
	if j < 0 {
		return true
	}
	m := Msg{Kind: Access, N: uint8(sp.n)}
	for k, v := range s.Token[i] {
		m.Token[k] = uint8(v)
		s.Token[i][k] = 0
	}
	s.Present[i] = false
	if sp.claims {
		s.Ghost.Cost[j]++
	}
	return s.In[j].Send(sp.sem, m)
}

func (sp *spec) copy(d, s *State) {
	n := len(s.Phase)
	if len(d.Phase) != n {
		*d = sp.initial()
	}
	copy(d.Phase, s.Phase)
	copy(d.Clock, s.Clock)
	copy(d.Present, s.Present)
	copy(d.Asked, s.Asked)
	copy(d.Ghost.Cost, s.Ghost.Cost)
	for i := 0; i < n; i++ {
		copy(d.Token[i], s.Token[i])
		copy(d.Reqs[i], s.Reqs[i])
		d.In[i].CopyFrom(&s.In[i])
	}
}

func (sp *spec) encode(buf []byte, s *State) []byte {
	buf = s.Phase.AppendTo(buf)
	for i := range s.Phase {
		buf = model.AppendUint(buf, uint64(s.Clock[i]))
		buf = model.AppendBool(buf, s.Present[i])
		buf = model.AppendUint(buf, uint64(s.Asked[i]))
		buf = model.AppendUint(buf, uint64(s.Ghost.Cost[i]))
		for j := range s.Phase {
			buf = model.AppendUint(model.AppendUint(buf, uint64(s.Token[i][j])), uint64(s.Reqs[i][j]))
		}
		buf = s.In[i].AppendTo(buf)
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
		s.Clock[i] = d.Int()
		s.Present[i] = d.Bool()
		s.Asked[i] = d.Int()
		s.Ghost.Cost[i] = d.Int()
		for j := range s.Phase {
			s.Token[i][j], s.Reqs[i][j] = d.Int(), d.Int()
		}
		s.In[i].DecodeFrom(&d, readMsg)
	}
	return d.Finish()
}

func (sp *spec) vars(s *State) []model.Var {
	out := s.Phase.Vars(nil)
	for i := range s.Phase {
		token := "-"
		if s.Present[i] {
			token = fmt.Sprint(s.Token[i])
		}
		out = append(out,
			model.Var{Name: fmt.Sprintf("p%d.clock", i), Value: fmt.Sprint(s.Clock[i])},
			model.Var{Name: fmt.Sprintf("p%d.token", i), Value: token},
			model.Var{Name: fmt.Sprintf("p%d.requests", i), Value: fmt.Sprint(s.Reqs[i])},
			model.Var{Name: fmt.Sprintf("p%d.asked", i), Value: fmt.Sprint(s.Asked[i])},
			model.Var{Name: fmt.Sprintf("p%d.in", i), Value: s.In[i].String()})
		if sp.claims {
			out = append(out, model.Var{Name: fmt.Sprintf("ghost.cost[%d]", i), Value: fmt.Sprint(s.Ghost.Cost[i])})
		}
	}
	return out
}
