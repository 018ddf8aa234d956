//go:build !race

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/internal/memlimit"
	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/sweep"
	"github.com/ringcheck/mc/sweep/sweepout"
)

func TestMain(m *testing.M) {
	// No run store unless a test's --db names one: go test runs in the
	// package's directory, inside the repository.
	defaultDB = ""
	if os.Getenv("MC_BEAM_TEST_RUN_MAIN") == "1" {
		// A test runs this very binary as mc-beam, in a child process,
		// and reads its own peak (limit_linux_test.go), as cli's tests do.
		code := runInOwnTempDir(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
		if file := os.Getenv("MC_BEAM_TEST_PEAK_FILE"); file != "" {
			if err := os.WriteFile(file, []byte(strconv.FormatInt(memlimit.Peak(), 10)), 0o600); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = exitInternal
			}
		}
		os.Exit(code)
	}
	// The tests run Beam's jobs in this process too: their placeholder
	// files (runInOwnTempDir) go to a directory removed at the end.
	tmp, err := os.MkdirTemp("", "mc-beam-test-")
	if err == nil {
		os.Setenv("TMPDIR", tmp)
		os.Setenv("TMP", tmp)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

// mcSweep is mc sweep SPEC --n ns --json --db db: sweep.Run on each size
// with the run store in db, as cmd/mc's sweepTable runs it; its JSON and
// how many classes it reused.
func mcSweep(t *testing.T, ns, db string) (json string, reused int) {
	t.Helper()
	name, cfg, sizes, err := sweepout.Resolve(sweepout.Request{Spec: "changroberts", Ns: ns, IDs: "all", Changed: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if db != "" {
		s, err := runstore.Open(db, runstore.Options{Holder: "mc sweep (test)", Create: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		cfg.Store = s
	}
	table := sweep.NewTable(name, cfg)
	for _, n := range sizes {
		row, err := sweep.Run(context.Background(), cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		reused += row.Reused
		table.Rows = append(table.Rows, row)
	}
	var out strings.Builder
	if err := sweepout.WriteJSON(&out, table); err != nil {
		t.Fatal(err)
	}
	return out.String(), reused
}

// classesOf is how many classes changroberts has at ring size n.
func classesOf(t *testing.T, n int) int {
	_, cfg, _, err := sweepout.Resolve(sweepout.Request{Spec: "changroberts", Ns: fmt.Sprint(n), IDs: "all", Changed: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cfg.Classes(n)
	if err != nil {
		t.Fatal(err)
	}
	return len(cl)
}

// TestSweepSkipsTheClassesTheStoreHolds: a second mc-beam sweep into the
// same store computes no class (and runs no pipeline), --fresh computes
// them all again, and all three print the same table.
func TestSweepSkipsTheClassesTheStoreHolds(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	all := classesOf(t, 3) + classesOf(t, 4)
	var first string
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, fmt.Sprintf("0 reused, %d computed", all)},
		{nil, fmt.Sprintf("%d reused, 0 computed", all)},
		{[]string{"--fresh"}, fmt.Sprintf("0 reused, %d computed", all)},
	} {
		code, out, errs := mcBeam(t, append([]string{"sweep", "changroberts", "--n", "3..4", "--json", "--db", db}, c.args...)...)
		if code != exitPass || errs != "mc-beam sweep changroberts: "+c.want+"\n" {
			t.Fatalf("mc-beam sweep %v: exit %d, stderr %q; want exit 0 and %q", c.args, code, errs, c.want)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("mc-beam sweep %v: the table differs from the first sweep's:\n%s\nwant:\n%s", c.args, out, first)
		}
	}
}

// TestSweepSharesMcSweepsClasses: mc-beam sweep n = 3..5 after mc sweep
// n = 3..4 computes only n = 5's classes and prints mc sweep's table of
// 3..5; mc sweep n = 3..5 then computes nothing.
func TestSweepSharesMcSweepsClasses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	mcSweep(t, "3..4", db)
	want := fmt.Sprintf("mc-beam sweep changroberts: %d reused, %d computed\n", classesOf(t, 3)+classesOf(t, 4), classesOf(t, 5))
	code, out, errs := mcBeam(t, "sweep", "changroberts", "--n", "3..5", "--json", "--db", db)
	if code != exitPass || errs != want {
		t.Fatalf("mc-beam sweep: exit %d, stderr %q; want exit 0 and %q", code, errs, want)
	}
	table, _ := mcSweep(t, "3..5", "")
	if out != table {
		t.Errorf("mc-beam sweep --json differs from mc sweep's:\n%s\nwant:\n%s", out, table)
	}
	if again, reused := mcSweep(t, "3..5", db); reused != classesOf(t, 3)+classesOf(t, 4)+classesOf(t, 5) || again != table {
		t.Errorf("mc sweep after mc-beam sweep reused %d classes (want all) and printed:\n%s", reused, again)
	}
}
