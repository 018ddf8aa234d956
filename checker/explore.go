package checker

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/internal/diskio"
	"github.com/ringcheck/mc/checker/internal/packed"
	"github.com/ringcheck/mc/checker/liveness"
	"github.com/ringcheck/mc/checker/por"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/checker/termination"
	"github.com/ringcheck/mc/internal/filelock"
	"github.com/ringcheck/mc/model"
)

// noParent marks an initial state in the trace log; its action field then
// holds the initial state's index.
const noParent = ^uint32(0)

// origin is one entry of the trace log: how state i was first reached,
// from which parent state by which (packed) action.
type origin struct {
	parent uint32
	action uint32
}

// maxStateProps bounds the invariants and witnesses of one system: a
// candidate's decided properties are a 64-bit mask.
const maxStateProps = 64

// hit records where a property was first decided: the state with index id,
// followed by the action extra for a step property, ending in a state with
// fingerprint fp.
type hit struct {
	id    uint32
	extra *model.Action
	fp    uint64
}

// bfs is one run's breadth-first search: the system, the visited set, the
// trace log, the two levels and what the run has found so far.
type bfs[S any] struct {
	sys     *model.System[S]
	opt     Options
	workers int
	// store is the visited set (nil until a resumed disk run opens it)
	// and log the trace log.
	store store.Store
	log   *traceLog
	// work is a disk run's working directory (workdir.go); ckptLock locks
	// the checkpoint directory of a run that checkpoints.
	work     *workDir
	ckptLock *filelock.Dir
	// saved is the last checkpoint the run wrote or resumed from.
	saved *SavedCheckpoint
	hits  []*hit
	// stateProps lists the invariants and witnesses, whose bit in a
	// candidate's mask is their position here.
	stateProps []int
	// seen are the properties whose situation the run has met, and
	// situatedStates those whose situation is a state (vacuity.go).
	seen           propBits
	situatedStates []int
	start          time.Time
	stop           atomic.Pointer[string]
	reportMu       sync.Mutex
	nextReport     time.Time
	// done counts the states of the current level expanded so far, for
	// progress reports.
	done atomic.Int64
	// frontier is the level being expanded, successors the next one; they
	// share pool's blocks.
	frontier, successors *level
	pool                 blockPool
	// resumedElapsed is the time spent before the checkpoint resumed from.
	resumedElapsed time.Duration
	// reducer is set when partial-order reduction is on (package por);
	// readers then are the Reads that define visibility, and indexed is the
	// store, which keeps every state's index.
	reducer *por.Reducer
	readers []func(buf []byte, s *S) []byte
	indexed store.Indexed
	// ampleHook, if set (by tests), is called with every state expanded by
	// a proper ample set and that set's actions, from any worker.
	ampleHook func(id uint32, ample []model.Action)
	// peaks holds, per measure, the largest value seen and where.
	peaks []peak
	// round lists the candidates of the round being committed, from
	// committing; admitting is the batch whose candidates are admitted.
	round      []*store.Candidates
	committing []*batch
	admitting  int
	// extRound is the round as the extension sees it (Committed), and
	// batches the round's batches, reused by every round.
	extRound []extension.Committed
	batches  []*batch
	// mem holds the memory limit, checked at round boundaries;
	// lastRoundEnd is the number of states stored when the last round
	// ended, by which the next round's are foreseen (overMemory).
	mem          memoryGuard
	lastRoundEnd int
	// measure, when the spec declares a termination measure, verifies it
	// and decides liveness with marks (package termination); nil
	// otherwise. It is the search's extension, ext (package extension),
	// which the search calls at the named points of its loop.
	measure *termination.Measure[S]
	ext     extension.Extension[S]
	// graph, when liveness will be decided on the state graph, records
	// that graph as the search goes (liveness.Recorder), as the search's
	// extension; nil otherwise.
	graph *liveness.Recorder[S]
	// payloadBits is the extension's payload per state, 0 for none.
	payloadBits int
	// counts are the coverage counts (coverage.go); nil when
	// Options.Coverage is off.
	counts *ruleCounts
	// beyond is set while the level at Options.MaxDepth is expanded: its
	// successors are not admitted, and deeper records that one was new.
	beyond, deeper bool
}

// vals is the number of values a candidate carries: its measures', then
// the extension's payload if it keeps one.
func (e *bfs[S]) vals() int {
	if e.payloadBits > 0 {
		return len(e.peaks) + 1
	}
	return len(e.peaks)
}

// payloadLayout is where a candidate carries the extension's payload:
// after its measures' values.
func (e *bfs[S]) payloadLayout() store.PayloadLayout {
	return store.PayloadLayout{Bits: e.payloadBits, Vals: e.vals(), At: len(e.peaks)}
}

// peak is the largest value of one measure seen so far and the first state,
// in breadth-first order, that reached it: one with a shortest run to it.
type peak struct {
	value int
	at    *hit
}

// Run explores every state of sys reachable from its initial states,
// breadth-first, and evaluates its properties. It stops early, with verdict
// Incomplete, when a limit in opt is reached or ctx is cancelled.
//
// Each level is expanded by opt.Workers goroutines over chunks of the
// frontier; their candidates are then committed to the store chunk by chunk
// in frontier order, so the states, their indices, the traces and every
// figure are the same for any number of workers.
func Run[S any](ctx context.Context, sys *model.System[S], opt Options) Result {
	res, _ := run(ctx, sys, opt, nil)
	return res
}

// run is Run; it also returns the search (nil if the run did not start),
// whose trace log tests read to list the states a run stored. hook, if not
// nil, becomes the search's ampleHook. The deadlock property joins the
// spec's here, unless opt.NoDeadlock, so that every phase sees the same
// list (the marks phase searches the system run gives search).
func run[S any](ctx context.Context, sys *model.System[S], opt Options, hook func(uint32, []model.Action)) (Result, *bfs[S]) {
	if !opt.NoDeadlock {
		sys = sys.WithDeadlock()
	}
	// The memory guards lower the runtime's soft limit as the memory
	// outside the runtime grows (memoryGuard); the run gives it back as
	// it found it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	res, e := search(ctx, sys, opt, hook, false)
	if e == nil { // refused before the search began
		return res, nil
	}
	e.decideLiveness(ctx, &res)
	e.finishWorkDir(&res) // a checkpoint names it: kept until the liveness phase ends
	settleVacuity(&res, opt)
	res.Elapsed = res.SafetyElapsed
	if res.Liveness != nil {
		res.Elapsed += res.Liveness.Elapsed
	}
	return res, e
}

// search is one breadth-first search of sys, its safety verdicts and
// figures; its caller decides liveness (decideLiveness) and the run's end.
// withMarks makes it the marks phase of a termination measure (package
// termination), which computes the marks: a second search that marksPhase
// drives, never one search calling another.
func search[S any](ctx context.Context, sys *model.System[S], opt Options, hook func(uint32, []model.Action), withMarks bool) (Result, *bfs[S]) {
	res := Result{Spec: sys.Spec, Variant: sys.Variant, Params: sys.Params, Meaning: meaning(sys.Spec, sys.Variant, sys.Params, opt)}
	if opt.Safety {
		sys, res.SkippedLiveness = safetyOnly(sys)
	}
	if opt.Reduce {
		sys, res.SkippedMeasures = declaredMeasures(sys)
	}
	if err := CanBound(opt); err != nil {
		res.Err = err
		return res, nil
	}
	if err := checkShape(sys); err != nil {
		res.Err = err
		return res, nil
	}
	e := &bfs[S]{sys: sys, opt: opt, workers: opt.Workers, hits: make([]*hit, len(sys.Props)),
		peaks: make([]peak, len(sys.Measures)), start: time.Now(), ampleHook: hook}
	if e.workers <= 0 {
		e.workers = runtime.NumCPU()
	}
	if !opt.Exact {
		// The marks are keyed by fingerprint: --exact, which promises
		// that no collision can merge two states, keeps the graph.
		e.measure = termination.New(sys, withMarks, e.rebuild)
	}
	if e.measure != nil {
		e.ext, e.payloadBits = e.measure, e.measure.PayloadBits()
	}
	res.Workers, res.Exact = e.workers, opt.Exact
	e.mem.limit = memoryLimit(opt)
	res.MemoryLimit = e.mem.limit
	if props, _ := livenessProps(sys); len(props) > 0 && unrecorded(opt, e.measure != nil) == "" {
		e.graph = liveness.NewRecorder(props, opt.Exact, e.graphTight())
		e.ext = e.graph
	}
	if opt.Coverage {
		e.counts = newRuleCounts(len(sys.Rules) * sys.Procs)
	}
	for i, p := range sys.Props {
		if p.Kind == model.Invariant || p.Kind == model.Witness {
			e.stateProps = append(e.stateProps, i)
		}
		if p.Situation() == model.InState {
			e.situatedStates = append(e.situatedStates, i)
		}
	}
	if opt.Reduce {
		if err := e.setupReduction(&res); err != nil {
			res.Err = err
			return res, nil
		}
	}
	if err := e.open(); err != nil {
		res.Err = err
	} else {
		e.nextReport = e.start.Add(e.every())
		e.explore(ctx, &res)
	}
	e.stopOnEnvironment(&res)
	res.SafetyElapsed = time.Since(e.start) + e.resumedElapsed
	res.States = int64(e.log.len())
	res.MemoryBytes = e.storeBytes() + e.log.bytes()
	if e.ext != nil {
		e.ext.EndRun()
	}
	res.DiskBytes = e.fileBytes()
	if res.Err == nil {
		// A refused resume, or any other failure, leaves no verdict to
		// give, and the origins may be anything.
		e.verdicts(&res)
		if res.Err == nil {
			e.reportWrongMeasure(&res)
		}
		if diskio.Environmental(res.Err) { // the trace log could not be read back
			res.Props, res.Measures, res.Verdict, res.Reason = nil, nil, Incomplete, "I/O error: "+res.Err.Error()
			res.Err = nil
		}
	}
	res.Coverage = e.coverage()
	res.Checkpoint = e.saved
	if err := e.close(); err != nil && res.Err == nil {
		res.Err = err
	}
	if e.saved == nil && !e.opt.Resume {
		e.finishWorkDir(&res) // no checkpoint names it: its room goes to the liveness phase
	}
	return res, e
}

// decideLiveness decides the liveness properties of the search e, whose
// safety verdicts res holds: by the termination measure if it held on
// every transition of a complete search (measure_verdict.go), else on the
// state graph.
func (e *bfs[S]) decideLiveness(ctx context.Context, res *Result) {
	if e.measure.Active() && res.Err == nil && res.Reason == "" && !res.StoppedAtViolation {
		decideByMeasure(ctx, e.sys, e.measure, e.opt, res, e.start)
		return
	}
	if e.measure != nil {
		e.measure.FreeMarks() // the graph decides
	}
	defer e.graph.Drop("unused")
	checkLiveness(ctx, e.sys, e.opt, res, e.start, e.graph, e.secondExploration(res))
}

// secondExploration says why the liveness graph of the search e, whose
// results res holds, is built by exploring the model again (liveness.Build)
// rather than taken from the search (liveness.Recorder), "" when it is
// taken: the run's summary says which, since the second exploration
// costs about the time of the first (docs/liveness.md, "Where the graph
// comes from").
func (e *bfs[S]) secondExploration(res *Result) string {
	if e.graph.Holds() && res.Reason == "" {
		return ""
	}
	if res.Reason != "" {
		return "the search stopped early"
	}
	if why := unrecorded(e.opt, e.measure != nil); why != "" {
		return why
	}
	if e.graph.Dropped() == liveness.DroppedForMemory {
		return "the graph the search recorded gave way to it under the memory limit"
	}
	return "the search could not record it: " + e.graph.Dropped()
}

// setupReduction builds the reducer, or says in res why reduction does not
// apply. Settings under which it would be unsound are refused.
func (e *bfs[S]) setupReduction(res *Result) error {
	props := make([]PropInfo, len(e.sys.Props))
	for i, p := range e.sys.Props {
		props[i] = PropInfo{Name: p.Name, Kind: p.Kind}
	}
	if err := CanReduce(e.opt, props, e.sys.Termination != nil); err != nil {
		return err
	}
	for _, p := range e.sys.Props {
		if p.Kind.Liveness() && e.measure == nil {
			return fmt.Errorf("partial-order reduction decides liveness by the termination measure's marks, which hold at most %d liveness properties; spec %s has more: add --safety, or run without --por", termination.MaxProps, e.sys.Spec)
		}
	}
	r, note, err := por.New(e.sys)
	if err != nil {
		return err
	}
	res.ReductionNote = note
	if r == nil {
		return nil
	}
	e.reducer, res.Reduced = r, true
	e.readers = por.Reads(e.sys)
	return nil
}

// safetyOnly returns sys without its liveness properties, and their names.
func safetyOnly[S any](sys *model.System[S]) (*model.System[S], []string) {
	safe := *sys
	safe.Props = nil
	var skipped []string
	for _, p := range sys.Props {
		if p.Kind.Liveness() {
			skipped = append(skipped, p.Name)
		} else {
			safe.Props = append(safe.Props, p)
		}
	}
	return &safe, skipped
}

// declaredMeasures returns sys without the measures that do not declare what
// they read, and their names. A measure is an observation, not a verdict:
// under partial-order reduction one that may read anything would make every
// action visible and switch the reduction off, so it is left unmeasured
// instead, and the run says so.
func declaredMeasures[S any](sys *model.System[S]) (*model.System[S], []string) {
	kept := *sys
	kept.Measures = nil
	var skipped []string
	for _, m := range sys.Measures {
		if m.Reads == nil {
			skipped = append(skipped, m.Name)
		} else {
			kept.Measures = append(kept.Measures, m)
		}
	}
	return &kept, skipped
}

// open sets up the visited set, the trace log and the two levels: in memory,
// or in a new working directory under opt.Disk; a resumed disk run opens
// the working directory its checkpoint names (resume). It locks the
// checkpoint directory of a run that checkpoints.
func (e *bfs[S]) open() error {
	// The termination measure reads any state of the frontier before a
	// checkpoint (BeforeCheckpoint): the levels of such a run stay plain.
	// (The graph's recorder reads none.)
	e.frontier, e.successors = packedLevel(&e.pool), packedLevel(&e.pool)
	if e.measure != nil && e.opt.Checkpoint != "" {
		e.frontier, e.successors = &level{pool: &e.pool}, &level{pool: &e.pool}
	}
	e.log = newTraceLog(len(e.sys.Rules), e.sys.Procs)
	if e.opt.Checkpoint != "" {
		var err error
		if e.ckptLock, err = lockCheckpointDir(e.opt.Checkpoint); err != nil {
			return err
		}
		if err := claimCheckpointDir(e.opt.Checkpoint, e.opt.Resume); err != nil {
			return err
		}
	}
	switch {
	case e.opt.Disk != "" && e.opt.Exact:
		return fmt.Errorf("--exact keeps full states in memory; it cannot be combined with the disk store")
	case e.opt.Disk != "" && e.opt.Resume:
		e.log = &traceLog{} // resume opens the working directory and the log
	case e.opt.Disk != "":
		w, err := createWorkDir(e.opt.Disk, e.sys.Spec)
		if err != nil {
			return err
		}
		e.work = w
		if e.log, err = createTraceLog(w.file(workTraceLog)); err != nil {
			return err
		}
		if err := e.openDisk(); err != nil {
			return err
		}
	case e.opt.Exact:
		e.indexed = store.NewExact()
		e.store = e.indexed
	case e.reducer != nil:
		e.indexed = store.NewIndexedMemory()
		e.store = e.indexed
	case e.payloadBits > 0:
		e.store = store.NewPayloadMemory(e.payloadLayout())
	default:
		e.store = store.NewMemory()
	}
	if e.opt.Disk == "" {
		e.openExtension()
	}
	return nil
}

// openExtension gives the extension, if any, the visited set just opened.
func (e *bfs[S]) openExtension() {
	if e.ext != nil {
		e.ext.Open(e.store, e.payloadLayout(), e.opt.Disk == "" && e.reducer == nil)
	}
}

// openDisk opens, in the working directory, the disk store and the two
// spilled levels.
func (e *bfs[S]) openDisk() error {
	var payload *store.DiskPayload
	if l := e.payloadLayout(); l.Bits > 0 {
		payload = &store.DiskPayload{At: l.At, Reached: e.ext.Reached}
	}
	var err error
	if e.store, err = store.OpenDisk(e.work.path, e.vals(), levelBlock, e.opt.Checkpoint != "", payload); err != nil {
		return err
	}
	e.openExtension()
	if e.frontier, err = spillLevel(e.work.file(workLevelA), &e.pool); err != nil {
		return err
	}
	e.successors, err = spillLevel(e.work.file(workLevelB), &e.pool)
	return err
}

// close closes every file the run opened, however far open went, and
// unlocks the checkpoint directory.
func (e *bfs[S]) close() error {
	var err error
	for _, l := range []*level{e.frontier, e.successors} {
		if l != nil {
			err = errors.Join(err, l.close())
		}
	}
	e.pool.close()
	if e.log != nil {
		err = errors.Join(err, e.log.close())
	}
	if e.store != nil {
		err = errors.Join(err, e.store.Close())
	}
	if e.ckptLock != nil {
		err = errors.Join(err, e.ckptLock.Close())
		e.ckptLock = nil
	}
	return err
}

// storeBytes is the memory the visited set holds.
func (e *bfs[S]) storeBytes() int64 {
	if e.store == nil {
		return 0 // a resumed disk run that did not reach its store
	}
	return e.store.Bytes()
}

// fileBytes is the size of the run's files: the store's and the trace log's.
func (e *bfs[S]) fileBytes() int64 {
	if e.store == nil {
		return 0
	}
	return e.store.FileBytes() + e.log.fileBytes()
}

// MaxProcs is the largest ring the checker explores: a packed action names
// its process in 12 bits (the trace log, a level's candidates and the
// liveness graph keep actions packed). The CLI refuses larger rings before
// it builds one.
const MaxProcs = packed.MaxProcs

func checkShape[S any](sys *model.System[S]) error {
	stateProps, deadlocks := 0, 0
	for _, p := range sys.Props {
		if p.Kind == model.Invariant || p.Kind == model.Witness {
			stateProps++
		}
		if p.Name == model.Deadlock {
			deadlocks++
		}
		if err := p.CheckSituation(); err != nil {
			return fmt.Errorf("spec %s: %v", sys.Spec, err)
		}
	}
	switch {
	case deadlocks > 1:
		return fmt.Errorf("spec %s has a property named %s, the name of mc's own deadlock check: rename it", sys.Spec, model.Deadlock)
	case len(sys.Init) == 0:
		return fmt.Errorf("spec %s has no initial state", sys.Spec)
	case len(sys.Rules) > packed.MaxRules:
		return fmt.Errorf("spec %s has %d rules; mc supports at most %d", sys.Spec, len(sys.Rules), packed.MaxRules)
	case sys.Procs > packed.MaxProcs:
		return fmt.Errorf("spec %s has %d processes; mc supports at most %d", sys.Spec, sys.Procs, packed.MaxProcs)
	case stateProps > maxStateProps:
		return fmt.Errorf("spec %s has %d invariants and witnesses; mc supports at most %d", sys.Spec, stateProps, maxStateProps)
	}
	return nil
}

func (e *bfs[S]) every() time.Duration {
	if e.opt.ProgressEvery > 0 {
		return e.opt.ProgressEvery
	}
	return time.Second
}

func (e *bfs[S]) limit() int64 {
	if e.opt.MaxStates > 0 {
		return e.opt.MaxStates
	}
	return 1<<63 - 1
}

func (e *bfs[S]) halt(why string) { e.stop.CompareAndSwap(nil, &why) }

// stopAtViolation reports whether the run ends here, at a level boundary,
// because a property other than a witness has failed and Options.Continue
// is unset. Stopping at a level boundary, not at the violating state, keeps
// the figures independent of the workers' schedule and of the store (the
// disk store commits a level's candidates only at its end), and the same
// for a run resumed from a checkpoint, which is taken at level boundaries
// and holds the hits.
func (e *bfs[S]) stopAtViolation() bool {
	if e.opt.Continue {
		return false
	}
	for i, h := range e.hits {
		if h != nil && e.sys.Props[i].Kind != model.Witness {
			return true
		}
	}
	return false
}

func (e *bfs[S]) stopped() string {
	if p := e.stop.Load(); p != nil {
		return *p
	}
	return ""
}

func (e *bfs[S]) explore(ctx context.Context, res *Result) {
	depth := 0
	if e.opt.Resume {
		d, err := e.resume(res)
		if err != nil {
			res.Err = err
			return
		}
		// A checkpoint of a finished run holds an empty frontier one
		// level past the deepest; searchLevel sets Depth otherwise.
		depth, res.Depth = d, max(d-1, 0)
	} else if !e.commitInitial(res) {
		return
	}
	nextSave := time.Now().Add(FirstCheckpoint(e.opt.CheckpointEvery))
	for ; ; depth++ {
		if err := e.frontier.finish(); err != nil {
			res.Err = err
			return
		}
		if e.opt.Checkpoint != "" && !time.Now().Before(nextSave) {
			if e.ext != nil {
				if err := e.ext.BeforeCheckpoint(e.frontier); err != nil {
					res.Err = err
					return
				}
			}
			if err := e.save(depth, res); err != nil {
				res.Err = fmt.Errorf("checkpoint: %w", err)
				return
			}
			nextSave = time.Now().Add(e.opt.CheckpointEvery)
		}
		if e.frontier.len() == 0 {
			return
		}
		if e.stopAtViolation() {
			res.StoppedAtViolation = true
			return
		}
		if !e.searchLevel(ctx, depth, res) {
			return
		}
		e.frontier, e.successors = e.successors, e.frontier
	}
}

// commitInitial commits the initial states as level 0's candidates, like
// any other level's. It returns false when the run must stop.
func (e *bfs[S]) commitInitial(res *Result) bool {
	sys := e.sys
	init := e.newBatch()
	x := newExpander(e)
	for i := range sys.Init {
		x.buf = sys.Encode(x.buf[:0], &sys.Init[i])
		init.Add(model.Fingerprint(x.buf), noParent, uint32(i), x.stateMask(&sys.Init[i]), x.buf)
		x.observe(&sys.Init[i], init)
		x.measure(&sys.Init[i], &init.Candidates)
		if e.ext != nil {
			e.ext.Initial(&sys.Init[i], &init.Candidates, init.ext)
		}
	}
	return e.commit([]*batch{init}, e.frontier, res) && e.commitLevel(e.frontier, res)
}

// searchLevel expands the frontier, the level at depth, into the
// successors, the next level, round by round: the workers expand a round's
// chunks into batches (expandRound), the store commits them in frontier
// order and admits each new state (commit, admit); the extension, if any,
// is called at the level's start and end (docs/layout.md, "One level of
// the search"). It returns false when the run must stop.
func (e *bfs[S]) searchLevel(ctx context.Context, depth int, res *Result) bool {
	res.Depth = depth
	if e.ext != nil {
		e.ext.StartLevel(depth, uint32(e.log.len()))
	}
	e.beyond = e.opt.MaxDepth > 0 && depth >= e.opt.MaxDepth
	if err := e.successors.reset(uint32(e.log.len())); err != nil {
		res.Err = err
		return false
	}
	chunks := (e.frontier.len() + chunkSize - 1) / chunkSize
	for c := 0; c < chunks; c += roundChunks {
		c1 := min(c+roundChunks, chunks)
		if err := e.frontier.window(c*chunkSize, min(c1*chunkSize, e.frontier.len())); err != nil {
			res.Err = err
			return false
		}
		e.batches = e.expandRound(ctx, e.frontier, c, c1, e.batches, depth, res)
		if e.stopped() != "" || res.Err != nil || !e.commit(e.batches, e.successors, res) {
			return false
		}
		e.frontier.release(c1 * chunkSize)
		if why := e.overMemory(depth); why != "" {
			e.halt(why)
			return false
		}
	}
	if !e.commitLevel(e.successors, res) {
		return false
	}
	if e.beyond && e.deeper {
		e.cutAtMaxDepth(res)
		return false
	}
	if e.ext != nil {
		if err := e.ext.EndLevel(depth); err != nil {
			res.Err = err
			return false
		}
	}
	return true
}

// A level is expanded in rounds of roundChunks chunks of chunkSize states:
// the workers share out a round's chunks, then the round is committed. A
// round's candidates are all the memory a level needs beyond its frontier,
// whatever the level's size, and states committed by one round are already
// filtered out when the next round is expanded. Rounds are kept short for
// that memory: a worker left idle while the other ends a round's last
// chunk is the price, and at 8 chunks it stays small against a round
// (docs/performance.md, "Memory per state").
const (
	chunkSize   = 1024
	roundChunks = 8
)

// expandRound expands chunks c0..c1-1 of frontier with e.workers goroutines
// and returns one batch per chunk, in frontier order.
func (e *bfs[S]) expandRound(ctx context.Context, frontier *level, c0, c1 int, batches []*batch, depth int, res *Result) []*batch {
	chunks := c1 - c0
	if cap(batches) < chunks {
		batches = append(batches[:cap(batches)], make([]*batch, chunks-cap(batches))...)
	}
	batches = batches[:chunks]
	for i, b := range batches {
		if b == nil {
			batches[i] = e.newBatch()
		}
	}
	e.done.Store(0)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, e.workers)
	for w := 0; w < e.workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			x := newExpander(e)
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks || e.stopped() != "" {
					return
				}
				b := batches[c]
				b.reset()
				lo, hi := (c0+c)*chunkSize, min((c0+c+1)*chunkSize, frontier.len())
				if errs[w] = x.expand(ctx, frontier, lo, hi, b); errs[w] != nil {
					e.halt("internal error")
					return
				}
				e.report(frontier, depth, res)
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			res.Err = err
		}
	}
	return batches
}

// report calls the progress callback if it is due.
func (e *bfs[S]) report(frontier *level, depth int, res *Result) {
	if e.opt.Progress == nil {
		return
	}
	e.reportMu.Lock()
	defer e.reportMu.Unlock()
	now := time.Now()
	if now.Before(e.nextReport) {
		return
	}
	e.nextReport = now.Add(e.every())
	e.opt.Progress(Progress{Phase: PhaseSafety, States: int64(e.log.len()), Transitions: res.Transitions, Depth: depth,
		Frontier: frontier.len() - int(e.done.Load()), Elapsed: now.Sub(e.start),
		MemoryBytes: e.storeBytes() + e.log.bytes() + frontier.bytes()})
}

// commit adds the batches' candidates to the store, which admits, in
// order, each new state (admit), and records the batches' counts and hits.
// A store that defers (disk) admits the level's states in commitLevel. It
// returns false when the run must stop.
func (e *bfs[S]) commit(batches []*batch, next *level, res *Result) bool {
	e.round, e.committing, e.admitting = e.round[:0], batches, 0
	for _, b := range batches {
		res.Transitions += b.transitions
		res.Terminal += b.terminal
		if e.counts != nil {
			e.counts.firedIn(b.fired)
		}
		e.seen.or(b.seen)
		for _, h := range b.hits {
			if e.hits[h.prop] == nil {
				hh := h.hit
				e.hits[h.prop] = &hh
			}
		}
		e.round = append(e.round, &b.Candidates)
	}
	var ok bool
	if err := e.store.Commit(e.round, e.workers, e.admitter(next, res, &ok)); err != nil {
		res.Err = err
		return false
	}
	next.flush(e.workers)
	if e.ext != nil {
		e.extRound = e.extRound[:0]
		for _, b := range batches {
			e.extRound = append(e.extRound, extension.Committed{Cands: &b.Candidates, Chunk: b.ext})
		}
		e.ext.Committed(e.extRound, ok)
	}
	return ok
}

// commitLevel admits into next the states of the level just expanded that
// a deferring store held (store.Store.EndLevel). It returns false when the
// run must stop.
func (e *bfs[S]) commitLevel(next *level, res *Result) bool {
	if err := e.store.EndLevel(e.admitter(next, res, new(bool))); err != nil {
		res.Err = err
		return false
	}
	return res.Err == nil && e.stopped() == ""
}

// admitter is admit as a store calls it, clearing *ok when it returns false.
func (e *bfs[S]) admitter(next *level, res *Result, ok *bool) store.Admit {
	*ok = true
	return func(c *store.Candidates, i int) bool {
		*ok = e.admit(c, i, next, res)
		return *ok
	}
}

// admit makes candidate i of c, new to the store, the next state: it gives
// it the next index, its origin in the trace log and a place at the end of
// next, and records the properties it decides and its measures. It returns
// false when the run must stop.
func (e *bfs[S]) admit(c *store.Candidates, i int, next *level, res *Result) bool {
	if e.beyond {
		e.deeper = true
		return true
	}
	if int64(e.log.len()) >= e.limit() {
		e.halt(fmt.Sprintf("state limit %d reached", e.opt.MaxStates))
		return false
	}
	fp := c.FPs[i]
	id, err := e.log.add(origin{parent: c.Parents[i], action: c.Actions[i]})
	if err == nil {
		err = next.add(c.Enc(i))
	}
	if err != nil {
		res.Err = err
		return false
	}
	for m := c.Masks[i]; m != 0; m &= m - 1 {
		p := e.stateProps[bits.TrailingZeros64(m)]
		if e.hits[p] == nil {
			e.hits[p] = &hit{id: id, fp: fp}
		}
	}
	if e.counts != nil && c.Parents[i] != noParent {
		e.counts.foundBy(c.Actions[i], e.sys.Procs)
	}
	vals := c.Vals[i*e.vals():]
	if e.ext != nil {
		var ch extension.Chunk
		if e.opt.Disk == "" { // else admitted at the level's end, from no chunk
			ch = e.batchOf(c).ext
		}
		e.ext.Admit(id, c, i, ch)
	}
	for m := range e.peaks {
		if v := vals[m]; e.peaks[m].at == nil || v > e.peaks[m].value {
			e.peaks[m] = peak{value: v, at: &hit{id: id, fp: fp}}
		}
	}
	return true
}

// batchOf is the batch of the round being committed whose candidates are c:
// a store admits them in order.
func (e *bfs[S]) batchOf(c *store.Candidates) *batch {
	for ; e.admitting < len(e.committing); e.admitting++ {
		if b := e.committing[e.admitting]; &b.Candidates == c {
			return b
		}
	}
	panic("internal error: a candidate admitted out of its round")
}

// interrupted says why the run must stop now, or "" to go on.
func interrupted(ctx context.Context, opt Options, start time.Time) string {
	if ctx.Err() != nil {
		return "interrupted"
	}
	if opt.Timeout > 0 && time.Since(start) > opt.Timeout {
		return fmt.Sprintf("timeout after %s", opt.Timeout)
	}
	return ""
}

// path rebuilds the actions that first reached state id, a state of a
// level up to depth+1. A parent is always stored before its child, and a
// path has at most depth+1 steps: a log that breaks either (a corrupted
// entry once made state 0 its own parent, and the walk looped until the
// kernel killed it) is refused before it can loop.
func (e *bfs[S]) path(id uint32, depth int) (init int, actions []model.Action, err error) {
	for {
		l, err := e.log.at(id)
		if err != nil {
			return 0, nil, err
		}
		if l.parent == noParent {
			slices.Reverse(actions)
			return int(l.action), actions, nil
		}
		if l.parent >= id || len(actions) > depth {
			return 0, nil, fmt.Errorf("the trace log is corrupted: state %d's path goes back to state %d after %d steps, in a run of depth %d", id, l.parent, len(actions), depth)
		}
		actions = append(actions, packed.Unpack(l.action))
		id = l.parent
	}
}

// rebuild is the state id, of a level up to depth+1, rebuilt by replaying
// its path, then the action then if not nil: how an extension finds a
// stored state again (extension.Rebuild).
func (e *bfs[S]) rebuild(id uint32, depth int, then *model.Action) (S, error) {
	init, actions, err := e.path(id, depth)
	if err != nil {
		var s S
		return s, err
	}
	if then != nil {
		actions = append(actions, *then)
	}
	s, err := Replay(e.sys, init, actions)
	if err != nil {
		return s, fmt.Errorf("internal error: state %d, whose marks were raised, does not replay: %v", id, err)
	}
	return s, nil
}

// verdicts turns what exploration found into per-property and overall
// verdicts, rebuilding and replaying a trace for every hit.
func (e *bfs[S]) verdicts(res *Result) {
	res.Reason = e.stopped()
	complete := res.Reason == "" && res.Err == nil && !res.StoppedAtViolation
	anyFail := false
	for i := range e.sys.Props {
		p := &e.sys.Props[i]
		pr := PropResult{Name: p.Name, Ref: p.Ref, Doc: p.Doc, Kind: p.Kind}
		if h := e.hits[i]; h != nil {
			init, actions, err := e.path(h.id, res.Depth)
			if err != nil {
				res.Err = err
				return
			}
			if h.extra != nil {
				actions = append(actions, *h.extra)
			}
			tr, err := render(e.sys, init, actions, h.fp)
			if err != nil {
				res.Err = err
				return
			}
			tr.Property, tr.Kind, tr.Deadlock = p.Name, p.Kind.String(), p.Kind == model.End
			pr.Trace = tr
		}
		switch {
		case p.Kind == model.Witness && e.hits[i] != nil:
			pr.Verdict = Pass
		case p.Kind == model.Witness && complete:
			pr.Verdict = Fail
		case e.hits[i] != nil:
			pr.Verdict = Fail
		case complete:
			pr.Verdict = Pass
		case res.StoppedAtViolation:
			pr.Verdict, pr.HeldOn = NotChecked, heldOn(p.Kind, res)
		default:
			pr.Verdict = Incomplete
		}
		anyFail = anyFail || pr.Verdict == Fail
		res.Props = append(res.Props, pr)
	}
	for i := range e.sys.Measures {
		m := &e.sys.Measures[i]
		mr := MeasureResult{Name: m.Name, Ref: m.Ref, Doc: m.Doc, Max: e.peaks[i].value, Complete: complete}
		if h := e.peaks[i].at; h != nil {
			init, actions, err := e.path(h.id, res.Depth)
			if err != nil {
				res.Err = err
				return
			}
			tr, err := render(e.sys, init, actions, h.fp)
			if err != nil {
				res.Err = err
				return
			}
			tr.Property, tr.Kind = m.Name, "measure"
			mr.Trace = tr
		}
		res.Measures = append(res.Measures, mr)
	}
	e.unmet(res)
	switch {
	case anyFail:
		res.Verdict = Fail
	case !complete:
		res.Verdict = Incomplete
	default:
		res.Verdict = Pass
	}
}
