package invariants

import "testing"

type decisions []Decision

func (d decisions) Procs() int              { return len(d) }
func (d decisions) Decision(p int) Decision { return d[p] }

type cs []bool

func (c cs) Procs() int      { return len(c) }
func (c cs) InCS(p int) bool { return c[p] }

func TestElectionPredicates(t *testing.T) {
	none := decisions{Undecided, Undecided, Undecided}
	one := decisions{Lost, Leader, Undecided}
	done := decisions{Lost, Leader, Lost}
	two := decisions{Leader, Leader, Lost}
	if !AtMostOneLeader(one) || AtMostOneLeader(two) {
		t.Fatal("AtMostOneLeader")
	}
	if !LeaderIs(one, 1) || LeaderIs(one, 0) || !LeaderIs(none, 0) {
		t.Fatal("LeaderIs")
	}
	if SomeLeader(none) || !SomeLeader(one) {
		t.Fatal("SomeLeader")
	}
	if Agreement(one) || !Agreement(done) || Agreement(two) || Agreement(none) {
		t.Fatal("Agreement wants exactly one leader and everyone else lost")
	}
	if !DecisionStable(one, done) || DecisionStable(done, one) || DecisionStable(one, two) {
		t.Fatal("DecisionStable: deciding is allowed, changing or undoing a decision is not")
	}
}

func TestMutualExclusion(t *testing.T) {
	if !MutualExclusion(cs{false, true, false}) || MutualExclusion(cs{true, false, true}) {
		t.Fatal("MutualExclusion")
	}
}
