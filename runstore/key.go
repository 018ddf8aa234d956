package runstore

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/ringcheck/mc/runinfo"
)

// The kinds of record, as Key.Kind names them.
const (
	// KindCheck is a completed mc check of one system.
	KindCheck = "check"
	// KindAllIDs is a completed mc check --all-ids: one run per
	// arrangement class, its Run without ids.
	KindAllIDs = "check --all-ids"
	// KindEveryN is a completed mc check --every-n: every ring size by a
	// cutoff theorem, its Run that of the cutoff's size and its Options
	// the cutoff and theorem.
	KindEveryN = "check --every-n"
	// KindSweepClass is one arrangement class of a sweep: its costs and
	// witness runs (package sweep).
	KindSweepClass = "sweep class"
)

// Key is what a record was computed from. Two computations with equal keys
// give the same figures and verdicts, so a record may stand in for a new
// computation of its key:
//   - Run is the run's whole meaning: spec, variant, every parameter and
//     every option that changes states or verdicts (runinfo.Meaning);
//   - Options are the options beyond Run that change the figures, such as
//     what a sweep counts (nil when there are none);
//   - SpecHash identifies the spec's code, its package and the shared
//     packages it imports (specs.Entry.Hash): any edit to them, even to a
//     comment, gives another key;
//   - Release and Engine identify the code that explores and counts: mc's
//     release and the number bumped whenever the checker's or the sweep's
//     semantics change (runinfo.Engine).
//
// The build's own identity (revision, executable hash) is deliberately
// left out: on a development build it changes with every rebuild, and a
// store keyed on it would never be reused. docs/runstore.md says why this
// is safe.
type Key struct {
	Kind     string          `json:"kind"`
	Run      runinfo.Meaning `json:"run"`
	Options  json.RawMessage `json:"options,omitempty"`
	SpecHash string          `json:"spec_hash"`
	Release  string          `json:"release"`
	Engine   int             `json:"engine"`
}

// NewKey is the key of a computation of kind by this mc: run, with options
// (any value encoding/json renders deterministically, or nil), of a spec
// whose sources hash to specHash.
func NewKey(kind string, run runinfo.Meaning, options any, specHash string) (Key, error) {
	k := Key{Kind: kind, Run: run, SpecHash: specHash, Release: runinfo.Release, Engine: runinfo.Engine}
	if specHash == "" {
		return k, fmt.Errorf("internal error: a %s key without the spec's hash", kind)
	}
	if options != nil {
		data, err := json.Marshal(options)
		if err != nil {
			return k, fmt.Errorf("internal error: the options of a %s key: %v", kind, err)
		}
		k.Options = data
	}
	return k, nil
}

// encode is k as the store holds it beside each record.
func (k Key) encode() []byte {
	data, err := json.Marshal(k)
	if err != nil {
		// Every field is a plain value, and Options was encoded by
		// encoding/json itself.
		panic(fmt.Sprintf("runstore: encoding a key: %v", err))
	}
	return data
}

// digest is the SHA-256 of k's encoding: the name of k's record.
func (k Key) digest() [sha256.Size]byte { return sha256.Sum256(k.encode()) }

// current says whether k was made by this mc: its release and engine.
func (k Key) current() bool { return k.Release == runinfo.Release && k.Engine == runinfo.Engine }
