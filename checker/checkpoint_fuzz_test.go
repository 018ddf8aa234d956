package checker

import (
	"context"
	"encoding/binary"
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
// are real checkpoints of the counters system, in memory and on disk.
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
		if r.Err != nil && !strings.HasPrefix(r.Err.Error(), "resume: ") {
			t.Fatalf("refused without saying it is the resume: %v", r.Err)
		}
	})
}
