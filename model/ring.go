package model

// Port is a process's local name for one of its two links on a
// bidirectional ring.
type Port int

const (
	Left  Port = 0
	Right Port = 1
)

// Opposite returns the other port.
func (p Port) Opposite() Port { return 1 - p }

func (p Port) String() string {
	if p == Left {
		return "left"
	}
	return "right"
}

// Ring is the topology: processes 0..N-1 in clockwise order. On a
// unidirectional ring process i sends only to Succ(i). On a bidirectional
// ring each process has two ports, Left and Right, in its own naming; when
// the ring has no common sense of orientation, Flipped[i] says that process
// i's Right port leads counter-clockwise (to Pred(i)) instead of clockwise.
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

// Neighbour is the process at the other end of i's port.
func (r Ring) Neighbour(i int, p Port) int {
	clockwise := p == Right
	if r.Flipped != nil && r.Flipped[i] {
		clockwise = !clockwise
	}
	if clockwise {
		return r.Succ(i)
	}
	return r.Pred(i)
}

// PortTo is the port of i that leads to its neighbour j.
func (r Ring) PortTo(i, j int) Port {
	if r.Neighbour(i, Right) == j {
		return Right
	}
	return Left
}
