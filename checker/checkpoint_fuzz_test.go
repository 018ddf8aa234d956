package checker

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// FuzzResume resumes from arbitrary checkpoint bodies, with a valid
// checksum appended so that the fuzzer reaches the sections behind it: a
// corrupt checkpoint is refused with a message naming it, never a panic,
// and CheckpointRun reads its header without panicking either. The seeds
// are real checkpoints of the counters system, in memory and on disk. A
// disk checkpoint is resumed on disk, in a fresh directory: its list of
// runs is read and, unless empty, refused, since the runs are not there.
func FuzzResume(f *testing.F) {
	for _, disk := range []bool{false, true} {
		dir := f.TempDir()
		opt := Options{Workers: 1, Checkpoint: dir}
		if disk {
			opt.Disk = filepath.Join(dir, "store")
		}
		if r := Run(context.Background(), countersSystem(3), opt); r.Err != nil {
			f.Fatal(r.Err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "checkpoint"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:len(data)-8], disk)
	}
	f.Add([]byte(checkpointMagic), false)
	f.Fuzz(func(t *testing.T, body []byte, disk bool) {
		dir := t.TempDir()
		data := binary.LittleEndian.AppendUint64(append([]byte(nil), body...), xxhash.Sum64(body))
		if err := os.WriteFile(filepath.Join(dir, "checkpoint"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		CheckpointRun(dir)
		opt := Options{Workers: 1, Checkpoint: dir, Resume: true}
		if disk {
			opt.Disk = filepath.Join(dir, "store")
		}
		r := Run(context.Background(), countersSystem(3), opt)
		if refused := (*ResumeRefused)(nil); r.Err != nil && !errors.As(r.Err, &refused) && !strings.HasPrefix(r.Err.Error(), "resume: ") {
			t.Fatalf("refused without saying it is the resume: %v", r.Err)
		}
	})
}

// A checkpoint made with another fingerprint function (or mc version) is
// refused: its fingerprints would not match this run's, and the counts
// would be wrong, as TLC's were when -recover ran without the original -fp.
func TestResumeRefusesAnotherFingerprintFunction(t *testing.T) {
	for _, field := range []string{"fingerprint", "mc"} {
		dir := t.TempDir()
		if r := Run(context.Background(), countersSystem(3), Options{Workers: 1, Checkpoint: dir}); r.Err != nil {
			t.Fatal(r.Err)
		}
		path := filepath.Join(dir, "checkpoint")
		data, _ := os.ReadFile(path)
		rest := data[len(checkpointMagic) : len(data)-8]
		n, k := binary.Uvarint(rest)
		var hdr map[string]any
		if err := json.Unmarshal(rest[k:k+int(n)], &hdr); err != nil {
			t.Fatal(err)
		}
		hdr[field] = "something else"
		raw, _ := json.Marshal(hdr)
		body := binary.AppendUvarint([]byte(checkpointMagic), uint64(len(raw)))
		body = append(append(body, raw...), rest[k+int(n):]...)
		os.WriteFile(path, binary.LittleEndian.AppendUint64(body, xxhash.Sum64(body)), 0o644)
		r := Run(context.Background(), countersSystem(3), Options{Workers: 1, Checkpoint: dir, Resume: true})
		var refused *ResumeRefused
		if !errors.As(r.Err, &refused) || !strings.Contains(r.Err.Error(), "another run") || !strings.Contains(r.Err.Error(), "something else") {
			t.Fatalf("%s changed: %v", field, r.Err)
		}
	}
}

// A checkpoint in another format, one an earlier mc wrote, is refused with
// a message naming both formats, not read as a corrupt file.
func TestResumeRefusesAnotherCheckpointFormat(t *testing.T) {
	dir := t.TempDir()
	if r := Run(context.Background(), countersSystem(3), Options{Workers: 1, Checkpoint: dir}); r.Err != nil {
		t.Fatal(r.Err)
	}
	path := filepath.Join(dir, "checkpoint")
	data, _ := os.ReadFile(path)
	body := append([]byte(checkpointPrefix+"1\n"), data[len(checkpointMagic):len(data)-8]...)
	os.WriteFile(path, binary.LittleEndian.AppendUint64(body, xxhash.Sum64(body)), 0o644)
	r := Run(context.Background(), countersSystem(3), Options{Workers: 1, Checkpoint: dir, Resume: true})
	var refused *ResumeRefused
	if !errors.As(r.Err, &refused) || !strings.Contains(r.Err.Error(), `format "1"`) || !strings.Contains(r.Err.Error(), `format "`+checkpointFormat+`"`) {
		t.Fatalf("format 1 checkpoint: %v", r.Err)
	}
}
