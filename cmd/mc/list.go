package main

import (
	"fmt"
	"io"
	"strings"

	"mc/model"
	"mc/specs"
)

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
		t, err := e.Build(model.Params{N: e.DefaultN, IDs: model.DescendingIDs(e.DefaultN)})
		if err != nil {
			fmt.Fprintf(stderr, "mc list: internal error: %s does not build on its defaults: %v\n", e.Name, err)
			return exitInternal
		}
		var props []string
		for _, p := range t.Props() {
			props = append(props, p.Name+"("+p.Kind.String()+")")
		}
		bound := ""
		if e.Bound != "" {
			bound = fmt.Sprintf("; --bound: %s", e.Bound)
		}
		fmt.Fprintf(stdout, "%-13s %s [seed %s]; variants: %s; defaults: --n %d --ids n..1 --chan %s --initiators all --fair %s%s; props: %s\n",
			e.Name, e.Title, e.Ref, strings.Join(vs, ", "), e.DefaultN, e.Chan, e.Fair, bound, strings.Join(props, ", "))
	}
	return exitPass
}
