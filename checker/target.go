package checker

import (
	"context"

	"github.com/ringcheck/mc/model"
)

// Target is a system with its state type erased, so that a registry of
// specs with different state types can hand any of them to the CLI.
type Target interface {
	// Props describes the properties that Check evaluates.
	Props() []PropInfo
	// HasTermination reports whether the system declares a termination
	// measure (model.Termination), which --por needs for liveness
	// (CanReduce).
	HasTermination() bool
	// Check explores the system.
	Check(ctx context.Context, opt Options) Result
	// Stepper steps through the system one action at a time (stepper.go).
	Stepper
	// Graph builds the whole reachable state graph, observing each state
	// as opt asks (graph.go): what sweeps compute the costs of runs on.
	Graph(ctx context.Context, opt GraphOptions) (*Graph, error)
	// ObservePath observes the states of one run as Graph observes the
	// graph's (graph.go).
	ObservePath(init int, actions []model.Action, opt GraphOptions) error
	// CheckCodec checks the system's Copy, Encode and Decode on up to
	// limit reachable states (codec.go).
	CheckCodec(ctx context.Context, limit int) (states int, complete bool, err error)
}

// PropInfo describes one property.
type PropInfo struct {
	Name, Ref, Doc string
	Kind           model.Kind
	// Unmet says what never happened when the property's situation
	// (model/vacuity.go) did not arise in a run; "" for a property that
	// every run puts to the test, which is never vacuous.
	Unmet string
}

// Of wraps sys as a Target. Its properties are those a run checks by
// default, the deadlock property included (model.System.WithDeadlock), so
// that a trace about any of them replays and mc explore shows them all;
// Check adds it or not by its options.
func Of[S any](sys *model.System[S]) Target { return target[S]{sys: sys.WithDeadlock(), spec: sys} }

// target is a system: sys as checked by default, and spec, the system as
// the spec built it, which runs start from.
type target[S any] struct{ sys, spec *model.System[S] }

func (t target[S]) Props() []PropInfo {
	out := make([]PropInfo, len(t.sys.Props))
	for i, p := range t.sys.Props {
		out[i] = PropInfo{Name: p.Name, Ref: p.Ref, Doc: p.Doc, Kind: p.Kind}
		if p.Situation() != model.Always {
			out[i].Unmet = p.UnmetPhrase()
		}
	}
	return out
}

func (t target[S]) HasTermination() bool { return t.sys.Termination != nil }

func (t target[S]) Check(ctx context.Context, opt Options) Result { return Run(ctx, t.spec, opt) }

func (t target[S]) CheckCodec(ctx context.Context, limit int) (int, bool, error) {
	return CheckCodec(ctx, t.sys, limit)
}
