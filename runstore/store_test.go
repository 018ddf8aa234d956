package runstore

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runinfo"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{Holder: "mc test", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// key is a sweep class's key for changroberts at n; t may be nil in a
// child process.
func key(t *testing.T, n int, options any) Key {
	run := runinfo.Meaning{Spec: "changroberts", Variant: "chang-roberts", Params: runinfo.ParamsOf(model.Params{N: n, IDs: ring.DescendingIDs(n)}), Fair: "process"}
	k, err := NewKey(KindSweepClass, run, options, "0123abcd")
	if err != nil {
		panic(err)
	}
	return k
}

type class struct {
	States int      `json:"states"`
	Labels []string `json:"labels"`
}

// A record saved is found again, after the store is closed and opened, by
// an equal key only: another parameter, other options, another spec hash
// or another engine find nothing.
func TestSavedRecordIsFoundByItsKeyOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	k := key(t, 4, map[string]any{"kinds": []string{"elect"}})
	want := class{States: 434, Labels: []string{"send p0 ⟨elect 4⟩"}}
	if err := s.Save(k, want); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir)
	defer s.Close()
	var got class
	if found, err := s.Lookup(k, &got); err != nil || !found || !reflect.DeepEqual(got, want) {
		t.Fatalf("lookup: found %v, %v, %+v", found, err, got)
	}
	other := []Key{key(t, 5, map[string]any{"kinds": []string{"elect"}}), key(t, 4, nil), key(t, 4, map[string]any{"kinds": []string{"done"}})}
	hash := k
	hash.SpecHash = "4567ef"
	engine := k
	engine.Engine++
	fair := k
	fair.Run.Fair = "action"
	for _, o := range append(other, hash, engine, fair) {
		if found, err := s.Lookup(o, &got); found || err != nil {
			t.Errorf("key %s found the record of %s (%v)", o.encode(), k.encode(), err)
		}
	}
}

// Checks are numbered in order, listed oldest first, and GC keeps the most
// recent; numbers are never given twice. GC also drops the sweep classes
// this mc cannot reuse.
func TestChecksAreNumberedAndPruned(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "store"))
	defer s.Close()
	for i, v := range []string{"pass", "fail", "pass"} {
		c := &Check{Key: key(t, 3+i, nil), Verdict: v, States: int64(10 * (i + 1)), Output: "out " + v}
		if err := s.AddCheck(c); err != nil || c.ID != uint64(i+1) {
			t.Fatalf("check %d got id %d (%v)", i, c.ID, err)
		}
	}
	stale, kept := key(t, 3, nil), key(t, 4, nil)
	stale.SpecHash = "old"
	for _, k := range []Key{stale, kept} {
		if err := s.Save(k, class{States: 1}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.GC(1, func(spec, hash string) bool { return hash == "0123abcd" })
	if err != nil || p != (Pruned{Checks: 2, Classes: 1}) {
		t.Fatalf("GC: %+v %v", p, err)
	}
	checks, err := s.Checks()
	if err != nil || len(checks) != 1 || checks[0].ID != 3 || checks[0].States != 30 || checks[0].Output != "out pass" {
		t.Fatalf("after GC: %+v %v", checks, err)
	}
	if _, found, _ := s.Check(1); found {
		t.Fatal("check 1 survived GC")
	}
	c := &Check{Key: key(t, 3, nil), Verdict: "pass"}
	if err := s.AddCheck(c); err != nil || c.ID != 4 {
		t.Fatalf("the check after GC got id %d (%v)", c.ID, err)
	}
	var got class
	if found, _ := s.Lookup(kept, &got); !found {
		t.Fatal("GC removed a class this mc can reuse")
	}
	if found, _ := s.Lookup(stale, &got); found {
		t.Fatal("GC kept a class of another spec hash")
	}
}

// A directory that is not a run store, a store of another format, and a
// missing store opened only to read are refused, and nothing is written
// into them.
func TestOpenRefusesWhatIsNotThisFormatsStore(t *testing.T) {
	base := t.TempDir()
	foreign := filepath.Join(base, "results")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "hp.json"), []byte("{}"), 0o644)
	future := filepath.Join(base, "future")
	os.MkdirAll(future, 0o755)
	os.WriteFile(filepath.Join(future, formatFile), []byte("mc run store 2\n"), 0o644)
	garbled := filepath.Join(base, "garbled")
	os.MkdirAll(garbled, 0o755)
	os.WriteFile(filepath.Join(garbled, formatFile), []byte("badger\n"), 0o644)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ dir, want string }{
		{foreign, "is not an mc run store: it holds files but no FORMAT file"},
		{future, "is of format 2, and this mc reads format 1"},
		{garbled, "is not an mc run store"},
		{file, "is not a directory"},
	} {
		before, _ := os.ReadDir(c.dir)
		_, err := Open(c.dir, Options{Create: true})
		var refused *Refused
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "the run store "+c.dir+" ") {
			t.Errorf("%s: %v, want %q", c.dir, err, c.want)
		}
		if after, _ := os.ReadDir(c.dir); len(after) != len(before) {
			t.Errorf("%s: opening it wrote into it", c.dir)
		}
	}
	var missing *Missing
	if _, err := Open(filepath.Join(base, "none"), Options{}); !errors.As(err, &missing) {
		t.Errorf("a missing store opened to read: %v", err)
	}
	if _, err := os.Stat(filepath.Join(base, "none")); err == nil {
		t.Error("opening a missing store to read made it")
	}
}

// A second opener waits for the holder, and, when the holder keeps the
// store longer than the wait, is told who holds it.
func TestSecondOpenerWaitsThenIsToldWhoHoldsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s, err := Open(dir, Options{Holder: "mc sweep", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{Holder: "mc check", Wait: 50 * time.Millisecond})
	var inUse *InUse
	want := "the run store " + dir + " is in use by mc sweep (pid "
	if !errors.As(err, &inUse) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("second open: %v, want %q", err, want)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		s.Close()
	}()
	second, err := Open(dir, Options{Holder: "mc check", Wait: 10 * time.Second})
	if err != nil {
		t.Fatalf("the second opener did not get the store once it was released: %v", err)
	}
	second.Close()
}

// A full file system refuses writes with an error naming the store, and
// the store keeps what it held.
func TestFullFileSystemRefusesWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	k := key(t, 3, nil)
	if err := s.Save(k, class{States: 58}); err != nil {
		t.Fatal(err)
	}
	saved := freeSpace
	defer func() { freeSpace = saved }()
	freeSpace = func(string) (uint64, error) { return 10 << 20, nil }
	err := s.Save(key(t, 4, nil), class{States: 434})
	var unwritable *Unwritable
	if !errors.As(err, &unwritable) || !strings.HasPrefix(err.Error(), "the run store "+dir+" cannot be written: its file system has 10.0 MiB free") {
		t.Fatalf("save on a full file system: %v", err)
	}
	if err := s.AddCheck(&Check{Key: k}); !errors.As(err, &unwritable) {
		t.Fatalf("check on a full file system: %v", err)
	}
	s.Close()
	if _, err := Open(dir, Options{Create: true}); !errors.As(err, &unwritable) {
		t.Fatalf("open on a full file system: %v", err)
	}
	freeSpace = saved
	s = open(t, dir)
	defer s.Close()
	var got class
	if found, err := s.Lookup(k, &got); !found || err != nil || got.States != 58 {
		t.Fatalf("after the full file system: %v %v %+v", found, err, got)
	}
}

// A record whose bytes changed after it was written refuses the store:
// never a wrong value read as a right one.
func TestDamagedRecordRefusesTheStore(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "store"))
	defer s.Close()
	k := key(t, 3, nil)
	if err := s.Save(k, class{States: 58}); err != nil {
		t.Fatal(err)
	}
	sealed, err := seal(classRecord{Key: k.encode(), Value: []byte(`{"states":58}`)})
	if err != nil {
		t.Fatal(err)
	}
	misfiled, _ := seal(classRecord{Key: key(t, 4, nil).encode(), Value: []byte(`{"states":434}`)})
	for name, value := range map[string][]byte{
		"a digit changed":   []byte(strings.Replace(string(sealed), "58", "59", 1)),
		"truncated":         sealed[:40],
		"another key's":     misfiled,
		"empty":             nil,
		"not JSON, sealed":  append(sealed[:0:0], mustSeal(t, "x")...),
		"checksum replaced": append(make([]byte, 32), sealed[32:]...),
	} {
		if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(classKey(k), value) }); err != nil {
			t.Fatal(err)
		}
		var got class
		found, err := s.Lookup(k, &got)
		var refused *Refused
		if found || !errors.As(err, &refused) || !strings.Contains(err.Error(), "is damaged") {
			t.Errorf("%s: found %v, %v, %+v", name, found, err, got)
		}
	}
}

func mustSeal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := seal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every file of Badger's in a closed store, one byte changed or cut to
// half its length, refuses the store when it is opened again: Badger never
// reads it (it would panic on some), and no record of it is reused.
func TestDamagedFilesRefuseTheStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, dir)
	for n := 3; n < 8; n++ {
		if err := s.Save(key(t, n, nil), class{States: n}); err != nil {
			t.Fatal(err)
		}
	}
	long := class{States: 9, Labels: []string{strings.Repeat("a long trace ", 8000)}} // kept in the value log
	if err := s.Save(key(t, 9, nil), long); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	damaged := 0
	for _, e := range entries {
		if e.Name() == formatFile || e.Name() == lockFile {
			continue
		}
		for _, how := range []string{"a byte changed", "cut to half"} {
			cp := copyDir(t, dir)
			path := filepath.Join(cp, e.Name())
			data, _ := os.ReadFile(path)
			if len(data) == 0 {
				continue
			}
			if how == "cut to half" {
				data = data[:len(data)/2]
			} else {
				data[len(data)/2] ^= 0x20
			}
			os.WriteFile(path, data, 0o644)
			_, err := Open(cp, Options{Create: true})
			var refused *Refused
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), e.Name()) {
				t.Errorf("%s %s: open gave %v", e.Name(), how, err)
			}
			damaged++
		}
	}
	if damaged < 10 {
		t.Fatalf("only %d damaged copies tried: %v", damaged, entries)
	}
	s = open(t, dir) // the undamaged original still opens, with its records
	defer s.Close()
	var got class
	if found, err := s.Lookup(key(t, 9, nil), &got); !found || err != nil || !reflect.DeepEqual(got, long) {
		t.Fatalf("the original store: %v %v", found, err)
	}
}

func copyDir(t *testing.T, dir string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy")
	os.MkdirAll(cp, 0o755)
	entries, _ := os.ReadDir(dir)
	buf, zeros := make([]byte, 64<<10), make([]byte, 64<<10)
	for _, e := range entries {
		// Badger's log files are mostly the zeros they were made with:
		// they are copied as sparse files, which read the same.
		src, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := src.Stat()
		dst, err := os.Create(filepath.Join(cp, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for at := int64(0); at < st.Size(); at += int64(len(buf)) {
			n, err := src.ReadAt(buf, at)
			if err != nil && err != io.EOF {
				t.Fatal(err)
			}
			if bytes.Equal(buf[:n], zeros[:n]) {
				continue
			}
			if _, err := dst.WriteAt(buf[:n], at); err != nil {
				t.Fatal(err)
			}
		}
		if err := dst.Truncate(st.Size()); err != nil {
			t.Fatal(err)
		}
		src.Close()
		dst.Close()
	}
	return cp
}

// A symbolic link planted at one of the store's fixed names (its lock
// file, and the temporary names an earlier mc wrote FORMAT and CLOSED
// through) never makes mc write into the file it names: the lock is
// refused in one line, the others are written beside, never through.
func TestPlantedLinksAreNotFollowed(t *testing.T) {
	for _, name := range []string{lockFile, formatFile + ".tmp", closedFile + ".tmp"} {
		t.Run(name, func(t *testing.T) {
			top := t.TempDir()
			victim := filepath.Join(top, "victim")
			os.WriteFile(victim, []byte("the user's"), 0o644)
			dir := filepath.Join(top, "store")
			s := open(t, dir)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, name))
			if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			s, err := Open(dir, Options{Holder: "mc test"})
			var refused *Refused
			switch {
			case name == lockFile && (!errors.As(err, &refused) || !strings.Contains(err.Error(), lockFile)):
				t.Fatalf("a link at the lock: %v", err)
			case name != lockFile && err != nil:
				t.Fatal(err)
			case name != lockFile:
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if got, _ := os.ReadFile(victim); string(got) != "the user's" {
				t.Fatalf("the link's target now holds %q", got)
			}
		})
	}
}
