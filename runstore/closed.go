package runstore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/internal/atomicfile"
)

// closedFile lists, when the store was last closed cleanly, each of
// Badger's files with its length and xxhash64. Open compares the files
// with it before Badger reads them, and then removes it: Badger checksums
// its log entries and table blocks, but it panics, in a goroutine of its
// own, on a table that was truncated or whose index is garbled, and a
// panic is no refusal. A store whose last session was killed has no
// closedFile; checkKilled (killed.go) then reads its MANIFEST and tables
// before Badger does (docs/runstore.md).
const closedFile = "CLOSED"

// notBadgers are the files of the store that are not Badger's: closedFile
// does not list them, nor the temporary files of FORMAT, closedFile and
// recordedFile (isOurTemp). FORMAT.tmp and CLOSED.tmp are the fixed temporary names an
// earlier mc used, which a store it left may still hold.
var notBadgers = []string{formatFile, formatFile + ".tmp", lockFile, closedFile, closedFile + ".tmp", recordedFile, "LOCK"}

// isOurTemp says whether name is a temporary file of the store's own
// files, as a process killed while writing one leaves it.
func isOurTemp(name string) bool {
	return atomicfile.IsTemp(name, formatFile) || atomicfile.IsTemp(name, closedFile) || atomicfile.IsTemp(name, recordedFile)
}

// removeStaleTemps removes the temporary files of FORMAT, closedFile and
// recordedFile that a process killed while writing them left, under the
// store's lock.
func removeStaleTemps(dir string) error {
	return errors.Join(atomicfile.RemoveStale(dir, formatFile), atomicfile.RemoveStale(dir, closedFile), atomicfile.RemoveStale(dir, recordedFile))
}

// writeClosed lists Badger's files in closedFile, once Badger has closed.
func writeClosed(dir string) error {
	sums, err := sumFiles(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(&b, "%s %d %016x\n", name, sums[name].size, sums[name].hash)
	}
	return atomicfile.WriteFile(filepath.Join(dir, closedFile), []byte(b.String()))
}

// checkClosed compares Badger's files with closedFile, if there is one,
// and removes it before Badger opens them; without one, the last session
// was killed, and checkKilled reads them instead.
func checkClosed(dir string) error {
	closed, err := verifyClosed(dir, false)
	if err != nil || !closed {
		return err
	}
	if err := os.Remove(filepath.Join(dir, closedFile)); err != nil {
		return &Unwritable{Dir: dir, Err: err}
	}
	return nil
}

// verifyClosed is checkClosed's verification: the files against the list
// of the last close, or, when there is none, checkKilled's (readOnly as
// there). closed says the list was there.
func verifyClosed(dir string, readOnly bool) (closed bool, err error) {
	f, err := os.Open(filepath.Join(dir, closedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, checkKilled(dir, readOnly)
	}
	if err != nil {
		return false, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	want, err := readClosed(f)
	f.Close()
	if err != nil {
		return false, &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its %s file %v", closedFile, err)}
	}
	got, err := sumFiles(dir)
	if err != nil {
		return false, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[name]
		switch {
		case !ok:
			return true, &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file %s is missing", name)}
		case g != want[name]:
			return true, &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file %s changed after mc last closed the store", name)}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			return true, &Refused{Dir: dir, Why: fmt.Sprintf("is damaged: its file %s appeared after mc last closed the store", name)}
		}
	}
	return true, nil
}

type fileSum struct {
	size int64
	hash uint64
}

// sumFiles hashes every file of Badger's in dir.
func sumFiles(dir string) (map[string]fileSum, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]fileSum{}
	for _, e := range entries {
		if slices.Contains(notBadgers, e.Name()) || isOurTemp(e.Name()) {
			continue
		}
		sum, err := sumFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = sum
	}
	return out, nil
}

func sumFile(path string) (fileSum, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	h := xxhash.New()
	n, err := io.Copy(h, f)
	return fileSum{size: n, hash: h.Sum64()}, err
}

// readClosed parses closedFile: one "name length hash" line per file.
func readClosed(r io.Reader) (map[string]fileSum, error) {
	out := map[string]fileSum{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			return nil, fmt.Errorf("has a line that is not a file, a length and a hash")
		}
		size, err1 := strconv.ParseInt(fields[1], 10, 64)
		hash, err2 := strconv.ParseUint(fields[2], 16, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("has a line that is not a file, a length and a hash")
		}
		out[fields[0]] = fileSum{size: size, hash: hash}
	}
	return out, sc.Err()
}
