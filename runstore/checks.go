package runstore

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ringcheck/mc/runinfo"
)

// Check is one completed mc check in the store's history.
type Check struct {
	// ID numbers the checks in the order they were recorded, from 1; a
	// number is never given twice, even after GC.
	ID uint64 `json:"id"`
	// Key is what the check computed: its Run (spec, parameters, options),
	// the spec's hash, mc's release and engine.
	Key Key `json:"key"`
	// Build is the mc that ran it.
	Build runinfo.Build `json:"build"`
	// Started is when the check started; Args are mc's arguments, "check"
	// first.
	Started time.Time `json:"started"`
	Args    []string  `json:"args"`
	// The summary: verdict (pass or fail), the states, transitions and
	// depth explored, the time taken, and the measures' maxima.
	Verdict     string    `json:"verdict"`
	States      int64     `json:"states"`
	Transitions int64     `json:"transitions"`
	Depth       int       `json:"depth"`
	ElapsedMS   float64   `json:"elapsed_ms"`
	Measures    []Measure `json:"measures,omitempty"`
	// Output is what mc check printed on stdout, as it printed it.
	Output string `json:"output"`
	// Trace is the run mc check --trace-out would have written (the
	// failure, or else a witness's run), as a trace file (package
	// tracefile); nil when there is none.
	Trace json.RawMessage `json:"trace,omitempty"`
}

// Measure is the maximum of one of the spec's measures over the states
// explored.
type Measure struct {
	Name string `json:"name"`
	Max  int    `json:"max"`
}

func checkKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte{}, checkPrefix...), id)
}

// AddCheck records c, numbering it: c.ID is set to its number. The store's
// own count of its checks (recorded.go) follows.
func (s *Store) AddCheck(c *Check) error {
	probe, err := seal(c)
	if err != nil {
		return err
	}
	err = s.update(len(probe), func(txn *badger.Txn) error {
		id, err := s.nextID(txn)
		if err != nil {
			return err
		}
		c.ID = id
		sealed, err := seal(c)
		if err != nil {
			return err
		}
		if err := txn.Set(checkKey(id), sealed); err != nil {
			return err
		}
		return txn.Set(nextCheck, binary.BigEndian.AppendUint64(nil, id+1))
	})
	if err != nil {
		return err
	}
	if err := writeRecorded(s.dir, c.ID+1); err != nil {
		return &Unwritable{Dir: s.dir, Err: err}
	}
	return nil
}

// nextID is the number the next check gets.
func (s *Store) nextID(txn *badger.Txn) (uint64, error) {
	item, err := txn.Get(nextCheck)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, s.damagedRecord("numbering the checks is not 8 bytes long")
	}
	return binary.BigEndian.Uint64(v), nil
}

// Check is the check numbered id, if the store holds it.
func (s *Store) Check(id uint64) (*Check, bool, error) {
	var c Check
	found, err := s.get(checkKey(id), &c)
	if !found || err != nil {
		return nil, false, err
	}
	if c.ID != id {
		return nil, false, s.damagedRecord("is filed under another check's number")
	}
	return &c, true, nil
}

// Checks lists the checks the store holds, oldest first.
func (s *Store) Checks() ([]Check, error) {
	var out []Check
	err := s.scan(checkPrefix, func(key, sealed []byte) error {
		var c Check
		if err := s.unseal(sealed, &c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// scan calls visit with every record whose key starts with prefix, in key
// order.
func (s *Store) scan(prefix []byte, visit func(key, sealed []byte) error) error {
	var refused *Refused
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			item := it.Item()
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			if err := visit(item.KeyCopy(nil), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || errors.As(err, &refused) {
		return err
	}
	return damaged(s.dir, err)
}
