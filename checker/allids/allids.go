// Package allids checks a spec over every arrangement of the ids 1..n,
// one run per symmetry class (mc check --all-ids, mc-beam check
// --all-ids). The specs compare ids only, so 1..n stands for every set of
// n ids, and a class's arrangements have the same runs up to renaming
// processes, so its representative's verdict and counts are the class's
// (checker.TestAllIDsClassMembersAgree). The loop does not run a check
// itself: each command checks a class its own way (mc in this process,
// mc-beam as Beam pipelines) and the loop decides which classes run and
// what the outcome is.
package allids

import (
	"fmt"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

// MaxN bounds --all-ids: the arrangements of 1..n are enumerated to find
// the classes, and 10! is 3,628,800 of them, each class a full run.
const MaxN = 10

// Refusals are the flags that --all-ids cannot be combined with, each
// with the reason: it fixes something the symmetry reduction moves, or it
// names one run's files where --all-ids makes a run per class. A command
// refuses those of them it has.
var Refusals = []struct{ Flag, Why string }{
	{"ids", "--all-ids checks every arrangement of the ids 1..n; --ids fixes one (drop one of the two)"},
	{"initiators", "the symmetry reduction is sound only with every process an initiator, and rotating the ring moves the initiators"},
	{"orientation", "the symmetry reduction maps an orientation assignment onto its rotations and reflections, so it needs every assignment; --orientation fixes one (check one arrangement with --ids instead)"},
	{"resume", "a checkpoint holds one run, and --all-ids makes one run per arrangement class"},
	{"checkpoint", "a checkpoint holds one run, and --all-ids makes one run per arrangement class"},
	{"store", "--all-ids runs every arrangement class with the memory store; it does not take --store disk"},
	{"dir", "--all-ids runs every arrangement class with the memory store, which needs no --dir"},
	{"trace-out", "a trace file holds one run; rerun the failing arrangement with --ids to record it"},
	{"coverage", "coverage counts the rules of one run, and --all-ids makes one run per arrangement class; check one arrangement with --ids --coverage"},
	{"shortest", "--shortest re-runs one reduced failure; rerun the failing arrangement with --ids --por --shortest"},
}

// Refuse is the error for the first flag of Refusals that changed says
// was given, nil if none.
func Refuse(changed func(flag string) bool) error {
	for _, r := range Refusals {
		if changed(r.Flag) {
			return fmt.Errorf("--all-ids cannot be combined with --%s: %s", r.Flag, r.Why)
		}
	}
	return nil
}

// CheckN refuses a ring size whose arrangements are too many to enumerate.
func CheckN(n int) error {
	if n > MaxN {
		return fmt.Errorf("--all-ids at n=%d would enumerate %d! arrangements; it takes n ≤ %d", n, n, MaxN)
	}
	return nil
}

// Outcome is what the check of one arrangement class found.
type Outcome struct {
	Variant             string
	Verdict             checker.Verdict
	Reason              string // why the run stopped, incomplete
	States, Transitions int64
	Reduced             bool // partial-order reduction: States are those stored
	// Vacuous names the properties that passed vacuously in the class
	// (checker.PropResult.Vacuous), in the system's order.
	Vacuous []string
}

// stopsAll says whether an incomplete class stops the loop: an interrupt
// or the memory limit would stop every class after it as well, where a
// state or time limit is the class's own.
func (o Outcome) stopsAll() bool {
	return o.Verdict == checker.Incomplete && (o.Reason == "interrupted" || strings.Contains(o.Reason, "memory limit"))
}

// Check runs check on the representative of each arrangement class of
// 1..n under sym, in the order of ring.ArrangementClasses, and sums up.
// It stops at the first failing class unless keepGoing (--continue), and
// at a class an interrupt or the memory limit stopped. An error from
// check stops the loop and is returned as it is.
func Check(spec string, n int, sym ring.Symmetry, keepGoing bool, check func(ring.ArrangementClass) (Outcome, error)) (*Summary, error) {
	classes := ring.ArrangementClasses(n, sym)
	sum := &Summary{Stamp: runinfo.ThisStamp(), Spec: spec, N: n, Symmetry: sym.String(), Classes: len(classes), Verdict: checker.Pass, FirstFailure: -1}
	for _, cl := range classes {
		o, err := check(cl)
		if err != nil {
			return nil, err
		}
		sum.Variant = o.Variant
		sum.Transitions += o.Transitions
		sum.Arrangements += cl.Size
		sum.States += o.States
		sum.Reduced = sum.Reduced || o.Reduced
		sum.Rows = append(sum.Rows, Row{IDs: cl.Rep, ClassSize: cl.Size, Verdict: o.Verdict, States: o.States, Transitions: o.Transitions, Vacuous: o.Vacuous})
		sum.LastReason = o.Reason
		switch {
		case o.Verdict == checker.Fail && sum.FirstFailure < 0:
			sum.FirstFailure, sum.Verdict = len(sum.Rows)-1, checker.Fail
		case o.Verdict == checker.Incomplete && sum.Verdict == checker.Pass:
			sum.Verdict = checker.Incomplete
		}
		if o.stopsAll() {
			break
		}
		if o.Verdict == checker.Fail && !keepGoing {
			sum.StoppedAtViolation = len(sum.Rows) < len(classes)
			break
		}
	}
	sum.Unchecked = classes[len(sum.Rows):]
	return sum, nil
}
