package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/simulate"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// simulateOutput is what mc simulate prints, as text or (--json) as this
// JSON object. docs/simulate.md documents the fields.
type simulateOutput struct {
	Spec    string `json:"spec"`
	Variant string `json:"variant"`
	N       int    `json:"n"`
	// IDs is the arrangement every run uses; null with random ids.
	IDs []int `json:"ids"`
	// Param are the spec's own parameters (--param), by name.
	Param     map[string]int `json:"param,omitempty"`
	RandomIDs bool           `json:"random_ids"`
	// RandomOrientation says each run drew its orientation assignment
	// (a spec on an unoriented ring without --orientation).
	RandomOrientation bool   `json:"random_orientation,omitempty"`
	Seed              uint64 `json:"seed"`
	FirstRun          int    `json:"first_run"`
	Runs              int    `json:"runs"`
	MaxSteps          int    `json:"max_steps"`
	// Sampled is always true: a simulation never proves a property.
	Sampled bool `json:"sampled"`
	// Verdict is "no violation", "fail" or "incomplete"; Summary says it
	// in a sentence.
	Verdict string `json:"verdict"`
	Summary string `json:"summary"`
	// Done is the number of runs the statistics cover (simulate.Report).
	Done    int              `json:"done"`
	Stopped string           `json:"stopped,omitempty"`
	Failure *simulateFailure `json:"failure,omitempty"`
	// Messages is the distribution of the spec's message counter; null
	// when the spec has none.
	Messages      *simulateMessages         `json:"messages"`
	Steps         simulate.Summary          `json:"steps"`
	NotTerminated int                       `json:"not_terminated"`
	Measures      []simulate.MeasureSummary `json:"measures"`
	Witnesses     []simulateWitness         `json:"witnesses"`
	// Situations says, per property whose situation a run may not meet,
	// in how many runs it arose (docs/vacuity.md).
	Situations []simulateSituation `json:"situations"`
	// Coverage is --coverage's report (docs/coverage.md).
	Coverage *jsonSimulationCoverage `json:"coverage,omitempty"`
	coverage *checker.Coverage
}

type simulateFailure struct {
	simulate.Failure
	Kind string `json:"kind"`
	Run  int    `json:"run"`
	IDs  []int  `json:"ids,omitempty"`
	// Orientation is the orientation the run drew, as --orientation
	// writes it; "" when runs draw none.
	Orientation string `json:"orientation,omitempty"`
	// Reproduce is the command that makes the failing run alone.
	Reproduce string `json:"reproduce"`
	// TraceOut is the trace file written, "" when none was.
	TraceOut string `json:"trace_out,omitempty"`
}

type simulateMessages struct {
	simulate.Summary
	// Measure is the ghost counter counted, and Counted what it counts.
	Measure string `json:"measure"`
	Counted string `json:"counted"`
	// Bound is the seed's worst case at n, Mean the literature's average
	// (both absent when there is none), with their formulas and sources.
	Bound        *float64 `json:"bound,omitempty"`
	BoundFormula string   `json:"bound_formula,omitempty"`
	BoundRef     string   `json:"bound_ref,omitempty"`
	Mean         *float64 `json:"expected_mean,omitempty"`
	MeanFormula  string   `json:"expected_mean_formula,omitempty"`
	MeanRef      string   `json:"expected_mean_ref,omitempty"`
}

type simulateSituation struct {
	simulate.Unmet
	// Runs is how many runs met it; the others passed it vacuously.
	Runs int `json:"runs"`
}

type simulateWitness struct {
	Name string `json:"name"`
	// Runs is how many runs reached a state where it holds.
	Runs int `json:"runs"`
}

func newSimulateOutput(rep *simulate.Report, entry specs.Entry, p model.Params, args []string) *simulateOutput {
	o := &simulateOutput{Spec: rep.Info.Spec, Variant: rep.Info.Variant, N: p.N, RandomIDs: rep.Opt.RandomIDs, RandomOrientation: rep.Opt.RandomOrientation, Seed: rep.Opt.Seed,
		FirstRun: rep.Opt.First, Runs: rep.Opt.Runs, MaxSteps: rep.Opt.MaxSteps, Sampled: true, Done: rep.Done, Stopped: rep.Stopped,
		Steps: rep.Steps, NotTerminated: rep.NotTerminated, Measures: rep.Measures, Param: runinfo.ParamsOf(p).Param}
	if !rep.Opt.RandomIDs && !entry.Anonymous() {
		o.IDs = p.IDs
	}
	switch {
	case rep.Failure != nil:
		f := rep.Failure
		o.Verdict = "fail"
		o.Failure = &simulateFailure{Failure: *f.Failure, Kind: f.Failure.Kind.String(), Run: f.Index, IDs: f.IDs,
			Reproduce: reproduction(args, rep.Opt.Seed, f.Index)}
		if f.Orientation != nil {
			o.Failure.Orientation = model.FormatOrientation(f.Orientation)
		}
		o.Summary = fmt.Sprintf("run %d of seed %d breaks %s after %d steps", f.Index, rep.Opt.Seed, f.Failure.Property, f.Failure.Step)
	case rep.Stopped != "":
		o.Verdict = "incomplete"
		o.Summary = fmt.Sprintf("stopped (%s) after %d of %d runs, no violation in those", rep.Stopped, rep.Done, rep.Opt.Runs)
	case rep.NotTerminated > 0 && rep.Info.Terminates != "":
		// As mc check's --max-depth: a cut run is neither a pass nor a
		// counterexample to termination.
		o.Verdict = "incomplete"
		o.Summary = fmt.Sprintf("%s of %d cut at --max-steps %d before terminating, which leaves %s undecided on them; no violation in %s",
			countRuns(rep.NotTerminated), rep.Done, rep.Opt.MaxSteps, rep.Info.Terminates, countRuns(rep.Done))
	default:
		o.Verdict = "no violation"
		o.Summary = "no violation in " + countRuns(rep.Done)
	}
	if rep.Messages != nil {
		o.Messages = &simulateMessages{Summary: *rep.Messages, Measure: rep.Opt.Messages}
		for _, m := range rep.Measures {
			if m.Name == rep.Opt.Messages {
				o.Messages.Counted = m.Doc
			}
		}
		if prof, ok := profileOf(entry, rep.Info.Variant); ok {
			if prof.Bound != nil {
				b := prof.Bound(p.N)
				o.Messages.Bound, o.Messages.BoundFormula, o.Messages.BoundRef = &b, prof.Formula, prof.Ref
			}
			if prof.Mean != nil {
				m := prof.Mean(p.N)
				o.Messages.Mean, o.Messages.MeanFormula, o.Messages.MeanRef = &m, prof.MeanFormula, prof.MeanRef
			}
		}
	}
	for i, name := range rep.Info.Witnesses {
		o.Witnesses = append(o.Witnesses, simulateWitness{Name: name, Runs: rep.Witnessed[i]})
	}
	for i, u := range rep.Info.Situated {
		o.Situations = append(o.Situations, simulateSituation{Unmet: u, Runs: rep.Met[i]})
	}
	if c := rep.Coverage; c != nil {
		o.coverage = simulationCoverage(c, rep.Info)
		o.Coverage = &jsonSimulationCoverage{Coverage: *checkjson.CoverageOf(o.coverage), Runs: c.Runs, Distinct: c.Distinct, Counted: simulationCoverageCounts}
	}
	return o
}

// profileOf is the sweep profile of entry's variant, which names the
// seed's bound on its messages.
func profileOf(entry specs.Entry, variant string) (specdef.Profile, bool) {
	for _, prof := range entry.Sweeps {
		if prof.Variant == variant || (prof.Variant == "" && len(entry.Variants) > 0 && entry.Variants[0].Name == variant) {
			return prof, true
		}
	}
	return specdef.Profile{}, false
}

func (o *simulateOutput) writeText(w io.Writer) {
	ids := ", random ids per run"
	switch {
	case o.RandomIDs:
	case len(o.IDs) > 0:
		ids = ", ids " + shortInts(o.IDs)
	default: // a spec whose processes have no ids
		ids = ""
	}
	var own string
	for _, name := range slices.Sorted(maps.Keys(o.Param)) {
		own += fmt.Sprintf(" %s=%d", name, o.Param[name])
	}
	if o.RandomOrientation {
		ids += ", random orientation per run"
	}
	fmt.Fprintf(w, "mc simulate: %s (variant %s), n=%d%s%s, seed %d, runs %d..%d, at most %d steps each (sampled)\n",
		o.Spec, o.Variant, o.N, own, ids, o.Seed, o.FirstRun, o.FirstRun+o.Runs-1, o.MaxSteps)
	fmt.Fprintln(w, o.Summary)
	if f := o.Failure; f != nil {
		how := f.Kind + " property"
		if f.Deadlock {
			how += ", in its terminal state"
		}
		fmt.Fprintf(w, "  %s (%s)\n", f.Property, how)
		if f.IDs != nil {
			fmt.Fprintf(w, "  ids of the run: %s\n", shortInts(f.IDs))
		}
		if f.Orientation != "" {
			fmt.Fprintf(w, "  orientation of the run: %s\n", shortOrientation(f.Orientation))
		}
		fmt.Fprintf(w, "  reproduce: %s\n", f.Reproduce)
		if f.TraceOut != "" {
			fmt.Fprintf(w, "  wrote the run to %s (mc trace %s --replay)\n", f.TraceOut, f.TraceOut)
		}
	}
	if m := o.Messages; m != nil {
		fmt.Fprintf(w, "messages (%s: %s):\n", m.Measure, m.Counted)
		writeSummary(w, &m.Summary)
		if m.Mean != nil {
			fmt.Fprintf(w, "  expected mean %s = %.1f (%s)", m.MeanFormula, *m.Mean, m.MeanRef)
			if m.Runs > 1 { // one run has no spread to compare with
				inside := "inside"
				if *m.Mean < m.CI99[0] || *m.Mean > m.CI99[1] {
					inside = "outside"
				}
				fmt.Fprintf(w, ", %s the 99%% interval of the mean [%.1f, %.1f]", inside, m.CI99[0], m.CI99[1])
			}
			fmt.Fprintln(w)
		}
		if m.Bound != nil {
			fmt.Fprintf(w, "  worst case %s = %.0f (%s); most seen %d\n", m.BoundFormula, *m.Bound, m.BoundRef, m.Max)
		}
	} else {
		fmt.Fprintln(w, "messages: not counted (the spec has no message counter)")
	}
	fmt.Fprintln(w, "steps:")
	writeSummary(w, &o.Steps)
	if o.NotTerminated > 0 {
		fmt.Fprintf(w, "  %s reached the step limit\n", countRuns(o.NotTerminated))
	}
	for i := range o.Measures {
		m := &o.Measures[i]
		if o.Messages != nil && m.Name == o.Messages.Measure {
			continue
		}
		fmt.Fprintf(w, "%s (%s), in each run's last state:\n", m.Name, m.Doc)
		writeSummary(w, &m.Summary)
	}
	for _, wt := range o.Witnesses {
		fmt.Fprintf(w, "witness %s held in %d of %d runs\n", wt.Name, wt.Runs, o.Done)
	}
	for _, s := range o.Situations {
		if s.Runs < o.Done {
			fmt.Fprintf(w, "%s met its situation in %d of %d runs, vacuous in the others (%s)\n", s.Name, s.Runs, o.Done, s.Unmet.Unmet)
		}
	}
	if c := o.Coverage; c != nil {
		writeCoverageTable(w, o.coverage, simulationCoverageCounts)
		fmt.Fprintf(w, "  %d distinct states reached in %d runs\n", c.Distinct, c.Runs)
	}
}

// countRuns is "1 run" or "k runs".
func countRuns(k int) string {
	if k == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", k)
}

// writeSummary prints a distribution: its moments, then its histogram.
func writeSummary(w io.Writer, s *simulate.Summary) {
	fmt.Fprintf(w, "  mean %.1f, stddev %.1f, 95%% interval of the mean [%.1f, %.1f], min %d, max %d, over %d runs\n",
		s.Mean, s.Stddev, s.CI95[0], s.CI95[1], s.Min, s.Max, s.Runs)
	most := 0
	for _, b := range s.Histogram {
		most = max(most, b.Count)
	}
	for _, b := range s.Histogram {
		bar := strings.Repeat("#", (b.Count*40+most-1)/max(most, 1))
		fmt.Fprintf(w, "  %8d..%-8d %6d %s\n", b.Lo, b.Hi, b.Count, bar)
	}
}

// shortInts is joinInts for a few ids, and the first ones and the count for
// many: the header of a ring of 4,096 stays one line (--json has them all).
func shortInts(xs []int) string {
	const shown = 12
	if len(xs) <= shown {
		return model.FormatInts(xs)
	}
	return fmt.Sprintf("%s,… (%d ids)", model.FormatInts(xs[:shown]), len(xs))
}

// shortOrientation is an orientation's bit string, or its first bits and
// the count for a large ring, as shortInts (--json has it whole).
func shortOrientation(bits string) string {
	const shown = 64
	if len(bits) <= shown {
		return bits
	}
	return fmt.Sprintf("%s… (%d processes)", bits[:shown], len(bits))
}
