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
	"time"

	"github.com/cespare/xxhash/v2"

	"mc/model"
)

// A checkpoint is one file, <dir>/checkpoint, written at a level boundary:
// a magic line, a JSON header naming what was being checked, then binary
// sections (in disk mode the working directory; counters, property hits,
// trace links, or in disk mode the trace log's sum; the frontier, and every
// stored fingerprint in memory mode or the list of the disk store's runs,
// with their sums, in disk mode) and an xxhash of all of it. It is written
// to a temporary file, synced and renamed, so a run killed at any moment
// leaves the previous checkpoint or the new one, never a torn one. In disk
// mode the visited set and trace log stay in the working directory, synced
// before the checkpoint names them; resuming checks them against their
// sums, truncates the log and restores the runs the checkpoint lists,
// deleting any written later (checkpoint_disk.go, store_disk.go).

// checkpointMagic starts a checkpoint and names its format, which changes
// whenever the sections do (format 2 lists the disk store's runs; format 3
// names the working directory and sums the trace log and the runs).
const (
	checkpointPrefix = "mc checkpoint "
	checkpointFormat = "3"
	checkpointMagic  = checkpointPrefix + checkpointFormat + "\n"
)

// checkpointHeader identifies a run; a resume must match it exactly.
type checkpointHeader struct {
	MC          string       `json:"mc"`
	Fingerprint string       `json:"fingerprint"`
	Spec        string       `json:"spec"`
	Variant     string       `json:"variant"`
	Params      model.Params `json:"params"`
	Store       string       `json:"store"`
}

func (e *explorer[S]) header() checkpointHeader {
	h := checkpointHeader{MC: Version, Fingerprint: FingerprintFunc, Spec: e.sys.Spec, Variant: e.sys.Variant, Params: e.sys.Params, Store: "memory"}
	if e.opt.Disk != "" {
		h.Store = "disk"
	}
	return h
}

// save writes the checkpoint for the frontier of level depth.
func (e *explorer[S]) save(depth int, res *Result) error {
	if e.opt.Exact {
		return errors.New("an --exact run stores full states, which checkpoints do not hold")
	}
	if err := os.MkdirAll(e.opt.Checkpoint, 0o755); err != nil {
		return err
	}
	if err := e.links.sync(); err != nil {
		return err
	}
	if e.disk != nil {
		if err := e.disk.sync(); err != nil {
			return err
		}
	}
	tmp := filepath.Join(e.opt.Checkpoint, "checkpoint.tmp")
	f, err := createFile(tmp)
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
			put(uint64(pack(*h.extra)))
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
	put(uint64(e.links.len()))
	if e.disk != nil {
		w.Write(binary.LittleEndian.AppendUint64(nil, e.links.checksum()))
	} else {
		for l := range e.links.all() {
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
	if err := syncDir(e.opt.Checkpoint); err != nil {
		return err
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(e.links.len()), At: time.Now()}
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
func (e *explorer[S]) resume(res *Result) (int, error) {
	path := filepath.Join(e.opt.Checkpoint, "checkpoint")
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, refuse("resume: %v", err)
	}
	bad := func(why string) error { return refuse("resume: %s is not a valid checkpoint (%s)", path, why) }
	if len(data) < len(checkpointMagic)+8 || !bytes.HasPrefix(data, []byte(checkpointMagic)) {
		if rest, ok := bytes.CutPrefix(data, []byte(checkpointPrefix)); ok {
			if format, _, ok := bytes.Cut(rest, []byte("\n")); ok && len(format) < 10 && string(format) != checkpointFormat {
				return 0, refuse("resume: %s is in checkpoint format %q, written by another version of mc; this one reads format %q", path, format, checkpointFormat)
			}
		}
		return 0, bad("no checkpoint header")
	}
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(data)-8:]) {
		return 0, bad("checksum mismatch: the file is corrupted")
	}
	r := &reader{b: body[len(checkpointMagic):]}
	var hdr checkpointHeader
	if err := json.Unmarshal(r.bytes(int(r.uint())), &hdr); err != nil || r.err != nil {
		return 0, bad("unreadable header")
	}
	if want := e.header(); !sameHeader(hdr, want) {
		got, _ := json.Marshal(hdr)
		exp, _ := json.Marshal(want)
		return 0, refuse("resume: the checkpoint in %s is of another run and cannot be resumed by this one: it has %s, this run is %s", e.opt.Checkpoint, got, exp)
	}
	if e.opt.Disk != "" {
		if err := e.resumeWorkDir(r, path); err != nil {
			return 0, err
		}
	}
	depth := int(r.uint())
	res.Transitions, res.Terminal = int64(r.uint()), int64(r.uint())
	e.resumedElapsed = time.Duration(r.uint())
	if int(r.uint()) != len(e.hits) {
		return 0, bad("property count differs")
	}
	for i := range e.hits {
		if r.uint() == 0 {
			continue
		}
		h := &hit{id: uint32(r.uint()), fp: r.uint()}
		if r.uint() == 1 {
			a := unpack(uint32(r.uint()))
			h.extra = &a
		}
		e.hits[i] = h
	}
	if int(r.uint()) != len(e.peaks) {
		return 0, bad("measure count differs")
	}
	for i := range e.peaks {
		if r.uint() == 0 {
			continue
		}
		v := r.int()
		e.peaks[i] = peak{value: int(v), at: &hit{id: uint32(r.uint()), fp: r.uint()}}
	}
	nlinks := int(r.uint())
	if e.opt.Disk != "" {
		if err := e.resumeTraceLog(r, nlinks, path); err != nil {
			return 0, err
		}
	} else {
		for i := 0; i < nlinks && r.err == nil; i++ {
			b := r.bytes(8)
			if r.err == nil {
				e.links.add(link{parent: binary.LittleEndian.Uint32(b), action: binary.LittleEndian.Uint32(b[4:])}) // in memory: no error
			}
		}
	}
	if err := e.frontier.reset(uint32(r.uint())); err != nil {
		return 0, err
	}
	for n := int(r.uint()); n > 0 && r.err == nil; n-- {
		if err := e.frontier.add(r.bytes(int(r.uint()))); err != nil {
			return 0, err
		}
	}
	if st, ok := e.store.(*memStore); ok {
		for n := int(r.uint()); n > 0 && r.err == nil; n-- {
			b := r.bytes(8)
			if r.err == nil {
				fp := binary.LittleEndian.Uint64(b)
				st.shards[shardOf(fp)].insert(fp)
			}
		}
		if r.err == nil && st.Len() != int64(nlinks) {
			return 0, bad("visited set and trace log disagree")
		}
	}
	if e.disk != nil {
		if err := e.resumeManifest(r, nlinks, path); err != nil {
			return 0, err
		}
	}
	if r.err != nil || len(r.b) != 0 {
		return 0, bad("truncated or overlong sections")
	}
	e.saved = &SavedCheckpoint{Dir: absPath(e.opt.Checkpoint), Depth: depth, States: int64(nlinks), At: time.Now()}
	return depth, nil
}

func sameHeader(a, b checkpointHeader) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// reader reads a checkpoint's sections; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// ResumeRefused is a checkpoint that cannot be resumed: missing, corrupt, or
// made by another run (spec, parameters, store, mc version or fingerprint
// function). It is the user's input that is wrong, not mc: the CLI exits 2.
type ResumeRefused struct{ msg string }

func (e *ResumeRefused) Error() string { return e.msg }

func refuse(format string, args ...any) error {
	return &ResumeRefused{msg: fmt.Sprintf(format, args...)}
}

// CheckpointRun reads which spec, variant and parameters the checkpoint in
// dir was made for, so that a resume can rebuild the same system.
func CheckpointRun(dir string) (spec string, params model.Params, err error) {
	path := filepath.Join(dir, "checkpoint")
	f, err := os.Open(path)
	if err != nil {
		return "", params, refuse("resume: %v", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic := make([]byte, len(checkpointMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != checkpointMagic {
		return "", params, refuse("resume: %s is not a valid checkpoint (no checkpoint header)", path)
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<20 {
		return "", params, refuse("resume: %s is not a valid checkpoint (unreadable header)", path)
	}
	raw := make([]byte, n)
	var hdr checkpointHeader
	if _, err := io.ReadFull(br, raw); err != nil || json.Unmarshal(raw, &hdr) != nil {
		return "", params, refuse("resume: %s is not a valid checkpoint (unreadable header)", path)
	}
	hdr.Params.Variant = hdr.Variant
	return hdr.Spec, hdr.Params, nil
}
