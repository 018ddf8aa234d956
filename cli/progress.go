package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/internal/memlimit"
)

// Progress on long runs. On a terminal, mc check shows a status line on
// stderr once a run has lasted liveAfter, rewritten in place and erased at
// the end. The line gives states, states/s since the last report, depth,
// frontier, the memory the checker holds and the process's peak RSS. With
// --json on a terminal it stays quiet unless --progress asks for it.
// When stderr is a file or a pipe (a CI log), a long run prints the line
// as a line of its own every logEvery, from logEvery on, so that a log
// shows a run that is alive; --progress shows it from the first report,
// every loggedEvery. Nothing goes to /dev/null, and nothing to a stderr
// that is no file (the tests' buffers).
const (
	liveAfter     = 2 * time.Second
	liveEvery     = 500 * time.Millisecond
	loggedEvery   = 5 * time.Second
	logEvery      = 30 * time.Second
	eraseLine     = "\r\033[K"
	progressLabel = "mc check: "
)

// progressLine prints checker.Progress reports.
type progressLine struct {
	w io.Writer
	// live rewrites one line in place (a terminal); otherwise each report
	// is a line of its own.
	live bool
	// after is how long a run must last before anything is shown.
	after time.Duration
	shown bool
	last  checker.Progress
	// rss reports the process's peak resident memory.
	rss func() int64
}

// newProgress returns the progress printer for mc check's flags, or nil
// when progress stays quiet, with the interval between reports.
func newProgress(stderr io.Writer, asked, json bool) (*progressLine, time.Duration) {
	terminal := isTerminal(stderr)
	switch {
	case asked && terminal:
		return &progressLine{w: stderr, live: true, rss: memlimit.Peak}, liveEvery
	case asked:
		return &progressLine{w: stderr, rss: memlimit.Peak}, loggedEvery
	case terminal && !json:
		return &progressLine{w: stderr, live: true, after: liveAfter, rss: memlimit.Peak}, liveEvery
	case isLog(stderr):
		return &progressLine{w: stderr, after: logEvery, rss: memlimit.Peak}, logEvery
	}
	return nil, 0
}

func (pl *progressLine) report(p checker.Progress) {
	if p.Elapsed < pl.after {
		pl.last = p
		return
	}
	// A new phase counts its states from 0, since it started after the
	// last report.
	before := pl.last.States
	if p.Phase != pl.last.Phase {
		before = 0
	}
	rate := float64(p.States) / p.Elapsed.Seconds()
	if dt := (p.Elapsed - pl.last.Elapsed).Seconds(); pl.last.Elapsed > 0 && dt > 0 {
		rate = float64(p.States-before) / dt
	}
	pl.last = p
	line := fmt.Sprintf("%s%s: %s states, %s states/s, depth %d, frontier %s, %s held (peak RSS %s), %s",
		progressLabel, p.Phase, count(float64(p.States)), count(rate), p.Depth, count(float64(p.Frontier)), memlimit.Format(p.MemoryBytes), memlimit.Format(pl.rss()), p.Elapsed.Round(time.Second))
	if pl.live {
		fmt.Fprint(pl.w, eraseLine+line)
	} else {
		fmt.Fprintln(pl.w, line)
	}
	pl.shown = true
}

// finish erases a live line, so that the summary starts on a clean line.
func (pl *progressLine) finish() {
	if pl.live && pl.shown {
		fmt.Fprint(pl.w, eraseLine)
	}
}

// count renders a number for a status line: 950, 12.3k, 4.56M.
func count(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e4:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// isTerminal reports whether w is a terminal: a character device other
// than /dev/null.
func isTerminal(w io.Writer) bool {
	st, ok := fileInfo(w)
	return ok && st.Mode()&os.ModeCharDevice != 0 && !isDevNull(st)
}

// isLog reports whether w is a file or a pipe that keeps what is written:
// neither a terminal nor /dev/null.
func isLog(w io.Writer) bool {
	st, ok := fileInfo(w)
	return ok && st.Mode()&os.ModeCharDevice == 0
}

// fileInfo describes the file w writes to, if it is one.
func fileInfo(w io.Writer) (os.FileInfo, bool) {
	if o, ok := w.(*output); ok {
		w = o.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil, false
	}
	st, err := f.Stat()
	return st, err == nil
}

// isDevNull reports whether st is the null device's.
func isDevNull(st os.FileInfo) bool {
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, null)
}
