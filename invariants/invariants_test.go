package invariants

import "testing"

type views []Decision

func (d views) Procs() int              { return len(d) }
func (d views) Decision(p int) Decision { return d[p] }

type cs []bool

func (c cs) Procs() int      { return len(c) }
func (c cs) InCS(p int) bool { return c[p] }

func TestElectionPredicates(t *testing.T) {
	none := views{Undecided, Undecided, Undecided}
	one := views{Lost, Leader, Undecided}
	done := views{Lost, Leader, Lost}
	two := views{Leader, Leader, Lost}
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

type fast struct{ views }

func (f fast) Decisions() []Decision { return f.views }

// The slice fast path gives the same answers as the per-process view.
func TestFastPathAgrees(t *testing.T) {
	for _, d := range []views{{Lost, Leader, Undecided}, {Leader, Leader, Lost}, {Lost, Leader, Lost}} {
		if AtMostOneLeader(d) != AtMostOneLeader(fast{d}) || Agreement(d) != Agreement(fast{d}) ||
			LeaderIs(d, 1) != LeaderIs(fast{d}, 1) || DecisionStable(d, d) != DecisionStable(fast{d}, fast{d}) {
			t.Fatalf("fast path disagrees on %v", d)
		}
	}
}
