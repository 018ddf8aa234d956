package checker

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/internal/filelock"
)

// A disk run keeps its files in a working directory of its own: a new
// directory, mc-<spec>-<random>, that it creates under Options.Disk, so
// that it never deletes or overwrites a file it did not create (it once
// cleared <dir>/visited and truncated <dir>/trace.log, whatever they held).
// Two runs given one Options.Disk thus each get their own directory.
//
// The working directory, and the checkpoint directory of a run that
// checkpoints, are locked (filelock) for as long as the run uses them: a
// second process resuming the same checkpoint, or checkpointing into the
// same directory, is refused instead of interleaving its files with the
// first's. A lock dies with its process, so a killed run leaves none.
//
// A checkpoint records the working directory's absolute path, so a resume
// from another working directory finds it. A run that ends removes its
// working files, unless a checkpoint it saved or resumed from still needs
// them (the run stopped early) or Options.KeepDir asks to keep them.

// Working files of a disk run, in its working directory, beside the disk
// store's (store.OpenDisk).
const (
	workTraceLog = "trace.log"
	workLevelA   = "level.a"
	workLevelB   = "level.b"
)

// workDir is a run's working directory, locked while the run uses it.
type workDir struct {
	path string
	lock *filelock.Dir
}

// createWorkDir makes and locks a new working directory for spec under
// parent, creating parent if needed.
func createWorkDir(parent, spec string) (*workDir, error) {
	abs, err := filepath.Abs(parent)
	if err != nil {
		return nil, unusable("--dir %s: %v", parent, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, dirError("--dir", parent, err)
	}
	path, err := os.MkdirTemp(abs, "mc-"+spec+"-*")
	if err != nil {
		return nil, dirError("--dir", parent, err)
	}
	lock, err := lockDir(path)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return &workDir{path: path, lock: lock}, nil
}

// openWorkDir locks the existing working directory path, that of a
// checkpoint being resumed.
func openWorkDir(path string) (*workDir, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", path)
	}
	lock, err := lockDir(path)
	if err != nil {
		return nil, err
	}
	return &workDir{path: path, lock: lock}, nil
}

func (w *workDir) file(name string) string { return filepath.Join(w.path, name) }

// remove deletes the working files, unlocks the directory, then deletes
// it (a lock on windows is a file in it: filelock.LockDir). It deletes only the files a disk run writes: anything else found there is
// left, and with it the directory, and the error says so.
func (w *workDir) remove() error {
	var errs []error
	for _, name := range []string{workTraceLog, workLevelA, workLevelB} {
		if err := os.Remove(w.file(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	errs = append(errs, store.RemoveDisk(w.path))
	errs = append(errs, w.unlock(), os.Remove(w.path))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("removing the working directory %s: %w", w.path, err)
	}
	return nil
}

func (w *workDir) unlock() error {
	if w.lock == nil {
		return nil
	}
	err := w.lock.Close()
	w.lock = nil
	return err
}

// lockDir takes an exclusive lock on the directory path, held until it is
// closed, or refuses if another process holds it.
func lockDir(path string) (*filelock.Dir, error) {
	lock, err := filelock.LockDir(path)
	if errors.Is(err, filelock.ErrLocked) {
		return nil, unusable("%s is in use by another mc run", path)
	}
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return lock, nil
}

// lockCheckpointDir creates the checkpoint directory if needed and locks
// it, so that no two runs write checkpoints into one directory.
func lockCheckpointDir(dir string) (*filelock.Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, dirError("--checkpoint", dir, err)
	}
	lock, err := lockDir(dir)
	var u *UnusableDir
	if errors.As(err, &u) {
		return nil, unusable("--checkpoint %s: the directory is in use by another mc run", dir)
	}
	return lock, err
}

// UnusableDir is a directory mc was given that it cannot use: it cannot be
// created, it is a file, or another mc run holds it. It is the user's
// input that is wrong, not mc: the CLI exits 2.
type UnusableDir struct{ msg string }

func (e *UnusableDir) Error() string { return e.msg }

func unusable(format string, args ...any) error {
	return &UnusableDir{msg: fmt.Sprintf(format, args...)}
}

// dirError describes why the directory dir, given to flag, could not be
// created: a fault of the disk (diskio.Environmental) stays one; anything else is
// the user's.
func dirError(flag, dir string, err error) error {
	if diskio.Environmental(err) {
		return err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	why := err.Error()
	if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EEXIST) {
		why = "a file is in the way"
	}
	return unusable("%s %s: cannot create a directory there (%s)", flag, dir, strings.TrimSpace(why))
}

// finishWorkDir removes a disk run's working directory when the run ends,
// unless it is asked to keep it or a checkpoint still needs it: the run
// stopped early, or failed, after it saved or resumed from a checkpoint, or
// its resume was refused. A run cut at its depth bound has ended: a resume
// would cut it at the same level. res says which, and where. A run with a
// checkpoint finishes it only after the liveness phase, whose stop the
// checkpoint resumes too; the second call does nothing.
func (e *bfs[S]) finishWorkDir(res *Result) {
	if e.work == nil {
		return
	}
	res.WorkDir = e.work.path
	stoppedEarly := res.Err != nil || (res.Reason != "" && !res.DepthLimited)
	switch {
	case e.opt.KeepDir:
		res.WorkDirKept = "asked to keep it"
	case stoppedEarly && (e.saved != nil || e.opt.Resume):
		res.WorkDirKept = "the checkpoint in " + absPath(e.opt.Checkpoint) + " needs it to resume"
	default:
		if err := e.work.remove(); err != nil {
			res.WorkDirKept = err.Error()
		}
	}
	e.work.unlock()
	e.work = nil
}
