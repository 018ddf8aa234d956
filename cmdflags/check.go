// Package cmdflags defines the flags that mc and mc-beam share, so that a
// flag means the same in both commands and says so in the same words (the
// spec's parameters have specs/paramflags, the run store's
// runstore/dbflags). Each command adds them in its own place in its
// help, one adder per flag or block.
package cmdflags

import "github.com/spf13/pflag"

// Check are the flags of mc check that mc-beam check takes too.
type Check struct {
	// Continue is --continue: every property to the end.
	Continue bool
	Safety   bool
	// AllIDs is --all-ids: every arrangement class (package
	// checker/allids).
	AllIDs bool
	JSON   bool
	// FailVacuous is --fail-vacuous: a vacuous pass is a failure.
	FailVacuous bool
}

// AddContinue adds --continue.
func (c *Check) AddContinue(fs *pflag.FlagSet) {
	fs.BoolVar(&c.Continue, "continue", false, "check every property to the end; by default the run stops at the end of the level where a property first fails (exit 1) and reports the rest as not checked")
}

// AddSafety adds --safety.
func (c *Check) AddSafety(fs *pflag.FlagSet) {
	fs.BoolVar(&c.Safety, "safety", false, "check safety properties only; liveness, which needs the whole state graph in memory, is skipped and named")
}

// AddAllIDs adds --all-ids.
func (c *Check) AddAllIDs(fs *pflag.FlagSet) {
	fs.BoolVar(&c.AllIDs, "all-ids", false, "check every arrangement of the ids 1..n, one per symmetry class (see mc list)")
}

// AddJSON adds --json.
func (c *Check) AddJSON(fs *pflag.FlagSet) {
	fs.BoolVar(&c.JSON, "json", false, "print one JSON object instead of the human summary")
}

// AddFailVacuous adds --fail-vacuous.
func (c *Check) AddFailVacuous(fs *pflag.FlagSet) {
	fs.BoolVar(&c.FailVacuous, "fail-vacuous", false, "make a vacuous pass, a property whose situation never arose in the run (an implication's antecedent, a leads-to's premise), a failure: exit 1, for CI (see docs/vacuity.md)")
}
