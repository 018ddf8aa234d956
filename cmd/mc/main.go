// Command mc is an explicit-state model checker for protocols on rings of
// processors: leader election and mutual exclusion. See README.md.
//
// Exit codes: 0 pass, 1 a property failed, 2 usage error, 3 incomplete (a
// limit was reached or the run was interrupted), 4 internal error.
package main

import (
	"os"

	"github.com/ringcheck/mc/cli"
)

func main() { os.Exit(cli.Main()) }
