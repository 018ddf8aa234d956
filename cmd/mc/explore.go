package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"mc/checker"
	"mc/explorer"
	"mc/tracefile"
)

// defaultExploreAddr is where mc explore listens unless --addr says
// otherwise: the loopback interface only.
const defaultExploreAddr = "127.0.0.1:8377"

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	var addr, tracePath string
	fs := newFlagSet("explore", "[SPEC] [flags]", stdout)
	f.addParamFlags(fs)
	fs.StringVar(&addr, "addr", defaultExploreAddr, "address to serve the page on (host:port; port 0 picks a free one)")
	fs.StringVar(&tracePath, "trace", "", "a trace file (mc check --trace-out) to open; it fixes the spec and its parameters")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	srv, err := exploreServer(fs, &f, tracePath)
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

// exploreServer builds the explorer for SPEC and its parameters, or for the
// trace file, which fixes both.
func exploreServer(fs *pflag.FlagSet, f *checkFlags, tracePath string) (*explorer.Server, error) {
	if fs.NArg() > 1 {
		return nil, fmt.Errorf("want at most one spec name, got %d arguments", fs.NArg())
	}
	if tracePath == "" {
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
			return nil, fmt.Errorf("--%s: --trace fixes the spec and its parameters", name)
		}
	}
	tr, err := readTrace(tracePath)
	if err != nil {
		return nil, err
	}
	if fs.NArg() == 1 && fs.Arg(0) != tr.Run.Spec {
		return nil, fmt.Errorf("%s is a trace of %s, not %s", tracePath, tr.Run.Spec, fs.Arg(0))
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
