package checker

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/runinfo"
)

// A checkpoint's JSON header (checkpoint.go) says which run it saved — the
// run's meaning and its store — and which build wrote it, so that a resume
// rebuilds that run and refuses, naming each difference, what it cannot
// honour: another run, another build of mc or of the spec, another
// fingerprint function.

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
	// Coverage is set when the run counted coverage (Options.Coverage)
	// and the checkpoint holds its counts.
	Coverage bool `json:"coverage"`
}

func (e *bfs[S]) header() CheckpointHeader {
	return CheckpointHeader{Build: runinfo.ThisBuild(), Fingerprint: FingerprintFunc, SpecHash: e.opt.SpecHash,
		Run: meaning(e.sys.Spec, e.sys.Variant, e.sys.Params, e.opt), Store: storeOf(e.opt), Coverage: e.opt.Coverage}
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

// CoverageMissing refuses --coverage on resuming a checkpoint saved
// without: the counts of the levels before it are not known.
const CoverageMissing = "--coverage: the checkpoint was saved by a run without --coverage, so the counts of the levels before it are not known; resume without --coverage, or start again"

// mismatches says, one line each, why this run cannot resume a checkpoint
// with header h.
func (e *bfs[S]) mismatches(h CheckpointHeader) []string {
	this := e.header()
	out := BuildMismatches(h, this.Build, this.SpecHash)
	for _, d := range runinfo.Differences(h.Run, this.Run) {
		out = append(out, d.Phrase("the checkpoint", "this run"))
	}
	if d := runinfo.StoreDifference(h.Store, this.Store); d != nil {
		out = append(out, d.Phrase("the checkpoint", "this run"))
	}
	if this.Coverage && !h.Coverage {
		out = append(out, CoverageMissing)
	}
	return out
}

// ReadCheckpoint reads the header of the checkpoint in dir: which run it
// saved and which build wrote it, so that a resume can rebuild the run and
// say what it cannot honour before it starts. The whole file's checksum is
// verified first (streaming, in constant memory): a corrupted header must
// not name a run.
func ReadCheckpoint(dir string) (CheckpointHeader, error) {
	var hdr CheckpointHeader
	path := filepath.Join(dir, checkpointFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return hdr, refuse("resume: %s holds no checkpoint (no file %s): nothing to resume", dir, path)
	}
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
