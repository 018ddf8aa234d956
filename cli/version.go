package cli

import (
	"fmt"
	"io"
	"runtime"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/tracefile"
)

// version is mc's version as trace files and checkpoints record it:
// runinfo.Release, followed by the VCS revision the binary was built from
// when Go recorded one ("0.1.0-dev+1a2b3c4d5e6f", ".dirty" when the tree
// had changes).
func version() string { return runinfo.ThisBuild().Version }

// buildFacts are what mc version prints: what a checkpoint or trace file
// written by this binary depends on, so that a user can tell which files it
// reads before a resume or replay refuses one.
type buildFacts struct {
	jsonStamp
	// Build names this executable as checkpoints record it: a development
	// build resumes only the checkpoints it wrote itself.
	Build            runinfo.Build `json:"build"`
	Go               string        `json:"go"`
	Fingerprint      string        `json:"fingerprint"`
	CheckpointFormat string        `json:"checkpoint_format"`
	TraceFormat      string        `json:"trace_format"`
	RunStoreFormat   string        `json:"run_store_format"`
}

func currentBuild() buildFacts {
	return buildFacts{jsonStamp: stamp(), Build: runinfo.ThisBuild(), Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Fingerprint: checker.FingerprintFunc, CheckpointFormat: fmt.Sprint(checker.CheckpointFormat),
		TraceFormat: fmt.Sprintf("%s %v", tracefile.Format, tracefile.Version), RunStoreFormat: fmt.Sprint(runstore.Format)}
}

// runVersion is mc version (and mc --version).
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "[flags]", stdout)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "mc version: takes no arguments, got %q\n", printable(fs.Arg(0)))
		return exitUsage
	}
	b := currentBuild()
	if *asJSON {
		return encodeJSON(stdout, stderr, "version", b)
	}
	fmt.Fprintf(stdout, "mc %s\ngo %s\nfingerprint %s\ncheckpoint format %s\ntrace format %s\nrun store format %s\n",
		b.Build, b.Go, b.Fingerprint, b.CheckpointFormat, b.TraceFormat, b.RunStoreFormat)
	return exitPass
}
