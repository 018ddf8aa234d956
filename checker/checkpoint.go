package checker

import (
	"bufio"
	"bytes"
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

	"mc/checker/internal/diskio"
	"mc/checker/internal/packed"
)

// A checkpoint is one file, <dir>/checkpoint, written at a level boundary:
// a magic line, a JSON header naming what was being checked, then binary
// sections (in disk mode the working directory; counters, property hits,
// the trace log's origins, or in disk mode the trace log's sum; the frontier, and every
// stored fingerprint in memory mode or the list of the disk store's runs,
// with their sums, in disk mode) and an xxhash of all of it. It is written
// to a temporary file, synced and renamed, so a run killed at any moment
// leaves the previous checkpoint or the new one, never a torn one. In disk
// mode the visited set and trace log stay in the working directory, synced
// before the checkpoint names them; resuming checks them against their
// sums, truncates the log and restores the runs the checkpoint lists,
// deleting any written later (checkpoint_disk.go, store_disk.go).

// checkpointMagic starts a checkpoint and names its format, which changes
// whenever the header or the sections do (format 2 lists the disk store's
// runs; format 3 names the working directory and sums the trace log and the
// runs; format 4 records the run's whole meaning and the build of mc,
// checkpoint_header.go).
const (
	checkpointPrefix = "mc checkpoint "
	checkpointFormat = "4"
	checkpointMagic  = checkpointPrefix + checkpointFormat + "\n"
)

// save writes the checkpoint for the frontier of level depth.
func (e *bfs[S]) save(depth int, res *Result) error {
	if e.opt.Exact {
		return errors.New("an --exact run stores full states, which checkpoints do not hold")
	}
	if err := os.MkdirAll(e.opt.Checkpoint, 0o755); err != nil {
		return err
	}
	if err := e.log.sync(); err != nil {
		return err
	}
	if e.disk != nil {
		if err := e.disk.sync(); err != nil {
			return err
		}
	}
	tmp := filepath.Join(e.opt.Checkpoint, "checkpoint.tmp")
	f, err := diskio.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	sum := xxhash.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)
	hdr, _ := json.Marshal(e.header())
	put := func(v uint64) { w.Write(binary.AppendUvarint(nil, v)) }
	w.WriteString(checkpointMagic)
	put(uint64(len(hdr)))
	w.Write(hdr)
	if e.disk != nil {
		e.saveWorkDir(w)
	}
	put(uint64(depth))
	put(uint64(res.Transitions))
	put(uint64(res.Terminal))
	put(uint64(e.resumedElapsed + time.Since(e.start)))
	put(uint64(len(e.hits)))
	for _, h := range e.hits {
		if h == nil {
			put(0)
			continue
		}
		put(1)
		put(uint64(h.id))
		put(h.fp)
		if h.extra == nil {
			put(0)
		} else {
			put(1)
			put(uint64(packed.Action(*h.extra)))
		}
	}
	put(uint64(len(e.peaks)))
	for _, pk := range e.peaks {
		if pk.at == nil {
			put(0)
			continue
		}
		put(1)
		w.Write(binary.AppendVarint(nil, int64(pk.value)))
		put(uint64(pk.at.id))
		put(pk.at.fp)
	}
	put(uint64(e.log.len()))
	if e.disk != nil {
		w.Write(binary.LittleEndian.AppendUint64(nil, e.log.checksum()))
	} else {
		for l := range e.log.all() {
			w.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, l.parent), l.action))
		}
	}
	put(uint64(e.frontier.first))
	put(uint64(e.frontier.len()))
	if err := e.frontier.each(func(enc []byte) error {
		put(uint64(len(enc)))
		_, err := w.Write(enc)
		return err
	}); err != nil {
		f.Close()
		return err
	}
	if m, ok := e.store.(*memStore); ok {
		put(uint64(m.Len()))
		for i := range m.shards {
			for _, k := range m.shards[i].keys {
				if k != 0 {
					w.Write(binary.LittleEndian.AppendUint64(nil, k))
				}
			}
		}
	}
	if e.disk != nil {
		e.saveManifest(w)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(binary.LittleEndian.AppendUint64(nil, sum.Sum64())); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(e.opt.Checkpoint, "checkpoint")); err != nil {
		return err
	}
	if err := diskio.SyncDir(e.opt.Checkpoint); err != nil {
		return err
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(e.log.len()), At: time.Now()}
	if e.disk != nil {
		return e.disk.forgetRetired()
	}
	return nil
}

// absPath is path made absolute, or path itself if that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// resume restores the run saved in opt.Checkpoint and returns the level
// whose frontier it holds.
func (e *bfs[S]) resume(res *Result) (int, error) {
	path := filepath.Join(e.opt.Checkpoint, "checkpoint")
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, refuse("resume: %v", err)
	}
	bad := func(why string) error { return refuse("resume: %s is not a valid checkpoint (%s)", path, why) }
	if err := checkMagic(bufio.NewReader(bytes.NewReader(data)), path); err != nil {
		return 0, err
	}
	if len(data) < len(checkpointMagic)+8 {
		return 0, bad("no checkpoint header")
	}
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(data)-8:]) {
		return 0, bad("checksum mismatch: the file is corrupted")
	}
	r := diskio.NewSection(body[len(checkpointMagic):])
	var hdr CheckpointHeader
	if err := json.Unmarshal(r.Bytes(int(r.Uint())), &hdr); err != nil || r.Err() != nil {
		return 0, bad("unreadable header")
	}
	if why := e.mismatches(hdr); len(why) > 0 {
		return 0, &ResumeRefused{msg: fmt.Sprintf("resume: the checkpoint in %s cannot be resumed by this run", e.opt.Checkpoint), Reasons: why}
	}
	if e.opt.Disk != "" {
		if err := e.resumeWorkDir(r, path); err != nil {
			return 0, err
		}
	}
	depth := int(r.Uint())
	res.Transitions, res.Terminal = int64(r.Uint()), int64(r.Uint())
	e.resumedElapsed = time.Duration(r.Uint())
	if int(r.Uint()) != len(e.hits) {
		return 0, bad("property count differs")
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
		return 0, bad("measure count differs")
	}
	for i := range e.peaks {
		if r.Uint() == 0 {
			continue
		}
		v := r.Int()
		e.peaks[i] = peak{value: int(v), at: &hit{id: uint32(r.Uint()), fp: r.Uint()}}
	}
	states := int(r.Uint())
	if e.opt.Disk != "" {
		if err := e.resumeTraceLog(r, states, path); err != nil {
			return 0, err
		}
	} else {
		for i := 0; i < states && r.Err() == nil; i++ {
			b := r.Bytes(8)
			if r.Err() == nil {
				e.log.add(origin{parent: binary.LittleEndian.Uint32(b), action: binary.LittleEndian.Uint32(b[4:])}) // in memory: no error
			}
		}
	}
	if err := e.frontier.reset(uint32(r.Uint())); err != nil {
		return 0, err
	}
	for n := int(r.Uint()); n > 0 && r.Err() == nil; n-- {
		if err := e.frontier.add(r.Bytes(int(r.Uint()))); err != nil {
			return 0, err
		}
	}
	if st, ok := e.store.(*memStore); ok {
		for n := int(r.Uint()); n > 0 && r.Err() == nil; n-- {
			b := r.Bytes(8)
			if r.Err() == nil {
				fp := binary.LittleEndian.Uint64(b)
				st.shards[shardOf(fp)].insert(fp)
			}
		}
		if r.Err() == nil && st.Len() != int64(states) {
			return 0, bad("visited set and trace log disagree")
		}
	}
	if e.disk != nil {
		if err := e.resumeManifest(r, states, path); err != nil {
			return 0, err
		}
	}
	if r.Err() != nil || r.Len() != 0 {
		return 0, bad("truncated or overlong sections")
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(states), At: time.Now()}
	return depth, nil
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
