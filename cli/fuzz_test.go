package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// bigNumber matches a number of three or more digits: a fuzzed --n 500
// would spend the fuzzing budget building one system, not parsing flags.
var bigNumber = regexp.MustCompile(`[0-9]{3}`)

// FuzzCheckFlags drives mc check with arbitrary arguments (separated by
// spaces in the input): it never panics, and bad input exits 2 with one
// line on stderr. The context is cancelled, so a run that gets past the
// flags stops at once, incomplete; the working directory is a temporary
// one and paths out of it are skipped, since --dir, --checkpoint,
// --trace-out and --junit write files.
func FuzzCheckFlags(f *testing.F) {
	for _, seed := range []string{
		"changroberts", "changroberts --n 4 --ids 3,1,4,2", "changroberts --ids 1,1,2", "changroberts --ids ,",
		"changroberts --ids 3,x", "changroberts --n 1", "lelann --chan bag --cap 0", "dkr --chan queue",
		"hp --variant nope", "vlt --links half --orientation 0110 --n 4", "vlt --orientation 012",
		"vitanyi --drift -1", "changroberts --drift 2", "changroberts --initiators 0,9",
		"changroberts --all-ids --n 4", "changroberts --all-ids --ids 1,2,3", "changroberts --store disk",
		"changroberts --store disk --dir d", "changroberts --dir d", "changroberts --store tape",
		"changroberts --checkpoint c --checkpoint-every 0", "--resume c", "--resume c --n 4",
		"changroberts --resume c --checkpoint e", "changroberts --max-states 0", "changroberts --timeout -1s",
		"changroberts --workers 0", "changroberts --exact --store disk --dir d", "changroberts --exact --checkpoint c", "changroberts --max-memory 1KiB",
		"changroberts --max-memory 5XB", "changroberts --json --trace-out t.json", "changroberts --claims --progress",
		"--help", "changroberts --n", "changroberts extra", "", "--n=3 changroberts", "hs --links full",
		"changroberts --db d", "changroberts --db d --no-db", "changroberts --db=", "changroberts --all-ids --n 3 --db d",
		"changroberts --junit r.xml", "changroberts --junit", "changroberts --all-ids --n 3 --junit r.xml",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "/") || strings.Contains(line, "..") || strings.Contains(line, "\\") || bigNumber.MatchString(line) {
			t.Skip()
		}
		t.Chdir(t.TempDir())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		args := append([]string{"check"}, strings.Fields(line)...)
		code, _, errs := mc(t, ctx, args...)
		if code < exitPass || code > exitInternal {
			t.Fatalf("%q: exit %d", line, code)
		}
		if code == exitUsage && strings.Count(errs, "\n") != 1 {
			t.Fatalf("%q: exit 2 with stderr not one line:\n%s", line, errs)
		}
		if code == exitInternal {
			t.Fatalf("%q: internal error:\n%s", line, errs)
		}
	})
}
