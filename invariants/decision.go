package invariants

import (
	"bytes"
	"unsafe"
)

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

// Decisions is an optional fast path of Election: a state that holds its
// decisions in a slice hands it over whole, and the properties below, which
// run on every state explored, loop over it instead of calling Decision per
// process.
type Decisions interface {
	Decisions() []Decision
}

// Decided is each process's decision, indexed by process: an Election by
// itself, for a state that keeps its decisions in a slice of their own.
type Decided []Decision

// Procs is the ring size.
func (d Decided) Procs() int { return len(d) }

// Decision is process p's decision.
func (d Decided) Decision(p int) Decision { return d[p] }

// Decisions hands the properties the slice itself (Decisions).
func (d Decided) Decisions() []Decision { return d }

// appendDecisions appends v's decisions, one byte each: all that the
// election properties read.
func appendDecisions(buf []byte, v Election) []byte {
	var scratch [32]Decision
	for _, d := range decisions(v, scratch[:]) {
		buf = append(buf, byte(d))
	}
	return buf
}

// decisions returns v's decisions as a slice, using buf when v does not
// offer one.
func decisions(v Election, buf []Decision) []Decision {
	if d, ok := v.(Decisions); ok {
		return d.Decisions()
	}
	buf = buf[:0]
	for p := 0; p < v.Procs(); p++ {
		buf = append(buf, v.Decision(p))
	}
	return buf
}

// Leaders counts the processes that consider themselves elected.
func Leaders(v Election) int {
	var buf [32]Decision
	return bytes.Count(asBytes(decisions(v, buf[:])), []byte{byte(Leader)})
}

// asBytes views decisions as the bytes they are, so that the properties
// below search them with package bytes' vectorised loops: mc simulate
// evaluates them, at thousands of processes, on every step that decides.
func asBytes(ds []Decision) []byte {
	return unsafe.Slice((*byte)(unsafe.SliceData(ds)), len(ds))
}

// atMostOneLeader holds when no two processes are leaders at once.
func atMostOneLeader(v Election) bool { return Leaders(v) <= 1 }

// onlyLeader holds when every leader is process want: the winner is the
// one the algorithm promises (the maximum id, or the minimum).
func onlyLeader(v Election, want int) bool {
	var buf [32]Decision
	ds := asBytes(decisions(v, buf[:]))
	for from := 0; ; {
		k := bytes.IndexByte(ds[from:], byte(Leader))
		if k < 0 {
			return true
		}
		if from+k != want {
			return false
		}
		from += k + 1
	}
}

// someLeader holds when a leader has been elected. It stops at the first
// leader rather than count them: the liveness goal of eventually-leader is
// evaluated on every new successor of a pending state (checker/termination).
func someLeader(v Election) bool {
	var buf [32]Decision
	return bytes.IndexByte(asBytes(decisions(v, buf[:])), byte(Leader)) >= 0
}

// Agreement holds when the election is over: exactly one leader and every
// other process knows it lost.
func Agreement(v Election) bool {
	var buf [32]Decision
	leaders := 0
	for _, d := range decisions(v, buf[:]) {
		switch d {
		case Leader:
			leaders++
		case Undecided:
			return false
		}
	}
	return leaders == 1
}

// decidedThenChanged holds on a transition that changes some decision
// from a state where some process had decided.
func decidedThenChanged(before, after Election) bool {
	var b1, b2 [32]Decision
	bs, as := asBytes(decisions(before, b1[:])), asBytes(decisions(after, b2[:]))
	return !bytes.Equal(bs, as) && bytes.Count(bs, []byte{byte(Undecided)}) < len(bs)
}

// decisionStable holds on a transition when no process that had decided
// changes its decision. Blocks that did not change at all are skipped
// whole.
func decisionStable(before, after Election) bool {
	const block = 64
	var b1, b2 [32]Decision
	bs, as := asBytes(decisions(before, b1[:])), asBytes(decisions(after, b2[:]))
	for from := 0; from < len(bs); from += block {
		to := min(from+block, len(bs))
		if bytes.Equal(bs[from:to], as[from:to]) {
			continue
		}
		for p := from; p < to; p++ {
			if d := Decision(bs[p]); d != Undecided && Decision(as[p]) != d {
				return false
			}
		}
	}
	return true
}
