package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ringcheck/mc/chart"
	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tracefile"
)

type traceFlags struct {
	format string
	replay bool
	color  string
}

func runTrace(args []string, stdout, stderr io.Writer) int {
	var f traceFlags
	fs := newFlagSet("trace", "FILE [flags]", stdout)
	fs.StringVar(&f.format, "format", "text", "text, svg (a message-sequence chart) or dot (the state graph of a small system, the run in red)")
	fs.BoolVar(&f.replay, "replay", false, "re-execute the trace against the current spec; exit 0 if it still reaches the failing state, 1 if not, 2 if its run cannot be built")
	fs.StringVar(&f.color, "color", "auto", "highlight the text format: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mc trace: want exactly one trace file (written by mc check --trace-out)")
		return exitUsage
	}
	if f.replay && fs.Changed("format") {
		fmt.Fprintln(stderr, "mc trace: --replay prints its own verdict; drop --format")
		return exitUsage
	}
	colour, err := useColour(f.color, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "mc trace: %v\n", err)
		return exitUsage
	}
	tr, err := readTrace(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mc trace: %s\n", printable(err.Error()))
		return exitUsage
	}
	if f.replay {
		return replayTrace(tr, fs.Arg(0), stdout, stderr)
	}
	if f.format == "text" {
		writeTraceText(stdout, tr, colour)
		return exitPass
	}
	if err := writeChart(stdout, tr, f.format); err != nil {
		fmt.Fprintf(stderr, "mc trace: %s\n", printable(err.Error()))
		return exitUsage
	}
	return exitPass
}

// writeChart writes tr as an SVG message-sequence chart or a dot graph.
// The document is built whole, then printed with every control character
// but its newlines escaped: the chart escapes text for XML or dot, which
// leaves a terminal escape sequence from the file as it was.
func writeChart(stdout io.Writer, tr *tracefile.File, format string) error {
	var doc bytes.Buffer
	var err error
	switch format {
	case "svg":
		err = chart.SVG(&doc, tr)
	case "dot":
		var t checker.Target
		if t, err = tracefile.Target(tr); err == nil {
			err = chart.Dot(&doc, t, tr)
		}
	default:
		err = fmt.Errorf("unknown --format %q (want text, svg or dot)", format)
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, printableLines(doc.String()))
	return err
}

// readTrace reads the trace file at path: the one file mc trace and
// mc explore read.
func readTrace(path string) (*tracefile.File, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	tr, err := tracefile.Read(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return tr, nil
}

// replayTrace re-executes tr, read from path, against the spec as it is
// now and says whether it still reaches the state it recorded. A file
// whose run this mc cannot build (an unknown spec, ring size -4) is no run
// to replay: it is refused as bad input, not reported as a run that no
// longer fails.
func replayTrace(tr *tracefile.File, path string, stdout, stderr io.Writer) int {
	t, err := tracefile.Target(tr)
	if err != nil {
		fmt.Fprintf(stderr, "mc trace: %s is not a run this mc can replay: %s\n", printable(path), printable(err.Error()))
		return exitUsage
	}
	fmt.Fprintf(stdout, "replaying %d steps of %s, property %s\n", len(tr.Steps), describeRecorded(tr), printable(tr.Property.Name))
	out := tracefile.Replay(tr, t)
	if !out.Reached {
		fmt.Fprintf(stdout, "no longer matches: %s\n", printable(out.Why))
		return exitFail
	}
	fmt.Fprintf(stdout, "still reaches the recorded state: %s\n", printable(out.Why))
	return exitPass
}

// describeRecorded renders a trace's spec, variant and parameters like
// mc check's header, and, for a liveness counterexample, the fairness it
// is fair under; escaped for printing.
func describeRecorded(tr *tracefile.File) string {
	p, err := tr.Run.Params.Model(tr.Run.Variant)
	params := fmt.Sprintf("(parameters unreadable: %v)", err)
	if err == nil {
		params = shownParams(tr.Run.Spec, p).String()
	}
	if err == nil && (tr.Property.Kind == model.LeadsTo.String() || tr.Property.Kind == model.Eventually.String()) {
		params += " fair=" + tr.Run.Fair
	}
	return printable(fmt.Sprintf("%s (variant %s) %s", tr.Run.Spec, tr.Run.Variant, params))
}

// ANSI styles for the text format.
const (
	ansiReset   = "\033[0m"
	ansiBold    = "\033[1m"
	ansiChanged = "\033[33m" // yellow: a variable the step changed
	ansiMessage = "\033[36m" // cyan: messages
	ansiBad     = "\033[1;31m"
	ansiGood    = "\033[1;32m"
)

func useColour(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return isTerminal(stdout) && os.Getenv("NO_COLOR") == "", nil
	}
	return false, fmt.Errorf("unknown --color %q (want auto, always or never)", mode)
}

// writeTraceText prints the trace one step per block: the action, the
// messages it received and sent, the decisions it took, and the variables
// it changed (the initial state in full).
func writeTraceText(w io.Writer, tr *tracefile.File, colour bool) {
	paint := func(style, s string) string {
		if !colour {
			return s
		}
		return style + s + ansiReset
	}
	fmt.Fprintf(w, "%s\n", describeRecorded(tr))
	verdictStyle := ansiBad
	if tr.Property.Verdict == "pass" {
		verdictStyle = ansiGood
	}
	fmt.Fprintf(w, "%s: %s [%s]\n", paint(verdictStyle, printable(chart.Headline(tr))), printable(tr.Property.Doc), printable(tr.Property.Ref))
	fmt.Fprintf(w, "recorded by mc %s; %d steps\n\n", printable(tr.MCVersion), len(tr.Steps))
	fmt.Fprintf(w, "%s\n", paint(ansiBold, fmt.Sprintf("0. initial state %d", tr.Init)))
	for _, v := range tr.States[0].Vars {
		fmt.Fprintf(w, "     %s = %s\n", printable(v.Name), printable(v.Value))
	}
	for i, s := range tr.Steps {
		before, after := &tr.States[i], &tr.States[i+1]
		head := fmt.Sprintf("%d. %s", i+1, printable(s.Action))
		if tr.LoopStart != nil && *tr.LoopStart == i {
			fmt.Fprintf(w, "\n%s\n", paint(ansiBad, fmt.Sprintf("   ── the loop starts here, after step %d ──", i)))
		}
		fmt.Fprintf(w, "\n%s\n", paint(ansiBold, head))
		for _, m := range s.Received {
			fmt.Fprintf(w, "     %s\n", paint(ansiMessage, fmt.Sprintf("received %s on p%d→p%d", printable(m.Text), m.From, m.To)))
		}
		for _, m := range s.Sent {
			fmt.Fprintf(w, "     %s\n", paint(ansiMessage, fmt.Sprintf("sent %s on p%d→p%d", printable(m.Text), m.From, m.To)))
		}
		for _, d := range decisions(before, after) {
			fmt.Fprintf(w, "     %s\n", paint(ansiBold, printable(d)))
		}
		for _, v := range changed(before, after) {
			fmt.Fprintf(w, "     %s = %s\n", paint(ansiChanged, printable(v.name)), paint(ansiChanged, printable(v.value)))
		}
	}
	switch {
	case tr.LoopStart != nil:
		fmt.Fprintf(w, "\n   %s\n", paint(ansiBad, fmt.Sprintf("back to the state after step %d: the loop repeats forever", *tr.LoopStart)))
	case tr.Deadlock && tr.Property.Name == model.Deadlock:
		fmt.Fprintf(w, "\n   %s\n", paint(ansiBad, "deadlock: no action is enabled in this state, and the spec does not declare it a proper end"))
	case tr.Deadlock:
		fmt.Fprintf(w, "\n   %s\n", paint(ansiBad, fmt.Sprintf("deadlock: no action is enabled in this state, and %s fails here", printable(tr.Property.Name))))
	default:
		fmt.Fprintf(w, "\n   %s\n", paint(verdictStyle, printable(chart.Headline(tr))))
	}
}

type change struct{ name, value string }

// changed lists the variables whose value differs between two states.
func changed(before, after *tracefile.State) []change {
	old := make(map[string]string, len(before.Vars))
	for _, v := range before.Vars {
		old[v.Name] = v.Value
	}
	var out []change
	for _, v := range after.Vars {
		if o, ok := old[v.Name]; !ok || o != v.Value {
			out = append(out, change{v.Name, v.Value})
		}
	}
	return out
}

// decisions describes the status changes between two states' views:
// "p2 decides leader".
func decisions(before, after *tracefile.State) []string {
	if before.View == nil || after.View == nil || len(before.View.Procs) != len(after.View.Procs) {
		return nil
	}
	var out []string
	for i, p := range after.View.Procs {
		if p.Status != before.View.Procs[i].Status {
			status := p.Status
			if status == "" {
				status = "nothing any more"
			}
			out = append(out, fmt.Sprintf("%s decides %s", p.Name, strings.TrimSpace(status)))
		}
	}
	return out
}
