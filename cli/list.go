package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
)

// listedSpec is one spec as mc list --json gives it (docs/json.md).
type listedSpec struct {
	Name       string          `json:"name"`
	Title      string          `json:"title"`
	Ref        string          `json:"ref"`
	Variants   []listedVariant `json:"variants"`
	Defaults   listedDefaults  `json:"defaults"`
	Symmetry   string          `json:"symmetry,omitempty"`
	Params     []listedParam   `json:"params,omitempty"`
	Properties []listedProp    `json:"properties"`
	// takes are the knobs the spec takes: the line lists only their flags.
	takes specdef.Knob
}

// listedParam is one of the spec's own parameters (--param): its name,
// what it is, its default and its range, Min to Max.
type listedParam struct {
	Name    string `json:"name"`
	Doc     string `json:"doc"`
	Default int    `json:"default"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
}

type listedVariant struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// listedDefaults are the parameters a run takes when no flag sets them.
// IDs is absent for a spec whose processes have none; Drift, Links and
// Bound are present only for the specs that take them.
type listedDefaults struct {
	Variant    string `json:"variant"`
	N          int    `json:"n"`
	IDs        []int  `json:"ids,omitempty"`
	Chan       string `json:"chan"`
	Initiators string `json:"initiators"`
	Fair       string `json:"fair"`
	Drift      *int   `json:"drift,omitempty"`
	Links      string `json:"links,omitempty"`
	Bound      string `json:"bound,omitempty"`
}

// listedProp is a property of the spec built on its defaults. Claims marks
// one of the papers' claims, which reads ghost variables and so exists only
// in a run with --claims: listing it tells a user the flag that checks it.
type listedProp struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Ref    string `json:"ref"`
	Doc    string `json:"doc"`
	Claims bool   `json:"claims,omitempty"`
}

// describeSpec builds e on its defaults and describes it; for a spec that
// takes --claims it builds it again with claims on, to list the properties
// only that build has.
func describeSpec(e specs.Entry) (listedSpec, error) {
	ids := e.IDs(e.Defaults.N)
	p := model.Params{N: e.Defaults.N, IDs: ids}
	t, err := e.Build(p)
	if err != nil {
		return listedSpec{}, fmt.Errorf("%s does not build on its defaults: %v", e.Name, err)
	}
	plain := map[string]bool{}
	for _, pr := range t.Props() {
		plain[pr.Name] = true
	}
	if e.Takes.Has(specdef.Claims) {
		p.Claims = true
		if t, err = e.Build(p); err != nil {
			return listedSpec{}, fmt.Errorf("%s does not build on its defaults with --claims: %v", e.Name, err)
		}
	}
	out := listedSpec{Name: e.Name, Title: e.Title, Ref: e.Ref, takes: e.Takes,
		Defaults: listedDefaults{Variant: e.Variants[0].Name, N: e.Defaults.N, IDs: ids, Chan: e.Defaults.Chan.String(), Initiators: "all", Fair: e.Defaults.Fair.String(), Bound: e.Defaults.Bound}}
	for _, v := range e.Variants {
		out.Variants = append(out.Variants, listedVariant{Name: v.Name, Doc: v.Doc})
	}
	for _, d := range e.Params {
		out.Params = append(out.Params, listedParam{Name: d.Name, Doc: d.Doc, Default: d.Default, Min: d.Min, Max: d.Max})
	}
	if e.Anonymous() {
		out.Defaults.IDs = nil
	} else {
		out.Symmetry = e.Symmetry.String()
	}
	if e.Takes.Has(specdef.Drift) {
		out.Defaults.Drift = new(int)
	}
	if e.Takes.Has(specdef.Links) {
		out.Defaults.Links = "per variant"
	}
	for _, pr := range t.Props() {
		out.Properties = append(out.Properties, listedProp{Name: pr.Name, Kind: pr.Kind.String(), Ref: pr.Ref, Doc: pr.Doc, Claims: !plain[pr.Name]})
	}
	return out, nil
}

// runList is mc list: one line per spec, name, title, seed section,
// variants (default first, starred), defaults and properties (a claim
// marked "--claims", the flag that checks it); or, with
// --json, one object listing them.
func runList(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("list", "[flags]", stdout)
	asJSON := fs.Bool("json", false, "print one JSON object listing the specs")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mc list: takes no arguments, got %q\n", printable(fs.Arg(0)))
		return exitUsage
	}
	var listed []listedSpec
	for _, e := range specs.All() {
		d, err := describeSpec(e)
		if err != nil {
			fmt.Fprintf(stderr, "mc list: internal error: %v\n", err)
			return exitInternal
		}
		listed = append(listed, d)
	}
	if *asJSON {
		return encodeJSON(stdout, stderr, "list", struct {
			jsonStamp
			Specs []listedSpec `json:"specs"`
		}{stamp(), listed})
	}
	for _, d := range listed {
		fmt.Fprintln(stdout, listLine(d))
	}
	return exitPass
}

// listLine is d on one line.
func listLine(d listedSpec) string {
	vs := make([]string, len(d.Variants))
	for i, v := range d.Variants {
		vs[i] = v.Name
	}
	vs[0] += "*"
	def := d.Defaults
	// Only the flags of the knobs the spec takes: mc check refuses the
	// others (specdef.Info.Takes).
	who := " (no ids)"
	if d.takes.Has(specdef.IDs) {
		who = " --ids " + model.FormatInts(def.IDs)
	}
	if d.takes.Has(specdef.Chan) {
		who += " --chan " + def.Chan
	}
	if d.takes.Has(specdef.Initiators) {
		who += " --initiators " + def.Initiators
	}
	var drift, links, bound, own string
	if def.Drift != nil {
		drift = fmt.Sprintf(" --drift %d", *def.Drift)
	}
	if def.Links != "" {
		links = " --links (per variant)"
	}
	if d.takes.Has(specdef.Orientation) {
		links += " --orientation (every assignment)"
	}
	if def.Bound != "" {
		bound = " --bound: " + def.Bound
	}
	for _, p := range d.Params {
		own += fmt.Sprintf(" --param %s=%d (%d..%d: %s)", p.Name, p.Default, p.Min, p.Max, p.Doc)
	}
	props := make([]string, len(d.Properties))
	for i, p := range d.Properties {
		props[i] = p.Name + "(" + p.Kind + ")"
		if p.Claims {
			props[i] = p.Name + "(" + p.Kind + ", --claims)"
		}
	}
	return fmt.Sprintf("%-13s %s [seed %s]; variants: %s; defaults: --n %d%s%s%s --fair %s%s%s; props: %s",
		d.Name, d.Title, d.Ref, strings.Join(vs, ", "), def.N, who, drift, links, def.Fair, bound, own, strings.Join(props, ", "))
}
