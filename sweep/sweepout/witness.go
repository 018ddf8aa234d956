package sweepout

import (
	"bytes"
	"fmt"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/tracefile"
)

// Witnesses are the witness runs a row without a cycle has, as TracePath
// names them: one with its worst cost, one with its best.
var Witnesses = []string{"worst", "best"}

// witness is what a row's witness run is recorded as: the system of the
// arrangement that attains the cost, the run's meaning, and the property
// the trace file files it under (its Trace left to the caller).
type witness struct {
	target checker.Target
	run    runinfo.Meaning
	prop   checker.PropResult
	cost   sweep.Messages
}

// witnessOf is row r's witness run what ("worst" or "best") of table t.
func witnessOf(t *sweep.Table, r *sweep.Row, what string) (witness, error) {
	e, err := specs.Lookup(t.Spec)
	if err != nil {
		return witness{}, err
	}
	ids, cost := r.WorstIDs, r.Worst
	if what == "best" {
		ids, cost = r.BestIDs, r.Best
	}
	tgt, err := e.Build(model.Params{N: r.N, IDs: ids, Variant: t.Variant, Drift: t.Drift, Claims: t.RowClaims(r), Own: model.OwnFrom(t.Param)})
	if err != nil {
		return witness{}, err
	}
	return witness{
		target: tgt,
		run:    checker.MeaningOf(tgt.Info(), checker.Options{Fair: e.Defaults.Fair}),
		prop:   checker.PropResult{Name: what + "-messages", Doc: fmt.Sprintf("a run with the %s number of %s at n=%d", what, t.Counted, r.N), Kind: model.Witness, Verdict: checker.Pass},
		cost:   cost,
	}, nil
}

// CheckTrace checks data, the file TracePath names for row r's witness run
// what, against the committed table t whose classes cfg computes, when the
// row is not recomputed and so the file cannot be rendered again to be
// compared: it must be a trace file of that run (the spec, ring size,
// variant, arrangement and every option the row was computed with, the
// property it is filed under), replay step by step to a terminal state on
// the spec as it is now, and cost what the row says. The error says, in
// one line, the first thing that does not hold.
func CheckTrace(cfg sweep.Config, t *sweep.Table, r *sweep.Row, what string, data []byte) error {
	f, err := tracefile.Read(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("cannot be read: %v", err)
	}
	w, err := witnessOf(t, r, what)
	if err != nil {
		return fmt.Errorf("its row's system cannot be built: %v", err)
	}
	if d := runinfo.Differences(w.run, f.Run); len(d) > 0 {
		return fmt.Errorf("is not its row's run: %s", d[0].Phrase("the row's run", "the trace"))
	}
	p := f.Property
	if p.Name != w.prop.Name || p.Kind != tracefile.CostRun || p.Doc != w.prop.Doc || p.Verdict != string(w.prop.Verdict) || p.Ref != "" {
		return fmt.Errorf("is not filed as its row's %s run: property %q, kind %q, %q", what, p.Name, p.Kind, p.Doc)
	}
	if f.LoopStart != nil || f.Deadlock {
		return fmt.Errorf("claims a loop or a deadlock, which a complete run of a sweep has not")
	}
	if out := tracefile.Replay(f, w.target); !out.Reached {
		return fmt.Errorf("does not replay: %s", out.Why)
	}
	info := w.target.Info()
	actions := make([]model.Action, len(f.Steps))
	for i, s := range f.Steps {
		actions[i] = model.Action{Rule: info.RuleIndex(s.Rule), Proc: s.Process, Choice: s.Choice}
	}
	cost, err := cfg.RunCost(w.target, r.N, f.Init, actions)
	if err != nil {
		return fmt.Errorf("cannot be weighed: %v", err)
	}
	if cost != w.cost {
		return fmt.Errorf("replays to a run of cost %d, and the row's %s is %d", cost, what, w.cost)
	}
	return nil
}
