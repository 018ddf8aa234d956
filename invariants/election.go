package invariants

// Decision is what a process knows about the election's outcome.
type Decision uint8

const (
	Undecided Decision = iota
	Leader
	Lost
)

func (d Decision) String() string {
	switch d {
	case Leader:
		return "leader"
	case Lost:
		return "lost"
	}
	return "undecided"
}

// Election is the view of a state that election properties need.
type Election interface {
	Procs() int
	Decision(p int) Decision
}

// Leaders counts the processes that consider themselves elected.
func Leaders(v Election) int {
	n := 0
	for p := 0; p < v.Procs(); p++ {
		if v.Decision(p) == Leader {
			n++
		}
	}
	return n
}

// AtMostOneLeader holds when no two processes are leaders at once.
func AtMostOneLeader(v Election) bool { return Leaders(v) <= 1 }

// LeaderIs holds when every leader is process want: the winner is the one
// the algorithm promises (the maximum id, or the minimum).
func LeaderIs(v Election, want int) bool {
	for p := 0; p < v.Procs(); p++ {
		if v.Decision(p) == Leader && p != want {
			return false
		}
	}
	return true
}

// SomeLeader holds when a leader has been elected.
func SomeLeader(v Election) bool { return Leaders(v) > 0 }

// Agreement holds when the election is over: exactly one leader and every
// other process knows it lost.
func Agreement(v Election) bool {
	leaders := 0
	for p := 0; p < v.Procs(); p++ {
		switch v.Decision(p) {
		case Leader:
			leaders++
		case Undecided:
			return false
		}
	}
	return leaders == 1
}

// DecisionStable holds on a transition when no process that had decided
// changes its decision.
func DecisionStable(before, after Election) bool {
	for p := 0; p < before.Procs(); p++ {
		if d := before.Decision(p); d != Undecided && after.Decision(p) != d {
			return false
		}
	}
	return true
}
