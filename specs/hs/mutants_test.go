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
	var h [8]raynalHandler
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
		{Name: "comparison flipped: a smaller candidature beats a larger id", Params: p(3, 1, 2), Mutate: h[0].into,
			Kills: []string{"leader-is-max", "election-complete"}},
		{Name: "bound off by one: a candidature goes lgmax+1 hops", Params: p(3, 1, 2), Mutate: h[1].into,
			Kills: []string{"messages-on-their-paths"}},
		{Name: "message direction: a response goes on, not back", Params: p(3, 1, 2), Mutate: h[2].into,
			Kills: []string{"messages-on-their-paths"}},
		{Name: "stop dropped: ⟨ended⟩ is passed on forever", Params: p(3, 1, 2), Mutate: h[3].into,
			Kills: []string{"election-terminates", "announcement-messages-bound"}},
		{Name: "decision reset: the winner decides lost when its ⟨ended⟩ returns", Params: p(3, 1, 2), Mutate: h[4].into,
			Kills: []string{"decision-stable", "election-complete"}},
		{Name: "announcement not passed on", Params: p(3, 1, 2), Mutate: h[5].into,
			Kills: []string{"election-complete", "announcement-messages"}},
		{Name: "comparison dropped: a process at a candidature's last hop answers T whatever the ids", Params: p(3, 1, 2), Mutate: h[6].into,
			Kills: []string{"phase-entrants-bound"}},
		{Name: "rule order: a process's own candidature passed on as a larger one's, the process staying a candidate", Params: p(3, 1, 2), Mutate: h[7].into,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "phase-entrants-bound", "phases-bounded", "election-messages-bound"}},
		{Name: "doubling dropped: lgmax stays as it was", Params: p(3, 2, 1), Mutate: stuck,
			Kills: []string{"leader-elected", "eventually-leader", "election-terminates", "election-messages-bound"}},
		{Name: "rule order: elected on winning phase 0", Params: p(3, 1, 4, 2), Mutate: early,
			Kills: []string{"at-most-one-leader", "leader-is-max", "election-complete", "announcement-messages"}},
	}
	if survivors := spectest.Kill(t, NewRaynal, checker.Options{MaxStates: 200000}, mutants); len(survivors) > 0 {
		t.Errorf("no mutant kills %v (docs/mutants.md)", survivors)
	}
}
