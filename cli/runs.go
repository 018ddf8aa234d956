package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
)

const runsUsage = `usage: mc runs [show ID | gc --keep N] [flags]

  mc runs               the checks recorded in the run store, oldest first
  mc runs show ID       one check: when, by which mc, what it meant and printed, its trace
  mc runs gc --keep N   keep the N most recent checks and drop the others, and the
                        sweep classes this mc can no longer reuse

Every completed mc check is recorded; mc explore --run ID opens one's trace.
See docs/runstore.md.
`

// runRuns is mc runs: the history of checks in the run store.
func runRuns(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "show":
			return runRunsShow(args[1:], stdout, stderr)
		case "gc":
			return runRunsGC(args[1:], stdout, stderr)
		}
	}
	fs := newFlagSet("runs", "[show ID | gc --keep N] [flags]", stdout)
	fs.Usage = func() { fmt.Fprint(stdout, runsUsage, "\n", fs.FlagUsages()) }
	var db dbFlags
	db.Add(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per check, one a line")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "mc runs: unknown subcommand %q (want show ID or gc --keep N)\n", printable(fs.Arg(0)))
		return exitUsage
	}
	s, missing, code := openHistory(fs, &db, "runs", true, stderr)
	if missing != nil {
		fmt.Fprintf(stdout, "no checks recorded: %s\n", printable(missing.Error()))
		return exitPass
	}
	if s == nil {
		return code
	}
	checks, err := s.Checks()
	if code := closeDB(s, "runs", stderr); err == nil && code != exitPass {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc runs: %s\n", historyMessage(err))
		return dbExit(err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, c := range checks {
			if err := enc.Encode(listedCheck{stamp(), summaryOf(c)}); err != nil {
				fmt.Fprintf(stderr, "mc runs: %v\n", err)
				return exitInternal
			}
		}
		return exitPass
	}
	if len(checks) == 0 {
		fmt.Fprintf(stdout, "no checks recorded in %s\n", printable(s.Dir()))
		return exitPass
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "run\twhen\tverdict\tstates\ttime\tcheck")
	for _, c := range checks {
		fmt.Fprintf(w, "%d\t%s\t%s\t%d\t%s\t%s\n", c.ID, c.Started.Local().Format("2006-01-02 15:04:05"), c.Verdict, c.States,
			elapsedOf(c), printable(commandOf(c)))
	}
	w.Flush()
	return exitPass
}

// listedCheck is a check as mc runs --json lists it.
type listedCheck struct {
	jsonStamp
	*runstore.Check
}

// summaryOf is c without what it printed and its trace, which mc runs show
// gives.
func summaryOf(c runstore.Check) *runstore.Check {
	c.Output, c.Trace = "", nil
	return &c
}

// openHistory opens the run store that --db names (or the default) to
// read its history; it does not make one. With readOnly it opens it to
// read only (runstore.Options.ReadOnly), as a store on read-only media
// can be, recovering a killed session's store first where its directory
// can be written. On failure it returns nil and
// the exit code, having said why, except for a store that does not exist,
// which it leaves to the caller (missing).
func openHistory(fs *pflag.FlagSet, db *dbFlags, cmd string, readOnly bool, stderr io.Writer) (s *runstore.Store, missing error, code int) {
	dir, err := db.Path(fs, defaultDB)
	if err == nil && dir == "" {
		err = fmt.Errorf("--db needs a directory")
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc %s: %v\n", cmd, err)
		return nil, nil, exitUsage
	}
	s, err = runstore.Open(dir, runstore.Options{Holder: "mc " + cmd, Wait: dbWait, ReadOnly: readOnly})
	var none *runstore.Missing
	switch {
	case errors.As(err, &none):
		return nil, err, exitPass
	case err != nil:
		fmt.Fprintf(stderr, "mc %s: %s\n", cmd, historyMessage(err))
		return nil, nil, dbExit(err)
	}
	return s, nil, exitPass
}

func elapsedOf(c runstore.Check) string {
	d := time.Duration(c.ElapsedMS * float64(time.Millisecond))
	if d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// commandOf is the check as it was typed, spec first, without the leading
// "check": "changroberts --n 5", or "changroberts --resume ckpt" for a
// resumed run, whose command line need not name its spec.
func commandOf(c runstore.Check) string {
	out, named := []string{c.Key.Run.Spec}, false
	for i, a := range c.Args {
		switch {
		case i == 0 && a == "check":
		case a == c.Key.Run.Spec && !named:
			named = true
		default:
			out = append(out, a)
		}
	}
	return strings.Join(out, " ")
}

// runRunsShow is mc runs show ID.
func runRunsShow(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("runs show", "ID [flags]", stdout)
	var db dbFlags
	db.Add(fs)
	asJSON := fs.Bool("json", false, "print the record as one JSON object, its trace file included")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	id, err := runID(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "mc runs show: %v\n", err)
		return exitUsage
	}
	c, code := storedCheck(fs, &db, id, "runs show", stderr)
	if c == nil {
		return code
	}
	if *asJSON {
		return encodeJSON(stdout, stderr, "runs show", listedCheck{stamp(), c})
	}
	writeCheckHeader(stdout, c)
	fmt.Fprintln(stdout)
	io.WriteString(stdout, c.Output)
	return exitPass
}

// runID reads the one argument ID.
func runID(args []string) (uint64, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("want one run number (see mc runs)")
	}
	id, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%q is not a run number (see mc runs)", printable(args[0]))
	}
	return id, nil
}

// storedCheck reads check id from the store --db names. On failure it
// returns nil and the exit code, having said why.
func storedCheck(fs *pflag.FlagSet, db *dbFlags, id uint64, cmd string, stderr io.Writer) (*runstore.Check, int) {
	s, missing, code := openHistory(fs, db, cmd, true, stderr)
	if missing != nil {
		fmt.Fprintf(stderr, "mc %s: %s, so no run %d (see mc runs)\n", cmd, printable(missing.Error()), id)
		return nil, exitUsage
	}
	if s == nil {
		return nil, code
	}
	c, found, err := s.Check(id)
	if code := closeDB(s, cmd, stderr); err == nil && code != exitPass {
		return nil, code
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "mc %s: %s\n", cmd, historyMessage(err))
		return nil, dbExit(err)
	case !found:
		fmt.Fprintf(stderr, "mc %s: %s holds no run %d (see mc runs)\n", cmd, printable(s.Dir()), id)
		return nil, exitUsage
	}
	return c, exitPass
}

// writeCheckHeader says what check c was, when, by which mc, and where its
// trace is.
func writeCheckHeader(w io.Writer, c *runstore.Check) {
	fmt.Fprintf(w, "run %d: mc %s\n", c.ID, printable(strings.Join(c.Args, " ")))
	fmt.Fprintf(w, "  started %s, took %s, verdict %s, %d states, %d transitions\n",
		c.Started.Local().Format("2006-01-02 15:04:05 MST"), elapsedOf(*c), c.Verdict, c.States, c.Transitions)
	fmt.Fprintf(w, "  by mc %s; spec sources %.12s\n", c.Build, c.Key.SpecHash)
	fmt.Fprintf(w, "  meaning: %s\n", printable(meaningLine(c.Key)))
	if c.Trace != nil {
		var f tracefile.File
		if json.Unmarshal(c.Trace, &f) == nil {
			fmt.Fprintf(w, "  trace: %s, %d steps (mc explore --run %d)\n", traceWhat(&f), len(f.Steps), c.ID)
		}
	}
}

// traceWhat says what a recorded trace shows.
func traceWhat(f *tracefile.File) string {
	if f.Property.Verdict == "pass" {
		return "a run of witness " + f.Property.Name
	}
	return "the counterexample to " + f.Property.Name
}

// meaningLine is every element of the run's meaning, as flags.
func meaningLine(k runstore.Key) string {
	var parts []string
	for _, s := range k.Run.Settings() {
		switch {
		case s.Option == "SPEC":
			parts = append(parts, s.Value)
		case s.Option == "--ids" && k.Kind == runstore.KindAllIDs:
			parts = append(parts, "--all-ids")
		case s.Option == "--n" && k.Kind == runstore.KindEveryN:
			parts = append(parts, "--every-n")
		case s.Option == "--ids" && k.Kind == runstore.KindEveryN:
		case s.Flag() == "param":
			parts = append(parts, s.Option+"="+s.Value)
		default:
			parts = append(parts, s.Option+" "+s.Value)
		}
	}
	return strings.Join(parts, " ")
}

// runRunsGC is mc runs gc --keep N.
func runRunsGC(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("runs gc", "--keep N [flags]", stdout)
	var db dbFlags
	db.Add(fs)
	keep := fs.Int("keep", -1, "the number of most recent checks to keep (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	switch {
	case fs.NArg() != 0:
		fmt.Fprintf(stderr, "mc runs gc: takes no arguments, got %q\n", printable(fs.Arg(0)))
		return exitUsage
	case !fs.Changed("keep"):
		fmt.Fprintln(stderr, "mc runs gc: want --keep N, the number of most recent checks to keep")
		return exitUsage
	case *keep < 0:
		fmt.Fprintf(stderr, "mc runs gc: --keep must be 0 or more, got %d\n", *keep)
		return exitUsage
	}
	s, missing, code := openHistory(fs, &db, "runs gc", false, stderr)
	if missing != nil {
		fmt.Fprintf(stdout, "mc runs gc: nothing to remove: %s\n", printable(missing.Error()))
		return exitPass
	}
	if s == nil {
		return code
	}
	pruned, err := s.GC(*keep, currentSpecHash)
	if code := closeDB(s, "runs gc", stderr); err == nil && code != exitPass {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc runs gc: %s\n", historyMessage(err))
		return dbExit(err)
	}
	fmt.Fprintf(stdout, "mc runs gc: removed %d checks (kept the %d most recent) and %d sweep classes this mc cannot reuse\n",
		pruned.Checks, *keep, pruned.Classes)
	return exitPass
}

// currentSpecHash says whether hash is spec's hash in this mc.
func currentSpecHash(spec, hash string) bool {
	e, err := specs.Lookup(spec)
	if err != nil {
		return false
	}
	h, err := e.Hash()
	return err == nil && h == hash
}
