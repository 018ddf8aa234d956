package runstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// survivesOrRefuses opens cp, a damaged copy of a killed session's store
// whose checks are want, and says what was wrong: the open must either
// refuse the store in one line, naming a file, and change no file of it,
// or open it holding every check in want, each readable with its class
// (the values in the value logs too), and number the next check after
// them. Refused tells which it was.
func survivesOrRefuses(t *testing.T, cp string, want int) (refused bool, wrong string) {
	t.Helper()
	before := storeFiles(t, cp)
	s, err := Open(cp, Options{})
	var r *Refused
	if err != nil {
		switch {
		case !errors.As(err, &r) || strings.Contains(err.Error(), "\n"):
			return false, fmt.Sprintf("open gave %v", err)
		case !strings.Contains(err.Error(), "MANIFEST") && !strings.Contains(err.Error(), ".sst") && !strings.Contains(err.Error(), ".mem") &&
			!strings.Contains(err.Error(), ".vlog") && !strings.Contains(err.Error(), "KEYREGISTRY") && !strings.Contains(err.Error(), "records were lost"):
			return true, fmt.Sprintf("the refusal names no file: %v", err)
		}
		if after := storeFiles(t, cp); after != before {
			return true, fmt.Sprintf("refused (%v), and its files changed:\nbefore %s\nafter  %s", err, before, after)
		}
		return true, ""
	}
	defer s.Close()
	checks, err := s.Checks()
	if err != nil {
		if errors.As(err, &r) && !strings.Contains(err.Error(), "\n") {
			return true, "" // refused when read, in one line
		}
		return false, fmt.Sprintf("opened, then the checks gave %v", err)
	}
	if len(checks) != want {
		return false, fmt.Sprintf("opened with %d checks of %d", len(checks), want)
	}
	for _, c := range checks {
		var cl class
		k, _ := NewKey(KindSweepClass, c.Key.Run, map[string]int{"i": int(c.ID)}, "0123abcd")
		if _, err := s.Lookup(k, &cl); err != nil {
			if errors.As(err, &r) && !strings.Contains(err.Error(), "\n") {
				return true, ""
			}
			return false, fmt.Sprintf("opened, then the class of check %d gave %v", c.ID, err)
		}
	}
	c := &Check{Verdict: "pass"}
	c.Key, _ = NewKey(KindCheck, key(t, 3, nil).Run, nil, "0123abcd")
	if err := s.AddCheck(c); err != nil || c.ID != uint64(want+1) {
		return false, fmt.Sprintf("opened, and the next check was numbered %d (%v), want %d", c.ID, err, want+1)
	}
	return false, ""
}

// storeFiles lists the files of dir with their sums, but for the lock
// file an open makes, and the temporary files of mc's own files and the
// empty memtable logs it removes (removeStaleTemps,
// removeEmptyLogs), which hold nothing.
func storeFiles(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == lockFile || isOurTemp(e.Name()) || (isLog(e.Name()) && info.Size() == 0) {
			continue
		}
		sum, err := sumFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s:%d:%x", e.Name(), sum.size, sum.hash))
	}
	return strings.Join(out, " ")
}

// checksOf is the number of checks a copy of the killed store dir holds
// once opened.
func checksOf(t *testing.T, dir string) int {
	t.Helper()
	s := open(t, copyDir(t, dir))
	defer s.Close()
	checks, err := s.Checks()
	if err != nil {
		t.Fatal(err)
	}
	return len(checks)
}

// manifestBoundaries are the offsets in the MANIFEST at path where one
// of its records ends, the last (its length) left out: Badger's layout,
// 8 bytes of magic, then per record its length and CRC (4 bytes each) and
// the record.
func manifestBoundaries(t *testing.T, path string) []int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for at := 8; at < len(data); {
		out = append(out, int64(at))
		if at+8 > len(data) {
			t.Fatalf("the MANIFEST ends in a record's length, at byte %d", at)
		}
		at += 8 + int(binary.BigEndian.Uint32(data[at:]))
	}
	return out
}

// A killed session's store whose MANIFEST is cut exactly where one of its
// records ends reads, to Badger, as an older whole MANIFEST, and Badger
// deletes the tables it no longer lists (the next check was numbered as
// one it held). At every such cut, the open either refuses the store in
// one line and changes no file, or opens it with every check it held (the
// records of the tables it drops are in a memtable log still); where the
// cut loses records no other file holds, it refuses.
func TestManifestCutAtARecordEndIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("writes until Badger makes a table")
	}
	// A store killed as it flushed: the cuts lose nothing while the
	// memtable logs still hold the tables' records.
	manifestCutsAreRefused(t, killedWithATable(t), false)
	// One whose flushes and compactions were done: every cut loses a
	// table's records, held nowhere else.
	manifestCutsAreRefused(t, killedWithTables(t, 6), true)
}

// manifestCutsAreRefused cuts the MANIFEST of a copy of the killed store
// dir at each of its records' ends, and opens it; each loses records, if
// lossy.
func manifestCutsAreRefused(t *testing.T, dir string, lossy bool) {
	want := checksOf(t, dir)
	boundaries := manifestBoundaries(t, filepath.Join(dir, "MANIFEST"))
	refusals := 0
	for _, at := range boundaries {
		cp := copyDir(t, dir)
		if err := os.Truncate(filepath.Join(cp, "MANIFEST"), at); err != nil {
			t.Fatal(err)
		}
		refused, wrong := survivesOrRefuses(t, cp, want)
		if wrong != "" {
			t.Errorf("MANIFEST cut at byte %d of its records' ends %v: %s", at, boundaries, wrong)
		}
		if refused {
			refusals++
		}
		if lossy && !refused {
			t.Errorf("MANIFEST cut at byte %d of its records' ends %v: not refused", at, boundaries)
		}
	}
	t.Logf("%d checks; %d of %d cuts refused, the others opened with every check", want, refusals, len(boundaries))
}

// Damage inside a killed session's memtable log (*.mem) or newest value
// log (*.vlog), which Badger replays and cuts at the first damaged entry,
// dropping every record after it, or in an older value log, which it reads
// only for a value: 4 KiB zeroed, a byte flipped, or the file cut short,
// at a quarter, the middle or the end of what it holds. Each is refused in one
// line with no file changed, or opens with every check and class the store
// held: never a panic, never a check lost or a number given twice.
func TestDamagedLogsOfAKilledStore(t *testing.T) {
	if testing.Short() {
		t.Skip("writes until Badger makes a table")
	}
	dir := killedWithATable(t)
	want := checksOf(t, dir)
	next, err := readRecorded(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A check committed to the log whose RECORDED the kill came before:
	// damage to its entry's last bytes reads as the kill's own cut of it
	// (the gap docs/runstore.md states), and the store opens without it.
	unrecordedLast := int(next) <= want
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for _, e := range entries {
		if info, _ := e.Info(); (strings.HasSuffix(e.Name(), ".mem") || strings.HasSuffix(e.Name(), ".vlog")) && info.Size() > logHeaderSize {
			logs = append(logs, e.Name())
		}
	}
	if !slices.ContainsFunc(logs, func(n string) bool { return strings.HasSuffix(n, ".mem") }) {
		t.Fatal("the killed store has no memtable log with records")
	}
	refusals, cases := 0, 0
	for _, name := range logs {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		end, err := lastNonZero(f, logHeaderSize, st.Size())
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if end <= logHeaderSize {
			t.Logf("%s holds no record", name)
			continue
		}
		for _, at := range []int64{logHeaderSize + (end-logHeaderSize)/4, logHeaderSize + (end-logHeaderSize)/2, end - 1} {
			for what, damage := range map[string]func(path string) error{
				"4 KiB zeroed": func(path string) error {
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					if err != nil {
						return err
					}
					defer f.Close()
					_, err = f.WriteAt(make([]byte, min(4096, end-at)), at)
					return err
				},
				"a byte flipped": func(path string) error {
					f, err := os.OpenFile(path, os.O_RDWR, 0)
					if err != nil {
						return err
					}
					defer f.Close()
					b := make([]byte, 1)
					if _, err := f.ReadAt(b, at); err != nil {
						return err
					}
					_, err = f.WriteAt([]byte{b[0] ^ 0x10}, at)
					return err
				},
				"cut short": func(path string) error { return os.Truncate(path, at) },
			} {
				cp := copyDir(t, dir)
				if err := damage(filepath.Join(cp, name)); err != nil {
					t.Fatal(err)
				}
				refused, wrong := survivesOrRefuses(t, cp, want)
				if wrong != "" && unrecordedLast && at == end-1 && strings.HasSuffix(name, ".mem") {
					if _, wrongLess := survivesOrRefuses(t, copyDirDamaged(t, dir, name, damage), want-1); wrongLess == "" {
						t.Logf("%s %s at its last byte: opened without the check RECORDED did not count yet, as a kill cutting it leaves it", name, what)
						wrong = ""
					}
				}
				if wrong != "" {
					t.Errorf("%s %s at byte %d of %d: %s", name, what, at, end, wrong)
				}
				cases++
				if refused {
					refusals++
				}
			}
		}
	}
	t.Logf("%d checks, logs %v: %d of %d damages refused, the others opened with every check", want, logs, refusals, cases)
}

// A store whose last session was killed must hold every check mc recorded
// it to hold (RECORDED): its memtable log cut short, dropping the last
// check, or a RECORDED that counts more checks than the files hold, is
// refused; a damaged RECORDED too. The store as the kill left it opens
// with its checks.
func TestRecordedChecksMustBeHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a dozen copies of a store, each with a 128 MiB value log")
	}
	killed := killedWithChecks(t, 3)
	if next, err := readRecorded(killed); next != 4 || err != nil {
		t.Fatalf("RECORDED says %d (%v), want 4", next, err)
	}
	memLog := func(cp string) string {
		entries, _ := os.ReadDir(cp)
		for _, e := range entries {
			if info, _ := e.Info(); strings.HasSuffix(e.Name(), ".mem") && info.Size() > 0 {
				return filepath.Join(cp, e.Name())
			}
		}
		t.Fatal("no memtable log")
		return ""
	}
	for name, c := range map[string]struct {
		damage func(cp string) error
		why    string
	}{
		"the memtable log cut in its last check": {func(cp string) error {
			path := memLog(cp)
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			st, _ := f.Stat()
			end, err := lastNonZero(f, logHeaderSize, st.Size())
			f.Close()
			if err != nil {
				return err
			}
			return os.Truncate(path, end-10)
		}, "it was recorded to hold 3 checks, and its files hold 2"},
		"RECORDED counting more checks": {func(cp string) error { return writeRecorded(cp, 10) }, "it was recorded to hold 9 checks, and its files hold 3"},
		"RECORDED damaged": {func(cp string) error {
			return os.WriteFile(filepath.Join(cp, recordedFile), []byte("next-check 3 0123456789abcdef\n"), 0o644)
		}, "its file RECORDED is damaged: it fails its checksum"},
	} {
		cp := copyDir(t, killed)
		if err := c.damage(cp); err != nil {
			t.Fatal(err)
		}
		before := storeFiles(t, cp)
		_, err := Open(cp, Options{})
		if err == nil || !strings.Contains(err.Error(), c.why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: open gave %v, want %q", name, err, c.why)
		}
		if after := storeFiles(t, cp); after != before {
			t.Errorf("%s: the refused open changed files:\nbefore %s\nafter  %s", name, before, after)
		}
	}
	if refused, wrong := survivesOrRefuses(t, copyDir(t, killed), 3); refused || wrong != "" {
		t.Errorf("the store as the kill left it: refused %v, %s", refused, wrong)
	}
}

// killedWithChecks is a copy of a store with n checks, taken while the
// store is open: as a kill leaves it, with no CLOSED, its records in a
// memtable log.
func killedWithChecks(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	defer s.Close()
	for range n {
		c := &Check{Verdict: "pass"}
		c.Key, _ = NewKey(KindCheck, key(t, 3, nil).Run, nil, "0123abcd")
		if err := s.AddCheck(c); err != nil {
			t.Fatal(err)
		}
	}
	return copyWhenQuiet(t, dir)
}

// A killed session's store whose KEYREGISTRY (Badger refused it without
// naming it, "Encryption key mismatch") or DISCARD (statistics for the
// value log's garbage collection) is zeroed, flipped or cut, at its start,
// middle or end: refused in one line naming the file, or opened with every
// check.
func TestKeyRegistryAndDiscardStatsOfAKilledStore(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a dozen copies of a store, each with a 128 MiB value log")
	}
	killed := killedWithChecks(t, 3)
	for _, name := range []string{"KEYREGISTRY", "DISCARD"} {
		st, err := os.Stat(filepath.Join(killed, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []int64{0, st.Size() / 2, st.Size() - 1} {
			for what, damage := range map[string]func(path string) error{
				"zeroed": func(path string) error {
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					if err != nil {
						return err
					}
					defer f.Close()
					_, err = f.WriteAt(make([]byte, min(4096, st.Size()-at)), at)
					return err
				},
				"flipped": func(path string) error {
					f, err := os.OpenFile(path, os.O_RDWR, 0)
					if err != nil {
						return err
					}
					defer f.Close()
					b := make([]byte, 1)
					if _, err := f.ReadAt(b, at); err != nil {
						return err
					}
					_, err = f.WriteAt([]byte{^b[0]}, at)
					return err
				},
				"cut": func(path string) error { return os.Truncate(path, at) },
			} {
				cp := copyDir(t, killed)
				if err := damage(filepath.Join(cp, name)); err != nil {
					t.Fatal(err)
				}
				refused, wrong := survivesOrRefuses(t, cp, 3)
				if refused && wrong == "" {
					_, err := Open(cp, Options{})
					if err == nil || !strings.Contains(err.Error(), name) {
						wrong = fmt.Sprintf("the refusal names no %s: %v", name, err)
					}
				}
				if wrong != "" {
					t.Errorf("%s %s at byte %d: %s", name, what, at, wrong)
				}
			}
		}
	}
}

// killedWithTables is a copy of a store taken while it is open, as a kill
// leaves it, once its MANIFEST holds records records: checks with outputs
// long enough that Badger flushes a memtable every few dozen, and compacts
// the tables it flushed.
func killedWithTables(t *testing.T, records int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	defer s.Close()
	for i := 0; len(manifestBoundaries(t, filepath.Join(dir, "MANIFEST"))) < records; i++ {
		if i == 5000 {
			t.Fatalf("5000 checks, and the MANIFEST holds fewer than %d records", records)
		}
		c := &Check{Verdict: "pass", Output: strings.Repeat(string(rune('a'+i%26)), 60000)}
		c.Key, _ = NewKey(KindCheck, key(t, 3, nil).Run, nil, "0123abcd")
		if err := s.AddCheck(c); err != nil {
			t.Fatal(err)
		}
	}
	return copyWhenQuiet(t, dir)
}

// copyDirDamaged is a copy of dir with damage done to its file name.
func copyDirDamaged(t *testing.T, dir, name string, damage func(path string) error) string {
	t.Helper()
	cp := copyDir(t, dir)
	if err := damage(filepath.Join(cp, name)); err != nil {
		t.Fatal(err)
	}
	return cp
}

// copyWhenQuiet copies the open store dir once its files have stopped
// changing: Badger flushes and compacts in goroutines of its own, and a
// kill leaves the files as they were at one moment.
func copyWhenQuiet(t *testing.T, dir string) string {
	t.Helper()
	listing := func() string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				out = append(out, fmt.Sprintf("%s:%d:%d", e.Name(), info.Size(), info.ModTime().UnixNano()))
			}
		}
		return strings.Join(out, " ")
	}
	for last := ""; ; time.Sleep(200 * time.Millisecond) {
		now := listing()
		if now == last {
			return copyDir(t, dir)
		}
		last = now
	}
}
