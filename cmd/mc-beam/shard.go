package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/ringcheck/mc/model"
)

// record is one state as the shard files and the shuffle between a
// level's two stages carry it: its fingerprint, the state it was first
// reached from at the level before (Parent, its fingerprint) and the
// action taken there, and its canonical encoding. A state of level 0 has
// no parent: Action.Rule is -1 and Action.Choice the index of the initial
// state.
type record struct {
	FP, Parent uint64
	Action     model.Action
	Enc        []byte
}

// appendRecord appends r to b: FP and Parent as 8 bytes each (little
// endian), Rule+1, Proc, Choice and the encoding's length as uvarints,
// then the encoding.
func appendRecord(b []byte, r record) []byte {
	b = binary.LittleEndian.AppendUint64(b, r.FP)
	b = binary.LittleEndian.AppendUint64(b, r.Parent)
	b = binary.AppendUvarint(b, uint64(r.Action.Rule+1))
	b = binary.AppendUvarint(b, uint64(r.Action.Proc))
	b = binary.AppendUvarint(b, uint64(r.Action.Choice))
	b = binary.AppendUvarint(b, uint64(len(r.Enc)))
	return append(b, r.Enc...)
}

// decodeRecord reads the record b holds whole (one record of a file).
func decodeRecord(b []byte) (record, error) {
	r, rest, err := nextRecord(b)
	if err == nil && len(rest) > 0 {
		err = errors.New("trailing bytes after a record")
	}
	return r, err
}

func nextRecord(b []byte) (record, []byte, error) {
	var r record
	if len(b) < 16 {
		return r, nil, errors.New("truncated record")
	}
	r.FP, r.Parent = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	b = b[16:]
	var v [4]uint64
	for i := range v {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			return r, nil, errors.New("truncated record")
		}
		v[i], b = x, b[n:]
	}
	r.Action = model.Action{Rule: int(v[0]) - 1, Proc: int(v[1]), Choice: int(v[2])}
	if uint64(len(b)) < v[3] {
		return r, nil, errors.New("truncated record")
	}
	r.Enc, b = b[:v[3]:v[3]], b[v[3]:]
	return r, b, nil
}

// Paths in the work directory: level L's new states of shard s, and the
// fingerprints of every state of levels 0..L in shard s, sorted.
func statesPath(work string, level, shard int) string {
	return fmt.Sprintf("%s/level-%d/states-%d", work, level, shard)
}

func visitedPath(work string, level, shard int) string {
	return fmt.Sprintf("%s/level-%d/visited-%d", work, level, shard)
}

// shardOf is the shard a state of fingerprint fp belongs to.
func shardOf(fp uint64, shards int) int { return int(fp % uint64(shards)) }

// writeRecords writes rs, each as a uvarint length and the record.
func writeRecords(ctx context.Context, path string, rs []record) error {
	return writeFile(ctx, path, func(w *bufio.Writer) error {
		var buf []byte
		for _, r := range rs {
			buf = appendRecord(buf[:0], r)
			if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(buf)))); err != nil {
				return err
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	})
}

// readRecords calls fn on each record of path, in order; a file that does
// not exist holds none.
func readRecords(ctx context.Context, path string, fn func(record) error) error {
	rc, ok, err := open(ctx, path)
	if err != nil || !ok {
		return err
	}
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 1<<16)
	var buf []byte
	for {
		n, err := binary.ReadUvarint(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		buf = slices.Grow(buf[:0], int(n))[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rec, err := decodeRecord(buf)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rec.Enc = slices.Clone(rec.Enc)
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// writeFingerprints writes fps (sorted) as 8 bytes each.
func writeFingerprints(ctx context.Context, path string, fps []uint64) error {
	return writeFile(ctx, path, func(w *bufio.Writer) error {
		var b [8]byte
		for _, fp := range fps {
			binary.LittleEndian.PutUint64(b[:], fp)
			if _, err := w.Write(b[:]); err != nil {
				return err
			}
		}
		return nil
	})
}

// readFingerprints reads what writeFingerprints wrote; none when path
// does not exist.
func readFingerprints(ctx context.Context, path string) ([]uint64, error) {
	rc, ok, err := open(ctx, path)
	if err != nil || !ok {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("%s: truncated", path)
	}
	fps := make([]uint64, len(b)/8)
	for i := range fps {
		fps[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return fps, nil
}
