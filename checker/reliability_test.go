package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/internal/atomicfile"
)

// The faults of docs/reliability.md that the checker meets: corrupted and
// missing files of a disk run, a full disk, a working directory shared by
// two runs, and a run stopped before its first checkpoint.

// countersK is the counters system's bound in these tests: (k+1)² states
// over 2k+1 levels.
const countersK = 40

var countersStates = int64((countersK + 1) * (countersK + 1))

// stoppedDiskRun runs the counters system on disk, checkpointing at every
// level, and stops it at level stopAt; it returns the options that resume
// it and the stopped run's result.
func stoppedDiskRun(t *testing.T, stopAt int) (Options, Result) {
	t.Helper()
	dir := t.TempDir()
	opt := Options{Workers: 1, Disk: filepath.Join(dir, "store"), Checkpoint: filepath.Join(dir, "ckpt")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := opt
	first.ProgressEvery = 1
	first.Progress = func(p Progress) {
		if p.Depth >= stopAt {
			cancel()
		}
	}
	r := Run(ctx, countersSystem(countersK), first)
	if r.Err != nil || r.Reason != "interrupted" || r.Checkpoint == nil || r.WorkDirKept == "" {
		t.Fatalf("stopped run: %v, reason %q, checkpoint %+v, work dir kept: %q", r.Err, r.Reason, r.Checkpoint, r.WorkDirKept)
	}
	opt.Resume = true
	return opt, r
}

// resumesWhole resumes opt and requires the uninterrupted run's figures.
func resumesWhole(t *testing.T, opt Options) {
	t.Helper()
	r := Run(context.Background(), countersSystem(countersK), opt)
	if r.Err != nil || r.Verdict != Pass || r.States != countersStates || r.Depth != 2*countersK {
		t.Fatalf("resumed run: %v, %s, %d states, depth %d; want pass, %d states, depth %d", r.Err, r.Verdict, r.States, r.Depth, countersStates, 2*countersK)
	}
}

// refused requires a resume of opt to be refused, naming what, with no
// verdict given.
func refused(t *testing.T, opt Options, what string) {
	t.Helper()
	r := Run(context.Background(), countersSystem(countersK), opt)
	var ref *ResumeRefused
	if !errors.As(r.Err, &ref) || !strings.Contains(r.Err.Error(), what) {
		t.Fatalf("resume: got %v, want a refusal naming %q", r.Err, what)
	}
	if r.Verdict != "" || len(r.Props) != 0 {
		t.Fatalf("a refused resume gave verdict %q and %d property verdicts", r.Verdict, len(r.Props))
	}
}

// A bit flipped in one run of the visited set once made a resumed run
// count a state twice (misra n = 4: 740,961 states, exit 0): each run's
// sum is in the checkpoint, and a run that does not match is refused.
func TestResumeRefusesACorruptedRun(t *testing.T) {
	opt, r := stoppedDiskRun(t, 50)
	runs, _ := filepath.Glob(filepath.Join(r.WorkDir, "visited", "run-*"))
	if len(runs) == 0 {
		t.Fatal("no run of the visited set")
	}
	data, _ := os.ReadFile(runs[0])
	data[3] ^= 0x10
	os.WriteFile(runs[0], data, 0o644)
	refused(t, opt, filepath.Base(runs[0])+" is corrupted")
	data[3] ^= 0x10
	os.WriteFile(runs[0], data, 0o644)
	resumesWhole(t, opt)
}

// A missing, empty, short or altered trace log is refused, and left as it
// was: it was once zero-extended, state 0 became its own parent, and the
// trace walk grew until the kernel's OOM killer ended it.
func TestResumeRefusesABadTraceLog(t *testing.T) {
	opt, r := stoppedDiskRun(t, 50)
	path := filepath.Join(r.WorkDir, workTraceLog)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entries := int(r.Checkpoint.States)
	altered := bytes.Clone(good)
	clear(altered[(entries-1)*8 : entries*8]) // the checkpoint's last state made initial
	for _, c := range []struct {
		name, why string
		data      []byte
	}{
		{"missing", "no such file", nil},
		{"empty", "holds 0 entries", []byte{}},
		{"short", "holds 10 entries", good[:10*8]},
		{"altered", "is corrupted", altered},
	} {
		os.Remove(path)
		if c.data != nil {
			os.WriteFile(path, c.data, 0o644)
		}
		refused(t, opt, c.why)
		st, err := os.Stat(path)
		if c.data == nil && err == nil || c.data != nil && (err != nil || st.Size() != int64(len(c.data))) {
			t.Fatalf("%s trace log: changed by the refused resume (%v)", c.name, err)
		}
	}
	os.WriteFile(path, good, 0o644)
	resumesWhole(t, opt)
}

// A trace walk ends: an origin in a state not stored before its child, or a
// path longer than the run's depth allows, is an error, not a loop.
func TestPathIsBoundedByTheDepth(t *testing.T) {
	e := &bfs[counters]{log: newTraceLog(1, 2)}
	e.log.add(origin{parent: 0}) // state 0 is its own parent
	if _, _, err := e.path(0, 5); err == nil {
		t.Fatal("a state that is its own parent gave a path")
	}
	e = &bfs[counters]{log: newTraceLog(1, 2)}
	for i, parent := range []uint32{noParent, 0, 1, 2} {
		e.log.add(origin{parent: parent, action: uint32(i)})
	}
	if _, actions, err := e.path(3, 2); err != nil || len(actions) != 3 {
		t.Fatalf("a path of 3 steps in a run of depth 2: %d actions, %v", len(actions), err)
	}
	if _, _, err := e.path(3, 1); err == nil {
		t.Fatal("a path of 3 steps in a run of depth 1 was accepted")
	}
}

// devFull makes diskio.Create and atomicfile.Create (the checkpoint's
// temporary file) open /dev/full (fullDevice), where every write fails
// with ENOSPC, for the files full says, until the test ends or the
// returned function is called.
func devFull(t *testing.T, full func(path string) bool) (restore func()) {
	t.Helper()
	device := fullDevice(t)
	create, createTemp := diskio.Create, atomicfile.Create
	restore = func() { diskio.Create, atomicfile.Create = create, createTemp }
	t.Cleanup(restore)
	diskio.Create = func(path string) (*os.File, error) {
		if full(path) {
			return os.OpenFile(device, os.O_RDWR, 0)
		}
		return create(path)
	}
	atomicfile.Create = func(path string) (*os.File, error) {
		if full(path) {
			return os.OpenFile(device, os.O_RDWR, 0)
		}
		return createTemp(path)
	}
	return restore
}

// A full disk, while the run writes its files or a checkpoint, stops the
// run incomplete, not as a bug in mc: the reason names the fault, the last
// checkpoint written is named, and resuming from it, once the disk has
// room, ends with the uninterrupted run's figures.
func TestFullDiskStopsTheRunIncomplete(t *testing.T) {
	for _, c := range []struct {
		name string
		disk bool
		// full says which file the disk is full for, given how many files
		// were created before.
		full func(path string, created int) bool
	}{
		{"a run of the visited set", true, func(path string, created int) bool {
			return strings.HasPrefix(filepath.Base(path), "run-") && created > 40
		}},
		{"a checkpoint, on disk", true, func(path string, created int) bool {
			return atomicfile.IsTemp(filepath.Base(path), checkpointFile) && created > 40
		}},
		{"a checkpoint, in memory", false, func(path string, created int) bool {
			return atomicfile.IsTemp(filepath.Base(path), checkpointFile) && created > 20
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			created := 0
			roomAgain := devFull(t, func(path string) bool { created++; return c.full(path, created) })
			dir := t.TempDir()
			opt := Options{Workers: 1, Checkpoint: filepath.Join(dir, "ckpt")}
			if c.disk {
				opt.Disk = filepath.Join(dir, "store")
			}
			r := Run(context.Background(), countersSystem(countersK), opt)
			if r.Err != nil || r.Verdict != Incomplete || !strings.Contains(r.Reason, "no space left on device") {
				t.Fatalf("run on a full disk: %v, %s (%s)", r.Err, r.Verdict, r.Reason)
			}
			if r.Checkpoint == nil || r.Checkpoint.Depth == 0 || r.Checkpoint.States > r.States {
				t.Fatalf("last checkpoint %+v of a run that stopped at %d states", r.Checkpoint, r.States)
			}
			if c.disk && r.WorkDirKept == "" {
				t.Fatal("the working directory the checkpoint needs was removed")
			}
			roomAgain()
			opt.Resume = true
			resumesWhole(t, opt)
		})
	}
}

// A full disk while the liveness phase writes its graph (a disk run spills
// it from the start) stops the run incomplete, with the search's figures
// and the fault as its reason, not as a bug in mc: the edges' files fail
// as they fill (a graph of more than a chunk) or when the build ends.
func TestFullDiskInTheLivenessGraphStopsTheRunIncomplete(t *testing.T) {
	for _, c := range []struct {
		file string
		n    int
	}{{"graph.to", 20000}, {"graph.act", 20000}, {"graph.to", 50}} {
		t.Run(fmt.Sprintf("%s, %d states", c.file, c.n), func(t *testing.T) {
			sys := ringOfJumps(c.n)
			whole := Run(context.Background(), sys, Options{Workers: 1})
			if whole.Err != nil || whole.States != int64(c.n) {
				t.Fatalf("run in memory: %v, %d states", whole.Err, whole.States)
			}
			devFull(t, func(path string) bool { return filepath.Base(path) == c.file })
			r := Run(context.Background(), sys, Options{Workers: 1, Disk: t.TempDir()})
			if r.Err != nil || r.Verdict != Incomplete || !strings.HasPrefix(r.Reason, "liveness: I/O error: ") || !strings.Contains(r.Reason, "no space left on device") {
				t.Fatalf("run on a full disk: %v, %s (%s)", r.Err, r.Verdict, r.Reason)
			}
			if r.States != whole.States || r.Props[0].Verdict != Incomplete || r.Props[0].Trace != nil {
				t.Fatalf("%d states (%d in memory), %s %s", r.States, whole.States, r.Props[0].Name, r.Props[0].Verdict)
			}
		})
	}
}

// A run's working files are in a directory of its own, which it creates:
// the user's files in --dir are left alone, two runs on one --dir do not
// meet, a run that ends removes its directory unless a checkpoint needs it
// or it is asked to keep it.
func TestWorkDirIsTheRunsOwn(t *testing.T) {
	parent := t.TempDir()
	mine := map[string]string{"visited/thesis.tex": "chapter 1", "trace.log": "my log", "level.a": "a"}
	for name, text := range mine {
		os.MkdirAll(filepath.Dir(filepath.Join(parent, name)), 0o755)
		os.WriteFile(filepath.Join(parent, name), []byte(text), 0o644)
	}
	sys := countersSystem(countersK)
	r := Run(context.Background(), sys, Options{Workers: 1, Disk: parent})
	if r.Err != nil || r.States != countersStates || !strings.HasPrefix(r.WorkDir, parent+"/mc-counters-") || r.WorkDirKept != "" {
		t.Fatalf("run: %v, %d states, work dir %s kept %q", r.Err, r.States, r.WorkDir, r.WorkDirKept)
	}
	if _, err := os.Stat(r.WorkDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the finished run's working directory is still there (%v)", err)
	}
	for name, text := range mine {
		if got, _ := os.ReadFile(filepath.Join(parent, name)); string(got) != text {
			t.Fatalf("%s of the user's now holds %q", name, got)
		}
	}
	kept := Run(context.Background(), sys, Options{Workers: 1, Disk: parent, KeepDir: true})
	if _, err := os.Stat(filepath.Join(kept.WorkDir, workTraceLog)); err != nil || kept.WorkDirKept != "asked to keep it" || kept.WorkDir == r.WorkDir {
		t.Fatalf("--keep-dir: %s kept %q (%v); the first run's was %s", kept.WorkDir, kept.WorkDirKept, err, r.WorkDir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := Run(ctx, sys, Options{Workers: 1, Disk: parent})
	if _, err := os.Stat(stopped.WorkDir); stopped.Reason != "interrupted" || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a run stopped without a checkpoint: %q, its working directory still there (%v)", stopped.Reason, err)
	}
}

// A directory another run holds is refused: a second run checkpointing into
// the same directory, or resuming a checkpoint whose working directory is
// in use. A second disk run on the same --dir, with its own checkpoint
// directory, runs in a working directory of its own.
func TestSecondRunOnADirectoryInUse(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Workers: 1, Disk: filepath.Join(dir, "store"), Checkpoint: filepath.Join(dir, "ckpt"), CheckpointEvery: time.Hour}
	sys := countersSystem(countersK)
	var second, third Result
	first := opt
	first.ProgressEvery = 1
	first.Progress = func(p Progress) {
		if second.Spec == "" {
			second = Run(context.Background(), sys, opt)
			other := opt
			other.Checkpoint = filepath.Join(dir, "ckpt2")
			third = Run(context.Background(), sys, other)
		}
	}
	r := Run(context.Background(), sys, first)
	var u *UnusableDir
	if !errors.As(second.Err, &u) || !strings.Contains(second.Err.Error(), "in use by another mc run") {
		t.Fatalf("second run on the same checkpoint directory: %v", second.Err)
	}
	if r.Err != nil || third.Err != nil || r.States != countersStates || third.States != countersStates || r.WorkDir == third.WorkDir {
		t.Fatalf("two runs on one --dir: %v and %v, %d and %d states, in %s and %s", r.Err, third.Err, r.States, third.States, r.WorkDir, third.WorkDir)
	}

	resume, stopped := stoppedDiskRun(t, 30)
	lock, err := lockDir(stopped.WorkDir)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), sys, resume)
	if !errors.As(res.Err, &u) || !strings.Contains(res.Err.Error(), stopped.WorkDir) {
		t.Fatalf("resume with its working directory in use: %v", res.Err)
	}
	lock.Close()
	resumesWhole(t, resume)
}

// The first checkpoint is written early, not a whole --checkpoint-every
// after the start, so that a run stopped soon after it started can be
// resumed: with the first due at once and the next in an hour, a run
// stopped at level 30 has level 0's; with the first due in 10 s, none.
func TestFirstCheckpointIsEarly(t *testing.T) {
	run := func() Result {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		opt := Options{Workers: 1, Checkpoint: dir, CheckpointEvery: time.Hour, ProgressEvery: 1, Progress: func(p Progress) {
			if p.Depth >= 30 {
				cancel()
			}
		}}
		return Run(ctx, countersSystem(countersK), opt)
	}
	if r := run(); r.Err != nil || r.Checkpoint != nil {
		t.Fatalf("first checkpoint due in 10s: a run of a moment saved %+v (%v)", r.Checkpoint, r.Err)
	}
	defer func(after time.Duration) { firstCheckpointAfter = after }(firstCheckpointAfter)
	firstCheckpointAfter = 0
	if r := run(); r.Err != nil || r.Checkpoint == nil || r.Checkpoint.Depth != 0 {
		t.Fatalf("first checkpoint due at once: saved %+v (%v)", r.Checkpoint, r.Err)
	}
}

// The files written and read back within a level are summed too: a level
// whose bytes change between the write and the read is refused, naming the
// file (the disk store's own are checked in its tests).
func TestSpilledLevelsAreChecked(t *testing.T) {
	dir := t.TempDir()
	var pool blockPool
	defer pool.close()
	l, err := spillLevel(filepath.Join(dir, "level"), &pool)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	states := levelStates()
	for _, enc := range states {
		l.add(enc)
	}
	readAll := func() error {
		if err := l.finish(); err != nil {
			return err
		}
		return l.window(0, len(states))
	}
	if err := readAll(); err != nil {
		t.Fatalf("an intact level: %v", err)
	}
	l.file.WriteAt([]byte{0xff}, 1000)
	var c *diskio.CorruptFile
	if err := readAll(); !errors.As(err, &c) || !strings.Contains(err.Error(), "level") {
		t.Fatalf("a corrupted level: %v", err)
	}
}

// A new run given a --checkpoint directory that already holds a checkpoint
// (another run's, or this one's) or a user's file named checkpoint is
// refused before any work, and the file is left as it was: it was once
// replaced silently. The temporary files of a checkpoint write that a kill
// left are removed when mc recognises them, and a link planted at the
// temporary name an earlier mc used is never written through.
func TestNewRunRefusesAnOccupiedCheckpointDir(t *testing.T) {
	top := t.TempDir()
	sys := countersSystem(countersK)
	ckpt := filepath.Join(top, "ckpt")
	first := Run(context.Background(), sys, Options{Workers: 1, Checkpoint: ckpt})
	if first.Err != nil || first.Checkpoint == nil {
		t.Fatalf("first run: %v, checkpoint %+v", first.Err, first.Checkpoint)
	}
	saved, _ := os.ReadFile(filepath.Join(ckpt, checkpointFile))
	mine := filepath.Join(top, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, checkpointFile), []byte("my notes"), 0o644)
	for dir, want := range map[string]string{ckpt: "already holds a checkpoint: resume it with --resume", mine: "not an mc checkpoint"} {
		r := Run(context.Background(), sys, Options{Workers: 1, Checkpoint: dir})
		var u *UnusableDir
		if !errors.As(r.Err, &u) || !strings.Contains(r.Err.Error(), want) || r.Verdict != "" || r.States != 0 {
			t.Fatalf("a new run on %s: %v, verdict %q, %d states", dir, r.Err, r.Verdict, r.States)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(ckpt, checkpointFile)); !bytes.Equal(got, saved) {
		t.Fatal("the refused run changed the checkpoint")
	}
	if got, _ := os.ReadFile(filepath.Join(mine, checkpointFile)); string(got) != "my notes" {
		t.Fatalf("the user's file now holds %q", got)
	}

	fresh := filepath.Join(top, "fresh")
	os.MkdirAll(fresh, 0o755)
	victim := filepath.Join(top, "victim")
	os.WriteFile(victim, []byte("the user's"), 0o644)
	stale := filepath.Join(fresh, ".checkpoint.0123456789abcdef.mc-tmp")
	os.WriteFile(stale, saved[:len(saved)/2], 0o644)
	if err := os.Symlink(victim, filepath.Join(fresh, legacyCheckpointTemp)); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	r := Run(context.Background(), sys, Options{Workers: 1, Checkpoint: fresh})
	if r.Err != nil || r.Verdict != Pass || r.Checkpoint == nil {
		t.Fatalf("a run beside a kill's leftovers: %v, %s", r.Err, r.Verdict)
	}
	if got, _ := os.ReadFile(victim); string(got) != "the user's" {
		t.Fatalf("the link's target now holds %q", got)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale temporary file is still there (%v)", err)
	}
	os.Remove(filepath.Join(fresh, legacyCheckpointTemp))
	os.WriteFile(filepath.Join(fresh, legacyCheckpointTemp), saved[:len(saved)/2], 0o644)
	opt := Options{Workers: 1, Checkpoint: fresh, Resume: true}
	resumesWhole(t, opt)
	if _, err := os.Stat(filepath.Join(fresh, legacyCheckpointTemp)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale checkpoint.tmp an earlier mc left is still there (%v)", err)
	}
}
