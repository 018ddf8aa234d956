// Package tracefile is mc's trace file: one run of a spec, with everything
// needed to read it, draw it and replay it against a later version of the
// spec, as versioned JSON. mc check --trace-out writes it; mc trace and
// mc explore read it. docs/runs.md ("Trace files") documents the format;
// the schema test in this package pins it.
package tracefile

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
)

const (
	// Format is the value of every trace file's "format" field.
	Format = "mc-trace"
	// Version is the format version this mc writes and reads. It changes
	// whenever a field changes meaning or a required field is added.
	// Version 2 records the run's whole meaning (runinfo.Meaning) where
	// version 1 had the spec, its variant and some of its parameters.
	Version = 2
	// maxBytes bounds what Read accepts: a trace of a ring that a person
	// can read is far smaller.
	maxBytes = 64 << 20
)

// File is one trace.
type File struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	MCVersion string `json:"mc_version"`
	// Run is what the run the trace comes from means: the spec, every
	// parameter, and the options that change states or verdicts, fairness
	// among them. Replay rebuilds the system from it.
	Run runinfo.Meaning `json:"run"`
	// Property is the property the run is about.
	Property Property `json:"property"`
	// Deadlock marks a run ending in a terminal state: one that fails an
	// end property, or a finite run that never satisfies a liveness
	// property.
	Deadlock bool `json:"deadlock,omitempty"`
	// Init is the index of the initial state among the spec's initial
	// states.
	Init int `json:"init"`
	// LoopStart is set only for a lasso (a liveness counterexample): the
	// last state is the same state as States[LoopStart], and the steps from
	// there on repeat forever.
	LoopStart *int `json:"loop_start,omitempty"`
	// States are the run's states in full, initial state first:
	// len(States) == len(Steps)+1, and step i leads from States[i] to
	// States[i+1].
	States []State `json:"states"`
	Steps  []Step  `json:"steps"`
	// Simulation, present only in a run mc simulate wrote, is the seed and
	// run number that make it again (mc simulate --seed S --run R). It is
	// optional, so files without it read as before.
	Simulation *Simulation `json:"simulation,omitempty"`
}

// Simulation is where a simulated run comes from.
type Simulation struct {
	Seed uint64 `json:"seed"`
	Run  int    `json:"run"`
}

// CostRun is the kind of a run that mc sweep recorded: a complete run with
// the fewest or most messages, about no property of the spec. Replay checks
// that it still reaches a terminal state.
const CostRun = "cost"

// Property names the property a run is about and what the run shows.
type Property struct {
	Name string `json:"name"`
	// Kind is invariant, step, end or witness (or a liveness kind), or
	// CostRun for a run mc sweep recorded.
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
	Doc  string `json:"doc"`
	// Verdict is "fail" for a counterexample, "pass" for a witness's run
	// that reaches a state it looks for.
	Verdict string `json:"verdict"`
}

// Step is one action: rule, process and choice identify it for replay;
// Action is how the paper would say it.
type Step struct {
	Rule     string            `json:"rule"`
	Process  int               `json:"process"`
	Choice   int               `json:"choice"`
	Action   string            `json:"action"`
	Received []checker.Message `json:"received"`
	Sent     []checker.Message `json:"sent"`
}

// State is one state in full.
type State struct {
	Vars []model.Var `json:"vars"`
	// View is the state's picture (process statuses, pending messages per
	// link); absent when the spec has none.
	View *model.View `json:"view,omitempty"`
}

// Write writes f as indented JSON.
func Write(w io.Writer, f *File) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// Read reads and checks a trace file: its format and version, and that its
// states and steps fit together. It does not check it against the spec;
// Replay does.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBytes {
		return nil, fmt.Errorf("not an mc trace: larger than %d MiB", maxBytes>>20)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not an mc trace: %v", err)
	}
	if head.Format != Format {
		return nil, fmt.Errorf("not an mc trace: format is %q, want %q", head.Format, Format)
	}
	switch {
	case head.Version == 1:
		return nil, fmt.Errorf("trace format version 1 does not record the run's links, orientation, drift, bound or fairness; this mc reads version %d: record the trace again with mc check --trace-out", Version)
	case head.Version != Version:
		return nil, fmt.Errorf("trace format version %d; this mc reads version %d", head.Version, Version)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("malformed mc trace: %v", err)
	}
	return &f, f.check()
}

// check verifies the file's internal consistency.
func (f *File) check() error {
	switch {
	case f.Run.Spec == "":
		return fmt.Errorf("malformed mc trace: no spec")
	case f.Property.Name == "":
		return fmt.Errorf("malformed mc trace: no property")
	case len(f.States) != len(f.Steps)+1:
		return fmt.Errorf("malformed mc trace: %d states for %d steps, want %d", len(f.States), len(f.Steps), len(f.Steps)+1)
	case f.LoopStart != nil && (*f.LoopStart < 0 || *f.LoopStart >= len(f.Steps)):
		return fmt.Errorf("malformed mc trace: loop_start %d is not a state before the last (0..%d)", *f.LoopStart, len(f.Steps)-1)
	}
	for i, s := range f.Steps {
		if s.Rule == "" || s.Process < 0 || s.Choice < 0 {
			return fmt.Errorf("malformed mc trace: step %d has no rule, or a negative process or choice", i+1)
		}
	}
	return nil
}

// WriteFile writes f to path, whole or not at all (package atomicfile).
func WriteFile(path string, f *File) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, f) })
}
