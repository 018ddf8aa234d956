package checker

import (
	"fmt"

	"mc/model"
	"mc/runinfo"
)

// MeaningOf is what a run of the system info describes, with opt, means
// (runinfo.Meaning): checkpoints and trace files record it, and a resume or a
// replay rebuilds the run from it.
func MeaningOf(info Info, opt Options) runinfo.Meaning {
	return meaning(info.Spec, info.Variant, info.Params, opt)
}

func meaning(spec, variant string, p model.Params, opt Options) runinfo.Meaning {
	return runinfo.Meaning{Spec: spec, Variant: variant, Params: runinfo.ParamsOf(p), Fair: opt.Fair.String(), Safety: opt.Safety, Reduce: opt.Reduce}
}

// ApplyMeaning returns opt with every option m records (fairness, safety,
// reduction) set from m; the spec and its parameters are the system's.
func ApplyMeaning(m runinfo.Meaning, opt Options) (Options, error) {
	fair, err := ParseFairness(m.Fair)
	if err != nil {
		return opt, fmt.Errorf("the run's fairness: %v", err)
	}
	opt.Fair, opt.Safety, opt.Reduce = fair, m.Safety, m.Reduce
	return opt, nil
}

// storeOf is the store opt keeps the visited set in.
func storeOf(opt Options) runinfo.Store {
	if opt.Disk != "" {
		return runinfo.Disk(opt.Disk)
	}
	return runinfo.Memory
}
