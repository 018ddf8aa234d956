package vlt

import (
	"fmt"
	"strings"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Stage is where a processor is in Algorithm E.
type Stage uint8

const (
	// Phase0 is the initialization (000 §2, Algorithm E part 1): sending
	// ⟨u,0⟩ both ways and waiting for the neighbours' phase-0 messages.
	Phase0 Stage = iota
	// Observant is the rest of the run (part 2b). The active state (2a) is
	// left at once, within the step that enters it.
	Observant
)

// noDir is DIR before the processor first sends a phase message.
const noDir int8 = -1

// Proc is one processor's registers. ID, DIR and PNUM are the paper's.
type Proc struct {
	Stage Stage
	// Sent0 says that ⟨u,0⟩ has gone out, and Got0[port] is the value of
	// the phase-0 message received there (u1, u2; 0 until then). Both are
	// cleared when the phase-0 test is done.
	Sent0 bool
	Got0  [2]int
	ID    int
	PNUM  int
	// DIR is a port, or noDir.
	DIR int8
	// Active, in the modified version only, says that the processor was
	// active in phase PNUM, so its phase message went out with q = 1
	// (000 §4: "u knows that it is active in phase p").
	Active bool
	// Decided and Leader are the outcome as the processor learns it at the
	// inauguration: its decision and the leader's id (0 until then).
	Decided invariants.Decision
	Leader  int
}

// State is the global state: the processors, their orientation (fixed for
// a run but part of the state, since one system starts from several), the
// messages in transit, and the ghost history.
type State struct {
	Proc []Proc
	// Flipped[i]: processor i's Right port leads counter-clockwise
	// (ring.Ring).
	Flipped []bool
	Chans   ring.Chans[Msg]
	Ghost   Ghost
}

// links is the ring as this state's orientation makes it, for reading the
// channels; a send needs the duplex mode too (spec.net).
func (s *State) links() ring.Net {
	return ring.Net{Ring: ring.Ring{N: len(s.Proc), Bidirectional: true, Flipped: s.Flipped}}
}

// Procs is the ring size (invariants.Election).
func (s *State) Procs() int { return len(s.Proc) }

// Decision is processor p's decision (invariants.Election).
func (s *State) Decision(p int) invariants.Decision { return s.Proc[p].Decided }

// copyState makes dst a copy of src, reusing dst's storage.
func copyState(dst, src *State) {
	dst.Proc = append(dst.Proc[:0], src.Proc...)
	dst.Flipped = append(dst.Flipped[:0], src.Flipped...)
	dst.Chans.CopyFrom(src.Chans)
	dst.Ghost.copyFrom(&src.Ghost)
}

// encode writes every processor's registers, the orientation bits, the
// channels, then the ghost.
func encode(buf []byte, s *State) []byte {
	for i := range s.Proc {
		p := &s.Proc[i]
		buf = append(buf, byte(p.Stage), byte(p.DIR+1), byte(p.Decided))
		buf = model.AppendBool(model.AppendBool(buf, p.Sent0), p.Active)
		buf = model.AppendUint(buf, uint64(p.Got0[0]))
		buf = model.AppendUint(buf, uint64(p.Got0[1]))
		buf = model.AppendUint(buf, uint64(p.ID))
		buf = model.AppendUint(buf, uint64(p.PNUM))
		buf = model.AppendUint(buf, uint64(p.Leader))
	}
	for _, f := range s.Flipped {
		buf = model.AppendBool(buf, f)
	}
	buf = s.Chans.AppendTo(buf)
	return s.Ghost.appendTo(buf)
}

// decoder returns the inverse of encode for a ring of n.
func decoder(n int) func(data []byte, s *State) error {
	return func(data []byte, s *State) error {
		if len(s.Proc) != n {
			s.Proc, s.Flipped, s.Chans = make([]Proc, n), make([]bool, n), make(ring.Chans[Msg], 2*n)
		}
		d := model.NewDecoder(data)
		for i := range s.Proc {
			p := &s.Proc[i]
			p.Stage, p.DIR, p.Decided = Stage(d.Int()), int8(d.Int())-1, invariants.Decision(d.Int())
			p.Sent0, p.Active = d.Bool(), d.Bool()
			p.Got0[0], p.Got0[1] = d.Int(), d.Int()
			p.ID, p.PNUM, p.Leader = d.Int(), d.Int(), d.Int()
		}
		for j := range s.Flipped {
			s.Flipped[j] = d.Bool()
		}
		s.Chans.DecodeFrom(&d, readMsg)
		s.Ghost.decodeFrom(&d)
		return d.Finish()
	}
}

func dirString(d int8) string {
	if d == noDir {
		return "-"
	}
	return ring.Port(d).String()
}

func (p *Proc) stageString() string {
	if p.Stage == Observant {
		return "observant"
	}
	var parts []string
	if p.Sent0 {
		parts = append(parts, "sent")
	}
	for _, port := range ports {
		if p.Got0[port] != 0 {
			parts = append(parts, fmt.Sprintf("got %s %d", port, p.Got0[port]))
		}
	}
	if len(parts) == 0 {
		return "phase 0"
	}
	return "phase 0: " + strings.Join(parts, ", ")
}

// vars names the variables for traces.
func vars(modified, claims bool) func(s *State) []model.Var {
	return func(s *State) []model.Var {
		out := make([]model.Var, 0, 8*len(s.Proc)+4)
		for i := range s.Proc {
			p := &s.Proc[i]
			name := func(v string) string { return fmt.Sprintf("p%d.%s", i, v) }
			out = append(out,
				model.Var{Name: name("stage"), Value: p.stageString()},
				model.Var{Name: name("ID"), Value: fmt.Sprint(p.ID)},
				model.Var{Name: name("DIR"), Value: dirString(p.DIR)},
				model.Var{Name: name("PNUM"), Value: fmt.Sprint(p.PNUM)})
			if modified {
				out = append(out, model.Var{Name: name("active"), Value: fmt.Sprint(p.Active)})
			}
			out = append(out, model.Var{Name: name("decided"), Value: p.Decided.String()},
				model.Var{Name: name("leader"), Value: fmt.Sprint(p.Leader)})
		}
		out = s.Chans.LinkVars(s.links(), out)
		if claims {
			out = s.Ghost.appendVars(out, len(s.Proc))
		}
		return out
	}
}
