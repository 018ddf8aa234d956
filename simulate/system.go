package simulate

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/ringcheck/mc/model"
)

// System is one instantiated spec with its state type erased, so that a
// registry of specs with different state types can hand any of them to
// mc simulate (Of).
type System interface {
	// Info describes the system.
	Info() Info
	// newWorker returns a runner of its own for one goroutine.
	newWorker() worker
}

// Build instantiates a spec for parameters p: the spec's constructor, with
// Of applied. With random ids each run builds its own system.
type Build func(p model.Params) (System, error)

// Info describes a system: what the report names.
type Info struct {
	Spec, Variant string
	Params        model.Params
	Props         []Named
	Measures      []Named
	// Witnesses are the witness properties, in the system's order.
	Witnesses []string
	// Situated are the properties whose situation a run may not meet
	// (model/vacuity.go), in the system's order, with what never
	// happened when it does not.
	Situated []Unmet
	// Terminates is the system's termination property, which a run cut at
	// the step limit leaves undecided; "" when it has none.
	Terminates string
	// Rules names the rules, in the system's order, and Procs is how many
	// processes each is instantiated for: what coverage counts by.
	Rules []string
	Procs int
}

// messageMeasures are the names the specs give their ghost counter of the
// messages their seed counts, in order of preference.
var messageMeasures = []string{"election-messages", "messages"}

// MessageMeasure is the measure a simulation reports as messages
// (Options.Messages), "" if the system has none.
func (i Info) MessageMeasure() string {
	for _, name := range messageMeasures {
		if slices.ContainsFunc(i.Measures, func(m Named) bool { return m.Name == name }) {
			return name
		}
	}
	return ""
}

// Named is a property or measure: its name, seed reference and meaning.
type Named struct {
	Name string     `json:"name"`
	Ref  string     `json:"ref"`
	Doc  string     `json:"doc"`
	Kind model.Kind `json:"-"`
}

// Unmet is a property whose situation a run may not meet, and what never
// happened in a run that does not.
type Unmet struct {
	Name  string `json:"name"`
	Unmet string `json:"unmet"`
}

type worker interface {
	run(ctx context.Context, gen *rand.Rand, maxSteps int, record, cover bool) Run
}

// Of wraps sys as a System.
func Of[S any](sys *model.System[S]) System { return system[S]{sys} }

type system[S any] struct{ sys *model.System[S] }

func (s system[S]) Info() Info {
	info := Info{Spec: s.sys.Spec, Variant: s.sys.Variant, Params: s.sys.Params, Procs: s.sys.Procs}
	for _, r := range s.sys.Rules {
		info.Rules = append(info.Rules, r.Name)
	}
	for _, p := range s.sys.Props {
		info.Props = append(info.Props, Named{Name: p.Name, Ref: p.Ref, Doc: p.Doc, Kind: p.Kind})
		if p.Situation() != model.Always {
			info.Situated = append(info.Situated, Unmet{Name: p.Name, Unmet: p.UnmetPhrase()})
		}
		switch {
		case p.Kind == model.Witness:
			info.Witnesses = append(info.Witnesses, p.Name)
		case p.Kind == model.Eventually && p.Terminal:
			info.Terminates = p.Name
		}
	}
	for _, m := range s.sys.Measures {
		info.Measures = append(info.Measures, Named{Name: m.Name, Ref: m.Ref, Doc: m.Doc})
	}
	return info
}

func (s system[S]) newWorker() worker { return newRunner(s.sys) }
