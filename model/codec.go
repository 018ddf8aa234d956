package model

import (
	"encoding/binary"
	"errors"

	"github.com/zeebo/xxh3"
)

// AppendUint appends v as an unsigned varint: small numbers, the common case
// in ring protocols, take one byte.
func AppendUint(buf []byte, v uint64) []byte { return binary.AppendUvarint(buf, v) }

// AppendBool appends b as one byte.
func AppendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, 1)
	}
	return append(buf, 0)
}

var errShort = errors.New("model: truncated state encoding")

// Decoder reads what the Append functions wrote. The first error sticks and
// later reads return zero values.
type Decoder struct {
	data []byte
	err  error
}

// NewDecoder returns a decoder over data.
func NewDecoder(data []byte) Decoder { return Decoder{data: data} }

// Uint reads an unsigned varint.
func (d *Decoder) Uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.data = d.data[n:]
	return v
}

// Byte reads one byte written by append(buf, b): how the derived codecs
// (Derive) write an 8-bit field.
func (d *Decoder) Byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.data) == 0 {
		d.err = errShort
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b
}

// Int reads an unsigned varint as an int.
func (d *Decoder) Int() int { return int(d.Uint()) }

// Bool reads one byte written by AppendBool.
func (d *Decoder) Bool() bool {
	if d.err != nil {
		return false
	}
	if len(d.data) == 0 {
		d.err = errShort
		return false
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b != 0
}

// Err reports the first read error.
func (d *Decoder) Err() error { return d.err }

// Finish reports an error if reading failed or left bytes unread.
func (d *Decoder) Finish() error {
	if d.err != nil {
		return d.err
	}
	if len(d.data) != 0 {
		return errors.New("model: trailing bytes in state encoding")
	}
	return nil
}

// Fingerprint is the 64-bit XXH3 hash of a canonical encoding. XXH3 has no
// per-process seed, so fingerprints are stable across runs and processes,
// which disk stores and checkpoints rely on. Every successor is
// fingerprinted, and on encodings of a few dozen to a few hundred bytes,
// the sizes of the specs' states, XXH3 is faster than XXH64
// (BenchmarkFingerprint; docs/performance.md has the figures).
func Fingerprint(enc []byte) uint64 { return xxh3.Hash(enc) }

// AppendInts appends a length-prefixed list of non-negative ints. Nil and
// empty lists encode alike, as an erased ghost must encode like none.
func AppendInts(buf []byte, xs []int) []byte {
	buf = AppendUint(buf, uint64(len(xs)))
	for _, x := range xs {
		buf = AppendUint(buf, uint64(x))
	}
	return buf
}

// Ints reads what AppendInts wrote, reusing xs's storage; an empty list
// reads as nil.
func (d *Decoder) Ints(xs []int) []int {
	n := d.Int()
	if n == 0 || d.Err() != nil {
		return nil
	}
	xs = xs[:0]
	for range n {
		xs = append(xs, d.Int())
	}
	return xs
}
