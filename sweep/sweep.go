// Package sweep computes, for every id arrangement of small rings, the
// fewest and most messages of a spec's complete runs over all schedules
// (CostOf), and compares the worst case with the paper's bound. It
// is what mc sweep prints and results/ holds.
package sweep

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/specs/specdef"
)

// Arrangement is the cost of one arrangement class.
type Arrangement struct {
	IDs []int `json:"ids"`
	// Size is how many arrangements the class stands for.
	Size        int `json:"size"`
	States      int `json:"states"`
	Transitions int `json:"transitions"`
	// Min and Max are Unbounded when Cycle is set.
	Min Messages `json:"best_messages"`
	Max Messages `json:"worst_messages"`
	// Causal is the causal depth of the worst run (CausalDepth).
	Causal int `json:"worst_run_causal_depth"`
	// Phases is the most phases (rounds, stages) any run reaches, and
	// Bits the most bits any complete run sends, where the profile counts
	// them (else 0).
	Phases int `json:"phases,omitempty"`
	Bits   int `json:"worst_bits,omitempty"`
	// CausalAll is the longest causal chain of any run (Cost.Causal),
	// -1 when it was not computed; CausalStates the stamped states explored.
	CausalAll    int `json:"causal_depth"`
	CausalStates int `json:"causal_states"`
	// Cycle is non-empty when runs can go on forever.
	Cycle string `json:"cycle,omitempty"`
	// Reduced says the figures were computed on the reduced graph
	// (CostOptions.Reduce): States, Transitions and CausalStates are its.
	Reduced bool `json:"reduced,omitempty"`
	// MinRun and MaxRun are the witness runs.
	MinRun, MaxRun *checker.Trace `json:"-"`
}

// Row is one ring size: the aggregate over its arrangement classes.
type Row struct {
	N int `json:"n"`
	// Arrangements is how many arrangements the classes cover; Classes is
	// how many were computed.
	Arrangements int `json:"arrangements"`
	Classes      int `json:"classes"`
	// States and Transitions sum over the classes.
	States      int `json:"states"`
	Transitions int `json:"transitions"`
	// Worst and Best are Unbounded when some class has a cycle.
	Worst Messages `json:"worst_messages"`
	Best  Messages `json:"best_messages"`
	// MeanWorst and MeanBest average the per-arrangement worst and best
	// over all arrangements (each class weighted by its size), as a float
	// and exactly; nil and "" when some class has a cycle.
	MeanWorst      *float64 `json:"mean_messages"`
	MeanWorstExact string   `json:"mean_messages_exact"`
	MeanBestExact  string   `json:"mean_best_messages_exact"`
	// ScheduleDependent counts the classes whose best and worst differ.
	ScheduleDependent int `json:"schedule_dependent_classes"`
	// Bound is the paper's bound at n (nil when none).
	Bound *float64 `json:"bound"`
	// WorstIDs and BestIDs are arrangements attaining Worst and Best.
	WorstIDs []int `json:"worst_ids"`
	BestIDs  []int `json:"best_ids"`
	// WorstCausal is the causal depth of the worst witness run.
	WorstCausal int `json:"worst_run_causal_depth"`
	// Phases and WorstBits are the largest Phases and Bits of the classes
	// (0 when the profile does not count them), and PhaseBound the paper's
	// bound on the phases at n (nil when none).
	Phases     int      `json:"phases,omitempty"`
	PhaseBound *float64 `json:"phase_bound,omitempty"`
	WorstBits  int      `json:"worst_bits,omitempty"`
	// LinearTerm, for a bound a·n·log₂ n + O(n) whose O(n) term the paper
	// leaves open (Profile.Lead), is the smallest c with Worst ≤
	// a·n·log₂ n + c·n.
	LinearTerm *float64 `json:"linear_term_needed,omitempty"`
	// Causal is the longest causal chain of any run of any class: the time
	// with unit delays, over all runs; -1 when some class's was not
	// computed (no View, a cycle, or more stamped states than CausalLimit).
	// CausalStates sums the stamped states explored.
	Causal       int `json:"causal_depth"`
	CausalStates int `json:"causal_states"`
	// Cycles counts the classes whose graph has a cycle (costs unbounded).
	Cycles int `json:"cycles,omitempty"`
	// Reduced says the classes were computed on reduced graphs (--por),
	// and NotComputed names what that left out, and why
	// (Config.PhasesSkipped).
	Reduced     bool          `json:"reduced,omitempty"`
	NotComputed string        `json:"not_computed,omitempty"`
	PerClass    []Arrangement `json:"per_arrangement"`
	// ClassesOmitted says PerClass was left out of a stored table
	// (Table.Summarized).
	ClassesOmitted bool `json:"per_arrangement_omitted,omitempty"`
	// Reused counts the classes taken from Config.Store rather than
	// computed; no output shows it, as a row is the same either way.
	Reused      int `json:"-"`
	worst, best *Arrangement
}

// Mean returns the exact mean of the per-arrangement worst (or best) costs.
func (r *Row) Mean(best bool) *big.Rat {
	sum, total := new(big.Rat), 0
	for _, a := range r.PerClass {
		v := a.Max
		if best {
			v = a.Min
		}
		sum.Add(sum, big.NewRat(int64(v)*int64(a.Size), 1))
		total += a.Size
	}
	return sum.Quo(sum, big.NewRat(int64(total), 1))
}

// WorstRun and BestRun are the witness runs of Worst and Best.
func (r *Row) WorstRun() *checker.Trace { return r.worst.MaxRun }
func (r *Row) BestRun() *checker.Trace  { return r.best.MinRun }

// Spec is what a sweep needs of the spec it sweeps (the registry's entries,
// specs.Entry, are one): its description, the systems it builds, and the
// hash of its sources, which keys the classes stored.
type Spec interface {
	Facts() specdef.Info
	Build(p model.Params) (checker.Target, error)
	Hash() (string, error)
}

// Config is one sweep: a spec, how it is counted, and its parameters.
type Config struct {
	Spec    Spec
	Profile specdef.Profile
	Variant string
	// IDs, if not nil, sweeps this one arrangement instead of every class.
	IDs   []int
	Drift int
	// Own are the spec's own parameters (--param), resolved
	// (specdef.Info.ResolveParams).
	Own []model.Param
	Opt CostOptions
	// Store, if not nil, keeps the classes computed by earlier sweeps: a
	// class whose key it holds is taken from it, unless Fresh, and every
	// class computed is saved to it (store.go).
	Store Store
	Fresh bool
	// Reduce computes every class on its reduced graph (--por,
	// CostOptions.Reduce), as Profile.ReducedFrom does from its size on. A
	// profile whose phases are read off a ghost (GhostPhases) is then
	// built without claims and its phases are not computed
	// (PhasesSkipped).
	Reduce bool
	// Workers is how many classes are computed at once (at least 1); the
	// rows are the same for any number.
	Workers int
}

// Reduced says whether the classes of ring size n are computed on reduced
// graphs: with --por (Reduce), or from the profile's ReducedFrom on.
func (c Config) Reduced(n int) bool {
	return c.Reduce || (c.Profile.ReducedFrom > 0 && n >= c.Profile.ReducedFrom)
}

// PhasesSkipped says why the phases of ring size n are not computed, or ""
// if they are: on reduced graphs (Reduced), a profile's phases read off a
// ghost would need the spec built with claims, whose ghost counts every
// send, which makes every two sends dependent and leaves next to nothing
// to reduce (docs/reduction.md).
func (c Config) PhasesSkipped(n int) string {
	if c.Reduced(n) && c.Profile.GhostPhases && c.Profile.Measure == "" && c.Profile.Bits == "" {
		return "not computed under --por: they are read off a ghost, whose message counter makes every two sends dependent"
	}
	return ""
}

// claims says whether the spec is built with claims for ring size n
// (Profile.Claims), but for the ghost phases that reduction leaves out
// (PhasesSkipped).
func (c Config) claims(n int) bool { return c.Profile.Claims() && c.PhasesSkipped(n) == "" }

// CausalLimit bounds the stamped states explored per arrangement class for
// the longest causal chain (CostOptions.CausalLimit).
const CausalLimit = 4 << 20

// Run sweeps ring size n: every class (Classes), each computed or taken
// from the store (Class), then aggregated (Aggregate). mc-beam sweep runs
// the same three steps as a pipeline. With c.Workers above 1 the classes
// are computed side by side, taken in their order, and the row is the
// same: each class's cost depends on nothing but the class, the row lists
// them in order, and the error returned is the first class's, in that
// order, that failed (classes after a failure are not started).
func Run(ctx context.Context, c Config, n int) (*Row, error) {
	classes, err := c.Classes(n)
	if err != nil {
		return nil, err
	}
	as := make([]Arrangement, len(classes))
	fromStore := make([]bool, len(classes))
	errs := make([]error, len(classes))
	workers := min(max(c.Workers, 1), len(classes))
	if c.Store != nil && workers > 1 {
		c.Store = &lockedStore{s: c.Store}
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(classes) {
					return
				}
				if as[i], fromStore[i], errs[i] = c.Class(ctx, n, classes[i]); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	reused := 0
	for i := range classes {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if fromStore[i] {
			reused++
		}
	}
	row := c.Aggregate(n, as)
	row.Reused = reused
	return row, nil
}

// lockedStore lets the workers of Run share a Store one call at a time.
type lockedStore struct {
	mu sync.Mutex
	s  Store
}

func (l *lockedStore) Lookup(k runstore.Key, v any) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Lookup(k, v)
}

func (l *lockedStore) Save(k runstore.Key, v any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Save(k, v)
}

// Classes are the arrangement classes of ring size n that c sweeps, in
// the order their rows list them.
func (c Config) Classes(n int) ([]ring.ArrangementClass, error) {
	if c.IDs != nil {
		if len(c.IDs) != n {
			return nil, fmt.Errorf("--ids has %d ids for n=%d", len(c.IDs), n)
		}
		return []ring.ArrangementClass{{Rep: c.IDs, Size: 1}}, nil
	}
	return ring.ArrangementClasses(n, c.Spec.Facts().Symmetry), nil
}

// Class is the cost of class cl of ring size n, and whether it was taken
// from c.Store rather than computed.
func (c Config) Class(ctx context.Context, n int, cl ring.ArrangementClass) (Arrangement, bool, error) {
	return c.class(ctx, n, cl, c.costOptions(n))
}

// Aggregate is the row of ring size n whose classes cost as, in the order
// Classes lists them.
func (c Config) Aggregate(n int, as []Arrangement) *Row {
	row := &Row{N: n, Classes: len(as)}
	if why := c.PhasesSkipped(n); why != "" {
		row.NotComputed = c.Profile.Phase + ": " + why
	}
	for _, a := range as {
		row.Phases = max(row.Phases, a.Phases)
		row.CausalStates += a.CausalStates
		if a.CausalAll < 0 || row.Causal < 0 {
			row.Causal = -1
		} else {
			row.Causal = max(row.Causal, a.CausalAll)
		}
		if a.Cycle != "" {
			row.Cycles++
		}
		row.Reduced = a.Reduced
		row.PerClass = append(row.PerClass, a)
		row.Arrangements += a.Size
		row.States += a.States
		row.Transitions += a.Transitions
	}
	for i := range row.PerClass {
		a := &row.PerClass[i]
		if a.Cycle != "" {
			continue
		}
		if row.worst == nil || a.Max > row.worst.Max {
			row.worst = a
		}
		if row.best == nil || a.Min < row.best.Min {
			row.best = a
		}
		if a.Min != a.Max {
			row.ScheduleDependent++
		}
		row.WorstBits = max(row.WorstBits, a.Bits)
	}
	if row.Cycles > 0 {
		row.Worst, row.Best = Unbounded, Unbounded
		return row
	}
	row.Worst, row.WorstIDs, row.WorstCausal = row.worst.Max, row.worst.IDs, row.worst.Causal
	row.Best, row.BestIDs = row.best.Min, row.best.IDs
	mean := row.Mean(false)
	meanWorst, _ := mean.Float64()
	row.MeanWorst = &meanWorst
	row.MeanWorstExact = mean.RatString()
	row.MeanBestExact = row.Mean(true).RatString()
	if c.Profile.Bound != nil {
		b := c.Profile.Bound(n)
		row.Bound = &b
	}
	if c.Profile.PhaseBound != nil {
		b := c.Profile.PhaseBound(n)
		row.PhaseBound = &b
	}
	if c.Profile.Lead != 0 {
		// Rounded up at the third decimal, so that the figure printed
		// still fits.
		need := linearTermNeeded(int(row.Worst), n, c.Profile.Lead)
		row.LinearTerm = &need
	}
	return row
}

// costOptions are the options a class of ring size n is counted with.
func (c Config) costOptions(n int) CostOptions {
	opt := c.Opt
	opt.Kinds, opt.Uncounted, opt.Measure = c.Profile.Kinds, c.Profile.Uncounted, c.Profile.Measure
	opt.Phases, opt.Bits, opt.Reduce = c.Profile.Phases, c.Profile.Bits, c.Reduced(n)
	if c.PhasesSkipped(n) != "" {
		opt.Phases = ""
	}
	if c.Profile.CausalUpTo == 0 || n <= c.Profile.CausalUpTo {
		opt.CausalLimit = CausalLimit
	}
	return opt
}

// target builds the system of one class of ring size n, arrangement ids.
func (c Config) target(n int, ids []int) (checker.Target, error) {
	return c.Spec.Build(model.Params{N: n, IDs: ids, Variant: c.Variant, Claims: c.claims(n), Drift: c.Drift, Own: c.Own})
}

// Incomplete is the error of a class whose graph a limit (MaxStates,
// Timeout) or the context stopped before its end: the sweep did not
// finish, which is no fault of its input.
type Incomplete struct {
	// IDs is the class's arrangement; Why says what stopped its graph.
	IDs []int
	Why string
}

func (e *Incomplete) Error() string {
	ids := strings.ReplaceAll(strings.Trim(fmt.Sprint(e.IDs), "[]"), " ", ",")
	return fmt.Sprintf("n=%d ids=%s: graph incomplete: %s", len(e.IDs), ids, e.Why)
}

// computeClass counts the messages of t, the system of class cl.
func computeClass(ctx context.Context, t checker.Target, cl ring.ArrangementClass, opt CostOptions) (Arrangement, error) {
	cost, err := CostOf(ctx, t, opt)
	if err != nil {
		return Arrangement{}, err
	}
	if cost.Incomplete != "" {
		return Arrangement{}, &Incomplete{IDs: cl.Rep, Why: cost.Incomplete}
	}
	a := Arrangement{IDs: cl.Rep, Size: cl.Size, States: cost.States, Transitions: cost.Transitions,
		Min: Messages(cost.Min), Max: Messages(cost.Max), Causal: cost.MaxCausal, MinRun: cost.MinRun, MaxRun: cost.MaxRun,
		Phases: max(cost.Phases, 0), Bits: max(cost.MaxBits, 0), CausalAll: cost.Causal, CausalStates: cost.CausalStates,
		Reduced: opt.Reduce}
	if cost.Cycle != nil {
		a.Cycle, a.Min, a.Max = describeCycle(cost.Cycle), Unbounded, Unbounded
	}
	return a, nil
}

// describeCycle renders the loop of a lasso run in one line.
func describeCycle(tr *checker.Trace) string {
	s := fmt.Sprintf("after %d steps, repeats:", *tr.LoopStart)
	for _, st := range tr.Steps[*tr.LoopStart:] {
		s += " " + st.Label + ";"
	}
	return s
}
