//go:build !uniring_generic

package uniring

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// oracle is the state of layout.go held in package ring's generic channel
// type, which the byte layout re-implements.
type oracle struct {
	flag    []bool
	decided []invariants.Decision
	in      []ring.Chan[Msg]
	sent    int
}

// agree fails the test unless s holds what o holds.
func agree(t *testing.T, step string, s *State, o *oracle, sem model.ChanSemantics) {
	t.Helper()
	for i := range o.in {
		if s.Flag(i) != o.flag[i] || s.Decision(i) != o.decided[i] {
			t.Fatalf("%s: p%d flag %v decision %s, want %v %s", step, i, s.Flag(i), s.Decision(i), o.flag[i], o.decided[i])
		}
		if got, want := s.Messages(i), o.in[i].Messages(); !slices.Equal(got, want) || s.Pending(i) != o.in[i].Len() {
			t.Fatalf("%s: p%d's channel holds %v (%d), want %v", step, i, got, s.Pending(i), want)
		}
		if got, want := s.choices(i, sem), o.in[i].Choices(sem); got != want {
			t.Fatalf("%s: p%d offers %d receives, want %d", step, i, got, want)
		}
		for k := 0; k < o.in[i].Choices(sem); k++ {
			if got, want := s.peek(i, k, sem), o.in[i].Peek(sem, k); got != want {
				t.Fatalf("%s: p%d's choice %d is %v, want %v", step, i, k, got, want)
			}
		}
	}
	if s.ElectSent() != o.sent || !slices.Equal(s.Decisions(), o.decided) {
		t.Fatalf("%s: ghost %d decisions %v, want %d %v", step, s.ElectSent(), s.Decisions(), o.sent, o.decided)
	}
	quiet := true
	for i := range o.in {
		quiet = quiet && o.in[i].Len() == 0
	}
	if s.Quiet() != quiet {
		t.Fatalf("%s: Quiet %v, want %v", step, s.Quiet(), quiet)
	}
}

// measureAgrees fails the test unless the termination measure's components
// (termination.go), read off the bytes, are those its doc defines, on a
// ring whose ids 1..n originate at processes 0..n−1 (states with another
// id in transit are not checked: the measure's specs send none).
func measureAgrees(t *testing.T, step string, s *State, o *oracle, w *weights) {
	t.Helper()
	n, unflagged, weight := len(o.in), 0, 0
	for i := range o.in {
		if !o.flag[i] {
			unflagged++
		}
		for _, m := range o.in[i].Messages() {
			if m.ID < 1 || m.ID > n {
				return
			}
			d := (m.ID - 1 - i + n) % n
			if m.Kind == Elect {
				weight += d + n + 2
			} else {
				weight += d + 1
			}
		}
	}
	if s.unflagged() != unflagged || s.sumWeights(w) != weight {
		t.Fatalf("%s: measure (%d, %d), want (%d, %d)", step, s.unflagged(), s.sumWeights(w), unflagged, weight)
	}
}

// roundTrips fails the test unless s decodes to itself and a copy of it is
// independent of it.
func roundTrips(t *testing.T, step string, s *State) {
	t.Helper()
	enc := Encode(nil, s)
	var d State
	if err := Decoder(s.Procs())(enc, &d); err != nil || string(Encode(nil, &d)) != string(enc) {
		t.Fatalf("%s: decoding %x gave %x (%v)", step, enc, Encode(nil, &d), err)
	}
	var c State
	Copy(&c, s)
	c.SetFlag(0)
	c.send(0, Msg{Kind: Done, ID: MaxID}, model.ChanSemantics{})
	if string(Encode(nil, s)) != string(enc) {
		t.Fatalf("%s: changing a copy changed the original", step)
	}
}

// The byte layout behaves as the generic channels do, operation by
// operation, for FIFO and bag channels, bounded or not: what is sent, what
// each receive choice takes, what is refused when a channel is full, and
// the encoding round trip after every step. A ring of indexFrom or more
// finds its channels through its index (index.go), kept up to date by
// every send and receive of the one state changed in place.
func TestLayoutAgreesWithGenericChannels(t *testing.T) {
	for _, sem := range []model.ChanSemantics{{Kind: model.FIFO}, {Kind: model.Bag}, {Kind: model.FIFO, Cap: 2}, {Kind: model.Bag, Cap: 3}} {
		testLayoutAgrees(t, 4, sem)
		testLayoutAgrees(t, indexFrom+3, sem)
	}
}

func testLayoutAgrees(t *testing.T, n int, sem model.ChanSemantics) {
	t.Run(fmt.Sprintf("n %d %s cap %d", n, sem.Kind, sem.Cap), func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, uint64(sem.Cap)*2+uint64(sem.Kind)))
		s := New(n)
		o := oracle{flag: make([]bool, n), decided: make([]invariants.Decision, n), in: make([]ring.Chan[Msg], n)}
		ids := make([]int, n)
		for k := range ids {
			ids[k] = k + 1
		}
		w := (&Net{IDs: ids, Net: ring.Net{Ring: ring.Ring{N: n}}}).messageWeights()
		for step := range 2000 {
			i := rng.IntN(n)
			var what string
			switch op := rng.IntN(10); {
			case op < 5:
				m := Msg{Kind: Kind(rng.IntN(2)), ID: 1 + rng.IntN(4)}
				if step%97 == 0 {
					m.ID = MaxID
				}
				got, want := s.send(i, m, sem), o.in[i].Send(sem, m)
				what = fmt.Sprintf("step %d: send %v to p%d (sent: %v)", step, m, i, want)
				if got != want {
					t.Fatalf("%s; the layout says %v", what, got)
				}
			case op < 8 && o.in[i].Choices(sem) > 0:
				k := rng.IntN(o.in[i].Choices(sem))
				got, want := s.recv(i, k, sem), o.in[i].Recv(sem, k)
				what = fmt.Sprintf("step %d: p%d receives choice %d, %v", step, i, k, want)
				if got != want {
					t.Fatalf("%s; the layout took %v", what, got)
				}
			case op == 8:
				s.SetFlag(i)
				o.flag[i] = true
				d := invariants.Decision(1 + rng.IntN(2))
				s.Decide(i, d)
				o.decided[i] = d
				what = fmt.Sprintf("step %d: p%d flags and decides %s", step, i, d)
			default:
				s.countElect()
				o.sent++
				what = fmt.Sprintf("step %d: ghost counts", step)
			}
			agree(t, what, &s, &o, sem)
			roundTrips(t, what, &s)
			measureAgrees(t, what, &s, &o, w)
		}
	})
}

// A corrupted encoding is refused rather than read as some other state.
func TestDecoderRefusesBytesWithoutTheLayout(t *testing.T) {
	s := New(3)
	s.send(1, Msg{Kind: Elect, ID: 7}, model.ChanSemantics{})
	enc := Encode(nil, &s)
	for _, bad := range [][]byte{enc[:len(enc)-1], append(append([]byte(nil), enc...), 0, 0), enc[:5]} {
		var d State
		if err := Decoder(3)(bad, &d); err == nil {
			t.Errorf("decoded %x, which lacks the layout", bad)
		}
	}
	miscounted := append([]byte(nil), enc...)
	miscounted[2*3+1] = 2 // p1's channel claims two messages, holds one
	var d State
	if err := Decoder(3)(miscounted, &d); err == nil {
		t.Error("decoded a channel count that disagrees with the messages")
	}
}

func TestSumCountsAddsTwoByteCounts(t *testing.T) {
	gen := rand.New(rand.NewPCG(1, 2))
	for _, pairs := range []int{0, 1, 3, 4, 5, 255, 256, 257, 1024, 1030, 3000} {
		b := make([]byte, 2*pairs)
		want := 0
		for k := range pairs {
			v := gen.IntN(1 << 16)
			if k%7 == 0 {
				v = 0xffff
			}
			b[2*k], b[2*k+1] = byte(v>>8), byte(v)
			want += v
		}
		if got := sumCounts(b); got != want {
			t.Fatalf("%d counts: sum %d, want %d", pairs, got, want)
		}
	}
}
