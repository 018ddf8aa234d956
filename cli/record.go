package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/runstore"
	"github.com/ringcheck/mc/tokentemplate/everyn"
	"github.com/ringcheck/mc/tracefile"
)

// recorder keeps a completed mc check in the run store's history: what it
// printed, its summary and its trace (docs/runstore.md).
type recorder struct {
	dir     string
	args    []string
	started time.Time
	out     bytes.Buffer
}

// startRecording checks the run store in dir ("": none) before the run,
// so that a store mc would refuse stops the check now, not after the run
// (exit 2, or 3 for a store that cannot be written). A store in use is not
// refused: the check only needs it at the end, when it waits for it. The
// default store (chosen says --db was not given) that cannot be written,
// as in a read-only working directory, does not stop the check: it runs
// unrecorded and says so. On failure it returns nil and the exit code,
// having said why.
func startRecording(dir string, chosen bool, args []string, stderr io.Writer) (*recorder, int) {
	if dir == "" {
		return &recorder{}, exitPass
	}
	s, err := runstore.Open(dir, runstore.Options{Holder: "mc check", Create: true})
	var inUse *runstore.InUse
	var unwritable *runstore.Unwritable
	switch {
	case errors.As(err, &inUse):
	case errors.As(err, &unwritable) && !chosen:
		fmt.Fprintf(stderr, "mc check: not recorded: %s (give --db DIR to record it elsewhere)\n", printable(err.Error()))
		return &recorder{}, exitPass
	case err != nil:
		fmt.Fprintf(stderr, "mc check: %s\n", dbMessage(err))
		return nil, dbExit(err)
	default:
		if code := closeDB(s, "check", stderr); code != exitPass {
			return nil, code
		}
	}
	return &recorder{dir: dir, args: append([]string{"check"}, withoutDB(args)...), started: time.Now()}, exitPass
}

// withoutDB is args without --db DIR: where a check is recorded is not
// part of what it was.
func withoutDB(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--db":
			i++
		case strings.HasPrefix(args[i], "--db="):
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// tee is stdout, copied into what the record keeps.
func (r *recorder) tee(stdout io.Writer) io.Writer {
	if r.dir == "" {
		return stdout
	}
	return io.MultiWriter(stdout, &r.out)
}

// summary is the record of a check whose key is key.
func (r *recorder) summary(key runstore.Key, verdict checker.Verdict, states, transitions int64, depth int, elapsed time.Duration) *runstore.Check {
	return &runstore.Check{Key: key, Build: runinfo.ThisBuild(), Started: r.started.UTC(), Args: r.args, Verdict: string(verdict),
		States: states, Transitions: transitions, Depth: depth, ElapsedMS: checkjson.Millis(elapsed), Output: r.out.String()}
}

// recordResult records res, a completed run of t, with the trace of
// traced's failure or witness (traced is res, or its unreduced re-run).
func (r *recorder) recordResult(t checker.Stepper, specHash string, res, traced *checker.Result, stderr io.Writer) {
	if r.dir == "" {
		return
	}
	key, err := runstore.NewKey(runstore.KindCheck, res.Meaning, nil, specHash)
	if err != nil {
		fmt.Fprintf(stderr, "mc check: not recorded: %v\n", err)
		return
	}
	c := r.summary(key, res.Verdict, res.States, res.Transitions, res.Depth, res.Elapsed)
	for _, m := range res.Measures {
		c.Measures = append(c.Measures, runstore.Measure{Name: m.Name, Max: m.Max})
	}
	r.record(c, t, traced, stderr)
}

// recordAllIDs records a completed mc check --all-ids, whose verdict,
// states and transitions are those of every class: meaning is one
// class's, without its ids, and the trace is the first failing class's
// (failed, a run of failedTarget), if one failed.
func (r *recorder) recordAllIDs(meaning runinfo.Meaning, specHash string, verdict checker.Verdict, states, transitions int64,
	failedTarget checker.Stepper, failed *checker.Result, stderr io.Writer) {
	if r.dir == "" {
		return
	}
	meaning.Params.IDs = nil
	key, err := runstore.NewKey(runstore.KindAllIDs, meaning, nil, specHash)
	if err != nil {
		fmt.Fprintf(stderr, "mc check: not recorded: %v\n", err)
		return
	}
	r.record(r.summary(key, verdict, states, transitions, 0, time.Since(r.started)), failedTarget, failed, stderr)
}

// everyNOptions are the key's options of an mc check --every-n: what
// carries its sizes' verdicts to every n.
type everyNOptions struct {
	Cutoff   int    `json:"cutoff"`
	Fragment string `json:"fragment"`
	Theorem  string `json:"theorem"`
}

// recordEveryN records a completed mc check --every-n as one check: its
// verdict for every n, the states and transitions of all the sizes it
// checked, and the trace of the last size's run (the failure at the size
// where it was found, or a witness's run at the cutoff). Its key's Run is
// the run at the cutoff, without ids (a template reads none), and its
// options the cutoff and theorem, so that mc runs shows it as --every-n.
func (r *recorder) recordEveryN(res everyn.Result, specHash string, stderr io.Writer) {
	if r.dir == "" || len(res.Runs) == 0 {
		return
	}
	last := &res.Runs[len(res.Runs)-1]
	meaning := last.Meaning
	meaning.Params.N, meaning.Params.IDs = res.Cutoff.Size, nil
	key, err := runstore.NewKey(runstore.KindEveryN, meaning, everyNOptions{res.Cutoff.Size, res.Cutoff.Fragment, res.Cutoff.Theorem}, specHash)
	if err != nil {
		fmt.Fprintf(stderr, "mc check: not recorded: %v\n", err)
		return
	}
	var states, transitions int64
	depth := 0
	for i := range res.Runs {
		states += res.Runs[i].States
		transitions += res.Runs[i].Transitions
		depth = max(depth, res.Runs[i].Depth)
	}
	r.record(r.summary(key, res.Verdict, states, transitions, depth, time.Since(r.started)), res.Last, last, stderr)
}

// record adds c, with the trace of traced's recorded run of t if it has
// one, to the store, and says under which number. A store that cannot
// take it is said on stderr; the check's own exit code stands, since its
// verdict does not depend on the store.
func (r *recorder) record(c *runstore.Check, t checker.Stepper, traced *checker.Result, stderr io.Writer) {
	if traced != nil {
		if p := recorded(traced); p != nil {
			f, err := tracefile.Build(t, traced.Meaning, p, version())
			if err == nil {
				c.Trace, err = json.Marshal(f)
			}
			if err != nil {
				fmt.Fprintf(stderr, "mc check: not recorded: the trace: %v\n", err)
				return
			}
		}
	}
	s, err := runstore.Open(r.dir, runstore.Options{Holder: "mc check", Wait: dbWait, Create: true})
	if err == nil {
		err = s.AddCheck(c)
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mc check: not recorded: %s\n", dbMessage(err))
		return
	}
	explore := ""
	if c.Trace != nil {
		explore = fmt.Sprintf("; mc explore --run %d", c.ID)
	}
	fmt.Fprintf(stderr, "mc check: recorded as run %d in %s (mc runs show %d%s)\n", c.ID, printable(r.dir), c.ID, explore)
}
