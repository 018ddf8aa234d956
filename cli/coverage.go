package cli

import (
	"fmt"
	"io"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/simulate"
)

// The coverage report of mc check --coverage and mc simulate --coverage
// (docs/coverage.md): per rule, and per rule and process, how often it
// fired and how many new states it found, and a warning for each rule that
// never fired.

// warnNeverFired prints, on stderr, a warning for each rule that never fired.
func warnNeverFired(stderr io.Writer, c *checker.Coverage) { warnNeverFiredIn(stderr, "check", c) }

// warnNeverFiredIn is warnNeverFired for mc cmd.
func warnNeverFiredIn(stderr io.Writer, cmd string, c *checker.Coverage) {
	if c == nil {
		return
	}
	for _, r := range c.NeverFired() {
		fmt.Fprintf(stderr, "mc %s: warning: %s\n", cmd, checkjson.NeverFiredWarning(r))
	}
}

// writeCoverage prints mc check's coverage table.
func writeCoverage(w io.Writer, c *checker.Coverage) {
	if c == nil {
		return
	}
	what := "transitions taken from the states explored"
	if c.Reduced {
		what = "transitions of the ample sets only (--por)"
	}
	writeCoverageTable(w, c, fmt.Sprintf("fired: %s; new: distinct states first found by the rule", what))
}

// writeCoverageTable prints the table of c, under a header that says what
// its counts count.
func writeCoverageTable(w io.Writer, c *checker.Coverage, counts string) {
	fmt.Fprintf(w, "coverage (%s):\n", counts)
	fmt.Fprintf(w, "  %-20s %-6s %12s %12s\n", "rule", "proc", "fired", "new")
	for _, r := range c.Rules {
		fmt.Fprintf(w, "  %-20s %-6s %12d %12d\n", r.Rule, "all", r.Fired, r.New)
		for _, p := range r.Procs {
			fmt.Fprintf(w, "  %-20s %-6s %12d %12d\n", "", fmt.Sprintf("p%d", p.Proc), p.Fired, p.New)
		}
	}
}

// simulationCoverage is mc simulate's coverage (simulate.Coverage) as the
// table and JSON of mc check's present it.
func simulationCoverage(c *simulate.Coverage, info simulate.Info) *checker.Coverage {
	if c == nil {
		return nil
	}
	out := &checker.Coverage{}
	for ri, name := range info.Rules {
		rc := checker.RuleCoverage{Rule: name}
		for p := range info.Procs {
			g := ri*info.Procs + p
			pc := checker.ProcCoverage{Proc: p, Fired: c.Fired[g], New: c.New[g]}
			rc.Fired += pc.Fired
			rc.New += pc.New
			if info.Procs > 1 {
				rc.Procs = append(rc.Procs, pc)
			}
		}
		out.Rules = append(out.Rules, rc)
	}
	return out
}

// simulationCoverageCounts says what mc simulate's coverage counts count.
const simulationCoverageCounts = "fired: steps the runs took; new: steps that reached a state no earlier step of the simulation reached, runs in order, ghosts zeroed, by 64-bit fingerprint"

// jsonSimulationCoverage is mc simulate's coverage in its JSON
// (docs/simulate.md): mc check's fields, with the runs counted and the
// distinct states they reached.
type jsonSimulationCoverage struct {
	checkjson.Coverage
	Runs     int    `json:"runs"`
	Distinct int64  `json:"distinct_states"`
	Counted  string `json:"counted"`
}
