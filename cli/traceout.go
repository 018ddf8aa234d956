package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tracefile"
)

// checkTraceOut fails early, before a long run, if path cannot be written.
func checkTraceOut(path string) error { return checkOutFile("--trace-out", path) }

// checkOutFile fails early, before a long run, if path, the file that flag
// names, cannot be written: its directory must exist and be writable, and
// path must not be a directory.
func checkOutFile(flag, path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s: %s is a directory", flag, path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", flag, dir)
	}
	return probe(flag, dir)
}

// recorded picks the run --trace-out writes: the failure mc check prints,
// or, when no property failed with a trace, the run of the first witness
// that holds (an example run, marked with verdict pass in the file).
func recorded(r *checker.Result) *checker.PropResult {
	if f := r.Failure(); f != nil && f.Trace != nil {
		return f
	}
	for i := range r.Props {
		if p := &r.Props[i]; p.Kind == model.Witness && p.Verdict == checker.Pass && p.Trace != nil {
			return p
		}
	}
	return nil
}

// writeTraceOut writes the recorded run of r to path and says so on stderr.
func writeTraceOut(t checker.Target, r *checker.Result, path string, stderr io.Writer) error {
	p := recorded(r)
	if p == nil {
		fmt.Fprintf(stderr, "mc check: no property has a run to record; %s not written\n", path)
		return nil
	}
	f, err := tracefile.Build(t, r.Meaning, p, version())
	if err != nil {
		return err
	}
	if err := writeTraceFile(path, f); err != nil {
		return err
	}
	what := "counterexample to " + p.Name
	if p.Verdict == checker.Pass {
		what = "run of witness " + p.Name
	}
	fmt.Fprintf(stderr, "mc check: wrote the %s (%d steps) to %s\n", what, len(p.Trace.Steps), path)
	return nil
}

// writeTraceFile writes f to path (tracefile.WriteFile).
func writeTraceFile(path string, f *tracefile.File) error { return tracefile.WriteFile(path, f) }
