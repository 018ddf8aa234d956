package tracefile

import (
	"fmt"
	"slices"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
)

// Build records the trace of pr, one of the properties a run of t that
// meant m decided (checker.Result.Meaning), by replaying it through t:
// every state in full, and per step the messages it sent and received.
// mcVersion is the version of the mc writing it.
func Build(t checker.Stepper, m runinfo.Meaning, pr *checker.PropResult, mcVersion string) (*File, error) {
	tr := pr.Trace
	if tr == nil {
		return nil, fmt.Errorf("property %s has no trace", pr.Name)
	}
	if d := systemDifferences(m, t.Info()); len(d) > 0 {
		return nil, fmt.Errorf("internal error: the run's %s is not the system's", d[0].Option)
	}
	f := &File{
		Format: Format, Version: Version, MCVersion: mcVersion, Run: m,
		Property: Property{Name: pr.Name, Kind: pr.Kind.String(), Ref: pr.Ref, Doc: pr.Doc, Verdict: string(pr.Verdict)},
		Deadlock: tr.Deadlock, Init: tr.Init, LoopStart: tr.LoopStart,
	}
	init := t.Initial()
	if tr.Init < 0 || tr.Init >= len(init) {
		return nil, fmt.Errorf("internal error: trace starts from initial state %d of %d", tr.Init, len(init))
	}
	cur := init[tr.Init]
	if err := f.addState(t, cur); err != nil {
		return nil, err
	}
	for i, s := range tr.Steps {
		m, err := t.Step(cur, s.Action)
		if err != nil {
			return nil, fmt.Errorf("internal error: trace step %d: %v", i+1, err)
		}
		f.Steps = append(f.Steps, Step{Rule: m.Rule, Process: m.Action.Proc, Choice: m.Action.Choice, Action: m.Label,
			Received: nonNil(m.Received), Sent: nonNil(m.Sent)})
		cur = m.To
		if err := f.addState(t, cur); err != nil {
			return nil, err
		}
	}
	return f, f.check()
}

func (f *File) addState(t checker.Stepper, s checker.State) error {
	snap, err := t.Inspect(s)
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	f.States = append(f.States, State{Vars: snap.Vars, View: picture(snap.View)})
	return nil
}

// picture is v as a trace file keeps it, so that a file reads back as it
// was built: the kinds of its messages, which only sweeps read, are not
// written (model.ChanView.Kinds).
func picture(v *model.View) *model.View {
	if v == nil {
		return nil
	}
	p := *v
	p.Chans = slices.Clone(v.Chans)
	for i := range p.Chans {
		p.Chans[i].Kinds = nil
	}
	return &p
}

// nonNil makes an empty list print as [] rather than null, so that every
// step has both fields.
func nonNil(ms []checker.Message) []checker.Message {
	if ms == nil {
		return []checker.Message{}
	}
	return ms
}

// systemDifferences lists where m's spec, variant and parameters differ
// from those of the system info describes.
func systemDifferences(m runinfo.Meaning, info checker.Info) []runinfo.Difference {
	sys := m
	sys.Spec, sys.Variant, sys.Params = info.Spec, info.Variant, runinfo.ParamsOf(info.Params)
	return runinfo.Differences(m, sys)
}
