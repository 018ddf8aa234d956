// Command mc-beam runs mc's two heaviest jobs as Apache Beam pipelines,
// so that they can leave one machine (issue #21, docs/scale-out.md):
//
//	mc-beam sweep SPEC --n A..B [mc sweep's flags]   one check per arrangement class
//	mc-beam check SPEC [mc check's spec flags] --safety [--all-ids]   breadth-first search, one pipeline per level
//
// Both run on Beam's Prism runner in this process by default (--runner
// prism), and on Flink, Spark or Dataflow through Beam's portable runners;
// Beam's own pipeline options follow a lone "--". It is a command of its
// own, in mc's module, so that the mc binary never links Beam.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/spf13/pflag"
)

// The exit codes are mc's (docs/cli.md).
const (
	exitPass       = 0
	exitFail       = 1
	exitUsage      = 2
	exitIncomplete = 3
	exitInternal   = 4
)

func main() {
	if workerMode(os.Args[1:]) {
		// A runner that starts this binary as a Beam SDK worker (not
		// Prism's loopback, which runs the workers in this process)
		// passes the harness's flags; beam.Init serves and exits.
		flag.Parse()
		beam.Init()
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runInOwnTempDir(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// workerMode reports whether args are the flags Beam starts a worker with.
func workerMode(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return a == "--worker" || a == "-worker" || strings.HasPrefix(a, "--worker=") || strings.HasPrefix(a, "-worker=")
	})
}

const usage = `mc-beam runs mc's sweeps and checks as Apache Beam pipelines (docs/scale-out.md).

  mc-beam sweep SPEC --n A..B [flags] [-- BEAM OPTIONS]
  mc-beam check SPEC [flags] --safety [-- BEAM OPTIONS]

"mc-beam sweep --help" and "mc-beam check --help" list the flags.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "sweep":
		return runSweep(ctx, args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitPass
	}
	fmt.Fprintf(stderr, "mc-beam: unknown command %q (want sweep or check)\n", args[0])
	return exitUsage
}

// newFlagSet is a command's flags: one-line errors, exit 2.
func newFlagSet(cmd, synopsis string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mc-beam "+cmd, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: mc-beam %s %s [-- BEAM OPTIONS]\n\nflags:\n", cmd, synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprintln(stdout, "\nBeam's pipeline options (e.g. --endpoint, --environment_type, --temp_location, --project, --region) follow a lone \"--\"; see docs/scale-out.md.")
	}
	return fs
}

// parseFlags parses args, printing help once (exit 0) or a one-line error
// (exit 2); ok is false when the command should stop with code.
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return exitPass, false // pflag has printed the help (fs.Usage)
		}
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return exitUsage, false
	}
	return 0, true
}
