package liveness

import (
	"sync"
	"sync/atomic"

	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/model"
)

// The graph's build (build.go) takes the states of one breadth-first level
// at a time, in batches of batchStates states. Expanding a state — decoding
// it, applying every action, encoding and fingerprinting each successor,
// evaluating the properties' predicates on it — needs nothing but the
// state, so workers goroutines expand the batches of a level side by side
// (expandLevel), while the build numbers the successors batch after batch
// in the order of the states, exactly as one goroutine would: the graph is
// the same for any number of workers. At most window batches wait to be
// numbered, which bounds the memory they hold.

const batchStates = 256

// successors is what expanding the states of one batch gave, in the order
// of the states and, for each, of the actions.
type successors struct {
	count []int    // the number of successors of each state of the batch
	enc   []byte   // the successors' encodings, one after the other
	ends  []int    // where each successor's encoding ends in enc
	fp    []uint64 // their fingerprints
	act   []uint32 // the actions that lead to them (packed.Action)
	// preds holds, per successor, 2 bits per property: P (from) and Q
	// (goal, unless it is "terminal").
	preds []uint64
	words int
	// err, if not nil, stopped the expansion at state count[len(count)].
	err  error
	done chan struct{}
}

func (b *successors) pred(i, bit int) bool {
	return b.preds[i*b.words+bit/64]&(1<<(bit%64)) != 0
}

// expander expands states: it keeps the scratch states of one goroutine.
type expander[S any] struct {
	sys       *model.System[S]
	props     []*model.Property[S]
	cur, next S
	// succ enumerates the successors of cur (model.Successors).
	succ model.Successors[S]
	// red, if not nil, expands each state by an ample set (reduced.go).
	red *reduced[S]
}

func newExpander[S any](sys *model.System[S], props []*model.Property[S]) *expander[S] {
	return &expander[S]{sys: sys, props: props, succ: sys.Successors(packed.MaxChoices)}
}

// expand appends the successors of the state encoded as data to b.
func (x *expander[S]) expand(data []byte, b *successors) error {
	sys := x.sys
	if err := sys.Decode(data, &x.cur); err != nil {
		return err
	}
	n := 0
	for x.succ.Of(&x.cur); x.succ.Next(&x.next); n++ {
		start := len(b.enc)
		b.enc = sys.Encode(b.enc, &x.next)
		b.ends = append(b.ends, len(b.enc))
		b.fp = append(b.fp, model.Fingerprint(b.enc[start:]))
		b.act = append(b.act, packed.Action(x.succ.Action()))
		at := len(b.preds)
		for range b.words {
			b.preds = append(b.preds, 0)
		}
		for i, pr := range x.props {
			if pr.From != nil && pr.From(&x.next) {
				b.preds[at+2*i/64] |= 1 << (2 * i % 64)
			}
			if pr.State != nil && pr.State(&x.next) {
				b.preds[at+(2*i+1)/64] |= 1 << ((2*i + 1) % 64)
			}
		}
	}
	if err := x.succ.Err(); err != nil {
		return err
	}
	b.count = append(b.count, n)
	return nil
}

// level is the encodings of the states of one level: state i's ends at
// ends[i], and starts where state i−1's ends.
type level struct {
	enc  []byte
	ends []int
}

func (l *level) state(i int) []byte {
	start := 0
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.enc[start:l.ends[i]]
}

// expandLevel expands the states of lv batch by batch on workers
// goroutines and calls take on each batch, in order, from the calling
// goroutine. take returns false to stop the level: the batches being
// expanded are then dropped.
//
// With reduction (red not nil) the states are expanded by ample sets, on
// the calling goroutine alone: the cycle proviso looks successors up in
// the index, which take writes. base is the number of lv's first state.
func expandLevel[S any](sys *model.System[S], props []*model.Property[S], lv *level, workers int, red *reduction, base int, take func(first int, b *successors) bool) {
	states := len(lv.ends)
	batches := (states + batchStates - 1) / batchStates
	words := (2*len(props) + 63) / 64
	fill := func(x *expander[S], c int, b *successors) {
		b.words = words
		for s := c * batchStates; s < min(states, (c+1)*batchStates); s++ {
			if x.red != nil {
				b.err = x.red.expand(x, lv.state(s), uint32(base+s), b)
			} else {
				b.err = x.expand(lv.state(s), b)
			}
			if b.err != nil {
				break
			}
		}
		close(b.done)
	}
	if workers <= 1 || red != nil {
		x := newExpander(sys, props)
		if red != nil {
			x.red = newReduced(sys, red)
		}
		for c := range batches {
			b := &successors{done: make(chan struct{})}
			if fill(x, c, b); !take(c*batchStates, b) {
				return
			}
		}
		return
	}
	window := 4 * workers
	out := make([]*successors, batches)
	for c := range out {
		out[c] = &successors{done: make(chan struct{})}
	}
	slots := make(chan struct{}, window)
	quit := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := newExpander(sys, props)
			for {
				select {
				case slots <- struct{}{}:
				case <-quit:
					return
				}
				c := int(next.Add(1) - 1)
				if c >= batches {
					return
				}
				fill(x, c, out[c])
			}
		}()
	}
	defer wg.Wait()
	defer close(quit)
	for c := range batches {
		<-out[c].done
		ok := take(c*batchStates, out[c])
		out[c] = nil
		<-slots
		if !ok {
			return
		}
	}
}
