package sweep

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ringcheck/mc/model"
)

// Table is a profile's rows, as results/<name>.json holds them.
type Table struct {
	Name    string `json:"name"`
	Spec    string `json:"spec"`
	Variant string `json:"variant,omitempty"`
	// Drift and Claims are the parameters the spec was built with besides
	// n and the ids (Claims but for the rows RowClaims excepts).
	Drift   int    `json:"drift,omitempty"`
	Claims  bool   `json:"claims,omitempty"`
	Counted string `json:"counted"`
	Formula string `json:"bound_formula"`
	Ref     string `json:"bound_ref"`
	// Lead, Phase, PhaseFormula and Bits say which optional columns the
	// rows fill (Profile).
	Lead         float64 `json:"bound_lead,omitempty"`
	Phase        string  `json:"phase,omitempty"`
	PhaseFormula string  `json:"phase_bound_formula,omitempty"`
	Bits         bool    `json:"bits,omitempty"`
	// Reduced says the rows were computed on reduced graphs (mc sweep
	// --por): the figures are those of the full graphs (docs/sweeps.md),
	// but states count the reduced graphs' states. NotComputed names a
	// column the profile has that --por left out, and why.
	Reduced     bool   `json:"reduced,omitempty"`
	NotComputed string `json:"not_computed,omitempty"`
	// Note says what the table needs said beyond its columns.
	Note string `json:"note,omitempty"`
	// Param are the spec's own parameters (--param) the spec was built
	// with, by name; absent for a spec that declares none.
	Param map[string]int `json:"param,omitempty"`
	Rows  []*Row         `json:"rows"`
}

// NewTable is the empty table of profile name swept with cfg.
func NewTable(name string, cfg Config) *Table {
	p := cfg.Profile
	// What holds of every row: the rows that the profile's ReducedFrom
	// reduces say so each (Row.Reduced, Row.NotComputed).
	whole := cfg
	whole.Profile.ReducedFrom = 0
	t := &Table{Name: name, Spec: cfg.Spec.Facts().Name, Variant: cfg.Variant, Drift: cfg.Drift, Claims: whole.claims(0), Param: model.OwnValues(cfg.Own),
		Counted: p.Counted, Formula: p.Formula, Ref: p.Ref, Lead: p.Lead, Phase: p.Phase, PhaseFormula: p.PhaseFormula, Bits: p.Bits != "", Note: p.Note,
		Reduced: cfg.Reduce}
	if why := whole.PhasesSkipped(0); why != "" {
		t.NotComputed = "most " + p.Phase + ": " + why
		t.Phase, t.PhaseFormula = "", ""
	}
	return t
}

// RowClaims says whether row r's classes were built with claims: as the
// table's, but for a row whose ghost phases reduction left out
// (specdef.Profile.ReducedFrom), built without them (Config.claims).
func (t *Table) RowClaims(r *Row) bool { return t.Claims && r.NotComputed == "" }

// reduction says, for a header, that the rows were computed on reduced
// graphs and what that left out ("" when they were not).
func (t *Table) reduction() string {
	if !t.Reduced {
		return ""
	}
	s := "reduced graphs (--por): the states are theirs, the messages exact"
	if t.NotComputed != "" {
		s += "; " + t.NotComputed
	}
	return s
}

func idList(ids []int) string {
	s := make([]string, len(ids))
	for i, x := range ids {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func ratio(r *Row) string {
	if r.Bound == nil || r.Cycles > 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", float64(r.Worst)/(*r.Bound))
}

// causal is "—" for a spec without a View, whose runs show no messages.
func causal(r *Row) string {
	if r.WorstCausal == 0 {
		return "—"
	}
	return fmt.Sprint(r.WorstCausal)
}

// orDash is v, or "—" when the chain was not computed (causal < 0).
func orDash(causal, v int) string {
	if causal < 0 {
		return "—"
	}
	return fmt.Sprint(v)
}

func bound(b *float64) string {
	if b == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *b)
}

// states is the states cell of row r, which says when the row's classes,
// unlike the table's, were computed on reduced graphs
// (specdef.Profile.ReducedFrom).
func (t *Table) states(r *Row) string {
	if r.Reduced && !t.Reduced {
		return fmt.Sprintf("%d (reduced graphs)", r.States)
	}
	return fmt.Sprint(r.States)
}

// phases is the phases cell of row r: "—" where they were not computed.
func phases(r *Row) string {
	if r.NotComputed != "" {
		return "—"
	}
	return fmt.Sprint(r.Phases)
}

// column is one column of a table: its heading in the terminal and in
// Markdown, and its cell for a row (unbounded: a row whose graph has a
// cycle).
type column struct {
	short, long string
	cell        func(r *Row) string
	bounded     bool // the cell is "—" for an unbounded row
}

func (t *Table) columns() []column {
	cols := []column{
		{"n", "n", func(r *Row) string { return fmt.Sprint(r.N) }, false},
		{"arrang.", "arrangements (classes)", func(r *Row) string { return fmt.Sprintf("%d (%d)", r.Arrangements, r.Classes) }, false},
		{"states", "states", t.states, false},
		{"worst", "worst messages", func(r *Row) string { return fmt.Sprint(r.Worst) }, true},
		{"best", "best messages", func(r *Row) string { return fmt.Sprint(r.Best) }, true},
		{"mean", "mean worst over arrangements", func(r *Row) string { return r.MeanWorstExact }, true},
		{"sched-dep", "schedule-dependent classes", func(r *Row) string { return fmt.Sprint(r.ScheduleDependent) }, true},
		{"bound", "bound", func(r *Row) string { return bound(r.Bound) }, false},
		{"w/bound", "worst/bound", ratio, true},
	}
	if t.Lead != 0 {
		cols = append(cols, column{"c", fmt.Sprintf("c needed: worst = %g n log₂ n + c·n", t.Lead),
			func(r *Row) string { return fmt.Sprintf("%.3f", *r.LinearTerm) }, true})
	}
	if t.Phase != "" {
		cols = append(cols, column{t.Phase, "most " + t.Phase + " (all runs)", phases, false})
		if t.PhaseFormula != "" {
			cols = append(cols, column{t.Phase[:1] + "-bound", t.Phase + " bound", func(r *Row) string { return bound(r.PhaseBound) }, false})
		}
	}
	if t.Bits {
		cols = append(cols, column{"bits", "worst bits", func(r *Row) string { return fmt.Sprint(r.WorstBits) }, true})
	}
	return append(cols,
		column{"chain", "longest causal chain (all runs)", func(r *Row) string { return orDash(r.Causal, r.Causal) }, true},
		column{"stamped", "stamped states", func(r *Row) string { return orDash(r.Causal, r.CausalStates) }, true},
		column{"causal", "causal depth of worst run", causal, true},
		column{"worst ids", "worst ids", func(r *Row) string { return idList(r.WorstIDs) }, true},
		column{"best ids", "best ids", func(r *Row) string { return idList(r.BestIDs) }, true})
}

// unbounded is the worst-messages cell of a row whose graphs have a cycle.
func unbounded(r *Row) string { return fmt.Sprintf("unbounded (%d classes with a cycle)", r.Cycles) }

// Costs renders the row's worst and best messages in a line, or says that
// they are unbounded (Worst and Best are then not computed).
func (r *Row) Costs() string {
	if r.Cycles > 0 {
		return unbounded(r)
	}
	return fmt.Sprintf("worst %d, best %d", r.Worst, r.Best)
}

// cells renders row r; an unbounded row says so in its worst-messages cell
// and names its first cycle in the last.
func (t *Table) cells(cols []column, r *Row) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		switch {
		case r.Cycles == 0 || !c.bounded:
			out[i] = c.cell(r)
		case c.short == "worst":
			out[i] = unbounded(r)
		case i == len(cols)-1:
			out[i] = firstCycle(r)
		default:
			out[i] = "—"
		}
	}
	return out
}

// WriteText prints the rows as a terminal table.
func WriteText(w io.Writer, t *Table) {
	fmt.Fprintf(w, "mc sweep %s%s%s: %s; bound %s\n", t.Spec, variantSuffix(t.Variant), t.ownParams(), t.Counted, t.Formula)
	if r := t.reduction(); r != "" {
		fmt.Fprintln(w, r)
	}
	cols := t.columns()
	rows := [][]string{make([]string, len(cols))}
	for i, c := range cols {
		rows[0][i] = c.short
	}
	for _, r := range t.Rows {
		rows = append(rows, t.cells(cols, r))
	}
	width := make([]int, len(cols))
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			if i == len(row)-1 {
				b.WriteString("  " + c)
				continue
			}
			fmt.Fprintf(&b, "%*s ", width[i], c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func firstCycle(r *Row) string {
	for _, a := range r.PerClass {
		if a.Cycle != "" {
			return "ids " + idList(a.IDs) + " " + a.Cycle
		}
	}
	return ""
}

func variantSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " (variant " + v + ")"
}

// WriteMarkdown writes the table of t as results/README.md shows it.
func WriteMarkdown(w io.Writer, t *Table) {
	fmt.Fprintf(w, "## %s\n\n%sCounted: %s. Bound: %s (%s).", t.Name, heading(t), t.Counted, t.Formula, t.Ref)
	if t.PhaseFormula != "" {
		fmt.Fprintf(w, " Bound on the %s: %s.", t.Phase, t.PhaseFormula)
	}
	fmt.Fprint(w, "\n\n")
	cols := t.columns()
	head, rule := make([]string, len(cols)), make([]string, len(cols))
	for i, c := range cols {
		head[i], rule[i] = c.long, "---"
	}
	fmt.Fprintf(w, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(rule, "|"))
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(t.cells(cols, r), " | "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "![%s: worst and mean worst messages against n, with the bound](%s.svg)\n\n", t.Name, t.Name)
	if c, n := t.linearTerm(); n > 0 {
		fmt.Fprintf(w, "The smallest c that fits every row: %.3f (at n = %d).\n\n", c, n)
	}
	if t.Note != "" {
		fmt.Fprintf(w, "%s\n\n", t.Note)
	}
}

// linearTerm is the largest c needed over the rows, and its n (0 when no
// row has one).
func (t *Table) linearTerm() (c float64, n int) {
	for _, r := range t.Rows {
		if r.LinearTerm != nil && (n == 0 || *r.LinearTerm > c) {
			c, n = *r.LinearTerm, r.N
		}
	}
	return c, n
}

// ownParams are the spec's own parameters the table was swept with, as
// flags: " --param k=3 --param m=1"; "" for none.
func (t *Table) ownParams() string {
	var s string
	for _, o := range model.OwnFrom(t.Param) {
		s += fmt.Sprintf(" --param %s=%d", o.Name, o.Value)
	}
	return s
}

// heading names what the table sweeps: the spec, its variant and drift.
func heading(t *Table) string {
	s := "Spec " + t.Spec + variantSuffix(t.Variant)
	if t.Drift != 0 {
		s += fmt.Sprintf(", --drift %d", t.Drift)
	}
	if own := t.ownParams(); own != "" {
		s += "," + own
	}
	if t.Claims {
		s += ", built with --claims (ghost measures)"
		if slices.ContainsFunc(t.Rows, func(r *Row) bool { return !t.RowClaims(r) }) {
			s += " but for the rows on reduced graphs"
		}
	}
	if r := t.reduction(); r != "" {
		s += ", " + r
	}
	return s + ". "
}
