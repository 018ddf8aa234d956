package runstore

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4/table"
)

// TestMain lets a test run this binary as a process that writes to a
// store until it is killed (MC_RUNSTORE_WRITER names the store).
func TestMain(m *testing.M) {
	if dir := os.Getenv("MC_RUNSTORE_WRITER"); dir != "" {
		os.Exit(writeUntilKilled(dir))
	}
	os.Exit(m.Run())
}

// writeUntilKilled adds checks and classes to the store in dir, printing
// the number of each check once it is recorded.
func writeUntilKilled(dir string) int {
	s, err := Open(dir, Options{Holder: "writer", Create: true, Wait: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		c := &Check{Verdict: "pass", Output: strings.Repeat("o", i%5000), States: int64(i)}
		c.Key, _ = NewKey(KindCheck, key(nil, 3, nil).Run, nil, "0123abcd")
		if err := s.AddCheck(c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		k, _ := NewKey(KindSweepClass, c.Key.Run, map[string]int{"i": int(c.ID)}, "0123abcd")
		if err := s.Save(k, class{States: int(c.ID), Labels: []string{strings.Repeat("l", 70000*(i%2))}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(c.ID)
	}
}

// A process killed with SIGKILL while it writes leaves every record it
// finished whole, and none half-written: after several kills at random
// moments, every check it reported is there with its class, the numbers
// run 1, 2, … without a gap, and every record passes its checksum.
func TestKilledWriterLeavesWholeRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	reported := map[uint64]bool{}
	for round := 0; round < 5; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MC_RUNSTORE_WRITER="+dir)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		lines.Scan() // the store is open and written to
		time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		for {
			if id, err := strconv.ParseUint(lines.Text(), 10, 64); err == nil {
				reported[id] = true
			}
			if !lines.Scan() {
				break
			}
		}
		cmd.Wait()
	}
	s := open(t, dir)
	defer s.Close()
	checks, err := s.Checks()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		if c.ID != uint64(i+1) || len(c.Output) != int(c.States)%5000 {
			t.Fatalf("check %d of %d: %+v", i+1, len(checks), c.ID)
		}
		var cl class
		k, _ := NewKey(KindSweepClass, c.Key.Run, map[string]int{"i": int(c.ID)}, "0123abcd")
		found, err := s.Lookup(k, &cl)
		if err != nil || (found && cl.States != int(c.ID)) || (!found && reported[c.ID]) {
			t.Fatalf("class of check %d: found %v, %v, %d", c.ID, found, err, cl.States)
		}
	}
	for id := range reported {
		if id > uint64(len(checks)) {
			t.Fatalf("check %d was reported recorded, and the store holds %d", id, len(checks))
		}
	}
	if len(reported) == 0 {
		t.Fatal("no writer recorded anything before it was killed")
	}
	t.Logf("%d checks after 5 kills, %d reported", len(checks), len(reported))
}

// killedWithATable runs the writer until Badger has written a table and
// listed it in its MANIFEST, then kills it: a store whose last session did
// not close it, as mc sweep killed with SIGKILL leaves it.
func killedWithATable(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MC_RUNSTORE_WRITER="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGKILL)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if mf, err := readManifest(dir); err == nil && len(mf.Tables) > 0 {
			return dir
		}
	}
	t.Fatal("the writer wrote no table in 2 minutes")
	return ""
}

// A store whose last session was killed is read before Badger opens it:
// zeroed 4 KiB in a table (Badger panicked in a goroutine of its own), a
// missing, emptied or cut MANIFEST (Badger deleted every table and the
// next check was numbered 1), an unlisted table that cannot be read
// numbered before a listed one, are each refused in one line naming the
// file, and no file is deleted; an unlisted copy of a listed table loses
// nothing, and opens; the store as the kill left it opens with every
// check it holds, even with the empty memtable log that a kill while
// Badger removes a flushed one leaves (Badger refused to open it), and
// the empty value log a kill right after Badger created it leaves (mc
// refused it as shorter than its header).
func TestKilledStoreIsReadBeforeBadgerOpensIt(t *testing.T) {
	if testing.Short() {
		t.Skip("writes until Badger makes a table")
	}
	dir := killedWithATable(t)
	mf, err := readManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for id := range mf.Tables {
		first = table.NewFilename(id, dir)
	}
	st, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	zero := func(at int64) func(string) {
		return func(cp string) {
			f, _ := os.OpenFile(filepath.Join(cp, filepath.Base(first)), os.O_WRONLY, 0)
			f.WriteAt(make([]byte, 4096), at)
			f.Close()
		}
	}
	cases := map[string]func(cp string){
		"table zeroed at its start":  zero(0),
		"table zeroed in its middle": zero(st.Size() / 2 &^ 4095),
		"table zeroed at its end":    zero(max(0, st.Size()-4096)),
		"MANIFEST removed":           func(cp string) { os.Remove(filepath.Join(cp, "MANIFEST")) },
		"MANIFEST emptied":           func(cp string) { os.Truncate(filepath.Join(cp, "MANIFEST"), 0) },
		"MANIFEST cut in its header": func(cp string) { os.Truncate(filepath.Join(cp, "MANIFEST"), 5) },
		"MANIFEST cut in a record":   func(cp string) { os.Truncate(filepath.Join(cp, "MANIFEST"), 12) },
		"a table it does not list, numbered before one it does, that cannot be read": func(cp string) {
			data, _ := os.ReadFile(first)
			clear(data[:min(len(data), 4096)])
			os.WriteFile(filepath.Join(cp, "000000.sst"), data, 0o644)
		},
	}
	for name, damage := range cases {
		cp := copyDir(t, dir)
		damage(cp)
		before := keptFiles(cp)
		_, err := Open(cp, Options{})
		var refused *Refused
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "is damaged") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: open gave %v", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "MANIFEST") && !strings.Contains(err.Error(), ".sst") {
			t.Errorf("%s: the refusal names no file: %v", name, err)
		}
		if after := keptFiles(cp); after != before {
			t.Errorf("%s: files before the open %v, after %v", name, before, after)
		}
	}
	// A table it does not list whose records it holds (a compaction's
	// input that a kill left after the MANIFEST dropped it) loses nothing.
	cp := copyDir(t, dir)
	data, _ := os.ReadFile(first)
	os.WriteFile(filepath.Join(cp, "000000.sst"), data, 0o644)
	if refused, wrong := survivesOrRefuses(t, cp, checksOf(t, dir)); refused || wrong != "" {
		t.Errorf("an unlisted copy of a listed table: refused %v, %s", refused, wrong)
	}
	os.WriteFile(filepath.Join(dir, "99999.mem"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "999999.vlog"), nil, 0o644)
	s := open(t, dir)
	defer s.Close()
	checks, err := s.Checks()
	if err != nil || len(checks) == 0 || checks[len(checks)-1].ID != uint64(len(checks)) {
		t.Fatalf("the killed store as it was left: %d checks, %v", len(checks), err)
	}
}

// keptFiles lists the files of a store that an open refused for damage
// must leave, by name: all but the empty memtable logs, which a kill
// during Badger's close can leave, and the temporary files of mc's own
// files, which mc removes before it looks at the rest
// (removeEmptyLogs, removeStaleTemps), damage or not: they hold
// nothing.
func keptFiles(dir string) string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if info, err := e.Info(); (err == nil && isLog(e.Name()) && info.Size() == 0) || isOurTemp(e.Name()) {
			continue
		}
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}
