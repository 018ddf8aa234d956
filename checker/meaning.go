package checker

import (
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
)

// MeaningOf is what a run of the system info describes, with opt, means
// (runinfo.Meaning): checkpoints and trace files record it, and a resume or a
// replay rebuilds the run from it.
func MeaningOf(info Info, opt Options) runinfo.Meaning {
	return meaning(info.Spec, info.Variant, info.Params, opt)
}

func meaning(spec, variant string, p model.Params, opt Options) runinfo.Meaning {
	return runinfo.Meaning{Spec: spec, Variant: variant, Params: runinfo.ParamsOf(p), Fair: opt.Fair.String(), Safety: opt.Safety, Reduce: opt.Reduce, Continue: opt.Continue, MaxDepth: opt.MaxDepth, NoDeadlock: opt.NoDeadlock, FailVacuous: opt.FailVacuous}
}

// storeOf is the store opt keeps the visited set in.
func storeOf(opt Options) runinfo.Store {
	if opt.Disk != "" {
		return runinfo.DiskStore
	}
	return runinfo.MemoryStore
}
