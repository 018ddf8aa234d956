package checker

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ringcheck/mc/internal/atomicfile"
)

// checkpointFile is the checkpoint's name in its directory (Options.Checkpoint).
const checkpointFile = "checkpoint"

// legacyCheckpointTemp is the fixed temporary name an earlier mc wrote
// its checkpoints through; a run killed meanwhile left it behind.
const legacyCheckpointTemp = checkpointFile + ".tmp"

// claimCheckpointDir readies the checkpoint directory dir, which this run
// holds locked, before any work. A new run (not resume) refuses a
// directory that already holds a checkpoint (another run's, or this one's
// stopped: replacing it would lose it) or a file of the user's named
// checkpoint: it once replaced either silently. Every run removes the
// temporary files a run killed while it wrote a checkpoint left there:
// atomicfile's, and the legacy name when the file starts as a checkpoint.
func claimCheckpointDir(dir string, resume bool) error {
	if !resume {
		if err := refuseOccupied(dir); err != nil {
			return err
		}
	}
	legacy := filepath.Join(dir, legacyCheckpointTemp)
	if st, err := os.Lstat(legacy); err == nil && st.Mode().IsRegular() && startsAsCheckpoint(legacy) {
		if err := os.Remove(legacy); err != nil {
			return err
		}
	}
	return atomicfile.RemoveStale(dir, checkpointFile)
}

// refuseOccupied refuses a checkpoint directory for a new run when
// something is at its checkpoint's name.
func refuseOccupied(dir string) error {
	path := filepath.Join(dir, checkpointFile)
	_, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case startsAsCheckpoint(path):
		return unusable("--checkpoint %s already holds a checkpoint: resume it with --resume %s, or give another directory", dir, dir)
	default:
		return unusable("--checkpoint %s holds a file named %s that is not an mc checkpoint: give another directory", dir, checkpointFile)
	}
}

// startsAsCheckpoint says whether the regular file at path starts with a
// checkpoint's magic line, of any format.
func startsAsCheckpoint(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|atomicfile.NoFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	head := make([]byte, len(checkpointPrefix))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == checkpointPrefix
}
