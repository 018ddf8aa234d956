package ring

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

// PortSet is a set of a process's ports: the ports one receive step takes
// a message from, or through which a process is willing to receive now.
type PortSet uint8

const (
	OnlyLeft  PortSet = 1 << Left
	OnlyRight PortSet = 1 << Right
	BothPorts         = OnlyLeft | OnlyRight
)

// Has reports whether p is in the set.
func (s PortSet) Has(p Port) bool { return s&(1<<p) != 0 }

func (s PortSet) String() string {
	switch s {
	case OnlyLeft:
		return "left"
	case OnlyRight:
		return "right"
	case BothPorts:
		return "left+right"
	}
	return "none"
}
