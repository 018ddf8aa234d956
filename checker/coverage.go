package checker

import (
	"fmt"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
)

// Coverage (Options.Coverage) counts, as TLC's coverage does, per rule and
// process: how often it fired — the transitions taken from expanded states —
// and how many new distinct states it produced — the states first found by
// it, that is, whose origin in the trace log is that rule at that process.
// Both are functions of the levels and of the origins, which are the same
// for any number of workers, either store and a resumed run (the counts are
// saved in the checkpoint), so the counts are too. Under partial-order
// reduction only the ample set's transitions are taken, and so counted.
// A rule that never fired is a warning: the model may be vacuous or
// mis-parameterised.

// Coverage is what Options.Coverage counted.
type Coverage struct {
	// Reduced is set when partial-order reduction was on: only the ample
	// sets' transitions were taken and counted.
	Reduced bool
	Rules   []RuleCoverage
}

// RuleCoverage is one rule's counts, over every process and, when the
// system has more than one process, per process.
type RuleCoverage struct {
	Rule  string
	Fired int64
	New   int64
	Procs []ProcCoverage
}

// ProcCoverage is one rule's counts at one process.
type ProcCoverage struct {
	Proc  int
	Fired int64
	New   int64
}

// NeverFired names the rules that fired in no state explored.
func (c *Coverage) NeverFired() []string {
	var out []string
	for _, r := range c.Rules {
		if r.Fired == 0 {
			out = append(out, r.Rule)
		}
	}
	return out
}

// ruleCounts are a run's coverage counts, indexed rule*Procs+proc, the index
// package por calls a group; nil when coverage is off.
type ruleCounts struct {
	fired, found []int64
}

func newRuleCounts(groups int) *ruleCounts {
	return &ruleCounts{fired: make([]int64, groups), found: make([]int64, groups)}
}

// firedIn adds a batch's fired counts.
func (c *ruleCounts) firedIn(fired []int64) {
	for g, n := range fired {
		c.fired[g] += n
	}
}

// foundBy counts a new state whose origin is the packed action.
func (c *ruleCounts) foundBy(action uint32, procs int) {
	a := packed.Unpack(action)
	c.found[a.Rule*procs+a.Proc]++
}

// coverage turns the counts into the Result's.
func (e *bfs[S]) coverage() *Coverage {
	if e.counts == nil {
		return nil
	}
	procs := e.sys.Procs
	out := &Coverage{Reduced: e.reducer != nil}
	for ri := range e.sys.Rules {
		rc := RuleCoverage{Rule: e.sys.Rules[ri].Name}
		for p := 0; p < procs; p++ {
			pc := ProcCoverage{Proc: p, Fired: e.counts.fired[ri*procs+p], New: e.counts.found[ri*procs+p]}
			rc.Fired += pc.Fired
			rc.New += pc.New
			if procs > 1 {
				rc.Procs = append(rc.Procs, pc)
			}
		}
		out.Rules = append(out.Rules, rc)
	}
	return out
}

// writeCoverage writes the counts into a checkpoint of a run that counts
// (CheckpointHeader.Coverage).
func (e *bfs[S]) writeCoverage(w *diskio.SectionWriter) {
	if e.counts == nil {
		return
	}
	w.Uint(uint64(len(e.counts.fired)))
	for g := range e.counts.fired {
		w.Uint(uint64(e.counts.fired[g]))
		w.Uint(uint64(e.counts.found[g]))
	}
}

// readCoverage reads what writeCoverage wrote into a checkpoint whose
// header says counted; a run without coverage reads and drops them.
func (e *bfs[S]) readCoverage(r *diskio.Section, path string, counted bool) error {
	if !counted {
		return nil
	}
	c := e.counts
	n := int(r.Uint())
	if n != len(e.sys.Rules)*e.sys.Procs {
		return notValid(path, fmt.Sprintf("coverage counts %d rules and processes, the system has %d", n, len(e.sys.Rules)*e.sys.Procs))
	}
	if c == nil {
		c = newRuleCounts(n)
	}
	for g := 0; g < n; g++ {
		c.fired[g], c.found[g] = int64(r.Uint()), int64(r.Uint())
	}
	return nil
}
