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

	"mc/checker/internal/diskio"
	"mc/runinfo"
)

// The disk sections of a checkpoint (format 3): right after the header, the
// working directory's absolute path; after the count of origins, the
// sum of the trace log's entries; last, the manifest: the runs of the
// visited set, each with its size and sum. A resume checks each file
// against what the checkpoint recorded and refuses, naming the file, any
// that is missing, short or not the bytes written.

// saveWorkDir writes the working directory's section.
func (e *bfs[S]) saveWorkDir(w *bufio.Writer) {
	w.Write(binary.AppendUvarint(nil, uint64(len(e.work.path))))
	w.WriteString(e.work.path)
}

// saveManifest writes the runs of the visited set.
func (e *bfs[S]) saveManifest(w *bufio.Writer) {
	runs := e.disk.manifest()
	w.Write(binary.AppendUvarint(nil, uint64(len(runs))))
	for _, r := range runs {
		w.Write(binary.AppendUvarint(nil, uint64(len(r.name))))
		w.WriteString(r.name)
		w.Write(binary.AppendUvarint(nil, uint64(r.n)))
		w.Write(binary.LittleEndian.AppendUint64(nil, r.sum))
	}
}

// resumeWorkDir reads the working directory's section of the checkpoint at
// path, checks that it lies in Options.Disk, locks it and opens the files
// of the disk store there.
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
	if err := e.openDisk(); err != nil {
		return err
	}
	return nil
}

// resumeTraceLog reads the trace log's sum and opens the log, checking its
// first n entries against it.
func (e *bfs[S]) resumeTraceLog(r *diskio.Section, n int, path string) error {
	sum := r.Bytes(8)
	if r.Err() != nil {
		return notValid(path, "truncated or overlong sections")
	}
	log, err := openTraceLog(e.work.file(workTraceLog), n, binary.LittleEndian.Uint64(sum))
	if err != nil {
		return resumeFileError(err)
	}
	e.log = log
	return nil
}

// resumeManifest reads the runs of the visited set and restores the store
// to them, checking each run's size, order and sum.
func (e *bfs[S]) resumeManifest(r *diskio.Section, states int, path string) error {
	runs := make([]runEntry, min(r.Uint(), uint64(r.Len())))
	for i := range runs {
		name := r.String()
		n := int64(r.Uint())
		sum := r.Bytes(8)
		if r.Err() == nil {
			runs[i] = runEntry{name: name, n: n, sum: binary.LittleEndian.Uint64(sum)}
		}
	}
	if r.Err() != nil {
		return notValid(path, "truncated or overlong sections")
	}
	if err := e.disk.restore(runs); err != nil {
		if diskio.ReadFault(err) {
			return err
		}
		return refuse("resume: the visited set in %s is not the one the checkpoint was made with: %v", e.disk.dir, err)
	}
	if e.disk.Len() != int64(states) {
		return notValid(path, fmt.Sprintf("the disk store holds %d states, the checkpoint %d", e.disk.Len(), states))
	}
	return nil
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
	path := filepath.Join(dir, "checkpoint")
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
