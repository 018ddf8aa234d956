package ring_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// rightward is a port-asymmetric toy: Chang–Roberts with every message sent
// over the sender's Right port. Its state is the participant flags, the
// decisions and the links.
type rightward struct {
	part []bool
	won  []int8 // 0 undecided, 1 leader, 2 lost
	l    ring.Chans[tok]
}

// tok is ⟨elect v⟩ (done = false) or ⟨done v⟩.
type tok struct {
	v    int
	done bool
}

func (m tok) Compare(o tok) int { return m.v - o.v }
func (m tok) AppendTo(b []byte) []byte {
	return model.AppendBool(model.AppendUint(b, uint64(m.v)), m.done)
}
func (m tok) String() string { return fmt.Sprint(m.v, m.done) }

func rightwardSystem(ids []int, f []bool) *model.System[rightward] {
	n := len(ids)
	net := ring.Net{Ring: ring.Ring{N: n, Bidirectional: true, Flipped: f}, Duplex: model.FullDuplex}
	send := func(s *rightward, i int, m tok) bool { return s.l.Send(net, i, ring.Right, m) }
	return &model.System[rightward]{
		Spec: "rightward", Procs: n,
		Init: []rightward{{part: make([]bool, n), won: make([]int8, n), l: ring.NewChans[tok](net)}},
		Rules: []model.Rule[rightward]{
			{Name: "start", Guard: func(s *rightward, i int) bool { return !s.part[i] },
				Do: func(s *rightward, i, _ int) bool { s.part[i] = true; return send(s, i, tok{v: ids[i]}) }},
			{Name: "recv", Guard: func(s *rightward, i int) bool { return s.l.JointChoices(net, i) > 0 },
				Choices: func(s *rightward, i int) int { return min(s.l.JointChoices(net, i), 2) },
				Do: func(s *rightward, i, k int) bool {
					port := ring.Left
					if s.l.JointPorts(net, i, k) == ring.OnlyRight {
						port = ring.Right
					}
					m := s.l.Take(net, i, port)
					switch {
					case !m.done && m.v > ids[i]:
						s.part[i] = true
						return send(s, i, m)
					case !m.done && m.v < ids[i] && !s.part[i]:
						s.part[i] = true
						return send(s, i, tok{v: ids[i]})
					case !m.done && m.v == ids[i]:
						s.won[i] = 1
						return send(s, i, tok{v: ids[i], done: true})
					case m.done && m.v != ids[i]:
						s.won[i] = 2
						return send(s, i, m)
					}
					return true
				}},
		},
		Copy: func(d, s *rightward) {
			d.part, d.won = append(d.part[:0], s.part...), append(d.won[:0], s.won...)
			d.l.CopyFrom(s.l)
		},
		Encode: func(b []byte, s *rightward) []byte {
			for i := range s.part {
				b = append(model.AppendBool(b, s.part[i]), byte(s.won[i]))
			}
			return s.l.AppendTo(b)
		},
		Decode: func(data []byte, s *rightward) error {
			d := model.NewDecoder(data)
			s.part, s.won, s.l = make([]bool, n), make([]int8, n), ring.NewChans[tok](net)
			for i := range s.part {
				s.part[i], s.won[i] = d.Bool(), int8(d.Int())
			}
			s.l.DecodeFrom(&d, func(d *model.Decoder) tok { return tok{v: d.Int(), done: d.Bool()} })
			return d.Finish()
		},
		Vars: func(*rightward) []model.Var { return nil },
	}
}

func states(t *testing.T, ids []int, f []bool) int64 {
	t.Helper()
	r := checker.Run(context.Background(), rightwardSystem(ids, f), checker.Options{})
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r.States
}

// With the ids fixed, flipping every process at once is not a symmetry:
// for a spec that prefers one port it is the mirror image of the ring, whose
// ids run the other way round. Reflecting the description (ids and
// orientation, ring.Symmetry) is one. Reference: ring/orientation.go.
func TestFlipAllIsNotASymmetry(t *testing.T) {
	ids := []int{3, 1, 5, 2, 4}
	none, all := make([]bool, 5), []bool{true, true, true, true, true}
	plain, flipped := states(t, ids, none), states(t, ids, all)
	if plain != 270 || flipped != 189 {
		t.Fatalf("states: %d with a common orientation, %d with every process flipped; want 270 and 189 (changroberts on 3,1,5,2,4 and on 4,2,5,1,3)", plain, flipped)
	}
	gi, gf := ring.RingSymmetry{Reflect: true}.Apply(ids, all)
	if got := states(t, gi, gf); got != flipped {
		t.Fatalf("the reflected description (ids %v, orientation %s) has %d states, want %d", gi, model.FormatOrientation(gf), got, flipped)
	}
}
