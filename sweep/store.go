package sweep

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runstore"
)

// Store keeps sweep classes across runs; *runstore.Store is one.
type Store interface {
	Lookup(k runstore.Key, v any) (bool, error)
	Save(k runstore.Key, v any) error
}

// class is the cost of one arrangement class cl of ring size n: taken
// from c.Store when it holds the class's key (reused), else computed and
// saved there. A class's cost depends on nothing but its key, so a row
// is the same, byte for byte, whichever of its classes were reused.
func (c Config) class(ctx context.Context, n int, cl ring.ArrangementClass, opt CostOptions) (a Arrangement, reused bool, err error) {
	t, err := c.target(n, cl.Rep)
	if err != nil {
		return a, false, err
	}
	if c.Store == nil {
		a, err = computeClass(ctx, t, cl, opt)
		return a, false, err
	}
	key, err := c.classKey(t, opt)
	if err != nil {
		return a, false, err
	}
	if !c.Fresh {
		if a, found, err := c.lookup(key, cl); err != nil || found {
			return a, found, err
		}
	}
	if a, err = computeClass(ctx, t, cl, opt); err != nil {
		return a, false, err
	}
	return a, false, c.Store.Save(key, store(a))
}

// Stored is class cl of ring size n as c.Store holds it; found is false
// when there is no store, c.Fresh, or the store does not hold it.
// mc-beam sweep asks it before it builds its pipeline, so that only the
// classes not found are computed (issue 21), and saves those with Keep:
// together they are what Class does with the store.
func (c Config) Stored(n int, cl ring.ArrangementClass) (a Arrangement, found bool, err error) {
	if c.Store == nil || c.Fresh {
		return a, false, nil
	}
	key, err := c.keyOf(n, cl.Rep)
	if err != nil {
		return a, false, err
	}
	return c.lookup(key, cl)
}

// Keep saves a, a class of ring size n computed elsewhere (by a
// pipeline's worker), in c.Store under the key Class would save it with;
// without a store it does nothing.
func (c Config) Keep(n int, a Arrangement) error {
	if c.Store == nil {
		return nil
	}
	key, err := c.keyOf(n, a.IDs)
	if err != nil {
		return err
	}
	return c.Store.Save(key, store(a))
}

// lookup is the class cl stored under key, if c.Store holds it.
func (c Config) lookup(key runstore.Key, cl ring.ArrangementClass) (a Arrangement, found bool, err error) {
	var s storedClass
	if found, err = c.Store.Lookup(key, &s); err != nil || !found {
		return a, false, err
	}
	a, err = s.arrangement(cl)
	return a, err == nil, err
}

// keyOf is the key of the class of ring size n whose representative is
// ids, counted as Class counts it.
func (c Config) keyOf(n int, ids []int) (runstore.Key, error) {
	t, err := c.target(n, ids)
	if err != nil {
		return runstore.Key{}, err
	}
	return c.classKey(t, c.costOptions(n))
}

// counting is what a class is counted with beyond its run's meaning: the
// options of CostOptions that change a figure. MaxStates and
// Timeout are not among them: a class they stop is not saved.
type counting struct {
	Kinds       []string `json:"kinds"`
	Uncounted   []string `json:"uncounted"`
	Measure     string   `json:"measure"`
	Bits        string   `json:"bits"`
	Phases      string   `json:"phases"`
	CausalLimit int      `json:"causal_limit"`
}

// classKey is the key of t, a class's system, counted with opt: its
// meaning (spec, variant, parameters, the spec's default fairness, --por), what
// is counted, and the spec's sources.
func (c Config) classKey(t checker.Target, opt CostOptions) (runstore.Key, error) {
	hash, err := c.Spec.Hash()
	if err != nil {
		return runstore.Key{}, err
	}
	run := checker.MeaningOf(t.Info(), checker.Options{Fair: c.Spec.Facts().Defaults.Fair, Reduce: opt.Reduce})
	count := counting{Kinds: opt.Kinds, Uncounted: opt.Uncounted, Measure: opt.Measure, Bits: opt.Bits, Phases: opt.Phases, CausalLimit: opt.CausalLimit}
	return runstore.NewKey(runstore.KindSweepClass, run, count, hash)
}

// storedClass is an Arrangement as the store holds it: its figures, and
// its witness runs with the actions that replay them (which a Trace's
// JSON leaves out), so that mc sweep --out writes the same trace files
// from a reused class as from a computed one.
type storedClass struct {
	Arrangement
	MinTrace *storedRun `json:"min_run,omitempty"`
	MaxTrace *storedRun `json:"max_run,omitempty"`
}

type storedRun struct {
	*checker.Trace
	Actions []model.Action `json:"actions"`
}

func store(a Arrangement) storedClass {
	return storedClass{Arrangement: a, MinTrace: storeRun(a.MinRun), MaxTrace: storeRun(a.MaxRun)}
}

func storeRun(tr *checker.Trace) *storedRun {
	if tr == nil {
		return nil
	}
	r := &storedRun{Trace: tr, Actions: make([]model.Action, len(tr.Steps))}
	for i, s := range tr.Steps {
		r.Actions[i] = s.Action
	}
	return r
}

// MarshalClass encodes a, witness runs included, as the run store keeps
// it: what carries a class's cost between the stages of a pipeline
// (mc-beam sweep).
func MarshalClass(a Arrangement) ([]byte, error) { return json.Marshal(store(a)) }

// UnmarshalClass decodes what MarshalClass encoded.
func UnmarshalClass(b []byte) (Arrangement, error) {
	var s storedClass
	if err := json.Unmarshal(b, &s); err != nil {
		return Arrangement{}, err
	}
	return s.arrangement(ring.ArrangementClass{Rep: s.IDs, Size: s.Size})
}

// arrangement is s as the class cl that it was stored for.
func (s storedClass) arrangement(cl ring.ArrangementClass) (Arrangement, error) {
	a := s.Arrangement
	a.IDs, a.Size = cl.Rep, cl.Size
	if a.Cycle != "" {
		// A class stored before its unbounded counts were written null
		// holds 0 for them.
		a.Min, a.Max = Unbounded, Unbounded
	}
	var err error
	if a.MinRun, err = s.MinTrace.trace(); err == nil {
		a.MaxRun, err = s.MaxTrace.trace()
	}
	return a, err
}

func (r *storedRun) trace() (*checker.Trace, error) {
	if r == nil {
		return nil, nil
	}
	if r.Trace == nil || len(r.Actions) != len(r.Steps) {
		return nil, fmt.Errorf("internal error: the run store holds a witness run whose actions do not match its steps")
	}
	for i := range r.Steps {
		r.Steps[i].Action = r.Actions[i]
	}
	return r.Trace, nil
}
