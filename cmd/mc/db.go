package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"mc/runstore"
)

// defaultDB is the run store's directory when --db is not given: .mc in
// the working directory (docs/runstore.md). The tests set it to "", no
// store unless --db names one, so that go test, which runs in the
// package's directory, never makes one inside the repository.
var defaultDB = ".mc"

// dbWait is how long a command waits for another mc process to release
// the run store before it says the store is in use: a check holds it for
// the moment it takes to record itself, a sweep for as long as it runs.
var dbWait = 5 * time.Second

// dbFlags are the flags that choose the run store.
type dbFlags struct {
	dir string
	off bool
	// fresh is --fresh, for mc sweep and mc ci: recompute every class.
	fresh bool
}

func (d *dbFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&d.dir, "db", "", "the run store's directory (default .mc in the working directory; see docs/runstore.md)")
}

// addOff adds --no-db, for the commands that can do without the store.
func (d *dbFlags) addOff(fs *pflag.FlagSet) {
	fs.BoolVar(&d.off, "no-db", false, "neither read nor write the run store")
}

// addFresh adds --fresh, for the commands that reuse the store's classes.
func (d *dbFlags) addFresh(fs *pflag.FlagSet) {
	fs.BoolVar(&d.fresh, "fresh", false, "recompute every class instead of reusing the run store's, and replace what it holds")
}

// path is the store's directory, or "" when there is none: --no-db, or
// no default (the tests).
func (d *dbFlags) path(fs *pflag.FlagSet) (string, error) {
	switch {
	case d.off && fs.Changed("db"):
		return "", fmt.Errorf("--db names a run store and --no-db turns it off; give one of them")
	case d.off:
		return "", nil
	case fs.Changed("db") && d.dir == "":
		return "", fmt.Errorf("--db needs a directory")
	case fs.Changed("db"):
		return d.dir, nil
	}
	return defaultDB, nil
}

// openDB opens the run store in dir for mc cmd, making it if need be. On
// failure it says why in one line on stderr and returns the exit code.
func openDB(dir, cmd string, stderr io.Writer) (*runstore.Store, int) {
	s, err := runstore.Open(dir, runstore.Options{Holder: "mc " + cmd, Wait: dbWait, Create: true})
	if err != nil {
		fmt.Fprintf(stderr, "mc %s: %s\n", cmd, dbMessage(err))
		return nil, dbExit(err)
	}
	return s, exitPass
}

// closeDB closes s; a failure is said on stderr and is exit 3: what was
// printed is right, but the store could not keep it.
func closeDB(s *runstore.Store, cmd string, stderr io.Writer) int {
	if err := s.Close(); err != nil {
		fmt.Fprintf(stderr, "mc %s: %s\n", cmd, dbMessage(err))
		return exitIncomplete
	}
	return exitPass
}

// dbMessage is err, a run store's, in one line, with what the user can do.
func dbMessage(err error) string { return storeMessage(err, " or --no-db") }

// historyMessage is dbMessage for the commands that read the history
// (mc runs, mc explore --run), which have no --no-db to offer.
func historyMessage(err error) string { return storeMessage(err, "") }

// storeMessage is err in one line, with what the user can do; without is
// the way to do without the store, if the command has one.
func storeMessage(err error, without string) string {
	var refused *runstore.Refused
	var inUse *runstore.InUse
	var noRoom *runstore.NoRoom
	var unwritable *runstore.Unwritable
	msg := printable(err.Error())
	switch {
	case errors.As(err, &refused):
		return msg + "; it is left as it is: move it away, or give --db DIR" + without
	case errors.As(err, &inUse):
		return msg + "; wait for it to finish, or give --db DIR" + without
	case errors.As(err, &noRoom):
		return msg + "; free some space, or give --db DIR on another file system" + without
	case errors.As(err, &unwritable):
		return msg + "; give --db DIR elsewhere" + without
	}
	return msg
}

// dbExit is the exit code of a command stopped by err, a run store's: 2
// for a store mc will not use (the user's to settle), 3 for one it cannot
// write (the machine's), 4 for anything else (mc's).
func dbExit(err error) int {
	var refused *runstore.Refused
	var inUse *runstore.InUse
	var unwritable *runstore.Unwritable
	switch {
	case errors.As(err, &refused), errors.As(err, &inUse):
		return exitUsage
	case errors.As(err, &unwritable):
		return exitIncomplete
	}
	return exitInternal
}
