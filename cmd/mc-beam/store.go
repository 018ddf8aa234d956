package main

import (
	"fmt"
	"io"

	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/runstore/dbflags"
)

// defaultDB is the run store's directory when --db is not given: mc's,
// .mc in the working directory, so that mc sweep and mc-beam sweep run
// from one directory share their classes (docs/runstore.md). The tests
// set it to "", no store unless --db names one.
var defaultDB = ".mc"

// openStore opens the run store in dir for mc-beam sweep, making it if
// need be; nil and exit 0 when dir is "" (--no-db). It is opened by the
// driver only: Badger admits one process, and a cluster's workers do not
// see the driver's disk (docs/scale-out.md). On failure it says why in
// one line and returns the exit code, before any pipeline runs.
func openStore(dir string, stderr io.Writer) (*runstore.Store, int) {
	if dir == "" {
		return nil, exitPass
	}
	s, err := runstore.Open(dir, runstore.Options{Holder: "mc-beam sweep", Wait: dbflags.Wait, Create: true})
	if err != nil {
		storeFailed(err, stderr)
		return nil, dbflags.Exit(err)
	}
	return s, exitPass
}

// storeFailed says in one line why the run store stopped mc-beam sweep,
// and what the user can do.
func storeFailed(err error, stderr io.Writer) {
	fmt.Fprintf(stderr, "mc-beam sweep: %v%s\n", err, dbflags.Advice(err, " or --no-db"))
}
