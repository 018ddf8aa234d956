package checkjson

import (
	"fmt"

	"github.com/ringcheck/mc/checker"
)

// Coverage is --coverage's report (docs/coverage.md): per rule, and per
// rule and process, how often it fired and how many new states it found,
// and a warning for each rule that never fired.
type Coverage struct {
	// Reduced: only the ample sets' transitions were taken and counted.
	Reduced    bool           `json:"reduced"`
	Rules      []RuleCoverage `json:"rules"`
	NeverFired []string       `json:"never_fired"`
	Warnings   []string       `json:"warnings"`
}

// RuleCoverage is one rule's counts, over every process and per process.
type RuleCoverage struct {
	Rule  string         `json:"rule"`
	Fired int64          `json:"fired"`
	New   int64          `json:"new_states"`
	Procs []ProcCoverage `json:"procs,omitempty"`
}

// ProcCoverage is one process's counts of a rule.
type ProcCoverage struct {
	Proc  int   `json:"proc"`
	Fired int64 `json:"fired"`
	New   int64 `json:"new_states"`
}

func CoverageOf(c *checker.Coverage) *Coverage {
	if c == nil {
		return nil
	}
	out := &Coverage{Reduced: c.Reduced, NeverFired: c.NeverFired(), Rules: []RuleCoverage{}, Warnings: []string{}}
	if out.NeverFired == nil {
		out.NeverFired = []string{}
	}
	for _, r := range out.NeverFired {
		out.Warnings = append(out.Warnings, NeverFiredWarning(r))
	}
	for _, r := range c.Rules {
		jr := RuleCoverage{Rule: r.Rule, Fired: r.Fired, New: r.New}
		for _, p := range r.Procs {
			jr.Procs = append(jr.Procs, ProcCoverage{Proc: p.Proc, Fired: p.Fired, New: p.New})
		}
		out.Rules = append(out.Rules, jr)
	}
	return out
}

// NeverFiredWarning is the warning for a rule that never fired, which mc
// prints on stderr too.
func NeverFiredWarning(rule string) string {
	return fmt.Sprintf("rule %s never fired: the model may be vacuous or mis-parameterised", rule)
}
