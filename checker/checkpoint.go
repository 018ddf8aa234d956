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

	"mc/runinfo"
)

// A checkpoint is one file, <dir>/checkpoint, written at a level boundary:
// a magic line, a JSON header naming what was being checked, then binary
// sections (counters, property hits, trace links, the frontier, and every
// stored fingerprint in memory mode or the list of the disk store's runs in
// disk mode) and an xxhash of all of it. It is written to a temporary file,
// synced and renamed, so a run killed at any moment leaves the previous
// checkpoint or the new one, never a torn one. In disk mode the visited set
// and trace log stay in the disk directory, synced before the checkpoint
// names them; resuming truncates the log and restores the runs the
// checkpoint lists, deleting any written later (store_disk.go).

// checkpointMagic starts a checkpoint and names its format, which changes
// whenever the header or the sections do (format 2 lists the disk store's
// runs; format 3 records the run's whole meaning and the build of mc).
const (
	checkpointPrefix = "mc checkpoint "
	checkpointFormat = "3"
	checkpointMagic  = checkpointPrefix + checkpointFormat + "\n"
)

// CheckpointFormat is the checkpoint format this mc writes and reads.
const CheckpointFormat = checkpointFormat

// CheckpointHeader is what a checkpoint says about the run it saved; a
// resume must match it exactly.
type CheckpointHeader struct {
	// Build is the mc that wrote it.
	Build       runinfo.Build `json:"build"`
	Fingerprint string        `json:"fingerprint"`
	// SpecHash is the run's Options.SpecHash.
	SpecHash string          `json:"spec_hash"`
	Run      runinfo.Meaning `json:"run"`
	Store    runinfo.Store   `json:"store"`
}

func (e *explorer[S]) header() CheckpointHeader {
	return CheckpointHeader{Build: runinfo.ThisBuild(), Fingerprint: FingerprintFunc, SpecHash: e.opt.SpecHash,
		Run: meaning(e.sys.Spec, e.sys.Variant, e.sys.Params, e.opt), Store: storeOf(e.opt)}
}

// BuildMismatches says, one line each, why a checkpoint with header h
// cannot be resumed by build with a spec whose hash is specHash: another
// build of mc, another fingerprint function, or a spec whose code changed.
// It is empty when neither differs.
func BuildMismatches(h CheckpointHeader, build runinfo.Build, specHash string) []string {
	var out []string
	if !h.Build.Same(build) {
		why := fmt.Sprintf("the checkpoint was written by mc %s, this is mc %s", h.Build, build)
		if h.Build.Version == build.Version && build.Development() {
			why += ": a development build resumes only the checkpoints it wrote itself"
		}
		out = append(out, why)
	}
	if h.Fingerprint != FingerprintFunc {
		out = append(out, fmt.Sprintf("the checkpoint's fingerprints were made by %s, this mc's by %s", h.Fingerprint, FingerprintFunc))
	}
	if h.SpecHash != specHash {
		out = append(out, fmt.Sprintf("spec %s changed since the checkpoint (its sources hash to %.12s now, %.12s then)", h.Run.Spec, specHash, h.SpecHash))
	}
	return out
}

// mismatches says, one line each, why this run cannot resume a checkpoint
// with header h.
func (e *explorer[S]) mismatches(h CheckpointHeader) []string {
	this := e.header()
	out := BuildMismatches(h, this.Build, this.SpecHash)
	for _, d := range runinfo.Differences(h.Run, this.Run) {
		out = append(out, d.Phrase("the checkpoint", "this run"))
	}
	for _, d := range runinfo.StoreDifferences(h.Store, this.Store) {
		out = append(out, d.Phrase("the checkpoint", "this run"))
	}
	return out
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
	f, err := os.Create(tmp)
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
	if e.opt.Disk == "" {
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
		runs := e.disk.manifest()
		put(uint64(len(runs)))
		for _, r := range runs {
			put(uint64(len(r.name)))
			w.WriteString(r.name)
			put(uint64(r.n))
		}
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
	if e.disk != nil {
		return e.disk.forgetRetired()
	}
	return nil
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
	r := &reader{b: body[len(checkpointMagic):]}
	var hdr CheckpointHeader
	if err := json.Unmarshal(r.bytes(int(r.uint())), &hdr); err != nil || r.err != nil {
		return 0, bad("unreadable header")
	}
	if why := e.mismatches(hdr); len(why) > 0 {
		return 0, &ResumeRefused{msg: fmt.Sprintf("resume: the checkpoint in %s cannot be resumed by this run", e.opt.Checkpoint), Reasons: why}
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
		if e.links, err = openTraceLog(filepath.Join(e.opt.Disk, "trace.log"), nlinks); err != nil {
			return 0, err
		}
	} else {
		for i := 0; i < nlinks && r.err == nil; i++ {
			b := r.bytes(8)
			if r.err == nil {
				e.links.add(link{parent: binary.LittleEndian.Uint32(b), action: binary.LittleEndian.Uint32(b[4:])})
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
	if st := e.disk; st != nil {
		runs := make([]runEntry, min(r.uint(), uint64(len(r.b))))
		for i := range runs {
			runs[i] = runEntry{name: string(r.bytes(int(min(r.uint(), uint64(len(r.b)))))), n: int64(r.uint())}
		}
		if r.err != nil {
			return 0, bad("truncated or overlong sections")
		}
		if err := st.restore(runs); err != nil {
			return 0, refuse("resume: the disk store in %s is not the one the checkpoint was made with: %v", e.opt.Disk, err)
		}
		if st.Len() != int64(nlinks) {
			return 0, bad(fmt.Sprintf("the disk store holds %d states, the checkpoint %d", st.Len(), nlinks))
		}
	}
	if r.err != nil || len(r.b) != 0 {
		return 0, bad("truncated or overlong sections")
	}
	return depth, nil
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

// ReadCheckpoint reads the header of the checkpoint in dir: which run it
// saved and which build wrote it, so that a resume can rebuild the run and
// say what it cannot honour before it starts. The whole file's checksum is
// verified first (streaming, in constant memory): a corrupted header must
// not name a run.
func ReadCheckpoint(dir string) (CheckpointHeader, error) {
	var hdr CheckpointHeader
	path := filepath.Join(dir, "checkpoint")
	f, err := os.Open(path)
	if err != nil {
		return hdr, refuse("resume: %v", err)
	}
	defer f.Close()
	if err := verifyChecksum(f, path); err != nil {
		return hdr, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return hdr, refuse("resume: %v", err)
	}
	br := bufio.NewReader(f)
	if err := checkMagic(br, path); err != nil {
		return hdr, err
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<20 {
		return hdr, refuse("resume: %s is not a valid checkpoint (unreadable header)", path)
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(br, raw); err != nil || json.Unmarshal(raw, &hdr) != nil {
		return hdr, refuse("resume: %s is not a valid checkpoint (unreadable header)", path)
	}
	return hdr, nil
}

// verifyChecksum checks the xxhash that ends the checkpoint f against
// everything before it.
func verifyChecksum(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return refuse("resume: %v", err)
	}
	if st.Size() < int64(len(checkpointMagic))+8 {
		if err := checkMagic(bufio.NewReader(f), path); err != nil {
			return err
		}
		return refuse("resume: %s is not a valid checkpoint (no checkpoint header)", path)
	}
	sum := xxhash.New()
	if _, err := io.Copy(sum, io.LimitReader(f, st.Size()-8)); err != nil {
		return refuse("resume: %v", err)
	}
	var want [8]byte
	if _, err := io.ReadFull(f, want[:]); err != nil {
		return refuse("resume: %v", err)
	}
	if sum.Sum64() != binary.LittleEndian.Uint64(want[:]) {
		if _, err := f.Seek(0, io.SeekStart); err == nil {
			if err := checkMagic(bufio.NewReader(f), path); err != nil {
				return err
			}
		}
		return refuse("resume: %s is not a valid checkpoint (checksum mismatch: the file is corrupted)", path)
	}
	return nil
}

// checkMagic reads a checkpoint's first line and refuses a file that is
// not a checkpoint, or one in another format, naming both formats.
func checkMagic(br *bufio.Reader, path string) error {
	line, err := br.ReadSlice('\n')
	if err == nil && string(line) == checkpointMagic {
		return nil
	}
	if format, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\n")), []byte(checkpointPrefix)); ok && err == nil && len(format) < 10 {
		return refuse("resume: %s is in checkpoint format %q, written by another version of mc; this one reads format %q", path, format, checkpointFormat)
	}
	return refuse("resume: %s is not a valid checkpoint (no checkpoint header)", path)
}
