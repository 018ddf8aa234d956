package allids

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

// Summary is the outcome of an --all-ids run, and its machine-readable
// form (docs/json.md, "mc check --all-ids --json").
type Summary struct {
	runinfo.Stamp
	Spec         string          `json:"spec"`
	Variant      string          `json:"variant"`
	N            int             `json:"n"`
	Symmetry     string          `json:"symmetry"`
	Classes      int             `json:"classes"`
	Arrangements int             `json:"arrangements"`
	States       int64           `json:"states"`
	Reduced      bool            `json:"reduced"`
	Verdict      checker.Verdict `json:"verdict"`
	// StoppedAtViolation marks a run that stopped at the first failing
	// arrangement, leaving classes unchecked (without --continue).
	StoppedAtViolation bool  `json:"stopped_at_first_violation,omitempty"`
	Rows               []Row `json:"results"`

	// Transitions is the sum over the classes checked, which the run
	// store records.
	Transitions int64 `json:"-"`
	// FirstFailure is the index in Rows of the first failing class, -1
	// if none failed.
	FirstFailure int `json:"-"`
	// LastReason is why the last class checked stopped, if it did.
	LastReason string `json:"-"`
	// Unchecked are the classes after the last one checked.
	Unchecked []ring.ArrangementClass `json:"-"`
}

// Row is one arrangement class's run.
type Row struct {
	IDs         []int           `json:"ids"`
	ClassSize   int             `json:"class_size"`
	Verdict     checker.Verdict `json:"verdict"`
	States      int64           `json:"states"`
	Transitions int64           `json:"transitions"`
	// Vacuous names the properties that passed vacuously in the class.
	Vacuous []string `json:"vacuous,omitempty"`
}

// vacuity counts, per property vacuous in some class, the classes where
// it was, properties in the order they first appear.
func (s *Summary) vacuity() (names []string, classes map[string]int) {
	classes = map[string]int{}
	for _, row := range s.Rows {
		for _, name := range row.Vacuous {
			if classes[name] == 0 {
				names = append(names, name)
			}
			classes[name]++
		}
	}
	return names, classes
}

// WriteJSON prints s as one indented object.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteText prints s for a reader: a line for the run, one per class that
// did not pass, and the verdict. cmd names the command ("mc check"), and
// writeFailure prints the run of the first failing class, as the command
// prints a run of its own.
func (s *Summary) WriteText(w io.Writer, cmd string, writeFailure func(io.Writer)) {
	stored := "states in all"
	if s.Reduced {
		stored = "states stored in all (partial-order reduction)"
	}
	fmt.Fprintf(w, "%s %s --all-ids (variant %s) n=%d: %d classes under %s, covering %d of %d arrangements, %d %s\n",
		cmd, s.Spec, s.Variant, s.N, s.Classes, s.Symmetry, s.Arrangements, factorial(s.N), s.States, stored)
	for _, row := range s.Rows {
		if row.Verdict != checker.Pass {
			fmt.Fprintf(w, "  %-10s ids %s (class of %d)\n", row.Verdict, model.FormatInts(row.IDs), row.ClassSize)
		}
	}
	if names, classes := s.vacuity(); len(names) > 0 {
		var each []string
		for _, name := range names {
			each = append(each, fmt.Sprintf("%s in %d of %d", name, classes[name], len(s.Rows)))
		}
		fmt.Fprintf(w, "  vacuous passes (their situation never arose in the class; --json lists the classes): %s\n", strings.Join(each, ", "))
	}
	if s.StoppedAtViolation {
		fmt.Fprintf(w, "  stopped at the first failing arrangement: %d of %d classes not checked; --continue checks them all\n",
			s.Classes-len(s.Rows), s.Classes)
	}
	if s.FirstFailure >= 0 {
		fmt.Fprintf(w, "\nfirst failing arrangement:\n")
		writeFailure(w)
	}
	fmt.Fprintf(w, "verdict: %s\n", s.Verdict)
}

// factorial is n!, the number of arrangements of 1..n.
func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}
