package sweep

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/ringcheck/mc/specs/specdef"
)

// SampledTable is a profile's rows at ring sizes beyond exhaustive reach
// (mc sweep --sample, results/<name>-sampled.json): each row summarises R
// simulated runs, each with its own uniformly random arrangement of 1..n
// and a uniformly random schedule (mc simulate --random-ids), not every
// arrangement class and every schedule. Its worst is the worst run seen,
// a lower estimate of the worst case, never the worst case itself.
type SampledTable struct {
	Name    string `json:"name"`
	Spec    string `json:"spec"`
	Variant string `json:"variant,omitempty"`
	// Sampled is always true: it tells a reader of the JSON that these
	// rows are estimates, unlike results/<name>.json.
	Sampled bool   `json:"sampled"`
	Seed    uint64 `json:"seed"`
	Runs    int    `json:"runs"`
	Counted string `json:"counted"`
	Formula string `json:"bound_formula"`
	Ref     string `json:"bound_ref"`
	// MeanFormula and MeanRef name the literature's average, where the
	// profile has one (Profile.Mean).
	MeanFormula string `json:"expected_mean_formula,omitempty"`
	MeanRef     string `json:"expected_mean_ref,omitempty"`
	// Oriented says that every run started from the one orientation in
	// which every processor's ports are alike (--orientation 0…0), for a
	// spec whose processors have no common sense of direction (vlt): the
	// rows sample the ids and the schedule, not the orientation.
	Oriented bool          `json:"oriented,omitempty"`
	Rows     []*SampledRow `json:"rows"`
}

// SampledRow is one ring size's summary statistics: only these, never the
// runs themselves, so that the table stays small.
type SampledRow struct {
	N       int  `json:"n"`
	Sampled bool `json:"sampled"`
	Runs    int  `json:"runs"`
	// Mean and Stddev (sample) of the messages over the runs; CI95 and
	// CI99 are the normal-approximation intervals of the mean.
	Mean   float64    `json:"mean"`
	Stddev float64    `json:"stddev"`
	CI95   [2]float64 `json:"ci95"`
	CI99   [2]float64 `json:"ci99"`
	// Best and Worst are the fewest and most messages of any run seen.
	Best  int `json:"best_seen"`
	Worst int `json:"worst_seen"`
	// Bound is the profile's bound at n, ExpectedMean its average at n;
	// nil where it has none.
	Bound        *float64 `json:"bound"`
	ExpectedMean *float64 `json:"expected_mean,omitempty"`
	// Steps is the mean number of steps of a run.
	Steps float64 `json:"mean_steps"`
}

// NewSampledTable is the empty sampled table of profile p of spec, R runs
// per size from seed.
func NewSampledTable(spec string, p specdef.Profile, seed uint64, runs int) *SampledTable {
	return &SampledTable{Name: p.Name + "-sampled", Spec: spec, Variant: p.Variant, Sampled: true, Seed: seed, Runs: runs,
		Counted: cmp.Or(p.SampledCounted, p.Counted), Formula: p.Formula, Ref: p.Ref, MeanFormula: p.MeanFormula, MeanRef: p.MeanRef}
}

// Fill sets the row's bound and expected mean from profile p.
func (r *SampledRow) Fill(p specdef.Profile) {
	r.Sampled = true
	if p.Bound != nil {
		b := p.Bound(r.N)
		r.Bound = &b
	}
	if p.Mean != nil {
		m := p.Mean(r.N)
		r.ExpectedMean = &m
	}
}

func (t *SampledTable) header() []string {
	h := []string{"n", "runs", "mean", "95 % interval", "worst seen", "best seen", "bound", "worst seen/bound"}
	if t.MeanFormula != "" {
		h = append(h, "expected mean")
	}
	return h
}

func (t *SampledTable) cells(r *SampledRow) []string {
	c := []string{fmt.Sprint(r.N), fmt.Sprint(r.Runs), fmt.Sprintf("%.1f", r.Mean),
		fmt.Sprintf("[%.1f, %.1f]", r.CI95[0], r.CI95[1]), fmt.Sprint(r.Worst), fmt.Sprint(r.Best), bound(r.Bound), "—"}
	if r.Bound != nil {
		c[7] = fmt.Sprintf("%.3f", float64(r.Worst)/(*r.Bound))
	}
	if t.MeanFormula != "" {
		c = append(c, bound(r.ExpectedMean))
	}
	return c
}

// about is the sentence that says how the rows were made.
func (t *SampledTable) about() string {
	s := fmt.Sprintf("sampled: %d runs per n (seed %d), each with a uniformly random arrangement and schedule", t.Runs, t.Seed)
	if t.Oriented {
		s += " and --orientation 0…0"
	}
	return s
}

// WriteText prints the sampled rows as a terminal table.
func (t *SampledTable) WriteText(w io.Writer) {
	fmt.Fprintf(w, "mc sweep %s%s: %s; bound %s; %s\n", t.Spec, variantSuffix(t.Variant), t.Counted, t.Formula, t.about())
	rows := [][]string{t.header()}
	for _, r := range t.Rows {
		rows = append(rows, t.cells(r))
	}
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			fmt.Fprintf(&b, "%*s ", width[i]+len(c)-len([]rune(c)), c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// WriteMarkdown writes results/<name>-sampled.md.
func (t *SampledTable) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## %s (sampled)\n\n%sCounted: %s. Bound: %s (%s).", t.Name, heading(&Table{Spec: t.Spec, Variant: t.Variant}), t.Counted, t.Formula, t.Ref)
	if t.MeanFormula != "" {
		fmt.Fprintf(w, " Expected mean: %s (%s).", t.MeanFormula, t.MeanRef)
	}
	fmt.Fprintf(w, "\n\nEvery row is %s (`mc simulate --random-ids`), not every arrangement and schedule: "+
		"the worst seen is a lower estimate of the worst case, and the interval is the normal-approximation 95 %% interval of the mean. "+
		"Regenerate with `go run ./cmd/mc sweep %s%s --n %s --sample %d --seed %d --out results`.\n\n![mean and worst seen against n, with the bound](%s.svg)\n\n",
		t.about(), t.Spec, VariantFlag(t.Variant), t.sizes(), t.Runs, t.Seed, t.Name)
	h := t.header()
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(h, " | "), strings.Repeat("---|", len(h)))
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(t.cells(r), " | "))
	}
	fmt.Fprintln(w)
}

// VariantFlag is the --variant flag that chooses variant v, "" for the
// spec's default.
func VariantFlag(v string) string {
	if v == "" {
		return ""
	}
	return " --variant " + v
}

// sizes is the table's ring sizes as --n takes them.
func (t *SampledTable) sizes() string {
	s := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		s[i] = fmt.Sprint(r.N)
	}
	return strings.Join(s, ",")
}
