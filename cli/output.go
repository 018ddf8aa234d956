package cli

import (
	"fmt"
	"io"
)

// output is stdout as mc's commands write to it. A report that did not
// reach its reader is not a pass: the first write that fails (a full disk,
// /dev/full) is kept and what follows is dropped, so that every command
// runs to its end as usual and run then turns the failure into one line
// on stderr and exit 3, incomplete, whatever the verdict was. The
// commands themselves never see the error, so none of them can take it
// for a bug in mc (exit 4) or a usage error (exit 2).
type output struct {
	w   io.Writer
	err error
}

func (o *output) Write(p []byte) (int, error) {
	if o.err != nil {
		return len(p), nil
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	o.err = err
	return len(p), nil
}

// failed says on stderr that stdout could not be written, if so, and
// returns the exit code that replaces code: exit 3, except after a usage
// error, which was the first thing wrong.
func (o *output) failed(code int, stderr io.Writer) int {
	if o.err == nil || code == exitUsage {
		return code
	}
	fmt.Fprintf(stderr, "mc: the output is incomplete: %s\n", printable(o.err.Error()))
	return exitIncomplete
}
