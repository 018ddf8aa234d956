package runstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ringcheck/mc/runinfo"
)

// Badger keys: a prefix per kind of record.
var (
	// classPrefix + Key.digest(): a sweep class (Lookup, Save).
	classPrefix = []byte("class/")
	// checkPrefix + the check's number, 8 bytes big-endian, so that the
	// checks sort in the order they were recorded.
	checkPrefix = []byte("check/")
	// nextCheck holds the number the next check recorded gets.
	nextCheck = []byte("meta/next-check")
)

// A value as the store holds it is sealed: the SHA-256 of its JSON, then
// the JSON. Badger checksums its own blocks and log entries too; the seal
// is the store's own word that a record is the one written, checked on
// every read, so that damage anywhere refuses the store (Refused) instead
// of reaching a table.
func seal(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("internal error: encoding a record: %v", err)
	}
	sum := sha256.Sum256(data)
	return append(sum[:], data...), nil
}

// unseal checks sealed's seal and decodes it into v.
func (s *Store) unseal(sealed []byte, v any) error {
	if len(sealed) < sha256.Size {
		return s.damagedRecord("shorter than its checksum")
	}
	data := sealed[sha256.Size:]
	if sum := sha256.Sum256(data); !bytes.Equal(sum[:], sealed[:sha256.Size]) {
		return s.damagedRecord("fails its checksum")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return s.damagedRecord(fmt.Sprintf("cannot be decoded (%v)", err))
	}
	return nil
}

func (s *Store) damagedRecord(why string) error {
	return &Refused{Dir: s.dir, Why: "is damaged: a record " + why}
}

// classRecord is a sweep class as stored: the key it was computed from,
// the build that computed it, when, and the class (package sweep's
// encoding).
type classRecord struct {
	Key   json.RawMessage `json:"key"`
	Build runinfo.Build   `json:"build"`
	Saved time.Time       `json:"saved"`
	Value json.RawMessage `json:"value"`
}

func classKey(k Key) []byte {
	d := k.digest()
	return append(append([]byte{}, classPrefix...), d[:]...)
}

// Lookup decodes the record of key k into v, if the store holds one. A
// record that is damaged, or filed under k but computed from another key,
// refuses the store.
func (s *Store) Lookup(k Key, v any) (bool, error) {
	var rec classRecord
	found, err := s.get(classKey(k), &rec)
	if !found || err != nil {
		return false, err
	}
	if !bytes.Equal(rec.Key, k.encode()) {
		return false, s.damagedRecord("is filed under a key it was not computed from")
	}
	if err := json.Unmarshal(rec.Value, v); err != nil {
		return false, s.damagedRecord(fmt.Sprintf("cannot be decoded (%v)", err))
	}
	return true, nil
}

// Save records v (JSON) as computed from key k, replacing any record of
// k, in one transaction.
func (s *Store) Save(k Key, v any) error {
	value, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("internal error: encoding a %s: %v", k.Kind, err)
	}
	sealed, err := seal(classRecord{Key: k.encode(), Build: runinfo.ThisBuild(), Saved: time.Now().UTC(), Value: value})
	if err != nil {
		return err
	}
	return s.update(len(sealed), func(txn *badger.Txn) error {
		return txn.Set(classKey(k), sealed)
	})
}

// get decodes the sealed value at key into v, if there is one.
func (s *Store) get(key []byte, v any) (bool, error) {
	var sealed []byte
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		sealed, err = item.ValueCopy(nil)
		return err
	})
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		return false, nil
	case err != nil:
		return false, damaged(s.dir, err)
	}
	return true, s.unseal(sealed, v)
}

// update runs write in one transaction, after making sure the file system
// has room for about size bytes more (space.go).
func (s *Store) update(size int, write func(*badger.Txn) error) error {
	if err := checkRoom(s.dir, size); err != nil {
		return err
	}
	if err := s.db.Update(write); err != nil {
		return &Unwritable{Dir: s.dir, Err: err}
	}
	return nil
}
