package cli

import (
	"fmt"
	"io"

	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/runstore/dbflags"
)

// defaultDB is the run store's directory when --db is not given: .mc in
// the working directory (docs/runstore.md). The tests set it to "", no
// store unless --db names one, so that go test, which runs in the
// package's directory, never makes one inside the repository.
var defaultDB = ".mc"

// dbWait is how long a command waits for another mc process to release
// the run store (dbflags.Wait; the tests shorten it).
var dbWait = dbflags.Wait

// dbFlags are the flags that choose the run store, mc-beam sweep's too.
type dbFlags = dbflags.Flags

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
	return printable(err.Error()) + dbflags.Advice(err, without)
}

// dbExit is the exit code of a command stopped by err, a run store's
// (dbflags.Exit).
func dbExit(err error) int { return dbflags.Exit(err) }
