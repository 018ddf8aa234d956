package biring

import (
	"fmt"

	"mc/model"
	"mc/ring"
	"mc/specs/internal/election"
	"mc/specs/internal/outcome"
	"mc/specs/internal/ringnet"
)

// State is the global state of a spec on a bidirectional ring: per process
// its own variables (P, of the spec's type), what it knows of the outcome,
// and the channels with the ghost.
type State[P any, M ring.Message[M]] struct {
	P    []P
	Out  outcome.Outcome
	Wire Wire[M]
}

// Proc is what a spec's per-process variables offer: a canonical encoding
// and their rendering for traces, with what process i knows of the outcome
// in the spec's own words.
type Proc[P any] interface {
	*P
	AppendTo(buf []byte) []byte
	DecodeFrom(d *model.Decoder)
	Vars(out []model.Var, i int, o *outcome.Outcome) []model.Var
}

// Spec is what System needs to know of a spec beyond its rules.
type Spec[P any, M ring.Message[M]] struct {
	// Name and Variant name the system; Params are validated.
	Name, Variant string
	Params        model.Params
	// Init is every process's initial variables.
	Init P
	// Read decodes one message.
	Read func(d *model.Decoder) M
	// Ref is the seed section of the election properties, and Winner the
	// process they expect to win.
	Ref    string
	Winner outcome.Winner
	// Claims are the spec's claims over the ghost (empty without
	// --claims); Word is what the ghost counts per process, "phases" or
	// "stages".
	Claims []model.Property[State[P, M]]
	Word   string
	// WordRef and SentRef cite the bounds on the phases (or stages) and on
	// the election messages, for the measures.
	WordRef, SentRef string
}

// System assembles the system of sp with rules: the initial state, the
// election properties (package outcome) and the claims, and the state's
// copy, encoding, decoding, erasure, rendering and picture.
func System[P any, PP Proc[P], M ring.Message[M]](sp Spec[P, M], rules []model.Rule[State[P, M]]) *model.System[State[P, M]] {
	type S = State[P, M]
	n := sp.Params.N
	fresh := func() S {
		s := S{P: make([]P, n), Out: outcome.New(n), Wire: NewWire[M](n)}
		for i := range s.P {
			s.P[i] = sp.Init
		}
		return s
	}
	props := outcome.Properties(sp.Ref, sp.Winner, func(s *S) *outcome.Outcome { return &s.Out }, func(s *S) bool { return s.Wire.Quiet() })
	var measures []model.Measure[S]
	if sp.Params.Claims {
		measures = []model.Measure[S]{
			{Name: sp.Word, Ref: sp.WordRef, Doc: "the most " + sp.Word + " a process entered (counting the first)",
				Value: func(s *S) int { return s.Wire.Ghost.Most() }, Reads: ReadGhost[P, M]},
			{Name: "election-messages", Ref: sp.SentRef, Doc: "election messages sent in a run, each hop counted, the announcement apart",
				Value: func(s *S) int { return s.Wire.Ghost.Sent }, Reads: ReadGhost[P, M]},
		}
	}
	return &model.System[S]{
		Spec:     sp.Name,
		Variant:  sp.Variant,
		Params:   sp.Params,
		Procs:    n,
		Init:     []S{fresh()},
		Rules:    rules,
		Props:    append(props, sp.Claims...),
		Measures: measures,
		Copy: func(dst, src *S) {
			dst.P = append(dst.P[:0], src.P...)
			dst.Out.CopyFrom(&src.Out)
			dst.Wire.CopyFrom(&src.Wire)
		},
		Encode: func(buf []byte, s *S) []byte {
			for i := range s.P {
				buf = PP(&s.P[i]).AppendTo(buf)
				buf = s.Out.AppendTo(buf, i)
			}
			return s.Wire.AppendTo(buf)
		},
		Decode: func(data []byte, s *S) error {
			if len(s.P) != n {
				*s = fresh()
			}
			d := model.NewDecoder(data)
			for i := range s.P {
				PP(&s.P[i]).DecodeFrom(&d)
				s.Out.DecodeFrom(&d, i)
			}
			s.Wire.DecodeFrom(&d, sp.Read)
			return d.Finish()
		},
		Erase:   func(s *S) { s.Wire.Ghost.Erase() },
		Chans:   ringnet.Links(2*n, sp.Params.ChanSemantics()), // channel c is Wire.In[c]
		ChanLen: func(s *S, c int) int { return s.Wire.In[c].Len() },
		Vars: func(s *S) []model.Var {
			var out []model.Var
			for i := range s.P {
				out = PP(&s.P[i]).Vars(out, i, &s.Out)
				out = s.Wire.Vars(out, i)
			}
			if sp.Params.Claims {
				out = s.Wire.Ghost.Vars(out, sp.Word)
			}
			return out
		},
		View: func(s *S) model.View { return view(&sp.Params, &s.Out, &s.Wire) },
	}
}

// ReadGhost appends the ghost history: what the claims and the measures
// read (model.Property.Reads).
func ReadGhost[P any, M ring.Message[M]](buf []byte, s *State[P, M]) []byte {
	return s.Wire.Ghost.AppendTo(buf)
}

// view pictures a state for mc's drawings: each process with its id and
// decision, and each of its two input channels as a link from the
// neighbour on that side.
func view[M ring.Message[M]](p *model.Params, o *outcome.Outcome, w *Wire[M]) model.View {
	r := ring.Ring{N: p.N, Bidirectional: true}
	v := model.View{Procs: election.ProcViews(p.IDs, o)}
	for i := range v.Procs {
		for _, port := range []ring.Port{ring.Left, ring.Right} {
			c := &w.In[2*i+int(port)]
			msgs := make([]string, 0, c.Len())
			for _, m := range c.Messages() {
				msgs = append(msgs, m.String())
			}
			v.Links = append(v.Links, model.LinkView{From: r.Neighbour(i, port), To: i,
				Name: fmt.Sprintf("p%d.in.%s", i, port), Msgs: msgs})
		}
	}
	return v
}
