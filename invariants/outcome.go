package invariants

// What the processes of an election spec know about its result, the
// announcement round that tells them, and the election properties every
// such spec checks (dkr, hp, hs, franklin).

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Outcome is, per process, its decision and the id it knows as the leader's
// (0 while it knows none).
type Outcome struct {
	Decided []Decision
	Leader  []int
}

// New returns the outcome of a ring of n before anyone knows anything.
func New(n int) Outcome {
	return Outcome{Decided: make([]Decision, n), Leader: make([]int, n)}
}

// Procs is the ring size.
func (o *Outcome) Procs() int { return len(o.Decided) }

// Decision is process p's decision.
func (o *Outcome) Decision(p int) Decision { return o.Decided[p] }

// Decisions hands the election properties every decision at once
// (Decisions).
func (o *Outcome) Decisions() []Decision { return o.Decided }

// Learn records that process p, whose own id is own, now knows that the
// process with id leader was elected: p is the leader if that is its own id,
// and has lost otherwise.
func (o *Outcome) Learn(p, leader, own int) {
	o.Leader[p] = leader
	if leader == own {
		o.Decided[p] = Leader
	} else {
		o.Decided[p] = Lost
	}
}

// Hear handles, at process p whose own id is own, the announcement that the
// process with id leader won: p learns it and must relay it, unless p knew
// the outcome already (it sent the announcement, which has come back).
func (o *Outcome) Hear(p, leader, own int) (relay bool) {
	if o.Knows(p) {
		return false
	}
	o.Learn(p, leader, own)
	return true
}

// Knows reports whether p has learnt the outcome.
func (o *Outcome) Knows(p int) bool { return o.Leader[p] != 0 }

// AllKnow holds when every process knows that leader (an id) was elected.
func (o *Outcome) AllKnow(leader int) bool {
	for _, l := range o.Leader {
		if l != leader {
			return false
		}
	}
	return true
}

// AppendDecisions appends every process's decision: all that the election
// properties read (model.Property.Reads), so that partial-order reduction
// treats only a step that decides as visible.
func (o *Outcome) AppendDecisions(buf []byte) []byte {
	for _, d := range o.Decided {
		buf = append(buf, byte(d))
	}
	return buf
}

// CopyFrom makes o a copy of src, reusing o's storage.
func (o *Outcome) CopyFrom(src *Outcome) {
	o.Decided = append(o.Decided[:0], src.Decided...)
	o.Leader = append(o.Leader[:0], src.Leader...)
}

// AppendTo writes process p's part of the outcome.
func (o *Outcome) AppendTo(buf []byte, p int) []byte {
	return model.AppendUint(append(buf, byte(o.Decided[p])), uint64(o.Leader[p]))
}

// DecodeFrom reads what AppendTo wrote for process p.
func (o *Outcome) DecodeFrom(d *model.Decoder, p int) {
	o.Decided[p] = Decision(d.Int())
	o.Leader[p] = d.Int()
}

// Vars renders process p's part of the outcome for traces.
func (o *Outcome) Vars(p int) []model.Var {
	return []model.Var{
		{Name: fmt.Sprintf("p%d.decided", p), Value: o.Decided[p].String()},
		{Name: fmt.Sprintf("p%d.leader", p), Value: fmt.Sprint(o.Leader[p])},
	}
}

// Winner is the process an election spec must elect, with the property
// that says so.
type Winner struct {
	// Proc is the process that must be the leader and ID its id; Proc is -1
	// when the spec knows no winner (then no process may lead).
	Proc, ID int
	// Name, Ref and Doc describe the property "only Proc is ever leader".
	Name, Ref, Doc string
	// Unnamed says that the processes learn only that they lost, not who
	// won (004's ⟨terminate⟩ carries no id): election-complete then asks
	// every process to have decided instead of to know ID.
	Unnamed bool
}

// MaxWinner is the winner of a spec that elects the maximum id, with its
// property leader-is-max; ref cites the seed's claim.
func MaxWinner(ids []int, ref string) Winner {
	top := ArgMax(ids)
	return Winner{Proc: top, ID: ids[top], Name: "leader-is-max", Ref: ref,
		Doc: fmt.Sprintf("only the maximum-id process p%d (id %d) is ever leader", top, ids[top])}
}

// OutcomeProperties are the election properties of a spec whose
// processes learn the outcome into of(s): at most one leader; only w.Proc
// is ever leader; decisions never change; every terminal state has exactly
// one leader, every process knows its id and no message is in transit
// (quiet); some run elects a leader; and the liveness of every election
// (ElectionLiveness). ref is the spec's seed section.
func OutcomeProperties[S any](ref string, w Winner, of func(s *S) *Outcome, quiet func(s *S) bool) []model.Property[S] {
	who := "none is the winner"
	switch {
	case w.Proc >= 0 && w.Unnamed:
		who = fmt.Sprintf("p%d", w.Proc)
	case w.Proc >= 0:
		who = fmt.Sprintf("p%d, whose id %d every process knows", w.Proc, w.ID)
	}
	return electionProperties(ref, w, who, func(s *S) Election { return of(s) },
		func(buf []byte, s *S) []byte { return of(s).AppendDecisions(buf) },
		func(s *S) bool {
			o := of(s)
			return Agreement(o) && (w.Unnamed || o.AllKnow(w.ID)) && quiet(s)
		})
}

// ElectionProperties are OutcomeProperties for a spec whose processes
// decide without learning the winner's id (the decisions in of(s), a
// Decided for instance): a terminal state must have exactly one leader,
// w.Proc, all others lost, and no message in transit (quiet).
func ElectionProperties[S any](ref string, w Winner, of func(s *S) Election, quiet func(s *S) bool) []model.Property[S] {
	who := "none is the winner"
	if w.Proc >= 0 {
		who = fmt.Sprintf("p%d", w.Proc)
	}
	return electionProperties(ref, w, who, of,
		func(buf []byte, s *S) []byte { return appendDecisions(buf, of(s)) },
		func(s *S) bool { return Agreement(of(s)) && quiet(s) })
}

// electionProperties are the properties of OutcomeProperties and
// ElectionProperties: decisions appends all that the safety ones read
// (model.Property.Reading), complete is what a terminal state must hold,
// and who names the winner in its doc.
func electionProperties[S any](ref string, w Winner, who string, view func(s *S) Election,
	decisions func(buf []byte, s *S) []byte, complete func(s *S) bool) []model.Property[S] {
	return append([]model.Property[S]{
		AtMostOneLeader(ref, view).Reading(decisions),
		LeaderIs(w.Name, w.Ref, w.Doc, w.Proc, view).Reading(decisions),
		DecisionStable(ref, view).Reading(decisions),
		ElectionComplete(ref,
			fmt.Sprintf("every terminal state has exactly one leader (%s), all others lost, and no message in transit", who),
			complete),
		LeaderElected(ref, view).Reading(decisions),
	}, ElectionLiveness(ref, view)...)
}

// AnnouncementProps are the claims about the announcement round that a spec
// adds to its seed: sent(s) ⟨leader⟩ messages, never more than n, and
// exactly n (once round the ring) by the end. ref cites the seed's remark
// that the round stands in for.
func AnnouncementProps[S any](ref string, n int, sent func(s *S) int) []model.Property[S] {
	return AnnouncementPropsOf(ref, "⟨leader⟩", n, sent)
}

// AnnouncementPropsOf is AnnouncementProps for a spec whose announcement is
// another message, msg ("⟨ended⟩", "⟨terminate⟩").
func AnnouncementPropsOf[S any](ref, msg string, n int, sent func(s *S) int) []model.Property[S] {
	return []model.Property[S]{
		model.InvariantProp("announcement-messages-bound", ref,
			fmt.Sprintf("at most n = %d %s messages are sent", n, msg),
			func(s *S) bool { return sent(s) <= n }).Reading(func(buf []byte, s *S) []byte { return model.AppendUint(buf, uint64(sent(s))) }).
			When(fmt.Sprintf("no %s message was sent", msg), func(s *S) bool { return sent(s) > 0 }),
		model.EndProp("announcement-messages", ref,
			fmt.Sprintf("every terminal state was reached with exactly n = %d %s messages", n, msg),
			func(s *S) bool { return sent(s) == n }),
	}
}

// ArgMax is the process with the largest id: the one an election of the
// maximum elects.
func ArgMax(ids []int) int {
	best := 0
	for i, id := range ids {
		if id > ids[best] {
			best = i
		}
	}
	return best
}
