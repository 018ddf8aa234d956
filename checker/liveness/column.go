package liveness

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// A column is one of the graph's big arrays (a state's fingerprint or edge
// offset, an edge's target or action), kept in chunks of chunkLen elements
// instead of one slice: it grows without copying what it holds, so it never
// holds twice its size while it grows, and the garbage collector never sees
// an outgrown array; the last chunk is at most chunkLen elements too big.
// The first chunk grows by appending, so that a small graph costs little.
//
// A column of edges can go to disk (spill): its full chunks are then written
// to a file as they fill and dropped from memory, and once the graph is
// built the file is mapped read-only (mapFile), its chunks becoming views
// of the mapping; reading an element is the same in both cases.
type column[T uint8 | uint16 | uint32 | uint64] struct {
	chunks [][]T
	n      int
	// file, once the column spilled: the chunks below flushed are in it.
	file    *os.File
	flushed int
	spare   []T    // a flushed chunk's memory, for the next chunk
	mapping []byte // the file, mapped once the build is done
}

const (
	chunkBits = 16
	chunkLen  = 1 << chunkBits
	chunkMask = chunkLen - 1
)

func (c *column[T]) at(i int) T { return c.chunks[i>>chunkBits][i&chunkMask] }

func (c *column[T]) len() int { return c.n }

// push appends v; on a spilled column it writes the chunk v fills.
func (c *column[T]) push(v T) error {
	k := c.n >> chunkBits
	switch {
	case k == 0:
		if len(c.chunks) == 0 {
			c.chunks = append(c.chunks, nil)
		}
		c.chunks[0] = append(c.chunks[0], v)
	default:
		if k == len(c.chunks) {
			chunk := c.spare
			if chunk == nil {
				chunk = make([]T, chunkLen)
			}
			c.spare = nil
			c.chunks = append(c.chunks, chunk[:chunkLen])
		}
		c.chunks[k][c.n&chunkMask] = v
	}
	c.n++
	if c.file != nil && c.n&chunkMask == 0 {
		if err := c.flush(); err != nil {
			return fmt.Errorf("liveness graph: %w", err)
		}
	}
	return nil
}

// truncate drops the elements from n on (the edges of a state whose
// expansion a limit cut short).
func (c *column[T]) truncate(n int) {
	c.n = n
	if n < c.flushed*chunkLen {
		return // finish cuts the file at n
	}
	if k := (n + chunkMask) >> chunkBits; k < len(c.chunks) {
		c.chunks = c.chunks[:k]
	}
	if len(c.chunks) > 0 && n < chunkLen {
		c.chunks[0] = c.chunks[0][:n]
	}
}

// bytes is the memory the column holds (not its file).
func (c *column[T]) bytes() int64 {
	var b int64
	for _, ch := range c.chunks {
		b += int64(cap(ch))
	}
	if c.mapping != nil {
		b = 0
	}
	return (b + int64(cap(c.spare))) * int64(unsafe.Sizeof(T(0)))
}

// diskBytes is the size of the column's file.
func (c *column[T]) diskBytes() int64 {
	if c.file == nil {
		return 0
	}
	return int64(c.n) * int64(unsafe.Sizeof(T(0)))
}

// spill sends the column to a new file, path, in the run's own working
// directory (created as every working file is, diskio.Create): the full
// chunks now, the others as they fill.
func (c *column[T]) spill(path string) error {
	f, err := diskio.Create(path)
	if err != nil {
		return err
	}
	c.file = f
	for c.flushed < c.n>>chunkBits {
		if err := c.flush(); err != nil {
			return err
		}
	}
	return nil
}

// flush writes the oldest chunk not yet written, which is full, and frees
// it.
func (c *column[T]) flush() error {
	k := c.flushed
	if err := writeChunk(c.file, c.chunks[k][:chunkLen]); err != nil {
		return err
	}
	if cap(c.chunks[k]) >= chunkLen {
		c.spare = c.chunks[k]
	}
	c.chunks[k] = nil
	c.flushed++
	return nil
}

// finish writes what a spilled column still holds, cuts the file at its
// length and maps it: the chunks become read-only views of the mapping.
func (c *column[T]) finish() error {
	if c.file == nil {
		return nil
	}
	size := int64(unsafe.Sizeof(T(0)))
	if c.n > c.flushed*chunkLen {
		if err := writeChunk(c.file, c.chunks[c.flushed][:c.n-c.flushed*chunkLen]); err != nil {
			return err
		}
	}
	if err := c.file.Truncate(int64(c.n) * size); err != nil {
		return err
	}
	c.spare = nil
	c.chunks = c.chunks[:0]
	if c.n == 0 {
		return nil
	}
	m, err := mapFile(c.file, int(int64(c.n)*size))
	if err != nil {
		return err
	}
	c.mapping = m
	for off := 0; off < c.n; off += chunkLen {
		end := min(off+chunkLen, c.n)
		c.chunks = append(c.chunks, unsafe.Slice((*T)(unsafe.Pointer(&m[int64(off)*size])), end-off))
	}
	return nil
}

// free unmaps and removes a spilled column's file; the column is empty
// afterwards.
func (c *column[T]) free() error {
	var err error
	if c.mapping != nil {
		err = unmapFile(c.mapping)
	}
	if c.file != nil {
		c.file.Close()
		if e := os.Remove(c.file.Name()); err == nil {
			err = e
		}
	}
	*c = column[T]{}
	return err
}

func writeChunk[T uint8 | uint16 | uint32 | uint64](f *os.File, s []T) error {
	if len(s) == 0 {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
	_, err := f.Write(b)
	return err
}
