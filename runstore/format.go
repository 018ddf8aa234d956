package runstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/internal/atomicfile"
)

// Format is the version of the store's layout: its keys, its records'
// envelope, and the Badger major version its files are written by. It
// changes whenever this mc could misread a store an earlier one wrote; a
// store of another format is refused, never read.
const Format = 1

// formatFile holds "mc run store <Format>": it marks a directory as a run
// store before Badger writes anything there, and names the format without
// opening Badger, which must not touch a store of another format.
const formatFile = "FORMAT"

const formatPrefix = "mc run store "

// checkFormat makes sure dir is a run store of this format, or an empty
// directory, which init makes one (under the store's lock: Open checks
// once before taking it, so as not to create the lock file among another
// directory's files, and once after). A directory holding anything else,
// a FORMAT file that says something else, or another format, is refused.
func checkFormat(dir string, init bool) error {
	data, err := os.ReadFile(filepath.Join(dir, formatFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return checkEmpty(dir, init)
	case err != nil:
		return &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	line := strings.TrimSuffix(string(data), "\n")
	v, ok := strings.CutPrefix(line, formatPrefix)
	n, err := strconv.Atoi(v)
	switch {
	case !ok || err != nil:
		return &Refused{Dir: dir, Why: "is not an mc run store: its FORMAT file does not name a run store format"}
	case n != Format:
		return &Refused{Dir: dir, Why: fmt.Sprintf("is of format %d, and this mc reads format %d", n, Format)}
	}
	return nil
}

// checkEmpty refuses a directory that holds files but no FORMAT: mc never
// writes its files among others. With init, it marks the empty directory
// as a run store.
func checkEmpty(dir string, init bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	for _, e := range entries {
		if e.Name() != lockFile && !isOurTemp(e.Name()) { // left by a process creating the store
			return &Refused{Dir: dir, Why: "is not an mc run store: it holds files but no FORMAT file"}
		}
	}
	if !init {
		return nil
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, formatFile), fmt.Appendf(nil, "%s%d\n", formatPrefix, Format)); err != nil {
		return &Unwritable{Dir: dir, Err: err}
	}
	return nil
}
