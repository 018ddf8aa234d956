package main

import (
	"fmt"
	"io"
	"strings"

	"mc/model"
	"mc/specs"
)

// joinInts renders 3,1,4.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// runList prints one line per spec: name, title, seed section, variants
// (default first, starred), defaults and properties.
func runList(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "mc list: takes no arguments, got %q\n", args[0])
		return exitUsage
	}
	for _, e := range specs.All() {
		vs := make([]string, len(e.Variants))
		for i, v := range e.Variants {
			vs[i] = v.Name
		}
		vs[0] += "*"
		ids := e.IDs(e.DefaultN)
		t, err := e.Build(model.Params{N: e.DefaultN, IDs: ids})
		if err != nil {
			fmt.Fprintf(stderr, "mc list: internal error: %s does not build on its defaults: %v\n", e.Name, err)
			return exitInternal
		}
		var props []string
		for _, p := range t.Props() {
			props = append(props, p.Name+"("+p.Kind.String()+")")
		}
		who, drift, links, bound := fmt.Sprintf(" --ids %s --chan %s --initiators all", joinInts(ids), e.Chan), "", "", ""
		if e.Anonymous {
			who = fmt.Sprintf(" (no ids) --chan %s", e.Chan)
		}
		if e.Clocked {
			drift = " --drift 0"
		}
		if e.Bidirectional {
			links = " --links (per variant) --orientation (every assignment)"
		}
		if e.Bound != "" {
			bound = " --bound: " + e.Bound
		}
		fmt.Fprintf(stdout, "%-13s %s [seed %s]; variants: %s; defaults: --n %d%s%s%s --fair %s%s; props: %s\n",
			e.Name, e.Title, e.Ref, strings.Join(vs, ", "), e.DefaultN, who, drift, links, e.Fair, bound, strings.Join(props, ", "))
	}
	return exitPass
}
