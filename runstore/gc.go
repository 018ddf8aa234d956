package runstore

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Pruned says what GC removed.
type Pruned struct {
	// Checks is the number of checks removed from the history.
	Checks int
	// Classes is the number of sweep classes removed because this mc can
	// never reuse them.
	Classes int
}

// GC keeps the keep most recent checks and removes the older ones, and
// removes every sweep class whose key this mc can no longer be asked for:
// one computed by another release or engine, or whose spec's sources have
// changed since (current reports whether a spec's hash is still its
// current one). Then it lets Badger reclaim the space.
func (s *Store) GC(keep int, current func(spec, hash string) bool) (Pruned, error) {
	var p Pruned
	if keep < 0 {
		return p, fmt.Errorf("internal error: keep %d checks", keep)
	}
	var doomed [][]byte
	var checks [][]byte
	err := s.scan(checkPrefix, func(key, _ []byte) error {
		checks = append(checks, key)
		return nil
	})
	if err != nil {
		return p, err
	}
	if len(checks) > keep {
		doomed = append(doomed, checks[:len(checks)-keep]...)
		p.Checks = len(checks) - keep
	}
	err = s.scan(classPrefix, func(key, sealed []byte) error {
		var rec classRecord
		if err := s.unseal(sealed, &rec); err != nil {
			return err
		}
		var k Key
		if err := json.Unmarshal(rec.Key, &k); err != nil {
			return s.damagedRecord(fmt.Sprintf("has a key that cannot be decoded (%v)", err))
		}
		if !bytes.Equal(classKey(k), key) {
			return s.damagedRecord("is filed under a key it was not computed from")
		}
		if !k.current() || !current(k.Run.Spec, k.SpecHash) {
			doomed = append(doomed, key)
			p.Classes++
		}
		return nil
	})
	if err != nil {
		return p, err
	}
	if err := s.remove(doomed); err != nil {
		return p, err
	}
	for s.db.RunValueLogGC(0.5) == nil {
	}
	return p, nil
}

// remove deletes keys, in as many transactions as Badger needs; each
// deletion is whole, and a process killed halfway leaves the rest.
func (s *Store) remove(keys [][]byte) error {
	if len(keys) == 0 {
		return nil
	}
	if err := checkRoom(s.dir, 64*len(keys)); err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return &Unwritable{Dir: s.dir, Err: err}
		}
	}
	if err := wb.Flush(); err != nil {
		return &Unwritable{Dir: s.dir, Err: err}
	}
	return nil
}
