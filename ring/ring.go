package ring

// Ring is the topology: processes 0..N-1 in clockwise order. On a
// unidirectional ring process i sends only to Succ(i). On a bidirectional
// ring each process has two ports, Left and Right, in its own naming; when
// the ring has no common sense of orientation, Flipped[i] says that process
// i's Right port leads counter-clockwise (to Pred(i)) instead of clockwise.
//
// The links of a bidirectional ring are numbered: link k joins process k's
// clockwise side to process k+1's counter-clockwise side. On a ring of two
// the two links join the same two processes, so a port, not a neighbour,
// names a link.
type Ring struct {
	N             int
	Bidirectional bool
	// Flipped is nil for a ring with a common orientation.
	Flipped []bool
}

// Succ is i's clockwise neighbour.
func (r Ring) Succ(i int) int { return (i + 1) % r.N }

// Pred is i's counter-clockwise neighbour.
func (r Ring) Pred(i int) int { return (i + r.N - 1) % r.N }

// Clockwise reports whether i's port p leads clockwise, to Succ(i).
func (r Ring) Clockwise(i int, p Port) bool {
	cw := p == Right
	if r.Flipped != nil && r.Flipped[i] {
		cw = !cw
	}
	return cw
}

// PortOn is the port of i that leads clockwise (cw) or counter-clockwise.
func (r Ring) PortOn(i int, cw bool) Port {
	if r.Clockwise(i, Right) == cw {
		return Right
	}
	return Left
}

// Neighbour is the process at the other end of i's port.
func (r Ring) Neighbour(i int, p Port) int {
	if r.Clockwise(i, p) {
		return r.Succ(i)
	}
	return r.Pred(i)
}

// Peer is the far end of i's port p: the neighbour j and the port of j on
// which a message sent over p arrives. It is exact on a ring of two, where
// both of i's ports lead to the same neighbour.
func (r Ring) Peer(i int, p Port) (j int, q Port) {
	if r.Clockwise(i, p) {
		j = r.Succ(i)
		return j, r.PortOn(j, false)
	}
	j = r.Pred(i)
	return j, r.PortOn(j, true)
}

// LinkOf is the number of the link at i's port p and whether a message sent
// over it travels clockwise.
func (r Ring) LinkOf(i int, p Port) (link int, clockwise bool) {
	if r.Clockwise(i, p) {
		return i, true
	}
	return r.Pred(i), false
}

// PortTo is the port of i that leads to its neighbour j. On a ring of two
// both ports lead to j and PortTo answers Right; use Peer there.
func (r Ring) PortTo(i, j int) Port {
	if r.Neighbour(i, Right) == j {
		return Right
	}
	return Left
}
