package runinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// Release is mc's release; Build.Version adds the VCS revision.
const Release = "0.1.0-dev"

// Engine numbers the semantics of what mc computes from a spec: the
// checker's exploration, its verdicts and counts, and a sweep's counting
// of messages. The run store keys every record on it beside Release and
// the spec's own sources (runstore.Key), and reuses a record only under
// the same Engine. A change to mc that can change a verdict or a figure
// for an unchanged spec must therefore bump it; a change that cannot
// (speed, memory, output wording, a new flag) leaves it, so that the store
// stays useful across rebuilds. CI recomputes every row without the store
// (mc ci --fresh), so a bump forgotten shows as drift before anything
// ships (docs/runstore.md). 2: terminal states are checked for deadlock
// (model.Deadlock).
const Engine = 2

// Build identifies the mc executable that wrote a checkpoint. A checkpoint
// holds fingerprints and encodings that only the same code reads the same
// way, so a resume by any other build is refused (Build.Differences). A
// release build is named by its VCS revision; a development build (no
// revision recorded, or a tree with uncommitted changes) cannot be named
// that way, and is bound to a hash of its own executable instead: it
// resumes only the checkpoints it wrote itself.
type Build struct {
	// Version is Release, "+" and the revision's first 12 hex digits, and
	// ".dirty" for a modified tree: "0.1.0-dev+1a2b3c4d5e6f".
	Version string `json:"version"`
	// Revision is the full VCS revision; "" when Go recorded none.
	Revision string `json:"revision"`
	// Modified says the tree had uncommitted changes.
	Modified bool `json:"modified"`
	// Executable is a SHA-256 of the running executable, for a development
	// build only; "" for a release build, or when the executable could not
	// be read (then no checkpoint of this build can be resumed).
	Executable string `json:"executable,omitempty"`
}

// Development says b cannot be named by its revision alone.
func (b Build) Development() bool { return b.Revision == "" || b.Modified }

// String names b for a person: its version, and for a development build
// the start of its executable's hash.
func (b Build) String() string {
	if !b.Development() {
		return b.Version
	}
	exe := b.Executable
	if exe == "" {
		exe = "unknown"
	}
	return fmt.Sprintf("%s (development build, executable %.12s)", b.Version, exe)
}

// Same reports whether a checkpoint written by b may be resumed by this:
// the same revision and tree state, and for a development build the same
// executable.
func (b Build) Same(this Build) bool {
	if b.Version != this.Version || b.Revision != this.Revision || b.Modified != this.Modified {
		return false
	}
	return !b.Development() || (b.Executable != "" && b.Executable == this.Executable)
}

// ThisBuild is the running mc's Build, computed once.
var ThisBuild = sync.OnceValue(func() Build {
	b := Build{Version: Release}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Revision != "" {
		b.Version += "+" + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			b.Version += ".dirty"
		}
	}
	if b.Development() {
		b.Executable = executableHash()
	}
	return b
})

// executableHash is the SHA-256 of the running executable, or "" if it
// cannot be read.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
