package runstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/internal/filelock"
)

// A store on read-only media (a CD, a read-only mount, an archive's copy)
// must still be listed: Open's way takes the lock by writing the holder's
// name, removes stale temporary files, checks for room to write and
// removes the closed-files list before Badger, which itself writes its
// pid file and a new memtable. openReadOnly does none of that: it takes
// the lock shared, verifies the files as Open does (the closed-files list,
// or a killed session's MANIFEST and tables, killed.go) and opens Badger
// read-only. A killed session's store Badger cannot open read-only (it
// must cut the memtable log); so when its directory can be written,
// openReadOnly opens it as Open does, which recovers it, and only on
// read-only media refuses it.

// openReadOnly is Open with Options.ReadOnly.
func openReadOnly(dir string, opt Options) (*Store, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &Missing{Dir: dir}
	case err != nil:
		return nil, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	case !st.IsDir():
		return nil, &Refused{Dir: dir, Why: "is not a directory"}
	}
	if err := checkFormat(dir, false); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, formatFile)); errors.Is(err, fs.ErrNotExist) {
		// An empty directory, or one a process was making a store in:
		// nothing recorded yet.
		return nil, &Missing{Dir: dir}
	}
	lk, err := sharedLock(dir, opt.Wait)
	if err != nil {
		return nil, err
	}
	release := func() {
		if lk != nil {
			lk.Close()
		}
	}
	if _, err := os.Stat(filepath.Join(dir, closedFile)); errors.Is(err, fs.ErrNotExist) && atomicfile.CanCreate(dir, closedFile) {
		// The store's last session was killed (no writer holds it: this
		// process holds the lock), and its directory can be written:
		// Badger, which must cut the killed session's memtable log, can
		// open it only to write. It is recovered as a writing command
		// would, verified under the exclusive lock.
		release()
		return Open(dir, Options{Holder: opt.Holder, Wait: opt.Wait})
	}
	if _, err := verifyClosed(dir, true); err != nil {
		release()
		return nil, err
	}
	db, err := badger.Open(badgerOptions(dir).WithReadOnly(true))
	switch {
	case err != nil && strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error()):
		// (Badger's wrapping keeps the text, not the error.)
		// A killed session's memtable log ends in the room it had
		// reserved: Badger cuts it to its records on opening, which a
		// store opened read-only cannot.
		release()
		return nil, &Refused{Dir: dir, Why: "was not closed by its last session (killed?), and only a writable open recovers its last records: copy it to writable storage and list the copy"}
	case err != nil:
		release()
		return nil, damaged(dir, err)
	}
	return &Store{dir: dir, db: db, lock: lk, readOnly: true}, nil
}

// sharedLock takes the store's lock shared, so that no process writes the
// store while this one reads it, waiting up to wait for a writer to
// release it; nil when the store has no lock file, which no process has
// then opened to write.
func sharedLock(dir string, wait time.Duration) (*os.File, error) {
	path := filepath.Join(dir, lockFile)
	if st, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err == nil && !st.Mode().IsRegular() {
		return nil, &Refused{Dir: dir, Why: fmt.Sprintf("has a %s that is not a file (a symbolic link?), which mc does not open", lockFile)}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|atomicfile.NoFollow, 0)
	if err != nil {
		return nil, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be read: %v", err)}
	}
	deadline := time.Now().Add(wait)
	for {
		err = filelock.TryLockShared(f)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, filelock.ErrLocked) {
			f.Close()
			return nil, &Refused{Dir: dir, Why: fmt.Sprintf("cannot be locked: %v", err)}
		}
		if time.Now().After(deadline) {
			who := readHolder(f)
			f.Close()
			return nil, &InUse{Dir: dir, Holder: who}
		}
		time.Sleep(pollLock)
	}
}
