package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/explorer"
	"github.com/ringcheck/mc/tracefile"
)

// defaultExploreAddr is where mc explore listens unless --addr says
// otherwise: the loopback interface only.
const defaultExploreAddr = "127.0.0.1:8377"

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	var addr, tracePath string
	var runID uint64
	fs := newFlagSet("explore", "[SPEC] [flags]", stdout)
	f.addParamFlags(fs)
	fs.StringVar(&addr, "addr", defaultExploreAddr, "address to serve the page on (host:port; port 0 picks a free one)")
	fs.StringVar(&tracePath, "trace", "", "a trace file (mc check --trace-out) to open; it fixes the spec and its parameters")
	fs.Uint64Var(&runID, "run", 0, "open the trace of this check in the run store (see mc runs); it fixes the spec and its parameters")
	f.db.Add(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	tr, code := exploredTrace(fs, &f, tracePath, runID, stderr)
	if code != exitPass {
		return code
	}
	srv, err := exploreServer(fs, &f, tr)
	if err != nil {
		fmt.Fprintf(stderr, "mc explore: %s\n", printable(err.Error()))
		return exitUsage
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "mc explore: %v\n", err)
		return exitUsage
	}
	h := srv.Handler()
	if ip := ln.Addr().(*net.TCPAddr).IP; ip.IsLoopback() {
		h = explorer.LocalOnly(h)
	} else {
		fmt.Fprintf(stderr, "mc explore: warning: serving on %s, reachable from other machines\n", ln.Addr())
	}
	// ReadTimeout bounds a slow upload, which holds the explorer's one turn
	// for loading a trace while its body arrives.
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute}
	fmt.Fprintf(stdout, "mc explore: open http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err = hs.Shutdown(shutdown)
		cancel()
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "mc explore: %v\n", err)
		return exitInternal
	}
	return exitPass
}

// exploredTrace is the trace mc explore opens: the file --trace names, the
// recorded check --run names, or none (nil). On failure it returns the
// exit code, having said why.
func exploredTrace(fs *pflag.FlagSet, f *checkFlags, tracePath string, runID uint64, stderr io.Writer) (*tracefile.File, int) {
	switch {
	case fs.Changed("trace") && fs.Changed("run"):
		fmt.Fprintln(stderr, "mc explore: --trace opens a trace file and --run a recorded check's trace; give one of them")
		return nil, exitUsage
	case fs.Changed("db") && !fs.Changed("run"):
		fmt.Fprintln(stderr, "mc explore: --db names the run store that --run reads; give --run ID too")
		return nil, exitUsage
	case fs.Changed("trace"):
		tr, err := readTrace(tracePath)
		if err != nil {
			fmt.Fprintf(stderr, "mc explore: %s\n", printable(err.Error()))
			return nil, exitUsage
		}
		return tr, exitPass
	case !fs.Changed("run"):
		return nil, exitPass
	case runID == 0:
		fmt.Fprintln(stderr, "mc explore: --run wants a run number, 1 or more (see mc runs)")
		return nil, exitUsage
	}
	c, code := storedCheck(fs, &f.db, runID, "explore", stderr)
	if c == nil {
		return nil, code
	}
	if c.Trace == nil {
		fmt.Fprintf(stderr, "mc explore: run %d has no trace: no property failed with a run, and no witness's run was found\n", runID)
		return nil, exitUsage
	}
	tr, err := tracefile.Read(bytes.NewReader(c.Trace))
	if err != nil {
		fmt.Fprintf(stderr, "mc explore: run %d's trace: %s\n", runID, printable(err.Error()))
		return nil, exitUsage
	}
	return tr, exitPass
}

// exploreServer builds the explorer for SPEC and its parameters, or for the
// trace tr, which fixes both.
func exploreServer(fs *pflag.FlagSet, f *checkFlags, tr *tracefile.File) (*explorer.Server, error) {
	if fs.NArg() > 1 {
		return nil, fmt.Errorf("want at most one spec name, got %d arguments", fs.NArg())
	}
	if tr == nil {
		if fs.NArg() == 0 {
			return nil, fmt.Errorf("want a spec name (see mc list) or --trace FILE")
		}
		t, err := buildTarget(fs, f, fs.Arg(0))
		if err != nil {
			return nil, err
		}
		return explorer.New(t), nil
	}
	for _, name := range paramFlags {
		if fs.Changed(name) {
			return nil, fmt.Errorf("--%s: the trace fixes the spec and its parameters", name)
		}
	}
	if fs.NArg() == 1 && fs.Arg(0) != tr.Run.Spec {
		return nil, fmt.Errorf("the trace is of %s, not %s", tr.Run.Spec, fs.Arg(0))
	}
	t, err := tracefile.Target(tr)
	if err != nil {
		return nil, err
	}
	srv := explorer.New(t)
	return srv, srv.LoadTrace(tr)
}

// buildTarget builds spec with the parameters the flags give.
func buildTarget(fs *pflag.FlagSet, f *checkFlags, spec string) (checker.Target, error) {
	entry, p, err := f.specParams(fs, spec)
	if err != nil {
		return nil, err
	}
	return entry.Build(p)
}
