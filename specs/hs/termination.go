package hs

import (
	"slices"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/specs/internal/biring"
)

// termination is the measure of 002 §5.3's termination argument (a
// candidate is tested against ever larger sets, lgmax doubling "until all
// the processes have been consulted"; each candidature gives rise to a
// candidature and a response on each hop of its path; the ⟨ended⟩
// announcement goes once round), as a lexicographic tuple that every step
// decreases:
//
//  1. the processes that do not know the outcome (a process is elected,
//     or hears ⟨ended⟩). It comes first because ⟨ended⟩ makes a process
//     not_involved again, and read literally a smaller candidature then
//     makes it stand again (package doc: with --chan bag it does);
//  2. Σ over the processes of 2·b + w, w 1 while the candidate loop waits
//     and b: K + 1 for not_involved, K − i for a candidate of phase i
//     (lgmax = 2^i), 0 for lost and elected, K one more than the last
//     phase the model numbers (phaseCap). Initiating lowers b by one, going
//     round the loop again (lgmax doubled) too, and losing or being elected
//     drops it to 0; a resume that does not go round clears w;
//  3. Σ over the candidatures and responses in transit of h + n + 1 for a
//     candidature and h + 1 for a response, h the hops from the process
//     that will receive it, in its direction, to the process whose id it
//     carries. Passing one on lowers h by one; a candidature turned into a
//     response at h hops from its origin short of going round becomes a
//     response n − 1 − h hops from it, and one back at its origin, like a
//     response home, leaves. The seed bounds a candidature's path by 2^i
//     out and as many back; the measure bounds it by the ring, which also
//     stops it (its origin takes it);
//  4. the ⟨ended⟩ in transit (back at the winner it stops).
//
// Going round the loop from phase K − 1, which no candidate enters, would
// break the measure. raynal-literal has none: there a candidate that loses
// its comparisons goes on to the next phase (package doc), and one that no
// larger candidature reaches goes round the loop for ever in the last phase
// the model numbers, where b no longer falls.
func (sp *raynal) termination() *model.Termination[RaynalState] {
	if sp.literal {
		return nil
	}
	return sp.measure()
}

// measure is the measure of termination's doc comment, whichever the
// variant: tests show raynal-literal breaking it.
func (sp *raynal) measure() *model.Termination[RaynalState] {
	n, net := sp.params.N, sp.net.Net
	k := int(phaseCap(n)) + 1
	origin := origins(sp.params.IDs)
	return &model.Termination[RaynalState]{
		Ref: RefRaynal + " (lgmax doubles until all the processes are consulted; a candidature and a response on each hop of its path)",
		Doc: "(not knowing, Σ 2·(phases left: not_involved K+1, candidate K−i, else 0) + waiting, Σ hops to the origin: candidature h+n+1, response h+1, ⟨ended⟩)",
		Value: func(buf []int, s *RaynalState) []int {
			unknowing, career, weight, ended := 0, 0, 0, 0
			for i := range n {
				p := &s.P[i]
				if !s.Out.Knows(i) {
					unknowing++
				}
				switch p.State {
				case NotInvolved:
					career += 2 * (k + 1)
				case Candidate:
					career += 2 * (k - int(p.Phase))
				}
				if p.Waiting {
					career++
				}
				for _, port := range []ring.Port{ring.Left, ring.Right} {
					dir := biring.Heading(port)
					for _, m := range s.Chans.Inbox(net, i, port).Messages() {
						h := biring.HopsTo(n, i, origin[m.ID], dir)
						switch m.Kind {
						case Candidature:
							weight += h + n + 1
						case Response:
							weight += h + 1
						default:
							ended++
						}
					}
				}
			}
			return append(buf, unknowing, career, weight, ended)
		},
	}
}

// termination is the measure of 004's termination argument (Theorem
// 13.8's proof and Theorem 13.10's count: a processor enters the next phase
// only on two replies, and no processor enters a phase beyond ⌈log₂ n⌉; a
// probe travels at most ttl hops out and its reply as far back; ⟨terminate⟩
// goes once round), as a lexicographic tuple that every step decreases:
//
//  1. the processors asleep (wake, or a first message, wakes one);
//  2. Σ over the probes and replies in transit of 2^(c − i + 1) − 1, i their
//     phase and c the last phase the model numbers (phaseCap): the messages
//     of a binary tree of depth c − i, for a phase-i message can lead to
//     two of phase i + 1. Passing a probe or a reply on, or bouncing a
//     probe back as a reply, keeps it; swallowing one, or taking a reply
//     home, drops it; the second reply home brings two probes of phase
//     i + 1, which weigh one less than the reply (two replies of phase
//     c, which no processor enters, would break the measure);
//  3. Σ over the probes and replies in transit of h + n + 1 for a probe and
//     h + 1 for a reply, h the hops from the processor that will receive
//     it, in its direction, to the processor whose id it carries, as for
//     raynal's candidatures and responses (raynal's termination);
//  4. the processors undecided (⟨terminate⟩ heard, or the probe home);
//  5. the ⟨terminate⟩ in transit (it stops at a processor that decided).
func (sp *probe) termination() *model.Termination[ProbeState] {
	n, net := sp.params.N, sp.net.Net
	c := int(phaseCap(n))
	origin := origins(sp.params.IDs)
	return &model.Termination[ProbeState]{
		Ref: RefProbe + " Theorems 13.8 and 13.10 (a processor enters the next phase only on two replies, no phase beyond log n; a probe and its reply travel at most ttl hops each way)",
		Doc: "(asleep, Σ probes and replies 2^(c−phase+1) − 1, Σ hops to the origin: probe h+n+1, reply h+1, undecided, ⟨terminate⟩)",
		Value: func(buf []int, s *ProbeState) []int {
			asleep, phases, weight, undecided, terminates := 0, 0, 0, 0, 0
			for i := range n {
				if s.P[i].Asleep {
					asleep++
				}
				if s.Out.Decided[i] == invariants.Undecided {
					undecided++
				}
				for _, port := range []ring.Port{ring.Left, ring.Right} {
					dir := biring.Heading(port)
					for _, m := range s.Chans.Inbox(net, i, port).Messages() {
						if m.Kind == Terminate {
							terminates++
							continue
						}
						phases += 1<<(c-int(m.Phase)+1) - 1
						h := biring.HopsTo(n, i, origin[m.ID], dir)
						if m.Kind == Probe {
							weight += h + n + 1
						} else {
							weight += h + 1
						}
					}
				}
			}
			return append(buf, asleep, phases, weight, undecided, terminates)
		},
	}
}

// origins maps each id to the process that holds it.
func origins(ids []int) []int {
	origin := make([]int, slices.Max(ids)+1)
	for i, id := range ids {
		origin[id] = i
	}
	return origin
}
