package runstore

import (
	"bufio"
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
