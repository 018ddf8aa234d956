package main

import (
	"fmt"
	"io"

	"mc/checker"
)

// The coverage report of mc check --coverage (docs/coverage.md): per rule,
// and per rule and process, how often it fired and how many new states it
// found, and a warning for each rule that never fired.

// neverFiredWarning is the warning for a rule that never fired.
func neverFiredWarning(rule string) string {
	return fmt.Sprintf("rule %s never fired: the model may be vacuous or mis-parameterised", rule)
}

// warnNeverFired prints, on stderr, a warning for each rule that never fired.
func warnNeverFired(stderr io.Writer, c *checker.Coverage) {
	if c == nil {
		return
	}
	for _, r := range c.NeverFired() {
		fmt.Fprintf(stderr, "mc check: warning: %s\n", neverFiredWarning(r))
	}
}

// writeCoverage prints the coverage table.
func writeCoverage(w io.Writer, c *checker.Coverage) {
	if c == nil {
		return
	}
	what := "transitions taken from the states explored"
	if c.Reduced {
		what = "transitions of the ample sets only (--por)"
	}
	fmt.Fprintf(w, "coverage (fired: %s; new: distinct states first found by the rule):\n", what)
	fmt.Fprintf(w, "  %-20s %-6s %12s %12s\n", "rule", "proc", "fired", "new")
	for _, r := range c.Rules {
		fmt.Fprintf(w, "  %-20s %-6s %12d %12d\n", r.Rule, "all", r.Fired, r.New)
		for _, p := range r.Procs {
			fmt.Fprintf(w, "  %-20s %-6s %12d %12d\n", "", fmt.Sprintf("p%d", p.Proc), p.Fired, p.New)
		}
	}
}

// jsonCoverage is the coverage in the JSON (docs/json.md).
type jsonCoverage struct {
	// Reduced: only the ample sets' transitions were taken and counted.
	Reduced    bool               `json:"reduced"`
	Rules      []jsonRuleCoverage `json:"rules"`
	NeverFired []string           `json:"never_fired"`
	Warnings   []string           `json:"warnings"`
}

type jsonRuleCoverage struct {
	Rule  string             `json:"rule"`
	Fired int64              `json:"fired"`
	New   int64              `json:"new_states"`
	Procs []jsonProcCoverage `json:"procs,omitempty"`
}

type jsonProcCoverage struct {
	Proc  int   `json:"proc"`
	Fired int64 `json:"fired"`
	New   int64 `json:"new_states"`
}

func coverageJSON(c *checker.Coverage) *jsonCoverage {
	if c == nil {
		return nil
	}
	out := &jsonCoverage{Reduced: c.Reduced, NeverFired: c.NeverFired(), Rules: []jsonRuleCoverage{}, Warnings: []string{}}
	if out.NeverFired == nil {
		out.NeverFired = []string{}
	}
	for _, r := range out.NeverFired {
		out.Warnings = append(out.Warnings, neverFiredWarning(r))
	}
	for _, r := range c.Rules {
		jr := jsonRuleCoverage{Rule: r.Rule, Fired: r.Fired, New: r.New}
		for _, p := range r.Procs {
			jr.Procs = append(jr.Procs, jsonProcCoverage{Proc: p.Proc, Fired: p.Fired, New: p.New})
		}
		out.Rules = append(out.Rules, jr)
	}
	return out
}
