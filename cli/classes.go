package cli

import (
	"fmt"
	"io"

	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/runstore/dbflags"
	"github.com/ringcheck/mc/sweep"
)

// classes is where mc sweep and mc ci find and keep sweep classes: a run
// store, or none (--no-db).
type classes struct {
	store *runstore.Store
	fresh bool
}

// config is cfg reusing and saving the classes of c.
func (c classes) config(cfg sweep.Config) sweep.Config {
	if c.store != nil {
		cfg.Store = c.store
	}
	cfg.Fresh = c.fresh
	return cfg
}

// withClasses runs body with the run store in dir ("": none) open for mc
// cmd, and closes it. A store that cannot be opened stops the command
// before it computes anything.
func withClasses(dir, cmd string, fresh bool, stderr io.Writer, body func(classes) int) int {
	if dir == "" {
		return body(classes{fresh: fresh})
	}
	s, code := openDB(dir, cmd, stderr)
	if s == nil {
		return code
	}
	code = body(classes{store: s, fresh: fresh})
	if closed := closeDB(s, cmd, stderr); code == exitPass {
		code = closed
	}
	return code
}

// classTally counts the classes of a sweep reused from the store and
// those computed.
type classTally struct{ reused, computed int }

func (t *classTally) add(r *sweep.Row) {
	t.reused += r.Reused
	t.computed += r.Classes - r.Reused
}

func (t classTally) String() string {
	return fmt.Sprintf("%d reused, %d computed", t.reused, t.computed)
}

// classError is the one line that says why a sweep stopped: the run
// store's error with what the user can do, or the sweep's.
func classError(err error) string {
	if dbflags.IsStore(err) {
		return dbMessage(err)
	}
	return printable(err.Error())
}

// classExit is the exit code of a sweep that err stopped: the run
// store's (dbExit), or otherwise.
func classExit(err error, otherwise int) int {
	if dbflags.IsStore(err) {
		return dbExit(err)
	}
	return otherwise
}
