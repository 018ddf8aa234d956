package runstore

import "fmt"

// Refused is a store that mc will not use: not a run store, of another
// format, or damaged. Nothing in it is reused; the user decides what to do
// with it (cmd/mc exits 2).
type Refused struct {
	Dir string
	Why string
}

func (e *Refused) Error() string { return fmt.Sprintf("the run store %s %s", e.Dir, e.Why) }

// InUse is a store that another process holds (Badger admits one process
// at a time). Holder names it as that process wrote it in the lock file,
// "mc sweep (pid 4242)", or "another process" when it wrote nothing.
type InUse struct {
	Dir    string
	Holder string
}

func (e *InUse) Error() string {
	return fmt.Sprintf("the run store %s is in use by %s", e.Dir, e.Holder)
}

// Unwritable is a store that cannot be written: its file system is full
// (or too full to write safely), or a write failed. What was computed is
// right; it could not be kept.
type Unwritable struct {
	Dir string
	Err error
}

func (e *Unwritable) Error() string {
	return fmt.Sprintf("the run store %s cannot be written: %v", e.Dir, e.Err)
}

func (e *Unwritable) Unwrap() error { return e.Err }

// Missing is a store that does not exist, opened only to read.
type Missing struct{ Dir string }

func (e *Missing) Error() string { return fmt.Sprintf("there is no run store at %s", e.Dir) }
