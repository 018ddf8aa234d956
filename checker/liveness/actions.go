package liveness

// actionColumn holds the action of every edge as a code, an index into the
// table of the distinct actions the graph has met, in the fewest bytes
// that number needs: one byte while there are at most 256 (a ring of a few
// processes with a few rules each), two up to 65,536, four beyond. The
// codes widen, by copying, when a new action passes the width. A graph on
// disk uses four bytes from the spill on, since its codes are no longer in
// memory to be copied.
type actionColumn struct {
	width int // bytes per code: 1, 2 or 4
	c8    column[uint8]
	c16   column[uint16]
	c32   column[uint32]
	// dict is the packed action (package packed) of each code; code the
	// code of each packed action met so far.
	dict []uint32
	code map[uint32]uint32
}

func newActionColumn() actionColumn {
	return actionColumn{width: 1, code: map[uint32]uint32{}}
}

// at is the packed action of edge e.
func (a *actionColumn) at(e int) uint32 {
	switch a.width {
	case 1:
		return a.dict[a.c8.at(e)]
	case 2:
		return a.dict[a.c16.at(e)]
	}
	return a.dict[a.c32.at(e)]
}

func (a *actionColumn) push(packed uint32) error {
	c, ok := a.code[packed]
	if !ok {
		c = uint32(len(a.dict))
		a.dict = append(a.dict, packed)
		a.code[packed] = c
		switch {
		case a.width == 1 && c == 1<<8:
			a.widen(2)
		case a.width == 2 && c == 1<<16:
			a.widen(4)
		}
	}
	switch a.width {
	case 1:
		return a.c8.push(uint8(c))
	case 2:
		return a.c16.push(uint16(c))
	}
	return a.c32.push(c)
}

// widen copies the codes into a column of width bytes each.
func (a *actionColumn) widen(width int) {
	get := func(e int) uint32 {
		if a.width == 1 {
			return uint32(a.c8.at(e))
		}
		return uint32(a.c16.at(e))
	}
	n := max(a.c8.len(), a.c16.len())
	for e := 0; e < n; e++ {
		if width == 2 {
			a.c16.push(uint16(get(e))) // in memory: no error
		} else {
			a.c32.push(get(e))
		}
	}
	a.c8 = column[uint8]{}
	if width == 4 {
		a.c16 = column[uint16]{}
	}
	a.width = width
}

func (a *actionColumn) truncate(n int) {
	switch a.width {
	case 1:
		a.c8.truncate(n)
	case 2:
		a.c16.truncate(n)
	default:
		a.c32.truncate(n)
	}
}

// spill widens the codes to four bytes and sends them to the file path.
func (a *actionColumn) spill(path string) error {
	if a.width < 4 {
		a.widen(4)
	}
	return a.c32.spill(path)
}

func (a *actionColumn) finish() error { return a.c32.finish() }

func (a *actionColumn) free() error { return a.c32.free() }

func (a *actionColumn) bytes() int64 {
	return a.c8.bytes() + a.c16.bytes() + a.c32.bytes() + int64(cap(a.dict))*4 + int64(len(a.code))*16
}

func (a *actionColumn) diskBytes() int64 { return a.c32.diskBytes() }
