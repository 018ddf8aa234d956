package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// newFlagSet returns the flag set of mc's subcommand cmd ("check"), whose
// arguments are described by synopsis ("SPEC [flags]"). Its help, asked
// for with --help or -h, goes to stdout: pflag prints it itself, once,
// before Parse returns ErrHelp. Parse errors are reported in one line by
// parseFlags, not by pflag.
func newFlagSet(cmd, synopsis string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mc "+cmd, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { fmt.Fprintf(stdout, "usage: mc %s %s\n\n%s", cmd, synopsis, fs.FlagUsages()) }
	return fs
}

// parseFlags parses args. When the command should not go on, it returns
// false with the exit code: 0 after --help (whose text pflag has printed),
// 2 after one line naming the error.
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case err == pflag.ErrHelp:
		return exitPass, false
	}
	fmt.Fprintf(stderr, "%s: %v (see %s --help)\n", fs.Name(), err, fs.Name())
	return exitUsage, false
}
