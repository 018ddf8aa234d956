package cli

import (
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/internal/memlimit"
)

// writeResumeNote says, after a run that stopped early (interrupted, a
// limit, a full disk), whether a checkpoint exists, where, and the command
// that resumes it; and, after a disk run, which working files were kept
// and why. A run that checkpoints but stopped before its first checkpoint
// says that nothing can be resumed. A run cut at its --max-depth has ended:
// a resume would cut it at the same level.
func writeResumeNote(w io.Writer, fs *pflag.FlagSet, f *checkFlags, r *checker.Result) {
	stoppedEarly := r.Reason != "" && !r.DepthLimited
	switch c := r.Checkpoint; {
	case stoppedEarly && c != nil:
		limit := stoppingLimit(r.Reason)
		fmt.Fprintf(w, "checkpoint: level %d, %d states, saved in %s at %s; resume with:\n  %s\n",
			c.Depth, c.States, c.Dir, c.At.Format("15:04:05"), resumeCommand(fs, c.Dir, limit))
		if fl := fs.Lookup(limit); fl != nil && fl.Changed {
			fmt.Fprintf(w, "  (without --%s %s, the limit that stopped this run; add a larger one to set another)\n",
				limit, shellQuote(fl.Value.String()))
		}
	case stoppedEarly && f.checkpoint != "" && f.every == 0:
		// With a checkpoint at every level, the first is written as soon as
		// level 0 is stored: none means the run stopped before that.
		fmt.Fprintf(w, "checkpoint: this run saved none: it stopped while storing its initial states (level 0; %d stored), and a checkpoint is taken only at the end of a level\n", r.States)
	case stoppedEarly && (f.checkpoint != "" || f.resume != ""):
		fmt.Fprintf(w, "checkpoint: this run saved none (the first is due %s after its start)\n", checker.FirstCheckpoint(f.every))
	}
	if r.WorkDirKept != "" {
		fmt.Fprintf(w, "working files kept in %s (%s): %s\n", r.WorkDir, memlimit.Format(dirSize(r.WorkDir)), r.WorkDirKept)
	}
}

// stoppingLimits are the limits that can stop a run, by the words that
// begin the checker's reason for stopping at each (checker.Result.Reason).
// Repeated in the resume command, the one that stopped the run stops the
// resumed one at the same place (states and memory count the whole run)
// or soon after (the time limit counts again from the resume).
var stoppingLimits = []struct{ reason, flag string }{
	{"state limit ", "max-states"},
	{"timeout after ", "timeout"},
	{"memory limit ", "max-memory"},
}

// stoppingLimit is the flag of the limit that stopped a run for reason, ""
// when no such limit stopped it.
func stoppingLimit(reason string) string {
	reason = strings.TrimPrefix(reason, "liveness: ")
	for _, l := range stoppingLimits {
		if strings.HasPrefix(reason, l.reason) {
			return l.flag
		}
	}
	return ""
}

// resumeCommand is the command line that resumes the run checkpointed in
// dir: mc check, the spec and every flag given but limit, the flag of the
// limit that stopped it (stoppingLimits), with --resume dir in place
// of --checkpoint, --resume and --dir (the checkpoint names its working
// directory).
func resumeCommand(fs *pflag.FlagSet, dir, limit string) string {
	words := append([]string{"mc", "check"}, fs.Args()...)
	fs.Visit(func(fl *pflag.Flag) {
		switch {
		case fl.Name == "checkpoint" || fl.Name == "resume" || fl.Name == "dir" || fl.Name == limit:
		case fl.Value.Type() == "bool" && fl.Value.String() == "true":
			words = append(words, "--"+fl.Name)
		default:
			words = append(words, "--"+fl.Name, fl.Value.String())
		}
	})
	words = append(words, "--resume", dir)
	for i, word := range words {
		words[i] = shellQuote(word)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes s for a POSIX shell, if it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
