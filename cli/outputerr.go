package cli

import (
	"fmt"
	"io"
)

// outputFailed reports an output file that could not be written, a full
// disk or a write error, after the result it holds was printed: the
// verdict stands, but not all of what was asked for was delivered, so mc
// exits 3, incomplete, whatever the verdict (docs/cli.md). The file is
// left as it was (package atomicfile), never cut short.
func outputFailed(stderr io.Writer, cmd, flag, path string, err error) int {
	fmt.Fprintf(stderr, "mc %s: %s %s was not written (%s); the result above stands\n", cmd, flag, printable(path), printable(err.Error()))
	return exitIncomplete
}
