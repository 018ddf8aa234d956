package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/spf13/pflag"

	// Beam's filesystems for the work directory: local paths and gs://.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	// The runners --runner names.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
)

// runners are the values --runner takes.
var runners = []string{"prism", "flink", "spark", "dataflow"}

// beamFlags are the flags that choose where the pipelines run.
type beamFlags struct {
	runner string
}

func (b *beamFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&b.runner, "runner", "prism", "Beam runner: prism (in this process), flink, spark or dataflow")
}

// setUp checks --runner and hands the arguments after a lone "--" to
// Beam's pipeline options (Go flags: --endpoint, --environment_type,
// --temp_location, …), then initializes Beam once per process.
func (b *beamFlags) setUp(fs *pflag.FlagSet, stderr io.Writer) (int, bool) {
	if !slices.Contains(runners, b.runner) {
		fmt.Fprintf(stderr, "%s: --runner must be prism, flink, spark or dataflow, got %q\n", fs.Name(), b.runner)
		return exitUsage, false
	}
	var opts []string
	if at := fs.ArgsLenAtDash(); at >= 0 {
		opts = fs.Args()[at:]
	}
	beamOptions := flag.CommandLine
	beamOptions.Init("beam", flag.ContinueOnError)
	beamOptions.SetOutput(io.Discard)
	if err := beamOptions.Parse(opts); err != nil {
		fmt.Fprintf(stderr, "%s: Beam option: %v\n", fs.Name(), err)
		return exitUsage, false
	}
	if beamOptions.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: Beam options after --: %q is not an option\n", fs.Name(), beamOptions.Arg(0))
		return exitUsage, false
	}
	if !beam.Initialized() {
		// Beam and Prism log every job's progress at level info; mc-beam
		// prints its own results, so only their warnings and errors show.
		beamlog.LogLevel = "warn"
		beam.Init()
	}
	return 0, true
}

// positional are fs's arguments before a lone "--".
func positional(fs *pflag.FlagSet) []string {
	if at := fs.ArgsLenAtDash(); at >= 0 {
		return fs.Args()[:at]
	}
	return fs.Args()
}

// execute runs p on the chosen runner and waits for it, or, once ctx is
// done (a limit, an interrupt), returns its cause at once. Prism panics
// when the context a job runs under ends mid-bundle (an RPC's "context
// deadline exceeded"), so there p runs under one that does not end, and is
// left to end with the process, which stops; the other runners are told
// through ctx, and cancel the job.
func (b *beamFlags) execute(ctx context.Context, p *beam.Pipeline) error {
	run := ctx
	if b.runner == "prism" {
		run = context.WithoutCancel(ctx)
	}
	done := make(chan error, 1)
	go func() {
		_, err := beam.Run(run, b.runner, p)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
