package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/ringcheck/mc/runstore"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readTree is every file under dir, by path relative to it.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails t unless got has the files of want, byte for byte.
func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d files, want %d", what, len(got), len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Fatalf("%s: %s differs", what, name)
		}
	}
}

// tallyLine matches the summary a sweep with a run store prints.
var tallyLine = regexp.MustCompile(`^mc sweep (\S+): (\d+) reused, (\d+) computed\n$`)

// tally reads the classes reused and computed from a sweep's stderr.
func tally(t *testing.T, stderr string) (reused, computed int) {
	t.Helper()
	m := tallyLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("sweep's stderr is not its tally: %q", stderr)
	}
	reused, _ = strconv.Atoi(m[2])
	computed, _ = strconv.Atoi(m[3])
	return reused, computed
}

// Issue 20: mc sweep changroberts --n 3..6 run twice computes nothing the
// second time and prints the same table, writes the same files (witness
// runs included), and the same as without a store; --fresh recomputes
// every class. (-short: n = 3..5.)
func TestSweepTwiceComputesNothingTheSecondTime(t *testing.T) {
	ns, classes := "3..6", 152
	if testing.Short() {
		ns, classes = "3..5", 32
	}
	db := filepath.Join(t.TempDir(), "db")
	ctx := context.Background()
	outDir := t.TempDir()
	code, want, errs := mc(t, ctx, "sweep", "changroberts", "--n", ns, "--no-db", "--out", outDir)
	if code != exitPass || errs != "" {
		t.Fatalf("--no-db: exit %d, stderr %q", code, errs)
	}
	wantFiles := readTree(t, outDir)
	for i, c := range []struct {
		flags            []string
		reused, computed int
	}{{nil, 0, classes}, {nil, classes, 0}, {[]string{"--fresh"}, 0, classes}, {[]string{"--json"}, classes, 0}} {
		dir := t.TempDir()
		args := append([]string{"sweep", "changroberts", "--n", ns, "--db", db, "--out", dir}, c.flags...)
		code, out, errs := mc(t, ctx, args...)
		if code != exitPass {
			t.Fatalf("run %d: exit %d\n%s", i+1, code, errs)
		}
		if reused, computed := tally(t, errs); reused != c.reused || computed != c.computed {
			t.Errorf("run %d %v: %d reused, %d computed; want %d and %d", i+1, c.flags, reused, computed, c.reused, c.computed)
		}
		if c.flags == nil && out != want {
			t.Errorf("run %d printed another table:\n%s\nwant\n%s", i+1, out, want)
		}
		sameTree(t, fmt.Sprintf("run %d %v", i+1, c.flags), readTree(t, dir), wantFiles)
	}
	_, wantJSON, _ := mc(t, ctx, "sweep", "changroberts", "--n", ns, "--no-db", "--json")
	if _, gotJSON, _ := mc(t, ctx, "sweep", "changroberts", "--n", ns, "--db", db, "--json"); gotJSON != wantJSON {
		t.Errorf("--json from the store differs:\n%s\nwant\n%s", gotJSON, wantJSON)
	}
}

// childMC starts this test binary as mc with args (TestMain runs main).
func childMC(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MC_TEST_RUN_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// killAfter kills cmd with SIGKILL after d, unless it ended first; it
// says whether the kill ended it.
func killAfter(cmd *exec.Cmd, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
		return false
	case <-time.After(d):
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// A sweep killed with SIGKILL at random moments, again and again, and then
// run to its end, gives the table and files of a sweep never interrupted.
// The seed is logged; a kill can land anywhere: opening the store, in a
// class, saving one, closing it.
func TestKilledSweepGivesTheSameTable(t *testing.T) {
	needsUnixSignals(t)
	ns := "3..6"
	if testing.Short() {
		ns = "3..5"
	}
	ctx := context.Background()
	wantDir := t.TempDir()
	start := time.Now()
	_, want, _ := mc(t, ctx, "sweep", "changroberts", "--n", ns, "--no-db", "--out", wantDir)
	whole := time.Since(start)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 20))
	db, outDir := filepath.Join(t.TempDir(), "db"), t.TempDir()
	args := []string{"sweep", "changroberts", "--n", ns, "--db", db, "--out", outDir}
	killed := 0
	for range 4 {
		d := time.Duration(rng.Int64N(int64(whole / 3))) // a run after a kill has less left to do
		if killAfter(childMC(t, args...), d) {
			killed++
		}
	}
	code, out, errs := mc(t, ctx, args...)
	reused, _ := tally(t, errs)
	t.Logf("seed %d: %d of 4 runs killed, %d classes reused by the last", seed, killed, reused)
	if code != exitPass || out != want {
		t.Fatalf("after the kills: exit %d\n%s\nwant\n%s%s", code, out, want, errs)
	}
	sameTree(t, "after the kills", readTree(t, outDir), readTree(t, wantDir))
	if killed == 0 {
		t.Fatal("no run was killed before it ended")
	}
}

// Issue 20: a sweep of hp at n = 3..6, killed with SIGKILL during the
// n = 6 classes and run again, gives the table an uninterrupted sweep
// writes: hp.json, hp.md, hp.svg and the witness runs, byte for byte
// (results/hp.* covers more sizes; mc ci checks those). A kill is during
// the n = 6 classes when the run after it reuses every class of n ≤ 5 (32)
// and not all 152; kills that land elsewhere are tried again at another
// moment.
func TestHPSweepKilledDuringSixGivesTheUninterruptedTable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: TestKilledSweepGivesTheSameTable kills sweeps at random already")
	}
	needsUnixSignals(t)
	ctx := context.Background()
	start := time.Now()
	wantDir := t.TempDir()
	if code, _, errs := mc(t, ctx, "sweep", "hp", "--variant", "elect", "--n", "3..6", "--no-db", "--out", wantDir); code != exitPass {
		t.Fatal(errs)
	}
	whole := time.Since(start)
	want := readTree(t, wantDir)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 6))
	lo, hi := whole/10, whole
	for attempt := 1; attempt <= 8; attempt++ {
		db, outDir := filepath.Join(t.TempDir(), "db"), t.TempDir()
		args := []string{"sweep", "hp", "--variant", "elect", "--n", "3..6", "--db", db, "--out", outDir}
		d := lo + time.Duration(rng.Int64N(int64(hi-lo)))
		killed := killAfter(childMC(t, args...), d)
		code, _, errs := mc(t, ctx, args...)
		if code != exitPass {
			t.Fatalf("the run after the kill: exit %d\n%s", code, errs)
		}
		reused, computed := tally(t, errs)
		t.Logf("seed %d, attempt %d: killed %v after %s; then %d reused, %d computed", seed, attempt, killed, d, reused, computed)
		switch {
		case !killed || reused == 152:
			hi = d // too late: kill sooner
			continue
		case reused < 32:
			lo = d // too soon: kill later
			continue
		}
		files := readTree(t, outDir)
		for name, got := range files {
			if got != want[name] {
				t.Fatalf("%s is not what the uninterrupted sweep wrote", name)
			}
		}
		if len(files) != 3+8 || len(want) != 3+8 {
			t.Fatalf("the sweeps wrote %d and %d files, want hp.json, hp.md, hp.svg and 8 witness runs", len(files), len(want))
		}
		return
	}
	t.Fatalf("seed %d: no kill landed during the n = 6 classes in 8 attempts", seed)
}

// A sweep refuses, before computing anything, a store it cannot use: one
// line, exit 2, and nothing on stdout; --db with --no-db is a usage error.
func TestSweepRefusesAStoreItCannotUse(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	foreign := filepath.Join(base, "results")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "hp.json"), []byte("{}"), 0o644)
	future := filepath.Join(base, "future")
	os.MkdirAll(future, 0o755)
	os.WriteFile(filepath.Join(future, "FORMAT"), []byte("mc run store 9\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", foreign}, "is not an mc run store"},
		{[]string{"--db", future}, "is of format 9, and this mc reads format 1"},
		{[]string{"--db", future, "--no-db"}, "give one of them"},
		{[]string{"--db", ""}, "--db needs a directory"},
	} {
		for _, cmd := range [][]string{{"sweep", "changroberts", "--n", "3"}, {"ci"}, {"check", "changroberts", "--n", "3"}} {
			code, out, errs := mc(t, ctx, append(cmd, c.args...)...)
			if code != exitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("mc %s %v: exit %d, stdout %q, stderr %q", cmd[0], c.args, code, out, errs)
			}
		}
	}
}

// A damaged store is refused with exit 2 by every command that would read
// it, before a check runs, and is left as it is.
func TestDamagedStoreIsRefused(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "db")
	if code, _, errs := mc(t, ctx, "sweep", "changroberts", "--n", "3..4", "--db", db); code != exitPass {
		t.Fatal(errs)
	}
	tables, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("the store has no table")
	}
	data, _ := os.ReadFile(tables[0])
	data[len(data)/3] ^= 1
	os.WriteFile(tables[0], data, 0o644)
	for _, args := range [][]string{
		{"sweep", "changroberts", "--n", "3..4"},
		{"ci"},
		{"check", "changroberts", "--n", "3"},
		{"runs"},
		{"runs", "show", "1"},
		{"runs", "gc", "--keep", "1"},
		{"explore", "--run", "1"},
	} {
		code, out, errs := mc(t, ctx, append(args, "--db", db)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "the run store "+db+" is damaged: its file "+filepath.Base(tables[0])) ||
			strings.Count(errs, "\n") != 1 {
			t.Errorf("mc %v on a damaged store: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if got, _ := os.ReadFile(tables[0]); string(got) != string(data) {
		t.Error("the damaged table was changed")
	}
}

// Two mc processes on one store: checks that end together both record
// themselves (each waits for the other's moment), and a command that
// finds the store held by a sweep for longer than it waits is told so in
// one line, naming the sweep, with no Go error text.
func TestTwoProcessesOnOneStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	var checks []*exec.Cmd
	for _, n := range []string{"5", "6"} {
		checks = append(checks, childMC(t, "check", "changroberts", "--n", n, "--db", db))
	}
	for _, c := range checks {
		if err := c.Wait(); err != nil {
			t.Fatalf("a check: %v", err)
		}
	}
	code, out, errs := mc(t, context.Background(), "runs", "--db", db)
	if code != exitPass || strings.Count(out, "\n") != 3 || !strings.Contains(out, "changroberts --n 5") || !strings.Contains(out, "changroberts --n 6") {
		t.Fatalf("mc runs after two checks at once: exit %d\n%s%s", code, out, errs)
	}

	sweep := childMC(t, "sweep", "changroberts", "--n", "3..7", "--fresh", "--db", db)
	defer sweep.Process.Kill()
	saved := dbWait
	dbWait = 200 * time.Millisecond
	defer func() { dbWait = saved }()
	deadline := time.Now().Add(time.Minute)
	for {
		code, out, errs = mc(t, context.Background(), "sweep", "changroberts", "--n", "3", "--db", db)
		if code == exitUsage || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond) // the sweep has not taken the store yet
	}
	want := fmt.Sprintf("mc sweep: the run store %s is in use by mc sweep (pid %d); wait for it to finish, or give --db DIR or --no-db\n", db, sweep.Process.Pid)
	if code != exitUsage || out != "" || errs != want {
		t.Fatalf("a sweep on a store in use: exit %d, stdout %q\nstderr %q\nwant   %q", code, out, errs, want)
	}
	code, out, errs = mc(t, context.Background(), "check", "changroberts", "--n", "3", "--db", db)
	if code != exitPass || !strings.Contains(out, "verdict: pass") || !strings.HasPrefix(errs, "mc check: not recorded: the run store "+db+" is in use by mc sweep") {
		t.Fatalf("a check while a sweep holds the store: exit %d\n%s%s", code, out, errs)
	}
}

// Issue 20: mc runs lists the checks that were run: when, spec and
// options, verdict, states, time; mc runs show prints one as the check
// printed it; mc explore --run opens its trace; mc runs gc --keep prunes.
func TestRunsListsTheChecks(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "db")
	type ran struct {
		args   []string
		out    string
		states string
	}
	var runs []ran
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"changroberts", "--n", "4"}, exitPass},
		{[]string{"changroberts", "--variant", "raynal-literal", "--ids", "3,1,4,2", "--initiators", "0"}, exitFail},
		{[]string{"changroberts", "--n", "3", "--all-ids"}, exitPass},
		{[]string{"changroberts", "--n", "12", "--max-states", "100"}, exitIncomplete}, // not completed: not recorded
	} {
		code, out, errs := mc(t, ctx, append(append([]string{"check"}, c.args...), "--db", db)...)
		if code != c.code {
			t.Fatalf("check %v: exit %d, want %d\n%s", c.args, code, c.code, errs)
		}
		id := len(runs) + 1
		if c.code == exitIncomplete {
			if strings.Contains(errs, "recorded") {
				t.Errorf("an incomplete check was recorded: %s", errs)
			}
			continue
		}
		if !strings.Contains(errs, fmt.Sprintf("mc check: recorded as run %d in %s (mc runs show %d", id, db, id)) {
			t.Fatalf("check %v: stderr %q", c.args, errs)
		}
		states := regexp.MustCompile(`(\d+) (distinct )?states`).FindStringSubmatch(out)
		if states == nil {
			t.Fatalf("check %v printed no states:\n%s", c.args, out)
		}
		runs = append(runs, ran{c.args, out, states[1]})
	}
	code, out, errs := mc(t, ctx, "runs", "--db", db)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitPass || len(lines) != 1+len(runs) || !strings.HasPrefix(lines[0], "run  when") {
		t.Fatalf("mc runs: exit %d\n%s%s", code, out, errs)
	}
	for i, verdict := range []string{"pass", "fail", "pass"} {
		want := fmt.Sprintf(`^%d +20\d\d-\d\d-\d\d \d\d:\d\d:\d\d +%s +%s +[0-9.]+[µm]?s +%s$`, i+1, verdict, runs[i].states, regexp.QuoteMeta(strings.Join(runs[i].args, " ")))
		if !regexp.MustCompile(want).MatchString(lines[i+1]) {
			t.Errorf("mc runs line %d: %q, want %s", i+1, lines[i+1], want)
		}
	}
	for i, r := range runs {
		code, out, _ := mc(t, ctx, "runs", "show", strconv.Itoa(i+1), "--db", db)
		if code != exitPass || !strings.HasSuffix(out, "\n\n"+r.out) || !strings.HasPrefix(out, fmt.Sprintf("run %d: mc check %s\n", i+1, strings.Join(r.args, " "))) {
			t.Errorf("mc runs show %d: exit %d\n%s\nwant it to end with what the check printed:\n%s", i+1, code, out, r.out)
		}
	}
	if _, out, _ := mc(t, ctx, "runs", "show", "2", "--db", db); !strings.Contains(out, "trace: the counterexample to election-complete, 3 steps (mc explore --run 2)") {
		t.Errorf("mc runs show 2 does not name its trace:\n%s", out)
	}
	if _, out, _ := mc(t, ctx, "runs", "show", "2", "--db", db, "--json"); !strings.Contains(out, `"verdict": "fail"`) || !strings.Contains(out, `"format": "mc-trace"`) {
		t.Errorf("mc runs show 2 --json:\n%s", out)
	}

	var f checkFlags
	fs := newFlagSet("explore", "", nil)
	f.addParamFlags(fs)
	f.db.Add(fs)
	fs.Uint64("run", 0, "")
	fs.Parse([]string{"--run", "2", "--db", db})
	tr, code := exploredTrace(fs, &f, "", 2, os.Stderr)
	if code != exitPass || tr.Property.Name != "election-complete" || len(tr.Steps) != 3 {
		t.Fatalf("explore --run 2: exit %d, %+v", code, tr)
	}
	if _, err := exploreServer(fs, &f, tr); err != nil {
		t.Fatalf("explore --run 2: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--run", "3"}, "run 3 has no trace"},
		{[]string{"explore", "--run", "9"}, "holds no run 9"},
		{[]string{"runs", "show", "9"}, "holds no run 9"},
		{[]string{"runs", "show", "x"}, `"x" is not a run number`},
		{[]string{"runs", "gc"}, "want --keep N"},
		{[]string{"runs", "gc", "--keep", "-1"}, "--keep must be 0 or more"},
	} {
		code, out, errs := mc(t, ctx, append(c.args, "--db", db)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("mc %v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}

	code, out, _ = mc(t, ctx, "runs", "gc", "--keep", "1", "--db", db)
	if code != exitPass || !strings.HasPrefix(out, "mc runs gc: removed 2 checks (kept the 1 most recent)") {
		t.Fatalf("gc: exit %d %s", code, out)
	}
	if _, out, _ := mc(t, ctx, "runs", "--db", db); strings.Count(out, "\n") != 2 || !strings.Contains(out, "--all-ids") {
		t.Errorf("after gc --keep 1:\n%s", out)
	}
	if code, out, _ := mc(t, ctx, "runs", "--db", filepath.Join(db, "none")); code != exitPass || !strings.HasPrefix(out, "no checks recorded: there is no run store at") {
		t.Errorf("mc runs without a store: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(db, "none")); err == nil {
		t.Error("mc runs made a store")
	}
}

// A file system without room for the store stops a sweep before it prints
// a table, and a check before it runs, with exit 3 and a line naming the
// store. It needs root, to mount a small tmpfs; the runstore package makes
// a file system full without it (TestFullFileSystemRefusesWrites).
func TestFullFileSystemStopsTheSweepWithoutATable(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	db := filepath.Join(mnt, "db")
	for _, args := range [][]string{{"sweep", "changroberts", "--n", "3..4"}, {"check", "changroberts", "--n", "3"}} {
		code, out, errs := mc(t, context.Background(), append(args, "--db", db)...)
		if code != exitIncomplete || out != "" || !strings.HasPrefix(errs, "mc "+args[0]+": the run store "+db+" cannot be written: its file system has") ||
			strings.Count(errs, "\n") != 1 {
			t.Errorf("mc %s on a full file system: exit %d, stdout %q, stderr %q", args[0], code, out, errs)
		}
	}
}

// The commands that need no run store never open it, so never make it:
// help, list, version, trace, explore without --run, and any command
// stopped by a usage error. A check makes it, as README's first command
// does in a fresh clone.
func TestOnlyCommandsThatNeedTheStoreOpenIt(t *testing.T) {
	trace := writeTrace(t, exitFail, "changroberts", "--variant", "raynal-literal", "--ids", "3,1,4,2", "--initiators", "0")
	db := filepath.Join(t.TempDir(), ".mc")
	saved := defaultDB
	defaultDB = db
	defer func() { defaultDB = saved }()
	for _, args := range [][]string{
		{"--help"}, {"help", "runs"}, {"list"}, {"list", "--json"}, {"version"}, {"trace", trace}, {"trace", trace, "--replay"},
		{"check", "--help"}, {"sweep", "--help"}, {"runs", "--help"}, {"explore", "--help"},
		{"check", "nosuchspec"}, {"check", "changroberts", "--n", "1"}, {"sweep", "changroberts", "--n", "9..3"},
		{"check", "changroberts", "--no-db"}, {"sweep", "changroberts", "--n", "3", "--no-db"},
	} {
		mc(t, context.Background(), args...)
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("mc %v made the run store", args)
		}
	}
	if code, _, errs := mc(t, context.Background(), "check", "changroberts", "--n", "3"); code != exitPass || !strings.Contains(errs, "recorded as run 1 in "+db) {
		t.Fatalf("a check with the default store: exit %d %s", code, errs)
	}
}

// A table grown by one ring size computes that size only.
func TestSweepGrowsByTheNewSizeOnly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	for _, c := range []struct {
		ns               string
		reused, computed int
	}{{"3..4", 0, 8}, {"3..5", 8, 24}} {
		code, _, errs := mc(t, context.Background(), "sweep", "changroberts", "--n", c.ns, "--db", db)
		if reused, computed := tally(t, errs); code != exitPass || reused != c.reused || computed != c.computed {
			t.Errorf("--n %s: exit %d, %d reused, %d computed; want %d and %d", c.ns, code, reused, computed, c.reused, c.computed)
		}
	}
}

// A check in a working directory where the default store cannot be made
// (read-only; here /proc, where no directory can be made, whoever runs the
// test) runs unrecorded and says so; a store named with --db that cannot
// be made still stops the check before the run, since the user asked for
// the record.
func TestDefaultStoreThatCannotBeMadeLeavesTheCheckUnrecorded(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc here")
	}
	saved := defaultDB
	defaultDB = "/proc/self/.mc"
	defer func() { defaultDB = saved }()
	code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", "3")
	if code != exitPass || !strings.Contains(out, "verdict: pass") || !strings.Contains(errs, "not recorded: ") {
		t.Fatalf("default store in /proc: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "check", "changroberts", "--n", "3", "--db", defaultDB)
	if code == exitPass || out != "" || strings.Count(errs, "\n") != 1 {
		t.Fatalf("--db in /proc: exit %d, want a one-line refusal before the run\n%s%s", code, out, errs)
	}
}

// The commands that read the history have no --no-db, so their messages
// do not offer it; the others do.
func TestStoreMessagesOfferOnlyTheCommandsFlags(t *testing.T) {
	err := &runstore.InUse{Dir: ".mc", Holder: "mc sweep (pid 7)"}
	if m := historyMessage(err); strings.Contains(m, "--no-db") || !strings.Contains(m, "--db DIR") {
		t.Errorf("mc runs would say %q", m)
	}
	if m := dbMessage(err); !strings.HasSuffix(m, "give --db DIR or --no-db") {
		t.Errorf("mc sweep would say %q", m)
	}
}

// mc runs on read-only media (here a read-only bind mount, read-only even
// to root) exited 3, so such a store could not even be listed: it lists
// it, exit 0, and mc runs show reads a run of it.
func TestRunsListsAStoreOnReadOnlyMedia(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a read-only bind mount needs root")
	}
	db := filepath.Join(t.TempDir(), "db")
	for _, n := range []string{"3", "4"} {
		if code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", n, "--db", db); code != exitPass {
			t.Fatalf("exit %d: %s%s", code, out, errs)
		}
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "--bind", db, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount: %v %s", err, out)
	}
	defer exec.Command("umount", "-l", mnt).Run()
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot make the bind mount read-only: %v %s", err, out)
	}
	code, out, errs := mc(t, context.Background(), "runs", "--db", mnt)
	if code != exitPass || errs != "" || !strings.Contains(out, "changroberts --n 3") || !strings.Contains(out, "changroberts --n 4") {
		t.Fatalf("mc runs on a read-only store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "runs", "show", "2", "--db", mnt)
	if code != exitPass || !strings.Contains(out, "run 2: mc check changroberts --n 4") {
		t.Fatalf("mc runs show on a read-only store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// killedStore is a copy of the run store db taken while this process
// holds it open, as mc killed with SIGKILL leaves it: no CLOSED, Badger's
// logs as they were. Badger's logs are mostly the zeros they were made
// with, and are copied as sparse files. Badger may flush or compact in the
// background meanwhile (a table made, then listed in the MANIFEST): a copy
// during which the store's files changed is not one a kill leaves (its
// MANIFEST could list a table the copy lacks), and is taken again.
func killedStore(t *testing.T, db string) string {
	t.Helper()
	s, err := runstore.Open(db, runstore.Options{Holder: "mc test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 100 {
		before := storeListing(t, db)
		cp := copyOpenStore(t, db)
		if storeListing(t, db) == before {
			return cp
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the store's files changed during every copy")
	return ""
}

// storeListing names the files of dir with their sizes.
func storeListing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return "" // removed meanwhile: changed
		}
		fmt.Fprintf(&b, "%s %d\n", e.Name(), info.Size())
	}
	return b.String()
}

// copyOpenStore copies the files of the open store db, sparsely, to a new
// directory.
func copyOpenStore(t *testing.T, db string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "killed")
	if err := os.Mkdir(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(db)
	if err != nil {
		t.Fatal(err)
	}
	buf, zeros := make([]byte, 64<<10), make([]byte, 64<<10)
	for _, e := range entries {
		data, err := os.Open(filepath.Join(db, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile: the listing changed, and killedStore copies again
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(filepath.Join(cp, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var at int64
		for {
			n, err := data.ReadAt(buf, at)
			if n > 0 && !bytes.Equal(buf[:n], zeros[:n]) {
				if _, err := out.WriteAt(buf[:n], at); err != nil {
					t.Fatal(err)
				}
			}
			at += int64(n)
			if err != nil {
				break
			}
		}
		if err := out.Truncate(at); err != nil {
			t.Fatal(err)
		}
		data.Close()
		out.Close()
	}
	return cp
}

// mc runs after a kill (here, a store copied while it was open, as a kill
// leaves it) was refused, "copy it to writable storage", though the store
// was on writable disk and mc check recovered it: mc runs recovers it and
// lists its checks, exit 0, and mc runs show reads one. In a directory mc
// cannot write (its mode; root ignores it) it is still refused in one
// line.
func TestRunsRecoversAKilledStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	for _, n := range []string{"3", "4"} {
		if code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", n, "--db", db); code != exitPass {
			t.Fatalf("exit %d: %s%s", code, out, errs)
		}
	}
	killed := killedStore(t, db)
	if _, err := os.Stat(filepath.Join(killed, "CLOSED")); err == nil {
		t.Fatal("the killed store was closed: the test shows nothing")
	}
	if os.Geteuid() != 0 {
		readOnly := killedStore(t, db)
		os.Chmod(readOnly, 0o555)
		defer os.Chmod(readOnly, 0o755)
		code, out, errs := mc(t, context.Background(), "runs", "--db", readOnly)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "not closed by its last session") {
			t.Fatalf("mc runs on a killed store in a read-only directory: exit %d, stdout %q, stderr %q", code, out, errs)
		}
	}
	code, out, errs := mc(t, context.Background(), "runs", "--db", killed)
	if code != exitPass || errs != "" || !strings.Contains(out, "changroberts --n 3") || !strings.Contains(out, "changroberts --n 4") {
		t.Fatalf("mc runs on a killed store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = mc(t, context.Background(), "runs", "show", "2", "--db", killed)
	if code != exitPass || !strings.Contains(out, "run 2: mc check changroberts --n 4") {
		t.Fatalf("mc runs show on a recovered store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// A sweep killed while writing its table leaves a temporary file beside
// the file it was writing (atomicfile); the next sweep into that
// directory removes it, and nothing else, so that the directory ends as an
// uninterrupted sweep leaves it (TestKilledSweepGivesTheSameTable caught
// one such file).
func TestSweepRemovesTheTemporaryFilesOfAKilledOne(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".changroberts.json.0123456789abcdef.mc-tmp")
	other := filepath.Join(dir, ".notes.0123456789abcdef.mc-tmp")
	for _, f := range []string{stale, other} {
		if err := os.WriteFile(f, []byte("cut"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errs := mc(t, context.Background(), "sweep", "changroberts", "--n", "3..4", "--no-db", "--out", dir); code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed sweep's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not the sweep's was touched: %v", err)
	}
}
