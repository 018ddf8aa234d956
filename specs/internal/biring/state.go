package biring

import (
	"strconv"

	"github.com/ringcheck/mc/invariants"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// State is the global state of a spec on a bidirectional ring: per process
// its own variables (P, of the spec's type), what it knows of the outcome,
// the channels (Chans[2i+port] arrive at i through port) and the ghost.
type State[P any, M ring.Message[M]] struct {
	P     []P
	Out   invariants.Outcome
	Chans ring.Chans[M]
	Ghost Ghost
}

// Proc is what a spec's per-process variables offer: a canonical encoding
// and their rendering for traces, as cmd/mc-gen derives them
// (model.Derived; P holds no slices, so State copies it by assignment).
type Proc[P any] interface {
	*P
	AppendTo(buf []byte) []byte
	DecodeFrom(d *model.Decoder, shape *P)
	AppendVars(out []model.Var, prefix string) []model.Var
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
	Winner invariants.Winner
	// Claims are the spec's claims over the ghost (empty without
	// --claims); Word is what the ghost counts per process, "phases" or
	// "stages".
	Claims []model.Property[State[P, M]]
	Word   string
	// WordRef and SentRef cite the bounds on the phases (or stages) and on
	// the election messages, for the measures.
	WordRef, SentRef string
	// Termination is the spec's termination measure, nil for a variant
	// whose runs need not end (model.System.Termination).
	Termination *model.Termination[State[P, M]]
	// OutcomeVars renders what process i knows of the outcome in the
	// spec's own words; nil for Outcome.Vars ("p2.decided", "p2.leader").
	OutcomeVars func(o *invariants.Outcome, i int) []model.Var
}

// System assembles the system of sp with rules: the initial state, the
// election properties (invariants.OutcomeProperties) and the claims, and the state's
// copy, encoding, decoding, erasure, rendering and picture.
func System[P any, PP Proc[P], M ring.Message[M]](sp Spec[P, M], rules []model.Rule[State[P, M]]) *model.System[State[P, M]] {
	type S = State[P, M]
	n := sp.Params.N
	net := netOf(&sp.Params)
	fresh := func() S {
		s := S{P: make([]P, n), Out: invariants.New(n), Chans: ring.NewChans[M](net), Ghost: NewGhost(n)}
		for i := range s.P {
			s.P[i] = sp.Init
		}
		return s
	}
	outcomeVars := sp.OutcomeVars
	if outcomeVars == nil {
		outcomeVars = (*invariants.Outcome).Vars
	}
	props := invariants.OutcomeProperties(sp.Ref, sp.Winner, func(s *S) *invariants.Outcome { return &s.Out }, func(s *S) bool { return s.Chans.Quiet() })
	var measures []model.Measure[S]
	if sp.Params.Claims {
		measures = []model.Measure[S]{
			{Name: sp.Word, Ref: sp.WordRef, Doc: "the most " + sp.Word + " a process entered (counting the first)",
				Value: func(s *S) int { return s.Ghost.Most() }, Reads: ReadGhost[P, M]},
			{Name: "election-messages", Ref: sp.SentRef, Doc: "election messages sent in a run, each hop counted, the announcement apart",
				Value: func(s *S) int { return s.Ghost.Sent }, Reads: ReadGhost[P, M]},
		}
	}
	return &model.System[S]{
		Spec:        sp.Name,
		Variant:     sp.Variant,
		Params:      sp.Params,
		Procs:       n,
		Init:        []S{fresh()},
		Rules:       rules,
		Props:       append(props, sp.Claims...),
		Ends:        model.EveryEnd[S], // election-complete judges every terminal state
		Measures:    measures,
		Termination: sp.Termination,
		Copy: func(dst, src *S) {
			dst.P = append(dst.P[:0], src.P...)
			dst.Out.CopyFrom(&src.Out)
			dst.Chans.CopyFrom(src.Chans)
			dst.Ghost.CopyFrom(&src.Ghost)
		},
		Encode: func(buf []byte, s *S) []byte {
			for i := range s.P {
				buf = PP(&s.P[i]).AppendTo(buf)
				buf = s.Out.AppendTo(buf, i)
			}
			return s.Ghost.AppendTo(s.Chans.AppendTo(buf))
		},
		Decode: func(data []byte, s *S) error {
			if len(s.P) != n {
				*s = fresh()
			}
			d := model.NewDecoder(data)
			for i := range s.P {
				PP(&s.P[i]).DecodeFrom(&d, &sp.Init)
				s.Out.DecodeFrom(&d, i)
			}
			s.Chans.DecodeFrom(&d, sp.Read)
			s.Ghost.DecodeFrom(&d)
			return d.Finish()
		},
		Erase:   func(s *S) { s.Ghost.Erase() },
		Chans:   net.Semantics(), // channel c is Chans[c]
		ChanLen: func(s *S, c int) int { return s.Chans[c].Len() },
		Vars: func(s *S) []model.Var {
			var out []model.Var
			for i := range s.P {
				out = PP(&s.P[i]).AppendVars(out, "p"+strconv.Itoa(i)+".")
				out = append(out, outcomeVars(&s.Out, i)...)
				out = s.Chans.Vars(net, out, i)
			}
			if sp.Params.Claims {
				out = s.Ghost.Vars(out, sp.Word)
			}
			return out
		},
		View: func(s *S) model.View {
			return model.View{Procs: invariants.ProcViews(sp.Params.IDs, &s.Out), Chans: s.Chans.Views(net)}
		},
		InTransit: func(s *S, visit func(int, string, []byte)) { s.Chans.InTransit(net, visit) },
	}
}

// ReadReached appends how many phases or stages each process entered: all
// that the claims about phases read (model.Property.Reads), so that they
// are evaluated again only on the steps that change it, not on every
// message sent (mc simulate).
func ReadReached[P any, M ring.Message[M]](buf []byte, s *State[P, M]) []byte {
	return append(buf, s.Ghost.Reached...)
}

// ReadSent appends the count of election messages sent: all that the
// claim bounding them reads.
func ReadSent[P any, M ring.Message[M]](buf []byte, s *State[P, M]) []byte {
	return model.AppendUint(buf, uint64(s.Ghost.Sent))
}

// ReadGhost appends the ghost history: what the measures read
// (model.Property.Reads).
func ReadGhost[P any, M ring.Message[M]](buf []byte, s *State[P, M]) []byte {
	return s.Ghost.AppendTo(buf)
}
