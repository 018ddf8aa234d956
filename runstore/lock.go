package runstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ringcheck/mc/internal/atomicfile"
	"github.com/ringcheck/mc/internal/filelock"
)

// lockFile is the store's lock: the process holding it (filelock) is the only
// one with the store open, and has written its name into it. Badger locks
// the directory too, but says so only in an error text; this lock lets mc
// wait for a short holder and name a long one. A lock dies with its
// process, so a killed mc leaves none.
const lockFile = "mc.lock"

// pollLock is how often a process waiting for the store tries the lock.
const pollLock = 20 * time.Millisecond

// lock takes the store's lock for holder ("mc sweep"), waiting up to wait
// for another process to release it. It opens the lock file without
// following a symbolic link (where the system can say so): mc writes the
// holder's name into it, and a link planted there would have it write
// into the file the link names.
func lock(dir, holder string, wait time.Duration) (*os.File, error) {
	path := filepath.Join(dir, lockFile)
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &Refused{Dir: dir, Why: fmt.Sprintf("has a %s that is not a file (a symbolic link?), which mc does not open", lockFile)}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|atomicfile.NoFollow, 0o644)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && !st.Mode().IsRegular() {
			return nil, &Refused{Dir: dir, Why: fmt.Sprintf("has a %s that is not a file (a symbolic link?), which mc does not open", lockFile)}
		}
		return nil, &Unwritable{Dir: dir, Err: err}
	}
	deadline := time.Now().Add(wait)
	for {
		err = filelock.TryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, filelock.ErrLocked) {
			f.Close()
			return nil, &Unwritable{Dir: dir, Err: fmt.Errorf("locking %s: %v", lockFile, err)}
		}
		if time.Now().After(deadline) {
			who := readHolder(f)
			f.Close()
			return nil, &InUse{Dir: dir, Holder: who}
		}
		time.Sleep(pollLock)
	}
	// Naming the holder helps the next process say who holds the store;
	// it is not needed for the lock to hold.
	if f.Truncate(0) == nil {
		f.WriteAt(fmt.Appendf(nil, "%s (pid %d)\n", holder, os.Getpid()), 0)
	}
	return f, nil
}

// maxHolder bounds the holder's name read from the lock file.
const maxHolder = 200

// readHolder is the name the lock's holder wrote, or "another process".
func readHolder(f *os.File) string {
	data, _ := io.ReadAll(io.NewSectionReader(f, 0, maxHolder))
	who := strings.TrimSpace(strings.ToValidUTF8(string(data), ""))
	if who == "" || strings.ContainsFunc(who, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "another process"
	}
	return who
}
