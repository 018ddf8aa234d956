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
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/termination"
	"github.com/ringcheck/mc/internal/atomicfile"
)

// A checkpoint is one file, <dir>/checkpoint, written at a level boundary:
// a magic line, a JSON header naming what was being checked, then binary
// sections, each written and read back by its owner: in disk mode the
// working directory (checkpoint_workdir.go); the search's counters and
// property hits; the trace log's (tracelog.go: its origins, or in disk mode
// the sum of its file); the frontier; the store's (store.Store.Checkpoint:
// every stored fingerprint in memory, the list of the runs with their sums
// on disk); and an xxhash of all of it. It is written to a temporary file,
// synced and renamed (package atomicfile), so a run killed at any moment
// leaves the previous checkpoint or the new one, never a torn one. In disk
// mode the visited set and trace log stay in the working directory, synced
// before the checkpoint names them; resuming checks them against their
// sums, truncates the log and restores the runs the checkpoint lists,
// deleting any written later.

// checkpointMagic starts a checkpoint and names its format, which changes
// whenever the header or the sections do (format 2 lists the disk store's
// runs; format 3 names the working directory and sums the trace log and the
// runs; format 4 records the run's whole meaning and the build of mc,
// checkpoint_header.go; format 5 holds the marks of a termination measure,
// termination/checkpoint.go; format 6 the depth bound in the meaning and, for a
// run with coverage, its counts, coverage.go; format 7 holds the marks by
// state index after the trace log, and the indices of an indexed visited
// set in memory; format 8 the marks by state index with the disk store too,
// whose runs then keep each state's index, termination/disk.go; format 9 the
// marks of the visited set in memory beside each fingerprint in the
// store's section, termination/slots.go; format 10 no marks, only the goals
// that terminal states leave unmet: the marks phase takes no checkpoint,
// termination/checkpoint.go; format 11 the deadlock property's hit after the
// spec's properties', and --no-deadlock in the meaning; format 12 the
// situations seen, a bit per property, vacuity.go, and --fail-vacuous in
// the meaning).
const (
	checkpointPrefix = "mc checkpoint "
	checkpointFormat = "12"
	checkpointMagic  = checkpointPrefix + checkpointFormat + "\n"
)

// save writes the checkpoint for the frontier of level depth, then lets
// the store release what only the previous checkpoint needed.
func (e *bfs[S]) save(depth int, res *Result) error {
	if err := os.MkdirAll(e.opt.Checkpoint, 0o755); err != nil {
		return err
	}
	if err := e.log.sync(); err != nil {
		return err
	}
	err := atomicfile.Write(filepath.Join(e.opt.Checkpoint, checkpointFile), func(f io.Writer) error {
		sum := xxhash.New()
		w := diskio.NewSectionWriter(io.MultiWriter(f, sum), 1<<20)
		if err := e.writeSections(w, depth, res); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		_, err := f.Write(binary.LittleEndian.AppendUint64(nil, sum.Sum64()))
		return err
	})
	if err != nil {
		return err
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(e.log.len()), At: time.Now()}
	return e.store.Committed()
}

// writeSections writes the checkpoint's magic line, header and sections.
func (e *bfs[S]) writeSections(w *diskio.SectionWriter, depth int, res *Result) error {
	hdr, _ := json.Marshal(e.header())
	w.Raw([]byte(checkpointMagic))
	w.String(string(hdr))
	if e.work != nil {
		w.String(e.work.path)
	}
	w.Uint(uint64(depth))
	w.Uint(uint64(res.Transitions))
	w.Uint(uint64(res.Terminal))
	w.Uint(uint64(e.resumedElapsed + time.Since(e.start)))
	e.writeFindings(w)
	e.writeSeen(w)
	e.writeCoverage(w)
	e.log.checkpoint(w)
	e.measure.WriteSection(w)
	w.Uint(uint64(e.frontier.first))
	w.Uint(uint64(e.frontier.len()))
	if err := e.frontier.each(func(enc []byte) error {
		w.Uint(uint64(len(enc)))
		w.Raw(enc)
		return nil
	}); err != nil {
		return err
	}
	return e.store.Checkpoint(w)
}

// writeFindings writes the property hits and the measures' peaks.
func (e *bfs[S]) writeFindings(w *diskio.SectionWriter) {
	w.Uint(uint64(len(e.hits)))
	for _, h := range e.hits {
		if h == nil {
			w.Uint(0)
			continue
		}
		w.Uint(1)
		w.Uint(uint64(h.id))
		w.Uint(h.fp)
		if h.extra == nil {
			w.Uint(0)
		} else {
			w.Uint(1)
			w.Uint(uint64(packed.Action(*h.extra)))
		}
	}
	w.Uint(uint64(len(e.peaks)))
	for _, pk := range e.peaks {
		if pk.at == nil {
			w.Uint(0)
			continue
		}
		w.Uint(1)
		w.Int(int64(pk.value))
		w.Uint(uint64(pk.at.id))
		w.Uint(pk.at.fp)
	}
}

// absPath is path made absolute, or path itself if that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// resume restores the run saved in opt.Checkpoint, each section by its
// owner, and returns the level whose frontier it holds.
func (e *bfs[S]) resume(res *Result) (int, error) {
	path := filepath.Join(e.opt.Checkpoint, checkpointFile)
	r, f, hdr, err := e.openCheckpoint(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if e.opt.Disk != "" {
		if err := e.resumeWorkDir(r, path); err != nil {
			return 0, err
		}
	}
	depth := int(r.Uint())
	res.Transitions, res.Terminal = int64(r.Uint()), int64(r.Uint())
	e.resumedElapsed = time.Duration(r.Uint())
	if err := e.readFindings(r, path); err != nil {
		return 0, err
	}
	if err := e.readSeen(r, path); err != nil {
		return 0, err
	}
	if err := e.readCoverage(r, path, hdr.Coverage); err != nil {
		return 0, err
	}
	states, err := e.log.recover(r)
	if err != nil {
		return 0, resumeError(path, err)
	}
	if err := e.measure.ReadSection(r); err != nil {
		var bad *termination.SectionError
		if errors.As(err, &bad) {
			return 0, notValid(path, bad.Why)
		}
		return 0, err
	}
	if err := e.readFrontier(r); err != nil {
		return 0, err
	}
	if err := e.store.Recover(r, int64(states)); err != nil {
		return 0, resumeError(path, err)
	}
	if r.Err() != nil || r.Len() != 0 {
		return 0, notValid(path, "truncated or overlong sections")
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(states), At: time.Now()}
	return depth, nil
}

// openCheckpoint opens the checkpoint at path, checks its sum, its magic
// line and its header against this run, and returns its sections after the
// header, streamed from the file, which the caller closes once it has read
// them, and the header. The sum is checked first, in a pass of its own, so
// that no section is restored from a corrupted file; the sections are then
// read as they are restored, and the file is never held whole in memory.
func (e *bfs[S]) openCheckpoint(path string) (*diskio.Section, *os.File, CheckpointHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, CheckpointHeader{}, refuse("resume: %v", err)
	}
	r, hdr, err := e.readCheckpointHeader(f, path)
	if err != nil {
		f.Close()
		return nil, nil, CheckpointHeader{}, err
	}
	return r, f, hdr, nil
}

// readCheckpointHeader is openCheckpoint once the file f is open.
func (e *bfs[S]) readCheckpointHeader(f *os.File, path string) (*diskio.Section, CheckpointHeader, error) {
	if err := verifyChecksum(f, path); err != nil {
		return nil, CheckpointHeader{}, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, CheckpointHeader{}, refuse("resume: %v", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, CheckpointHeader{}, refuse("resume: %v", err)
	}
	br := bufio.NewReader(f)
	if err := checkMagic(br, path); err != nil {
		return nil, CheckpointHeader{}, err
	}
	r := diskio.NewSectionReader(br, st.Size()-8-int64(len(checkpointMagic)))
	var hdr CheckpointHeader
	if err := json.Unmarshal(r.Bytes(int(min(r.Uint(), uint64(r.Len())))), &hdr); err != nil || r.Err() != nil {
		return nil, CheckpointHeader{}, notValid(path, "unreadable header")
	}
	if why := e.mismatches(hdr); len(why) > 0 {
		return nil, CheckpointHeader{}, &ResumeRefused{msg: fmt.Sprintf("resume: the checkpoint in %s cannot be resumed by this run", e.opt.Checkpoint), Reasons: why}
	}
	return r, hdr, nil
}

// readFindings reads what writeFindings wrote.
func (e *bfs[S]) readFindings(r *diskio.Section, path string) error {
	if int(r.Uint()) != len(e.hits) {
		return notValid(path, "property count differs")
	}
	for i := range e.hits {
		if r.Uint() == 0 {
			continue
		}
		h := &hit{id: uint32(r.Uint()), fp: r.Uint()}
		if r.Uint() == 1 {
			a := packed.Unpack(uint32(r.Uint()))
			h.extra = &a
		}
		e.hits[i] = h
	}
	if int(r.Uint()) != len(e.peaks) {
		return notValid(path, "measure count differs")
	}
	for i := range e.peaks {
		if r.Uint() == 0 {
			continue
		}
		v := r.Int()
		e.peaks[i] = peak{value: int(v), at: &hit{id: uint32(r.Uint()), fp: r.Uint()}}
	}
	return nil
}

// readFrontier reads the frontier's section into the frontier.
func (e *bfs[S]) readFrontier(r *diskio.Section) error {
	if err := e.frontier.reset(uint32(r.Uint())); err != nil {
		return err
	}
	for n := int(r.Uint()); n > 0 && r.Err() == nil; n-- {
		// The bytes last until the next read: a packed level packs
		// them before (level.add).
		if err := e.frontier.add(r.Bytes(int(r.Uint()))); err != nil {
			return err
		}
		e.frontier.flush(1)
	}
	return nil
}

// resumeError turns what a section's owner found wrong in its section or
// its files into the resume's error: a section not as written, or a file
// that is missing, short or corrupted, refuses the resume; a fault of the
// disk in reading a file stays one.
func resumeError(path string, err error) error {
	var bad *diskio.BadSection
	switch {
	case errors.As(err, &bad):
		return notValid(path, bad.Why)
	case diskio.ReadFault(err):
		return err
	}
	return refuse("resume: %v", err)
}

// ResumeRefused is a checkpoint that cannot be resumed: missing, corrupt, or
// made by another run (its meaning or store) or another build (of mc, or of
// the spec). It is the user's input that is wrong, not mc: the CLI exits 2.
type ResumeRefused struct {
	msg string
	// Reasons lists each difference from the run that made the
	// checkpoint, one line each; empty when the file itself is at fault.
	Reasons []string
}

func (e *ResumeRefused) Error() string {
	if len(e.Reasons) == 0 {
		return e.msg
	}
	return e.msg + ": " + strings.Join(e.Reasons, "; ")
}

func refuse(format string, args ...any) error {
	return &ResumeRefused{msg: fmt.Sprintf(format, args...)}
}
