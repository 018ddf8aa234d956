// Command kstate-checker is mc with one spec of its own, Dijkstra's K-state
// ring, beside mc's: every mc command (list, check, trace, explore,
// simulate, sweep, runs, version) checks it too.
package main

import (
	"os"

	"example.com/kstate-checker/kstate"
	"github.com/ringcheck/mc/cli"
	"github.com/ringcheck/mc/specs"
)

func main() { os.Exit(cli.Main(specs.Of(kstate.Spec))) }
