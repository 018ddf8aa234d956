package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"mc/checker"
	"mc/specs"
	"mc/sweep"
)

// regenerate is the command results/README.md names at its top.
const regenerate = "go run ./cmd/mc sweep all --out results"

func writeIndented(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// profileConfig is the sweep results/ holds for profile name.
func profileConfig(name string, opt checker.CostOptions) (sweep.Config, error) {
	prof := sweep.Profiles[name]
	e, err := specs.Lookup(prof.Spec)
	if err != nil {
		return sweep.Config{}, err
	}
	return sweep.Config{Entry: e, Profile: prof, Variant: prof.Variant, Drift: prof.Drift, Opt: opt}, nil
}

// sweepAll regenerates dir: every profile's table, witnesses, README.md and
// the plot.
func sweepAll(ctx context.Context, dir string, opt checker.CostOptions, stdout, stderr io.Writer) int {
	var tables []*sweep.Table
	for _, name := range sweep.Order {
		cfg, err := profileConfig(name, opt)
		if err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
		t, code := sweepTable(ctx, name, cfg, cfg.Profile.Ns, stderr)
		if t == nil {
			return code
		}
		sweep.WriteText(stdout, t)
		if err := writeTable(dir, t); err != nil {
			fmt.Fprintf(stderr, "mc sweep: %v\n", err)
			return exitInternal
		}
		tables = append(tables, t)
	}
	var svg, md strings.Builder
	sweep.WriteSVG(&svg, tables)
	fmt.Fprintf(&md, "# results\n\nRegenerate everything here with\n\n    %s\n\nand check the quick subset (what CI runs) with `go run ./cmd/mc ci`.\n\n", regenerate)
	md.WriteString(sweep.Preamble)
	md.WriteString("![worst messages against n](worst.svg)\n\n")
	for _, t := range tables {
		sweep.WriteMarkdown(&md, t)
	}
	md.WriteString(sweep.Unswept)
	if err := os.WriteFile(filepath.Join(dir, "worst.svg"), []byte(svg.String()), 0o644); err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitInternal
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(md.String()), 0o644); err != nil {
		fmt.Fprintf(stderr, "mc sweep: %v\n", err)
		return exitInternal
	}
	return exitPass
}

// runCI is mc ci: it recomputes the quick subset of results/ (each
// profile's CI sizes) and fails on any difference from the committed JSON.
func runCI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ci", "[flags]", stderr)
	dir := fs.String("results", "results", "the directory holding the committed tables")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "mc ci: takes no arguments (see mc ci --help)")
		return exitUsage
	}
	drift := 0
	for _, name := range sweep.Order {
		data, err := os.ReadFile(filepath.Join(*dir, name+".json"))
		if err != nil {
			fmt.Fprintf(stderr, "mc ci: %v\n", err)
			return exitUsage
		}
		var want sweep.Table
		if err := json.Unmarshal(data, &want); err != nil {
			fmt.Fprintf(stderr, "mc ci: %s: %v\n", name, err)
			return exitUsage
		}
		cfg, err := profileConfig(name, checker.CostOptions{})
		if err != nil {
			fmt.Fprintf(stderr, "mc ci: %v\n", err)
			return exitInternal
		}
		for _, n := range cfg.Profile.CI {
			got, err := sweep.Run(ctx, cfg, n)
			if err != nil {
				fmt.Fprintf(stderr, "mc ci: %v\n", err)
				return exitInternal
			}
			var old *sweep.Row
			for _, r := range want.Rows {
				if r.N == n {
					old = r
				}
			}
			a, _ := json.Marshal(got)
			var b []byte
			if old != nil {
				b, _ = json.Marshal(old)
			}
			if string(a) != string(b) {
				fmt.Fprintf(stdout, "DRIFT %s n=%d: recomputed %s\n  results/%s.json has %s\n", name, n, a, name, b)
				drift++
				continue
			}
			fmt.Fprintf(stdout, "ok    %s n=%d: worst %d, best %d, %d states\n", name, n, got.Worst, got.Best, got.States)
		}
	}
	if drift > 0 {
		fmt.Fprintf(stdout, "mc ci: %d rows differ from %s; regenerate with %s if the change is intended\n", drift, *dir, regenerate)
		return exitFail
	}
	return exitPass
}
