// Package cli is mc's command line, as a library: cmd/mc is Main with mc's
// own specs, and a program of one's own is Main with its specs too
// (docs/writing-a-spec.md, examples/external). See README.md.
//
// Exit codes: 0 pass, 1 a property failed, 2 usage error, 3 incomplete (a
// limit was reached, the run was interrupted or its output could not be
// written), 4 internal error.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/ringcheck/mc/specs"
)

const (
	exitPass       = 0
	exitFail       = 1
	exitUsage      = 2
	exitIncomplete = 3
	exitInternal   = 4
)

const usage = `mc: an explicit-state model checker for ring protocols

usage:
  mc list                      the specs, their variants, defaults and properties
  mc check SPEC [flags]        explore every reachable state and give a verdict
  mc trace FILE [flags]        read a trace file: as text, --replay, --format svg or dot
  mc explore [SPEC] [flags]    step through a spec, or a trace (--trace FILE), in the browser
  mc sweep SPEC|all [flags]    fewest and most messages over every schedule and arrangement
  mc simulate SPEC [flags]     random runs: properties checked, messages as a distribution
  mc ci [flags]                recompute the quick subset of results/ and fail on any drift
  mc runs [show ID | gc]       the checks recorded in the run store (.mc; docs/runstore.md)
  mc version [--json]          mc's version, and the fingerprint and file formats it uses
  mc help [COMMAND]            this text, or a command's flags

Run 'mc help COMMAND' or 'mc COMMAND --help' for a command's flags.
exit codes: 0 pass, 1 property failed, 2 usage error, 3 incomplete, 4 internal error
`

// Main runs mc's command line, os.Args, with the program's own specs
// registered after mc's own, and returns the exit code. A checker of one's
// own is a main package of a few lines (examples/external):
//
//	func main() { os.Exit(cli.Main(specs.Of(myspec.Spec))) }
func Main(own ...specs.Entry) int { return main(true, own) }

// MainOnly is Main with the program's own specs alone: mc's are not
// listed, checked or swept.
func MainOnly(own ...specs.Entry) int { return main(false, own) }

func main(withBuiltin bool, own []specs.Entry) int {
	if err := specs.Use(withBuiltin, own...); err != nil {
		fmt.Fprintf(os.Stderr, "mc: %v\n", err)
		return exitUsage
	}
	// The explorer's large arrays hold no pointers, so collecting more often
	// costs little marking and keeps the heap close to what is live.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
	// A closed terminal (SIGHUP) stops a run as Ctrl-C does: with its
	// summary and checkpoint, not the shell's exit 129.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}

// Run is mc with its arguments (without the program's name) and outputs,
// returning the exit code: what Main runs, and what tests and the
// conformance kit call in-process. Output that cannot be written makes any
// command incomplete (output.go).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &output{w: stdout}
	return out.failed(command(ctx, args, out, stderr), stderr)
}

// command runs the command args name.
func command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "list":
		return runList(args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "trace":
		return runTrace(args[1:], stdout, stderr)
	case "explore":
		return runExplore(ctx, args[1:], stdout, stderr)
	case "sweep":
		return runSweep(ctx, args[1:], stdout, stderr)
	case "simulate":
		return runSimulate(ctx, args[1:], stdout, stderr)
	case "ci":
		return runCI(ctx, args[1:], stdout, stderr)
	case "runs":
		return runRuns(args[1:], stdout, stderr)
	case "version", "--version":
		return runVersion(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		return runHelp(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "mc: unknown command %q (commands: %s, help)\n", printable(args[0]), strings.Join(commands, ", "))
	return exitUsage
}

// commands are mc's commands besides help, as run dispatches them.
var commands = []string{"list", "check", "trace", "explore", "sweep", "simulate", "ci", "runs", "version"}

// runHelp is mc help [COMMAND]: mc's usage, or COMMAND's flags as
// mc COMMAND --help prints them, on stdout.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0 || (len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help")):
		fmt.Fprint(stdout, usage)
		return exitPass
	case len(args) == 1 && slices.Contains(commands, args[0]):
		return command(ctx, []string{args[0], "--help"}, stdout, stderr)
	case len(args) == 1:
		fmt.Fprintf(stderr, "mc help: unknown command %q (commands: %s, help)\n", printable(args[0]), strings.Join(commands, ", "))
		return exitUsage
	}
	fmt.Fprintf(stderr, "mc help: want at most one command (%s), got %q\n", strings.Join(commands, ", "), printable(strings.Join(args, " ")))
	return exitUsage
}
