package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/ringcheck/mc/checker"
)

// checkPaths checks, before the run starts, that the directories the run
// writes in can be used: a directory that cannot be created or written, or
// a file where a directory should be, is the user's mistake, reported in
// one line with exit 2 instead of surfacing as an internal error, or, for
// a checkpoint directory, not at all until the first checkpoint is due.
func (f *checkFlags) checkPaths() error {
	if f.store == "disk" && f.dir != "" {
		if err := writableDir("--dir", f.dir); err != nil {
			return err
		}
	}
	if f.checkpoint != "" {
		if err := writableDir("--checkpoint", f.checkpoint); err != nil {
			return err
		}
	}
	if f.resume != "" {
		if err := existingDir("--resume", f.resume); err != nil {
			return err
		}
		if err := probe("--resume", f.resume); err != nil {
			return err
		}
	}
	if f.traceOut != "" {
		return checkTraceOut(f.traceOut)
	}
	return nil
}

// writableDir makes sure dir is a directory mc can write in, creating it
// if needed.
func writableDir(flag, dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s %s: a file, not a directory", flag, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: cannot create the directory (%s)", flag, dir, reason(err))
	}
	return probe(flag, dir)
}

// existingDir makes sure dir exists and is a directory.
func existingDir(flag, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: %s", flag, dir, reason(err))
	case !st.IsDir():
		return fmt.Errorf("%s %s: a file, not a directory", flag, dir)
	}
	return nil
}

// probe creates and removes a file in dir, to show that mc can write there.
func probe(flag, dir string) error {
	f, err := os.CreateTemp(dir, ".mc-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in the directory (%s)", flag, dir, reason(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// reason is err without the path and operation that the message names
// already: "permission denied", "no such file or directory".
func reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return "a file is in the way"
	}
	return err.Error()
}

// resumeWorkDir points a resumed disk run at the directory its checkpoint
// keeps its working files in, unless --dir names one; a checkpoint of a
// run in memory cannot be resumed on disk.
func (f *checkFlags) resumeWorkDir() error {
	if f.resume == "" || f.store != "disk" || f.dir != "" {
		return nil
	}
	work, err := checker.CheckpointWorkDir(f.resume)
	if err != nil {
		return err
	}
	if work == "" {
		return fmt.Errorf("--store disk: the checkpoint in %s is of a run in memory", f.resume)
	}
	f.dir = filepath.Dir(work)
	return nil
}
