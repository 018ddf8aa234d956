package cli

import (
	"fmt"
	"maps"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/paramflags"
)

// resumed restores the run checkpointed in --resume: the spec, every
// parameter, the options that change its meaning and its store become the
// flags' (a resume needs none of them), and the result is the spec and its
// parameters. What the resume cannot honour is returned as refusals, one
// line each: a flag given that contradicts the checkpoint or that the spec
// does not take, another build of mc, a spec whose code changed since. err is an unreadable checkpoint or
// flag.
func (f *checkFlags) resumed(fs *pflag.FlagSet) (entry specs.Entry, p model.Params, refusals []string, err error) {
	if err := existingDir("--resume", f.resume); err != nil {
		return entry, p, nil, err
	}
	h, err := checker.ReadCheckpoint(f.resume)
	if err != nil {
		return entry, p, nil, err
	}
	if fs.NArg() > 1 {
		return entry, p, nil, fmt.Errorf("want at most one spec name with --resume")
	}
	if entry, err = lookupSpec(h.Run.Spec); err != nil {
		return entry, p, nil, fmt.Errorf("resume: the checkpoint in %s is of %v", f.resume, err)
	}
	if err := f.hashSpec(entry); err != nil {
		return entry, p, nil, err
	}
	refusals = checker.BuildMismatches(h, runinfo.ThisBuild(), f.specHash)
	if err := entry.Takes.Refuse(entry.Name, fs.Changed); err != nil {
		refusals = append(refusals, err.Error())
	}
	contradicted, err := f.contradictions(fs, entry, h.Run, h.Store)
	if err != nil {
		return entry, p, nil, err
	}
	if refusals = append(refusals, contradicted...); len(refusals) > 0 {
		return entry, p, refusals, nil
	}
	if p, err = h.Run.Params.Model(h.Run.Variant); err != nil {
		return entry, p, nil, fmt.Errorf("resume: the checkpoint's parameters: %v", err)
	}
	if f.fairness, err = model.ParseFairness(h.Run.Fair); err != nil {
		return entry, p, nil, fmt.Errorf("resume: the checkpoint's fairness: %v", err)
	}
	f.Safety, f.por, f.Continue, f.maxDepth, f.noDeadlock = h.Run.Safety, h.Run.Reduce, h.Run.Continue, h.Run.MaxDepth, h.Run.NoDeadlock
	f.FailVacuous = h.Run.FailVacuous
	f.store = string(h.Store) // a disk run's --dir comes from the checkpoint too (resumeWorkDir)
	return entry, p, nil, nil
}

// contradictions lists, one line each, the flags given with --resume (and
// the SPEC, if given) whose values differ from the checkpoint's run and
// store: "--fair: the checkpoint has none, the command line has action".
// --dir is the checker's to check: it must hold the working directory the
// checkpoint names.
func (f *checkFlags) contradictions(fs *pflag.FlagSet, e specs.Entry, was runinfo.Meaning, store runinfo.Store) ([]string, error) {
	var out []string
	if fs.NArg() == 1 && fs.Arg(0) != was.Spec {
		out = append(out, fmt.Sprintf("SPEC: the checkpoint has %s, the command line has %s", was.Spec, fs.Arg(0)))
	}
	is, err := f.overMeaning(fs, e, was)
	if err != nil {
		return nil, err
	}
	diffs := runinfo.Differences(was, is)
	if fs.Changed("store") {
		if d := runinfo.StoreDifference(store, runinfo.Store(f.store)); d != nil {
			diffs = append(diffs, *d)
		}
	}
	for _, d := range diffs {
		if flag := (runinfo.Setting{Option: d.Option}).Flag(); flag != "" && fs.Changed(flag) {
			out = append(out, d.Phrase("the checkpoint", "the command line"))
		}
	}
	return out, nil
}

// overMeaning is m with every flag given on the command line in place of
// the value it names.
func (f *checkFlags) overMeaning(fs *pflag.FlagSet, e specs.Entry, m runinfo.Meaning) (runinfo.Meaning, error) {
	p := &m.Params
	var err error
	set := func(flag string, apply func() error) {
		if err == nil && fs.Changed(flag) {
			if e := apply(); e != nil {
				err = fmt.Errorf("--%s: %v", flag, e)
			}
		}
	}
	set("variant", func() (err error) { m.Variant, err = model.PickVariant(e.Name, e.Variants, f.Variant); return })
	set("n", func() error { p.N = f.N; return nil })
	set("ids", func() (err error) {
		if p.IDs, err = model.ParseInts(f.IDs); err == nil && fs.Changed("n") && f.N != len(p.IDs) {
			err = fmt.Errorf("--n %d but --ids lists %d ids", f.N, len(p.IDs))
		}
		p.N = len(p.IDs)
		return err
	})
	set("chan", func() error { k, err := model.ParseChanKind(f.Chan); p.Chan = k.String(); return err })
	set("cap", func() error { p.Cap = f.Cap; return nil })
	set("initiators", func() (err error) { p.Initiators, err = model.ParseInts(f.Initiators); return })
	set("claims", func() error { p.Claims = f.Claims; return nil })
	set("links", func() error { l, err := model.ParseDuplex(f.Links); p.Links = l.String(); return err })
	set("orientation", func() error {
		_, err := model.ParseOrientation(f.Orientation, p.N)
		p.Orientation = f.Orientation
		return err
	})
	set("drift", func() error { p.Drift = f.Drift; return nil })
	set("bound", func() error { p.Bound = f.Bound; return nil })
	set("param", func() error {
		own, err := paramflags.ParseParams(f.Own)
		if err == nil {
			_, err = e.ResolveParams(own)
		}
		p.Param = maps.Clone(p.Param)
		for _, o := range own {
			if p.Param == nil {
				p.Param = map[string]int{}
			}
			p.Param[o.Name] = o.Value
		}
		return err
	})
	set("fair", func() error { k, err := model.ParseFairness(f.fair); m.Fair = k.String(); return err })
	set("safety", func() error { m.Safety = f.Safety; return nil })
	set("por", func() error { m.Reduce = f.por; return nil })
	set("continue", func() error { m.Continue = f.Continue; return nil })
	set("max-depth", func() error { m.MaxDepth = f.maxDepth; return nil })
	set("no-deadlock", func() error { m.NoDeadlock = f.noDeadlock; return nil })
	set("fail-vacuous", func() error { m.FailVacuous = f.FailVacuous; return nil })
	return m, err
}
