package checker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/runinfo"
)

// A disk run's checkpoint names, right after its header, the run's working
// directory, where the trace log and the disk store keep their files; their
// own sections (tracelog.go, store.Store) record the files' sums, and a
// resume checks each file against them and refuses, naming the file, any
// that is missing, short or not the bytes written.

// resumeWorkDir reads the working directory's section of the checkpoint at
// path, checks that it lies in Options.Disk, locks it, opens the disk
// store and the levels there and points the trace log at its file, which
// the log's own section checks.
func (e *bfs[S]) resumeWorkDir(r *diskio.Section, path string) error {
	dir := r.String()
	if r.Err() != nil {
		return notValid(path, "truncated or overlong sections")
	}
	if !filepath.IsAbs(dir) || !strings.HasPrefix(filepath.Base(dir), "mc-"+e.sys.Spec+"-") {
		return notValid(path, fmt.Sprintf("%q is not a working directory mc makes", dir))
	}
	if !sameDir(e.opt.Disk, filepath.Dir(dir)) {
		return refuse("resume: the checkpoint in %s keeps its working files in %s, which is not in --dir %s (leave --dir out, or give %s)", e.opt.Checkpoint, dir, e.opt.Disk, filepath.Dir(dir))
	}
	w, err := openWorkDir(dir)
	var u *UnusableDir
	switch {
	case errors.As(err, &u):
		return unusable("resume: the working directory %s of the checkpoint in %s is in use by another mc run", dir, e.opt.Checkpoint)
	case errors.Is(err, os.ErrNotExist):
		return refuse("resume: the working directory %s of the checkpoint in %s is gone (a run removes it when it ends, unless it stopped early or --keep-dir was given)", dir, e.opt.Checkpoint)
	case err != nil:
		return resumeFileError(err)
	}
	e.work = w
	e.log = reopenTraceLog(w.file(workTraceLog))
	return e.openDisk()
}

// resumeFileError refuses a resume for a file of the working directory
// that is missing, short or corrupted; a fault of the disk in reading it
// stays one.
func resumeFileError(err error) error {
	if diskio.ReadFault(err) {
		return err
	}
	return refuse("resume: %v", err)
}

func notValid(path, why string) error {
	return refuse("resume: %s is not a valid checkpoint (%s)", path, why)
}

// sameDir says whether a and b name one existing directory.
func sameDir(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// CheckpointWorkDir is the working directory that the checkpoint in dir
// keeps its disk store in, or "" for a checkpoint of a run in memory. It
// reads no further than the section that names it; a resume checks the
// whole file.
func CheckpointWorkDir(dir string) (string, error) {
	path := filepath.Join(dir, checkpointFile)
	f, err := os.Open(path)
	if err != nil {
		return "", refuse("resume: %v", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic := make([]byte, len(checkpointMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != checkpointMagic {
		return "", notValid(path, "no checkpoint header")
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<20 {
		return "", notValid(path, "unreadable header")
	}
	raw := make([]byte, n)
	var hdr CheckpointHeader
	if _, err := io.ReadFull(br, raw); err != nil || json.Unmarshal(raw, &hdr) != nil {
		return "", notValid(path, "unreadable header")
	}
	if hdr.Store != runinfo.DiskStore {
		return "", nil
	}
	n, err = binary.ReadUvarint(br)
	if err != nil || n > 1<<16 {
		return "", notValid(path, "unreadable working directory")
	}
	work := make([]byte, n)
	if _, err := io.ReadFull(br, work); err != nil {
		return "", notValid(path, "unreadable working directory")
	}
	return string(work), nil
}
