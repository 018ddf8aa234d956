// Package dbflags reads the run store's flags (--db, --no-db, --fresh)
// and says in one line what a command stopped by the store can do: what
// mc check, mc sweep and mc ci take, and mc-beam sweep takes too, so that
// the flags mean the same store in every command (docs/runstore.md).
package dbflags

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/runstore"
)

// Wait is how long a command waits for another process to release the
// run store before it says the store is in use: a check holds it for the
// moment it takes to record itself, a sweep for as long as it runs.
const Wait = 5 * time.Second

// Flags are the flags that choose the run store.
type Flags struct {
	Dir string
	Off bool
	// Fresh is --fresh, for the sweeps: recompute every class.
	Fresh bool
}

// Add adds --db.
func (d *Flags) Add(fs *pflag.FlagSet) {
	fs.StringVar(&d.Dir, "db", "", "the run store's directory (default .mc in the working directory; see docs/runstore.md)")
}

// AddOff adds --no-db, for the commands that can do without the store.
func (d *Flags) AddOff(fs *pflag.FlagSet) {
	fs.BoolVar(&d.Off, "no-db", false, "neither read nor write the run store")
}

// AddFresh adds --fresh, for the commands that reuse the store's classes.
func (d *Flags) AddFresh(fs *pflag.FlagSet) {
	fs.BoolVar(&d.Fresh, "fresh", false, "recompute every class instead of reusing the run store's, and replace what it holds")
}

// Path is the store's directory, or "" when there is none: --no-db, or
// defaultDir "" (the tests') and no --db.
func (d *Flags) Path(fs *pflag.FlagSet, defaultDir string) (string, error) {
	switch {
	case d.Off && fs.Changed("db"):
		return "", fmt.Errorf("--db names a run store and --no-db turns it off; give one of them")
	case d.Off:
		return "", nil
	case fs.Changed("db") && d.Dir == "":
		return "", fmt.Errorf("--db needs a directory")
	case fs.Changed("db"):
		return d.Dir, nil
	}
	return defaultDir, nil
}

// Advice is what the user can do about err, a run store's, to follow its
// message; without is the way to do without the store (" or --no-db"),
// if the command has one.
func Advice(err error, without string) string {
	var refused *runstore.Refused
	var inUse *runstore.InUse
	var noRoom *runstore.NoRoom
	var unwritable *runstore.Unwritable
	switch {
	case errors.As(err, &refused):
		return "; it is left as it is: move it away, or give --db DIR" + without
	case errors.As(err, &inUse):
		return "; wait for it to finish, or give --db DIR" + without
	case errors.As(err, &noRoom):
		return "; free some space, or give --db DIR on another file system" + without
	case errors.As(err, &unwritable):
		return "; give --db DIR elsewhere" + without
	}
	return ""
}

// Exit is the exit code (docs/cli.md) of a command stopped by err, a run
// store's: 2 for a store mc will not use (the user's to settle), 3 for
// one it cannot write (the machine's), 4 for anything else (mc's).
func Exit(err error) int {
	var refused *runstore.Refused
	var inUse *runstore.InUse
	var unwritable *runstore.Unwritable
	switch {
	case errors.As(err, &refused), errors.As(err, &inUse):
		return 2
	case errors.As(err, &unwritable):
		return 3
	}
	return 4
}

// IsStore says whether err is the run store's: one that Advice and Exit
// speak of, rather than the command's own.
func IsStore(err error) bool {
	var refused *runstore.Refused
	var inUse *runstore.InUse
	var unwritable *runstore.Unwritable
	return errors.As(err, &refused) || errors.As(err, &inUse) || errors.As(err, &unwritable)
}
