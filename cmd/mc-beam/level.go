package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
)

func init() {
	register.DoFn3x1[context.Context, int, func(int, []byte), error](&expandFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&dedupFn{})
	register.Function2x0[int, func(int, []byte)](markShard)
	register.Iter1[[]byte]()
}

// system is what a worker rebuilds the checked system from: the run's
// meaning, which names the spec, its variant and its parameters.
type system struct{ Run runinfo.Meaning }

func (s system) build() (checker.Target, error) {
	e, err := specs.Lookup(s.Run.Spec)
	if err != nil {
		return nil, err
	}
	p, err := s.Run.Params.Model(s.Run.Variant)
	if err != nil {
		return nil, err
	}
	return e.Build(p)
}

// levelPipeline is the pipeline that expands level L of a breadth-first
// search with delayed duplicate detection (Korf, "Delayed duplicate
// detection", 2003; Stern and Dill's parallel Murφ hashes states to
// owners the same way):
//
//  1. each shard's frontier file is expanded (expandFn): every successor
//     is keyed by the shard its fingerprint falls in, in batches per
//     shard, and the transitions are checked against the step
//     properties, the terminal states against the end properties;
//  2. the successors are grouped by shard (with one empty marker per
//     shard, so that every shard's group exists), and each group is
//     deduplicated and anti-joined with the shard's visited fingerprints
//     (dedupFn), which writes level L+1's frontier file and visited file
//     and checks the new states against the invariants and witnesses,
//     as mc check does when it admits a state (checker.Judge).
//
// Every file is written whole by one worker and read after the pipeline
// ends, so a retried worker rewrites the same bytes.
func levelPipeline(sys system, work string, level, shards int) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	ids := make([]int, shards)
	for i := range ids {
		ids[i] = i
	}
	all := beam.CreateList(s, ids)
	succ := beam.ParDo(s, &expandFn{Sys: sys, Work: work, Level: level, Shards: shards}, all)
	marks := beam.ParDo(s, markShard, all)
	groups := beam.GroupByKey(s, beam.Flatten(s, succ, marks))
	beam.ParDo0(s, &dedupFn{Sys: sys, Work: work, Level: level + 1}, groups)
	return p
}

// markShard is shard's empty marker.
func markShard(shard int, emit func(int, []byte)) { emit(shard, nil) }

// expandSummary is what expanding one shard of a level found.
type expandSummary struct {
	Transitions int `json:"transitions"`
	Terminal    int `json:"terminal"`
	// Findings are the end and step properties that failed, each where
	// it failed.
	Findings []finding `json:"findings"`
	// Met is the step and end properties whose situation a transition
	// from a state of the shard, or a terminal one, is.
	Met situations `json:"met,omitempty"`
}

// finding is a property failing in state FP (an invariant, or an end
// property in a terminal state) or on the transition Step from it.
type finding struct {
	Prop string        `json:"prop"`
	FP   uint64        `json:"fp"`
	Step *model.Action `json:"step,omitempty"`
}

func expandPath(work string, level, shard int) string {
	return fmt.Sprintf("%s/level-%d/expand-%d.json", work, level, shard)
}

func dedupPath(work string, level, shard int) string {
	return fmt.Sprintf("%s/level-%d/dedup-%d.json", work, level, shard)
}

// expandFn expands one shard of a level.
type expandFn struct {
	Sys           system
	Work          string
	Level, Shards int
	t             checker.Target
}

func (f *expandFn) Setup() error {
	var err error
	f.t, err = f.Sys.build()
	return err
}

func (f *expandFn) ProcessElement(ctx context.Context, shard int, emit func(int, []byte)) error {
	var sum expandSummary
	// The shard's successors, one per fingerprint (the least by parent
	// and action, as dedupFn keeps): a combiner before the shuffle.
	succ := map[uint64]record{}
	met := make([]bool, len(f.t.Props()))
	err := readRecords(ctx, statesPath(f.Work, f.Level, shard), func(r record) error {
		e, err := checker.Expand(f.t, checker.StateOf(r.Enc), met)
		if err != nil {
			return err
		}
		sum.Transitions += len(e.Moves)
		if len(e.Moves) == 0 {
			sum.Terminal++
		}
		for _, name := range e.Ended {
			sum.Findings = append(sum.Findings, finding{Prop: name, FP: r.FP})
		}
		for _, m := range e.Moves {
			for _, name := range m.Broken {
				a := m.Action
				sum.Findings = append(sum.Findings, finding{Prop: name, FP: r.FP, Step: &a})
			}
			c := record{FP: m.To.Key(), Parent: r.FP, Action: m.Action, Enc: m.To.Encoding()}
			if old, ok := succ[c.FP]; !ok || less(c, old) {
				succ[c.FP] = c
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sum.Met.from(met)
	batches := make([][]byte, f.Shards)
	for fp, c := range succ {
		sh := shardOf(fp, f.Shards)
		if batches[sh] = appendRecord(batches[sh], c); len(batches[sh]) >= batchBytes {
			emit(sh, batches[sh])
			batches[sh] = nil
		}
	}
	for sh, b := range batches {
		if len(b) > 0 {
			emit(sh, b)
		}
	}
	return writeJSON(ctx, expandPath(f.Work, f.Level, shard), sum)
}

// batchBytes bounds a batch of successors, the element expandFn emits:
// the records bound for one shard, concatenated. A runner's cost is per
// element (Prism persists, decodes and groups each), so a batch pays it
// once for thousands of states; the bound keeps an element small for any
// runner's data channel.
const batchBytes = 1 << 20

// dedupSummary is what deduplicating one shard's successors found.
type dedupSummary struct {
	New int `json:"new"`
	judged
}

// judged is what the invariants and witnesses say of some states.
type judged struct {
	// Findings are the invariants that failed, each in a state where
	// it failed.
	Findings []finding `json:"findings"`
	// Witnessed maps each witness property that holds in some of the
	// states to the least such state's fingerprint.
	Witnessed map[string]uint64 `json:"witnessed"`
	// Met is the properties whose situation one of the states is (an
	// invariant's subject, a leads-to's premise).
	Met situations `json:"met,omitempty"`
	// met is Met as checker.Judge keeps it, one entry per property.
	met []bool
}

// judge checks the state r against t's invariants and witnesses.
func (j *judged) judge(t checker.Target, r record) error {
	if j.met == nil {
		j.met = make([]bool, len(t.Props()))
	}
	v, err := checker.Judge(t, checker.StateOf(r.Enc), j.met)
	if err != nil {
		return err
	}
	for _, name := range v.Failed {
		j.Findings = append(j.Findings, finding{Prop: name, FP: r.FP})
	}
	j.Met.from(j.met)
	for _, name := range v.Witnessed {
		if fp, ok := j.Witnessed[name]; !ok || r.FP < fp {
			if j.Witnessed == nil {
				j.Witnessed = map[string]uint64{}
			}
			j.Witnessed[name] = r.FP
		}
	}
	return nil
}

// dedupFn keeps, of one shard's successors, those whose fingerprint no
// earlier level holds: level Level's new states, which it judges.
type dedupFn struct {
	Sys   system
	Work  string
	Level int
	t     checker.Target
}

func (f *dedupFn) Setup() error {
	var err error
	f.t, err = f.Sys.build()
	return err
}

func (f *dedupFn) ProcessElement(ctx context.Context, shard int, values func(*[]byte) bool) error {
	var cands []record
	var b []byte
	for values(&b) {
		// A batch of records (expandFn), or the shard's empty marker.
		for len(b) > 0 {
			r, rest, err := nextRecord(b)
			if err != nil {
				return err
			}
			cands = append(cands, r)
			b = rest
		}
	}
	// The same candidates in any order give the same frontier: the first
	// of each fingerprint by parent and action is kept.
	sort.Slice(cands, func(i, j int) bool { return less(cands[i], cands[j]) })
	visited, err := readFingerprints(ctx, visitedPath(f.Work, f.Level-1, shard))
	if err != nil {
		return err
	}
	var fresh []record
	var fps []uint64
	var sum dedupSummary
	v := 0
	for i, r := range cands {
		if i > 0 && cands[i-1].FP == r.FP {
			continue
		}
		for v < len(visited) && visited[v] < r.FP {
			v++
		}
		if v < len(visited) && visited[v] == r.FP {
			continue
		}
		if err := sum.judge(f.t, r); err != nil {
			return err
		}
		fresh = append(fresh, r)
		fps = append(fps, r.FP)
	}
	if err := writeRecords(ctx, statesPath(f.Work, f.Level, shard), fresh); err != nil {
		return err
	}
	if err := writeFingerprints(ctx, visitedPath(f.Work, f.Level, shard), merge(visited, fps)); err != nil {
		return err
	}
	sum.New = len(fresh)
	return writeJSON(ctx, dedupPath(f.Work, f.Level, shard), sum)
}

// merge is the sorted union of a and b, both sorted and disjoint (the
// fingerprints visited, and the level's new ones): one pass, where
// sorting them again would cost a logarithmic factor on the largest list
// a shard holds.
func merge(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// less orders records by fingerprint, then parent, then action.
func less(a, b record) bool {
	if a.FP != b.FP {
		return a.FP < b.FP
	}
	if a.Parent != b.Parent {
		return a.Parent < b.Parent
	}
	if a.Action.Rule != b.Action.Rule {
		return a.Action.Rule < b.Action.Rule
	}
	if a.Action.Proc != b.Action.Proc {
		return a.Action.Proc < b.Action.Proc
	}
	return a.Action.Choice < b.Action.Choice
}
