package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/tracefile"
)

// writeTrace writes the counterexample to property p as a trace file
// that mc trace --replay accepts: the run to the state where p failed,
// rebuilt backwards from the parent links of the levels' shard files,
// plus the failing step for a step property.
func (r *result) writeTrace(ctx context.Context, path string, t checker.Target, run runinfo.Meaning, work string, shards int, p *checker.PropInfo) error {
	f := r.failed[p.Name]
	init, actions, err := pathTo(ctx, work, shards, r.failedAt[p.Name], f.FP)
	if err != nil {
		return err
	}
	tr := &checker.Trace{Property: p.Name, Kind: p.Kind.String(), Init: init, Deadlock: p.Kind == model.End}
	if f.Step != nil {
		actions = append(actions, *f.Step)
	}
	for _, a := range actions {
		tr.Steps = append(tr.Steps, checker.Step{Action: a})
	}
	pr := &checker.PropResult{Name: p.Name, Ref: p.Ref, Doc: p.Doc, Kind: p.Kind, Verdict: checker.Fail, Trace: tr}
	file, err := tracefile.Build(t, run, pr, runinfo.ThisBuild().Version)
	if err != nil {
		return err
	}
	return tracefile.WriteFile(path, file)
}

// pathTo is the run to the state of fingerprint fp at level: the initial
// state it starts from and its actions, each state's parent looked up
// in its level's shard file.
func pathTo(ctx context.Context, work string, shards, level int, fp uint64) (int, []model.Action, error) {
	var actions []model.Action
	for ; level >= 0; level-- {
		var found *record
		err := readRecords(ctx, statesPath(work, level, shardOf(fp, shards)), func(rec record) error {
			if rec.FP == fp && found == nil {
				found = &rec
			}
			return nil
		})
		if err != nil {
			return 0, nil, err
		}
		if found == nil {
			return 0, nil, fmt.Errorf("internal error: state %016x is not in level %d's shard file", fp, level)
		}
		if level == 0 {
			slices.Reverse(actions)
			return found.Action.Choice, actions, nil
		}
		actions = append(actions, found.Action)
		fp = found.Parent
	}
	return 0, nil, fmt.Errorf("internal error: no level 0")
}
