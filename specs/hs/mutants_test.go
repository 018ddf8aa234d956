package hs

import (
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/spectest"
)

// raynalHandler is 002 §5.3's receive handler (raynal.recv) with its
// decisions as parameters, each the seed's in seedRaynal.
type raynalHandler struct {
	// larger says whether candidature j beats a process whose id is me.
	larger func(j, me int) bool
	// passes says whether a candidature that has gone lg hops of lgmax
	// goes on.
	passes func(lg, lgmax int) bool
	// answerBack: a response goes back the way the candidature came.
	answerBack bool
	// ownPassed: a process passes its own candidature on as a larger
	// one's, staying a candidate.
	ownPassed bool
	// yieldAtLimit: a process at a candidature's last hop answers T
	// whatever the ids.
	yieldAtLimit bool
	// hearEnded handles ⟨ended⟩ at i, which came through port.
	hearEnded func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) bool
}

func seedRaynal() raynalHandler {
	return raynalHandler{
		larger:     func(j, me int) bool { return j > me },
		passes:     func(lg, lgmax int) bool { return lg < lgmax },
		answerBack: true,
		hearEnded: func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) bool {
			if !s.Out.Hear(i, m.ID, sp.params.IDs[i]) {
				return true
			}
			s.P[i].become(NotInvolved)
			return sp.net.Send(s, i, port.Opposite(), m)
		},
	}
}

// into puts h in place of the system's recv.
func (h raynalHandler) into(sys *model.System[RaynalState]) {
	sp, _, err := buildRaynal(sys.Params)
	if err != nil {
		panic(err)
	}
	spectest.ReplaceDo(sys, "recv", func(s *RaynalState, i, k int) bool {
		port, m := sp.net.Recv(s, i, k, ring.BothPorts)
		p := &s.P[i]
		me := sp.params.IDs[i]
		answer := port
		if !h.answerBack {
			answer = port.Opposite()
		}
		switch m.Kind {
		case Response:
			if m.ID != me {
				return sp.net.Send(s, i, port.Opposite(), m)
			}
			if p.Waiting {
				p.NResp++
				p.RespOK = p.RespOK && m.OK
			}
			return true
		case Ended:
			return h.hearEnded(sp, s, i, port, m)
		}
		switch {
		case m.ID != me && !h.larger(m.ID, me):
			ok := h.yieldAtLimit && int(m.Hops)+1 == 1<<m.Phase
			if !sp.net.Send(s, i, answer, Msg{Kind: Response, ID: m.ID, OK: ok}) {
				return false
			}
			if p.State == NotInvolved {
				return sp.initiate(s, i, 0)
			}
			return true
		case m.ID != me || h.ownPassed:
			if m.ID != me {
				p.become(Lost)
			}
			if lg := m.Hops + 1; h.passes(int(lg), 1<<m.Phase) {
				return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Candidature, ID: m.ID, Phase: m.Phase, Hops: lg})
			}
			return sp.net.Send(s, i, answer, Msg{Kind: Response, ID: m.ID, OK: true})
		}
		if p.State == Elected {
			return true
		}
		p.become(Elected)
		s.Out.Learn(i, me, me)
		return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Ended, ID: me})
	})
}

// withResume replaces the candidate loop's step after "wait nresp = 2".
func withResume(resume func(sp *raynal, s *RaynalState, i int) bool) func(sys *model.System[RaynalState]) {
	return func(sys *model.System[RaynalState]) {
		sp, _, err := buildRaynal(sys.Params)
		if err != nil {
			panic(err)
		}
		spectest.ReplaceDo(sys, "resume", func(s *RaynalState, i, _ int) bool { return resume(sp, s, i) })
	}
}

// Every property of variant raynal fails on some mutant of its receive
// handler or of its candidate loop (docs/mutants.md).
func TestMutantsHSRaynal(t *testing.T) {
	var h [9]raynalHandler
	for k := range h {
		h[k] = seedRaynal()
	}
	h[0].larger = func(j, me int) bool { return j < me }
	h[1].passes = func(lg, lgmax int) bool { return lg <= lgmax }
	h[2].answerBack = false
	h[3].hearEnded = func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) bool {
		s.Out.Hear(i, m.ID, sp.params.IDs[i])
		if s.P[i].State != Elected {
			s.P[i].become(NotInvolved)
		}
		return sp.net.Send(s, i, port.Opposite(), m)
	}
	h[4].hearEnded = func(sp *raynal, s *RaynalState, i int, port ring.Port, m Msg) bool {
		if !s.Out.Hear(i, m.ID, sp.params.IDs[i]) {
			s.Out.Decided[i] = invariants.Lost
			return true
		}
		s.P[i].become(NotInvolved)
		return sp.net.Send(s, i, port.Opposite(), m)
	}
	h[5].hearEnded = func(sp *raynal, s *RaynalState, i int, _ ring.Port, m Msg) bool {
		if s.Out.Hear(i, m.ID, sp.params.IDs[i]) {
			s.P[i].become(NotInvolved)
		}
		return true
	}
	h[6].yieldAtLimit = true
	h[7].ownPassed = true
	h[8].passes = func(lg, lgmax int) bool { return lg+1 < lgmax }
	// The loop: lgmax not doubled, and a candidate elected on winning
	// phase 0.
	stuck := withResume(func(sp *raynal, s *RaynalState, i int) bool {
		p := &s.P[i]
		lost := !p.RespOK
		p.Waiting, p.NResp, p.RespOK = false, 0, true
		if lost {
			p.become(Lost)
		}
		if p.State != Candidate {
			return true
		}
		return sp.round(s, i)
	})
	early := withResume(func(sp *raynal, s *RaynalState, i int) bool {
		p := &s.P[i]
		p.Waiting = false
		if p.RespOK && p.State == Candidate {
			p.become(Elected)
			s.Out.Learn(i, sp.params.IDs[i], sp.params.IDs[i])
		}
		return true
	})
	p := func(ids ...int) model.Params { return model.Params{N: len(ids), IDs: ids, Claims: true} }
	// Two mutants cost messages, not correctness, and stay within the
	// message bound: only 002 §5.3's count of each candidature's messages
	// (messages-on-their-paths) sees them (docs/mutants.md).
	mutants := []spectest.Mutant[RaynalState]{
		{Name: "comparison flipped: a smaller candidature beats a larger id", Rule: "candidature j at a process, j > id: pass on (lost)", Params: p(3, 1, 2), Mutate: h[0].into,
			Kills: []string{"leader-is-max", "election-complete"}},
		{Name: "bound off by one: a candidature goes lgmax+1 hops", Rule: "candidature: pass on while lg < lgmax, then answer T", Params: p(3, 1, 2), Mutate: h[1].into,
			Kills: []string{"messages-on-their-paths"}},
		{Name: "message direction: a response goes on, not back", Rule: "response: back the way the candidature came", Params: p(3, 1, 2), Mutate: h[2].into,
			Kills: []string{"messages-on-their-paths"}},
		{Name: "stop dropped: ⟨ended⟩ is passed on forever", Rule: "⟨ended⟩ back at the winner: stop", Params: p(3, 1, 2), Mutate: h[3].into,
			Kills: []string{"election-terminates", "announcement-messages-bound"}},
		{Name: "decision reset: the winner decides lost when its ⟨ended⟩ returns", Rule: "⟨ended⟩ back at the winner: stop", Params: p(3, 1, 2), Mutate: h[4].into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "announcement not passed on", Rule: "⟨ended⟩: pass on", Params: p(3, 1, 2), Mutate: h[5].into,
			Kills: []string{"election-complete", "announcement-messages"}},
		{Name: "comparison dropped: a process at a candidature's last hop answers T whatever the ids", Rule: "candidature j, j < id: answer F", Params: p(3, 1, 2), Mutate: h[6].into,
			Kills: []string{"phase-entrants-bound"}},
		{Name: "rule order: a process's own candidature passed on as a larger one's, the process staying a candidate", Rule: "own candidature back: elected", Params: p(3, 1, 2), Mutate: h[7].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "phase-entrants-bound", "phases-bounded", "election-messages-bound"}},
		{Name: "doubling dropped: lgmax stays as it was", Rule: "after nresp = 2: lgmax ← 2·lgmax", Params: p(3, 2, 1), Mutate: stuck,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "election-messages-bound"}},
		{Name: "rule order: elected on winning phase 0", Rule: "after nresp = 2: next phase if respOK", Params: p(3, 1, 4, 2), Mutate: early,
			Kills: []string{"at-most-one-leader", "leader-is-max", "election-complete", "announcement-messages"}},
		{Name: "bound off by one: a candidature turns back one hop early", Rule: "candidature: pass on while lg < lgmax, then answer T", Params: p(3, 1, 2), Mutate: h[8].into,
			Kills: []string{"phase-entrants-bound"}},
		{Name: "guard dropped: a candidate goes on after one response", Rule: "wait nresp = 2", Params: p(3, 1, 2), Mutate: func(sys *model.System[RaynalState]) {
			spectest.ReplaceGuard(sys, "resume", func(s *RaynalState, i int) bool { return s.P[i].Waiting && s.P[i].NResp >= 1 })
		}, Kills: []string{"phase-entrants-bound", "phases-bounded"}},
	}
	spectest.Suite[RaynalState]{
		Section: "hs, variant raynal (002 §5.3), claims on",
		Build:   NewRaynal, Options: checker.Options{MaxStates: 30000}, Mutants: mutants,
	}.Run(t)
}

// probeHandler is 004's receive handler (probe.recv, lines 9–31) with its
// decisions as parameters, each the seed's in seedProbe.
type probeHandler struct {
	// bounces says whether a probe with ttl hops left is bounced.
	bounces func(ttl int) bool
	// passes says whether probe j goes on at a processor whose id is me.
	passes func(j, me int) bool
	// replyBack: a reply for another processor goes on the way it was
	// going, not back.
	replyBack bool
	// both: a processor enters its next phase once replied on both sides.
	both bool
	// phase is the phase a processor enters after phase i.
	phase func(n int, i uint8) uint8
	// terminateOn: ⟨terminate⟩ goes on through Left, as the winner sent it.
	terminateOn bool
	// ownPassed: a processor passes its own probe on as a larger one's.
	ownPassed bool
	// decided handles ⟨terminate⟩ at a processor that has decided.
	decided func(sp *probe, s *ProbeState, i int, m Msg) bool
}

func seedProbe() probeHandler {
	return probeHandler{
		bounces: func(ttl int) bool { return ttl == 0 },
		passes:  func(j, me int) bool { return j > me },
		both:    true, phase: next, terminateOn: true,
		decided: func(*probe, *ProbeState, int, Msg) bool { return true },
	}
}

// into puts h in place of the system's recv.
func (h probeHandler) into(sys *model.System[ProbeState]) {
	sp, _, err := buildProbe(sys.Params)
	if err != nil {
		panic(err)
	}
	spectest.ReplaceDo(sys, "recv", func(s *ProbeState, i, k int) bool {
		port, m := sp.net.Recv(s, i, k, ring.BothPorts)
		p := &s.P[i]
		if p.Asleep && !sp.wake(s, i, 0) {
			return false
		}
		me := sp.params.IDs[i]
		switch {
		case m.Kind == Terminate:
			if s.Out.Decided[i] != invariants.Undecided {
				return h.decided(sp, s, i, m)
			}
			s.Out.Decided[i] = invariants.Lost
			if !h.terminateOn {
				return sp.net.Send(s, i, port, m)
			}
			return sp.net.Send(s, i, ring.Left, m)
		case m.Kind == Reply && m.ID != me && h.replyBack:
			return sp.net.Send(s, i, port, m)
		case m.Kind == Reply && m.ID != me:
			return sp.net.Send(s, i, port.Opposite(), m)
		case m.Kind == Reply:
			p.Replied[port] = true
			if h.both && (!p.Replied[ring.Left] || !p.Replied[ring.Right]) {
				return true
			}
			p.Replied = [2]bool{}
			return sp.sendProbes(s, i, h.phase(sp.params.N, m.Phase))
		case m.ID == me && h.ownPassed && m.Hops > 0:
			return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Probe, ID: m.ID, Phase: m.Phase, Hops: m.Hops - 1})
		case m.ID == me && h.ownPassed:
			return sp.net.Send(s, i, port, Msg{Kind: Reply, ID: m.ID, Phase: m.Phase})
		case m.ID == me && s.Out.Decided[i] == invariants.Undecided:
			s.Out.Decided[i] = invariants.Leader
			return sp.net.Send(s, i, ring.Left, Msg{Kind: Terminate})
		case m.ID != me && h.passes(m.ID, me) && !h.bounces(m.Hops):
			return sp.net.Send(s, i, port.Opposite(), Msg{Kind: Probe, ID: m.ID, Phase: m.Phase, Hops: m.Hops - 1})
		case m.ID != me && h.passes(m.ID, me):
			return sp.net.Send(s, i, port, Msg{Kind: Reply, ID: m.ID, Phase: m.Phase})
		}
		return true
	})
}

// Every property of variant probe fails on some mutant of its receive
// handler (docs/mutants.md).
func TestMutantsHSProbe(t *testing.T) {
	var h [10]probeHandler
	for k := range h {
		h[k] = seedProbe()
	}
	h[0].bounces = func(ttl int) bool { return ttl <= 1 }
	h[1].passes = func(j, me int) bool { return j != me }
	h[2].replyBack = true
	h[3].both = false
	h[4].phase = func(_ int, i uint8) uint8 { return i }
	h[5].terminateOn = false
	h[6].passes = func(j, me int) bool { return j < me }
	h[7].ownPassed = true
	h[8].decided = func(sp *probe, s *ProbeState, i int, m Msg) bool {
		if s.Out.Decided[i] == invariants.Leader {
			return sp.net.Send(s, i, ring.Left, m)
		}
		return true
	}
	h[9].decided = func(_ *probe, s *ProbeState, i int, _ Msg) bool {
		s.Out.Decided[i] = invariants.Lost
		return true
	}
	p := func(ids ...int) model.Params {
		return model.Params{N: len(ids), IDs: ids, Variant: "probe", Claims: true}
	}
	mutants := []spectest.Mutant[ProbeState]{
		{Name: "bound off by one: a probe bounces with one hop left", Rule: "lines 14–17: pass on while ttl > 0, then reply", Params: p(1, 5, 2, 4, 3), Mutate: h[0].into,
			Kills: []string{"phase-entrants-bound"}},
		{Name: "swallow dropped: a smaller id's probe passed on", Rule: "a probe with a smaller id is swallowed", Params: p(3, 1, 2), Mutate: h[1].into,
			Kills: []string{"at-most-one-leader", "leader-is-max", "election-complete", "phase-entrants-bound"}},
		{Name: "message direction: a reply for another processor sent back the way it came", Rule: "lines 19–20: pass a reply on", Params: p(3, 1, 2), Mutate: h[2].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "election-messages-bound"}},
		{Name: "guard dropped: the next phase entered on one reply", Rule: "lines 21–26: next phase once CWreplied and CCWreplied", Params: p(3, 1, 2), Mutate: h[3].into,
			Kills: []string{"phase-entrants-bound"}},
		{Name: "doubling dropped: a reply's phase entered again", Rule: "lines 21–26: send probes of phase + 1", Params: p(3, 1, 2), Mutate: h[4].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "election-messages-bound"}},
		{Name: "message direction: ⟨terminate⟩ sent back the way it came", Rule: "lines 27–31: pass ⟨terminate⟩ on", Params: p(3, 1, 2), Mutate: h[5].into,
			Kills: []string{"election-complete", "announcement-messages"}},
		{Name: "comparison flipped: a probe passed on where its id is smaller", Rule: "lines 14–17: pass on if the id is larger", Params: p(3, 1, 2), Mutate: h[6].into,
			Kills: []string{"leader-is-max"}},
		{Name: "rule order: a processor's own probe passed on as a larger one's", Rule: "lines 10–13: own probe back: leader", Params: p(3, 1, 2), Mutate: h[7].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "phase-entrants-bound", "phases-bounded", "election-messages-bound"}},
		{Name: "stop dropped: the leader passes ⟨terminate⟩ on, forever", Rule: "lines 27–31: a decided processor drops ⟨terminate⟩", Params: p(3, 1, 2), Mutate: h[8].into,
			Kills: []string{"announcement-messages-bound", "announcement-messages"}},
		{Name: "decision reset: the leader decides lost when ⟨terminate⟩ returns", Rule: "lines 27–31: a decided processor drops ⟨terminate⟩", Params: p(3, 1, 2), Mutate: h[9].into,
			Kills: []string{"decision-stable", "election-complete"}},
	}
	spectest.Suite[ProbeState]{
		Section: "hs, variant probe (004), claims on",
		Build:   NewProbe, Options: checker.Options{MaxStates: 160000}, Mutants: mutants,
	}.Run(t)
}
