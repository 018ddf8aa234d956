// Package extension is what the breadth-first search of package checker
// offers a check that rides on it: the points where the search calls it,
// and the per-state payload it may keep in the visited set. The search
// knows nothing of what an extension decides; an extension knows nothing
// of how the search shares out its work and commits its states. The
// termination measure (package checker/termination) is one.
//
// An absent extension costs the search two nil checks per state expanded
// (three for a terminal one) and one per state admitted, never one per
// transition; a present one is called a few times per state, never per
// transition: a Worker is given all of a state's successors at once
// (Edges, LookUp, Successors).
package extension

import (
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// Extension is called by the search at the named points of its loop, all
// on one goroutine, between the workers' rounds.
type Extension[S any] interface {
	// PayloadBits is the size of the payload kept per state in the visited
	// set (at most 32), 0 for none. A candidate carries its payload as
	// value At of the Vals values each candidate has, after the system's
	// measures' (store.PayloadLayout).
	PayloadBits() int
	// Open gives the extension the run's visited set, once opened, and
	// the layout of the candidates' values; deferred says that the store
	// answers lookups during a level (in memory) and that every successor
	// computed is a candidate (no partial-order reduction). A store in
	// memory keeps the payload when deferred (store.WithPayload), the disk
	// store carries it (store.DiskPayload), and under partial-order
	// reduction the store keeps each state's index (store.Indexed).
	Open(st store.Store, l store.PayloadLayout, deferred bool)
	// Worker returns one worker's hooks; each worker has its own.
	Worker() Worker[S]
	// NewChunk returns the extension's part of one chunk's findings.
	NewChunk() Chunk
	// Initial gives an initial state's candidate, the last of c, its
	// payload and the chunk its bookkeeping.
	Initial(s *S, c *store.Candidates, ch Chunk)
	// Committed is called once the store has committed a round: its
	// chunks' candidates in order; complete says that the store admitted
	// every new state of the round (else the search stops).
	Committed(round []Committed, complete bool)
	// Admit is called as the store admits candidate i of c as the state
	// id; ch is the chunk the candidate comes from, nil when the store
	// defers its commits to the end of the level (disk).
	Admit(id uint32, c *store.Candidates, i int, ch Chunk)
	// StartLevel says that the states admitted from now on, from index
	// first, form the level after depth, to be expanded next.
	StartLevel(depth int, first uint32)
	// EndLevel is called when the level at depth has been expanded and
	// committed, before the next begins.
	EndLevel(depth int) error
	// BeforeCheckpoint is called before a checkpoint is written, with the
	// frontier about to be expanded: what the extension keeps only in
	// memory is settled then.
	BeforeCheckpoint(fr Level) error
	// Reached is the disk store's report that the level's candidates
	// reach the state id, stored before the level, with the union bits of
	// their payloads (store.DiskPayload).
	Reached(id, bits uint32)
	// EndRun is called when the search ends, however it ends, before the
	// visited set is closed; it frees what the extension held only for
	// the search.
	EndRun()
}

// Committed is one chunk of a committed round: its candidates and the
// extension's part of its findings.
type Committed struct {
	Cands *store.Candidates
	Chunk Chunk
}

// Chunk is the extension's part of what one worker found expanding one
// chunk of a level.
type Chunk interface {
	// Reset empties the chunk, keeping its storage, for the next chunk.
	Reset()
}

// Worker is called by one worker as it expands a chunk of the frontier,
// in order.
type Worker[S any] interface {
	// StartChunk says that frontier states lo..hi-1 of fr are expanded
	// next, their candidates added to c, the extension's findings to ch.
	StartChunk(fr Level, lo, hi int, c *store.Candidates, ch Chunk)
	// Start is called on the state cur, state pid with encoding enc,
	// state j of the chunk, about to be expanded.
	Start(pid uint32, enc []byte, cur *S, j int)
	// Edges is called once every successor of the current state is
	// built: succ holds them, succs[i] is successor i as a state.
	Edges(succ *store.Candidates, succs []S)
	// LookUp reports, as store.Store.SeenAll does, which successors are
	// stored, reusing seen's storage.
	LookUp(succ *store.Candidates, seen []bool) []bool
	// Successors is called once the search has looked the successors up
	// and made each new one the chunk's candidate (its measures' values
	// and, with a payload, a 0 in its place): at[i] says what successor
	// i is, AtStored, AtSkipped, AtNew(j) for the edge that made candidate
	// j of the chunk, or j for a later edge to it; index[i], under
	// partial-order reduction, is the index of a stored successor (nil
	// otherwise).
	Successors(at []int32, index []uint32)
	// Terminal is called when the current state has no successor.
	Terminal()
}

// What a successor is, for Worker.Successors: an edge to a stored state,
// or a successor computed that is no edge of the graph the search explores
// (outside the ample set of a state under partial-order reduction).
const (
	AtStored  int32 = -1
	AtSkipped int32 = -2
)

// AtNew is the code of the edge that made candidate j of the chunk; a
// code j >= 0 is a later edge to candidate j.
func AtNew(j int) int32 { return -3 - int32(j) }

// NewAt is the candidate that the code AtNew(j) names, j.
func NewAt(code int32) int { return int(-3 - code) }

// Level is the frontier a worker expands: states by their position j in
// the level.
type Level interface {
	// First is the index of the level's first state.
	First() uint32
	// State is the encoding of the level's j-th state: any state in
	// BeforeCheckpoint (the search keeps plain levels for the one
	// extension that reads them there, the termination measure); in a
	// worker, one of the chunk it expands, as a level packed in memory
	// rebuilds only the round's (checker/levelpack.go).
	State(j int) []byte
	// Len is the number of states of the level.
	Len() int
}

// Rebuild rebuilds the state id, stored in a level up to depth+1, and
// then takes the action then if it is not nil, by replaying its path from
// the search's trace log.
type Rebuild[S any] func(id uint32, depth int, then *model.Action) (S, error)
