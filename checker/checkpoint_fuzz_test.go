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

	"github.com/ringcheck/mc/runinfo"
)

// FuzzResume resumes from arbitrary checkpoint bodies, with a valid
// checksum appended so that the fuzzer reaches the sections behind it: a
// corrupt checkpoint is refused with a message naming it, never a panic,
// and ReadCheckpoint reads its header without panicking either. The seeds
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
		ReadCheckpoint(dir)
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

// A checkpoint written by another build of mc (another version, revision
// or tree state, or, for a development build, another executable), with
// another fingerprint function, or of a spec whose code changed since, is
// refused, naming what differs: its fingerprints and encodings would not
// be this run's, and the counts would be wrong, as TLC's were when
// -recover ran without the original -fp, and as mc's were when a
// checkpoint of an older Chang–Roberts resumed into a changed one.
func TestResumeRefusesAnotherBuild(t *testing.T) {
	this := runinfo.ThisBuild()
	for _, c := range []struct {
		field string
		value any
		why   string
	}{
		{"build.version", "0.0.9", "the checkpoint was written by mc 0.0.9"},
		{"build.revision", "0123456789abcdef", "the checkpoint was written by mc " + this.Version},
		{"build.modified", !this.Modified, "the checkpoint was written by mc"},
		{"build.executable", "feedface", "the checkpoint was written by mc " + this.Version + " (development build, executable feedface)"},
		{"fingerprint", "fnv64", "the checkpoint's fingerprints were made by fnv64, this mc's by " + FingerprintFunc},
		{"spec_hash", "5ca1ab1e", "spec counters changed since the checkpoint"},
	} {
		dir := t.TempDir()
		opt := Options{Workers: 1, Checkpoint: dir, SpecHash: "c0ffee"}
		if r := Run(context.Background(), countersSystem(3), opt); r.Err != nil {
			t.Fatal(r.Err)
		}
		rewriteHeader(t, dir, func(h map[string]any) {
			section, key, nested := strings.Cut(c.field, ".")
			if nested {
				h[section].(map[string]any)[key] = c.value
			} else {
				h[section] = c.value
			}
		})
		opt.Resume = true
		r := Run(context.Background(), countersSystem(3), opt)
		var refused *ResumeRefused
		if !errors.As(r.Err, &refused) || len(refused.Reasons) != 1 || !strings.Contains(refused.Reasons[0], c.why) {
			t.Errorf("%s changed: %v, want %q", c.field, r.Err, c.why)
		}
		if h, err := ReadCheckpoint(dir); err != nil || len(BuildMismatches(h, this, "c0ffee")) != 1 {
			t.Errorf("%s changed: BuildMismatches %v (%v)", c.field, BuildMismatches(h, this, "c0ffee"), err)
		}
	}
}

// rewriteHeader edits the JSON header of the checkpoint in dir and seals
// the file with a valid checksum again, as a checkpoint of another run
// would be.
func rewriteHeader(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "checkpoint")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rest := data[len(checkpointMagic) : len(data)-8]
	n, k := binary.Uvarint(rest)
	var hdr map[string]any
	if err := json.Unmarshal(rest[k:k+int(n)], &hdr); err != nil {
		t.Fatal(err)
	}
	edit(hdr)
	raw, _ := json.Marshal(hdr)
	body := binary.AppendUvarint([]byte(checkpointMagic), uint64(len(raw)))
	body = append(append(body, raw...), rest[k+int(n):]...)
	if err := os.WriteFile(path, binary.LittleEndian.AppendUint64(body, xxhash.Sum64(body)), 0o644); err != nil {
		t.Fatal(err)
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
