package sweep

import (
	"encoding/binary"
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker"
)

// The longest causal chain over every run.
//
// CausalDepth measures one run. Its clocks are a function of the run's
// history, not of its last state, so the most over all runs is not a path
// problem on the state graph: two runs that reach one state may carry
// different stamps. It is one on the graph of stamped states, each a state
// of the graph with a clock per process and a stamp per message in
// transit, stepped as CausalDepth steps them. Every stamp is born on a
// message in transit, so the most any run reaches is the largest stamp of
// any reachable stamped state. On an acyclic graph every run is finite,
// so stamps are bounded and the stamped graph is finite; it may be much
// larger than the state graph, and maxCausalDepth gives up past a limit.

// stamped is a state of the graph with its clocks and stamps: label holds
// one clock per process, then one stamp per element of the state's summary
// of every message in transit (edgeWeight's, with no kind filtered out), in
// its order; equal elements, which are equal
// messages on one link, carry their stamps in the order they were sent.
type stamped struct {
	s     uint32
	label []uint8
}

// maxCausalDepth explores the stamped states reachable from the initial
// states of the acyclic graph g, whose state s has the message summary
// sums[s] (every message, sorted), n processes acting as g.Action(e)
// says. It returns the largest stamp and how many stamped states it
// explored, or ok false if they exceed limit (or a stamp exceeds 255).
func maxCausalDepth(g *checker.Graph, sums [][]int32, n, limit int) (depth, explored int, ok bool) {
	var nodes []stamped
	seen := map[uint64][]int32{}
	add := func(x stamped) bool {
		h := xxhash.New()
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], x.s)
		h.Write(b[:])
		h.Write(x.label)
		k := h.Sum64()
		for _, i := range seen[k] {
			if nodes[i].s == x.s && slices.Equal(nodes[i].label, x.label) {
				return true
			}
		}
		if len(nodes) >= limit {
			return false
		}
		seen[k] = append(seen[k], int32(len(nodes)))
		nodes = append(nodes, x)
		return true
	}
	for _, s := range g.Init() {
		// Messages in transit initially were sent at the start and arrive
		// at time 1.
		label := make([]uint8, n+len(sums[s]))
		for i := n; i < len(label); i++ {
			label[i], depth = 1, 1
		}
		if !add(stamped{s, label}) {
			return 0, len(nodes), false
		}
	}
	for i := 0; i < len(nodes); i++ {
		x := nodes[i]
		a, b := g.Edges(x.s)
		for e := a; e < b; e++ {
			t := g.To(e)
			label, top, fits := stampStep(x.label[:n], x.label[n:], sums[x.s], sums[t], g.Action(e).Proc)
			if !fits || !add(stamped{t, label}) {
				return 0, len(nodes), false
			}
			depth = max(depth, top)
		}
	}
	return depth, len(nodes), true
}

// stampStep is one transition of process p between states whose message
// summaries are before (stamped stamps) and after: p receives the messages
// before has and after has not, taking the earliest stamps of equal ones,
// and sets its clock to at least their stamps; then it sends the messages
// after has and before has not, each stamped with its clock plus one. It
// returns after's label and the largest stamp sent (0 if none).
func stampStep(clocks, stamps []uint8, before, after []int32, p int) (label []uint8, top int, fits bool) {
	clock := int(clocks[p])
	// Receive first: every group of equal elements that shrinks gives up
	// its earliest stamps.
	for i, j := 0, 0; i < len(before); {
		_, k := equalRun(before, i, before[i])
		a, m := equalRun(after, j, before[i])
		for r := 0; r < (k-i)-(m-a); r++ {
			clock = max(clock, int(stamps[i+r]))
		}
		i, j = k, m
	}
	if clock+1 > 255 {
		return nil, 0, false
	}
	label = make([]uint8, len(clocks)+len(after))
	copy(label, clocks)
	label[p] = uint8(clock)
	out := label[len(clocks):]
	for i, j := 0, 0; j < len(after); {
		_, m := equalRun(after, j, after[j])
		a, k := equalRun(before, i, after[j])
		// The group keeps its latest min(k-a, m-j) stamps, oldest first,
		// and the messages it gains are sent now.
		kept := min(k-a, m-j)
		copy(out[j:], stamps[k-kept:k])
		for r := j + kept; r < m; r++ {
			out[r], top = uint8(clock+1), clock+1
		}
		i, j = k, m
	}
	return label, top, true
}

// equalRun returns the range [a, k) of the elements of the sorted xs equal
// to v, searching from i on.
func equalRun(xs []int32, i int, v int32) (a, k int) {
	for i < len(xs) && xs[i] < v {
		i++
	}
	k = i
	for k < len(xs) && xs[k] == v {
		k++
	}
	return i, k
}
