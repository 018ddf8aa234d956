package runstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/ringcheck/mc/internal/atomicfile"
)

// recordedFile is mc's own word of what the store must hold, kept beside
// Badger's files: the number the next check gets, written after each
// check is recorded. Badger can tell a damaged file from a whole one, but
// not a file that lost its end, or a MANIFEST cut exactly where one of its
// records ends, from an older one: it reads what is left as all there
// was, and drops the rest (the records after the cut, the tables no
// longer listed). So a store whose last session was killed must show, to
// mc's own reading of its files before Badger opens them (killed.go),
// every check recordedFile counts; one that does not has lost records, and
// is refused. A store an earlier mc made has none, and is read as before.
const recordedFile = "RECORDED"

const recordedPrefix = "next-check "

// writeRecorded records that the next check the store numbers is next,
// whole or not at all (package atomicfile), with an xxhash of the line.
func writeRecorded(dir string, next uint64) error {
	line := recordedPrefix + strconv.FormatUint(next, 10)
	return atomicfile.WriteFile(filepath.Join(dir, recordedFile), fmt.Appendf(nil, "%s %016x\n", line, xxhash.Sum64String(line)))
}

// readRecorded is the number recordedFile says the next check gets, 0 when
// there is no such file.
func readRecorded(dir string) (uint64, error) {
	data, err := os.ReadFile(filepath.Join(dir, recordedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	text := strings.TrimSuffix(string(data), "\n")
	i := strings.LastIndexByte(text, ' ')
	if i < 0 {
		return 0, errors.New("is damaged: it holds no checksum")
	}
	line, sum := text[:i], text[i+1:]
	if fmt.Sprintf("%016x", xxhash.Sum64String(line)) != sum {
		return 0, errors.New("is damaged: it fails its checksum")
	}
	next, err := strconv.ParseUint(strings.TrimPrefix(line, recordedPrefix), 10, 64)
	if err != nil || !strings.HasPrefix(line, recordedPrefix) || next == 0 {
		return 0, errors.New("is damaged: it names no check")
	}
	return next, nil
}
