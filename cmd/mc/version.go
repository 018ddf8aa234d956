package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"mc/checker"
	"mc/tracefile"
)

// release is mc's version; trace files record it.
const release = "0.1.0-dev"

// version is release, followed by the VCS revision the binary was built
// from when Go recorded one ("0.1.0-dev+1a2b3c4d5e6f", "+dirty" when the
// tree had changes).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return release
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return release
	}
	v := release + "+" + rev[:min(12, len(rev))]
	if dirty {
		v += ".dirty"
	}
	return v
}

// buildFacts are what mc version prints: what a checkpoint or trace file
// written by this binary depends on, so that a user can tell which files it
// reads before a resume or replay refuses one.
type buildFacts struct {
	jsonStamp
	Go               string `json:"go"`
	Fingerprint      string `json:"fingerprint"`
	CheckpointFormat string `json:"checkpoint_format"`
	TraceFormat      string `json:"trace_format"`
}

func currentBuild() buildFacts {
	return buildFacts{jsonStamp: stamp(), Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Fingerprint: checker.FingerprintFunc, CheckpointFormat: fmt.Sprint(checker.CheckpointFormat),
		TraceFormat: fmt.Sprintf("%s %v", tracefile.Format, tracefile.Version)}
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
	fmt.Fprintf(stdout, "mc %s\ngo %s\nfingerprint %s\ncheckpoint format %s\ntrace format %s\n",
		b.MCVersion, b.Go, b.Fingerprint, b.CheckpointFormat, b.TraceFormat)
	return exitPass
}
