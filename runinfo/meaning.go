// Package runinfo says what a run of mc is, as values that files can carry
// whole: its Meaning (the spec, every parameter and every option that
// changes the states explored or the verdicts), where its visited set is
// kept (Store), and which build of mc made it (Build). A checkpoint records
// all three, a trace file the first and the version; a resume or a replay
// rebuilds the run from them and refuses, naming it, any difference it
// cannot honour (docs/runs.md).
//
// The package knows no spec and no checker: it holds the values, renders
// them as the command line names them, and compares them. The checker
// builds a run's Meaning from its options (checker.MeaningOf); mc check
// --resume turns one back into flags.
package runinfo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/model"
)

// Meaning is what a run means: two runs with equal Meanings (and equal spec
// sources, specs.Entry.Hash) explore the same states and reach the same
// verdicts. Limits (--max-states, --timeout, --max-memory), the number of
// workers and the store change neither, and are not part of it; a bound on
// the depth explored (--max-depth) is.
type Meaning struct {
	Spec string `json:"spec"`
	// Variant is the variant's name, resolved: never "" for the default.
	Variant string `json:"variant"`
	Params  Params `json:"params"`
	// Fair is the fairness liveness properties are checked under: none,
	// process or action (model.Fairness), resolved against the spec's
	// default.
	Fair string `json:"fair"`
	// Safety checks the safety properties only (--safety).
	Safety bool `json:"safety"`
	// Reduce is partial-order reduction (--por).
	Reduce bool `json:"reduce"`
	// Continue explores to the end after a property fails (--continue);
	// false stops at the first violation.
	Continue bool `json:"continue"`
	// MaxDepth bounds the search's depth (--max-depth); 0 means none,
	// and is left out, so that the files of unbounded runs (trace files,
	// the run store's keys) are as before the bound existed.
	MaxDepth int `json:"max_depth,omitempty"`
	// NoDeadlock leaves terminal states unchecked for deadlock
	// (--no-deadlock); false, the default, is left out, as MaxDepth's 0.
	NoDeadlock bool `json:"no_deadlock,omitempty"`
	// FailVacuous makes a vacuous pass a failure (--fail-vacuous); false,
	// the default, is left out, as NoDeadlock's.
	FailVacuous bool `json:"fail_vacuous,omitempty"`
}

// Params are a spec's parameters (model.Params) as files record them: the
// values the spec was built with, its defaults resolved (links, bound).
type Params struct {
	N   int   `json:"n"`
	IDs []int `json:"ids"`
	// Chan is the channel semantics, "fifo" or "bag".
	Chan string `json:"chan"`
	// Cap bounds every channel; 0 means unbounded.
	Cap int `json:"cap"`
	// Initiators lists the processes that may start; null means all.
	Initiators []int `json:"initiators"`
	Claims     bool  `json:"claims"`
	// Links is a bidirectional ring's link semantics, "half" or "full";
	// "default" for the specs that do not model it.
	Links string `json:"links"`
	// Orientation fixes every process's orientation, a bit string such as
	// "01101"; "" means every assignment up to symmetry.
	Orientation string `json:"orientation"`
	// Drift bounds a clocked spec's clocks; 0 means unbounded.
	Drift int `json:"drift"`
	// Bound is the spec's bound on its environment; 0 for specs without one.
	Bound int `json:"bound"`
	// Param holds the values of the spec's own parameters (--param), every
	// one it declares, by name; absent for a spec that declares none, so
	// that the files of those specs are as before parameters existed, and
	// a file written before reads as a run without them.
	Param map[string]int `json:"param,omitempty"`
}

// ParamsOf records p as files do.
func ParamsOf(p model.Params) Params {
	out := Params{N: p.N, IDs: p.IDs, Chan: p.Chan.String(), Cap: p.Cap, Initiators: p.Initiators, Claims: p.Claims,
		Links: p.Duplex.String(), Drift: p.Drift, Bound: p.Bound}
	if p.Orientation != nil {
		out.Orientation = model.FormatOrientation(p.Orientation)
	}
	out.Param = model.OwnValues(p.Own)
	return out
}

// Model converts the recorded parameters back into the spec's, for variant.
func (p Params) Model(variant string) (model.Params, error) {
	kind, err := model.ParseChanKind(p.Chan)
	if err != nil {
		return model.Params{}, err
	}
	out := model.Params{N: p.N, IDs: p.IDs, Chan: kind, Cap: p.Cap, Variant: variant, Initiators: p.Initiators, Claims: p.Claims,
		Drift: p.Drift, Bound: p.Bound}
	if p.Links != model.DefaultDuplex.String() {
		if out.Duplex, err = model.ParseDuplex(p.Links); err != nil {
			return model.Params{}, err
		}
	}
	if p.Orientation != "" {
		if out.Orientation, err = model.ParseOrientation(p.Orientation, p.N); err != nil {
			return model.Params{}, err
		}
	}
	out.Own = model.OwnFrom(p.Param)
	return out, nil
}

// Setting is one element of a Meaning as the command line names it: Option
// is the flag ("--fair"), or "SPEC" for the spec, and Value its value in
// the flag's syntax.
type Setting struct{ Option, Value string }

// Settings lists every element of m, in the order mc check's help gives
// the flags, then the spec's own parameters by name, each its own
// element: "--param k" with value "3".
func (m Meaning) Settings() []Setting {
	p := m.Params
	settings := []Setting{
		{"SPEC", m.Spec},
		{"--variant", m.Variant},
		{"--n", strconv.Itoa(p.N)},
		{"--ids", ints(p.IDs)},
		{"--chan", p.Chan},
		{"--cap", orNone(p.Cap, "unbounded")},
		{"--initiators", initiators(p.Initiators)},
		{"--links", p.Links},
		{"--orientation", orEvery(p.Orientation)},
		{"--drift", orNone(p.Drift, "unbounded")},
		{"--claims", onOff(p.Claims)},
		{"--bound", orNone(p.Bound, "none")},
		{"--fair", m.Fair},
		{"--safety", onOff(m.Safety)},
		{"--por", onOff(m.Reduce)},
		{"--continue", onOff(m.Continue)},
		{"--max-depth", orNone(m.MaxDepth, "none")},
		{"--no-deadlock", onOff(m.NoDeadlock)},
		{"--fail-vacuous", onOff(m.FailVacuous)},
	}
	for _, o := range model.OwnFrom(p.Param) {
		settings = append(settings, Setting{ParamOption(o.Name), strconv.Itoa(o.Value)})
	}
	return settings
}

// ParamOption is the Setting's Option for the spec's parameter name:
// "--param k".
func ParamOption(name string) string { return "--param " + name }

// Flag is the flag s's Option names, without its dashes: "fair" for
// "--fair", "param" for "--param k"; "" for the spec.
func (s Setting) Flag() string {
	flag, _, _ := strings.Cut(strings.TrimPrefix(s.Option, "--"), " ")
	if flag == "SPEC" {
		return ""
	}
	return flag
}

// Difference is one element in which two Meanings (or Stores) differ.
type Difference struct{ Option, Was, Is string }

// Differences lists the elements in which is differs from was, in
// was's Settings order, then the elements only is has. An element only one
// of them has (a spec's parameter that a file of an older spec does not
// record) has the value "none" in the other.
func Differences(was, is Meaning) []Difference {
	return differ(was.Settings(), is.Settings())
}

func differ(was, is []Setting) []Difference {
	valueIn := func(ss []Setting, option string) (string, bool) {
		for _, s := range ss {
			if s.Option == option {
				return s.Value, true
			}
		}
		return "none", false
	}
	var out []Difference
	for _, w := range was {
		if v, _ := valueIn(is, w.Option); v != w.Value {
			out = append(out, Difference{Option: w.Option, Was: w.Value, Is: v})
		}
	}
	for _, i := range is {
		if v, ok := valueIn(was, i.Option); !ok && v != i.Value {
			out = append(out, Difference{Option: i.Option, Was: v, Is: i.Value})
		}
	}
	return out
}

// Phrase says d in one line, naming where each value comes from:
// "--fair: the checkpoint has none, the command line has action".
func (d Difference) Phrase(was, is string) string {
	return fmt.Sprintf("%s: %s has %s, %s has %s", d.Option, was, d.Was, is, d.Is)
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func initiators(xs []int) string {
	if xs == nil {
		return "all"
	}
	return ints(xs)
}

func orNone(v int, none string) string {
	if v == 0 {
		return none
	}
	return strconv.Itoa(v)
}

func orEvery(orientation string) string {
	if orientation == "" {
		return "every assignment"
	}
	return orientation
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
