package invariants

import (
	"fmt"
	"testing"

	"github.com/ringcheck/mc/model"
)

type views []Decision

func (d views) Procs() int              { return len(d) }
func (d views) Decision(p int) Decision { return d[p] }

func TestElectionPredicates(t *testing.T) {
	none := views{Undecided, Undecided, Undecided}
	one := views{Lost, Leader, Undecided}
	done := views{Lost, Leader, Lost}
	two := views{Leader, Leader, Lost}
	if !atMostOneLeader(one) || atMostOneLeader(two) {
		t.Fatal("atMostOneLeader")
	}
	if !onlyLeader(one, 1) || onlyLeader(one, 0) || !onlyLeader(none, 0) {
		t.Fatal("onlyLeader")
	}
	if someLeader(none) || !someLeader(one) {
		t.Fatal("someLeader")
	}
	if Agreement(one) || !Agreement(done) || Agreement(two) || Agreement(none) {
		t.Fatal("Agreement wants exactly one leader and everyone else lost")
	}
	if !decisionStable(one, done) || decisionStable(done, one) || decisionStable(one, two) {
		t.Fatal("decisionStable: deciding is allowed, changing or undoing a decision is not")
	}
}

type fast struct{ views }

func (f fast) Decisions() []Decision { return f.views }

// The slice fast path gives the same answers as the per-process view.
func TestFastPathAgrees(t *testing.T) {
	for _, d := range []views{{Lost, Leader, Undecided}, {Leader, Leader, Lost}, {Lost, Leader, Lost}} {
		if atMostOneLeader(d) != atMostOneLeader(fast{d}) || Agreement(d) != Agreement(fast{d}) ||
			onlyLeader(d, 1) != onlyLeader(fast{d}, 1) || decisionStable(d, d) != decisionStable(fast{d}, fast{d}) {
			t.Fatalf("fast path disagrees on %v", d)
		}
	}
}

// The election properties carry their standard names and kinds, and judge
// the states they are handed.
func TestElectionProperties(t *testing.T) {
	view := func(s *views) Election { return *s }
	one, two := views{Lost, Leader, Undecided}, views{Leader, Leader, Lost}
	cases := []struct {
		p    model.Property[views]
		kind model.Kind
		name string
		pass *views
		fail *views
	}{
		{AtMostOneLeader("ref", view), model.Invariant, "at-most-one-leader", &one, &two},
		{LeaderIs("leader-is-max", "ref", "doc", 1, view), model.Invariant, "leader-is-max", &one, &two},
		{LeaderElected("ref", view), model.Witness, "leader-elected", &one, &views{Undecided, Lost, Lost}},
		{EventuallyLeader("ref", view), model.Eventually, "eventually-leader", &one, &views{Undecided}},
	}
	for _, c := range cases {
		if c.p.Name != c.name || c.p.Kind != c.kind || !c.p.State(c.pass) || c.p.State(c.fail) {
			t.Errorf("%s (%s): holds on %v: %v, on %v: %v", c.p.Name, c.p.Kind, *c.pass, c.p.State(c.pass), *c.fail, c.p.State(c.fail))
		}
	}
	st, done := DecisionStable("ref", view), views{Lost, Leader, Lost}
	if st.Name != "decision-stable" || st.Kind != model.Step || !st.Trans(&one, model.Action{}, &done) || st.Trans(&done, model.Action{}, &one) {
		t.Error("decision-stable lets a leader lose, or forbids deciding")
	}
	if term := ElectionTerminates[views]("ref"); term.Name != "election-terminates" || !term.Terminal {
		t.Error("election-terminates is not the termination property")
	}
	if p := AtMostOneLeader("ref", view).Saying("in the seed's words"); p.Doc != "in the seed's words" {
		t.Errorf("Saying left the doc %q", p.Doc)
	}
}

// OutcomeProperties ask every process to know the winner's id, unless the
// winner is unnamed.
func TestOutcomeProperties(t *testing.T) {
	o := New(3)
	o.Learn(0, 7, 5)
	o.Learn(1, 7, 7)
	quiet := func(*Outcome) bool { return true }
	complete := func(w Winner) model.Property[Outcome] {
		for _, p := range OutcomeProperties("ref", w, func(s *Outcome) *Outcome { return s }, quiet) {
			if p.Name == "election-complete" {
				return p
			}
		}
		t.Fatal("no election-complete")
		return model.Property[Outcome]{}
	}
	w := MaxWinner([]int{5, 7, 6}, "ref")
	if w.Proc != 1 || w.ID != 7 || w.Name != "leader-is-max" {
		t.Fatalf("MaxWinner of 5,7,6 is %+v", w)
	}
	if complete(w).State(&o) {
		t.Fatal("election-complete holds while p2 has not heard")
	}
	o.Decided[2] = Lost
	if complete(w).State(&o) {
		t.Fatal("election-complete holds while p2 does not know the leader's id")
	}
	w.Unnamed = true
	if !complete(w).State(&o) {
		t.Fatal("election-complete with an unnamed winner asks only for decisions")
	}
	if relay := o.Hear(1, 7, 7); relay {
		t.Fatal("the leader relays its own announcement")
	}
}

func TestMutexProperties(t *testing.T) {
	id := func(s *Phases) Phases { return *s }
	props := MutexProperties(2, "ref", "live", id)
	var names []string
	for _, p := range props {
		names = append(names, p.Name)
	}
	if fmt.Sprint(names) != "[mutual-exclusion request-granted-p0 request-granted-p1 can-enter-p0 can-enter-p1]" {
		t.Fatalf("properties %v", names)
	}
	both, one := Phases{InCS, InCS}, Phases{Waiting, InCS}
	if !props[0].State(&one) || props[0].State(&both) {
		t.Fatal("mutual-exclusion")
	}
	if !props[1].From(&one) || props[1].State(&one) || !props[2].State(&one) {
		t.Fatal("request-granted: p0 waits and is not in; p1 is in")
	}
	if props[3].State(&one) || !props[4].State(&one) {
		t.Fatal("can-enter")
	}
	if got := string(one.AppendInCS(nil)); got != "\x00\x01" {
		t.Fatalf("AppendInCS wrote %q", got)
	}
}
