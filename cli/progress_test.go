package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
)

// Off a terminal, in a log file or a pipe, a long run says it is alive:
// a progress line every 30 s from 30 s on (a run of minutes said nothing
// until its end), with or without --json. /dev/null, which is a character
// device too, gets no live line, and a buffer nothing.
func TestProgressReachesALogOffATerminal(t *testing.T) {
	log, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for _, json := range []bool{false, true} {
		pl, every := newProgress(log, false, json)
		if pl == nil || pl.live || every != logEvery {
			t.Fatalf("json %v: progress %+v every %v, want a line every %v", json, pl, every, logEvery)
		}
		pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 1000, Elapsed: logEvery / 2})
		pl.report(checker.Progress{Phase: checker.PhaseSafety, States: 5000, Depth: 7, Elapsed: logEvery})
	}
	got, _ := os.ReadFile(log.Name())
	if lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"); len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "mc check: safety: 5000 states,") || strings.Contains(string(got), "\r") {
		t.Fatalf("the log holds:\n%q", got)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if pl, _ := newProgress(null, false, false); pl != nil {
		t.Errorf("/dev/null gets progress %+v", pl)
	}
	if pl, _ := newProgress(&bytes.Buffer{}, false, false); pl != nil {
		t.Errorf("a buffer gets progress %+v", pl)
	}
}
