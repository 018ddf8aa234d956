package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Params are the parameters a spec is instantiated with: the union of
// every spec's knobs, ring ones included. It is the one piece of ring
// knowledge model still holds, with the text forms of its fields (ChanKind,
// Duplex, orientation bit strings) that the CLI and the files parse; the
// ring's own helpers over it are package ring's (ring.InitialOrientations).
type Params struct {
	// N is the ring size.
	N int
	// IDs[i] is process i's identifier; len(IDs) == N, all distinct, > 0.
	IDs []int
	// Chan is the semantics of every channel.
	Chan ChanKind
	// Cap bounds every channel's length; 0 means unbounded. A send that
	// would exceed it blocks.
	Cap int
	// Variant selects a variant of the spec; "" means the spec's default.
	Variant string
	// Initiators lists the processes that may start spontaneously; nil means
	// all of them.
	Initiators []int
	// Claims turns on the spec's ghost variables and the properties that
	// read them (the papers' message-count and lemma claims).
	Claims bool
	// Drift bounds how far the local clocks of a clock-based spec (vitanyi)
	// may run apart: no processor completes more than Drift ticks while
	// another completes none. 0 means unbounded (pure asynchrony). Specs
	// without clocks ignore it; the CLI refuses it for them.
	Drift int
	// Duplex is how the links of a bidirectional ring carry messages
	// (--links; package ring); DefaultDuplex lets the spec or its variant
	// choose.
	Duplex Duplex
	// Orientation fixes every process's local orientation on a
	// bidirectional ring (ring.Ring.Flipped). Nil means every assignment up to
	// the ring's symmetry, each one an initial state of the system.
	Orientation []bool
	// Bound limits a spec's environment so that its state space is finite:
	// requests per process (suzukikasami), token losses (misra). 0 means the
	// spec's default; a spec without such a bound refuses any other value.
	Bound int
	// Own are the values of the spec's own parameters (--param), sorted by
	// name, one per parameter the spec declares; nil for a spec that
	// declares none (ownparams.go).
	Own []Param
}

// Validate checks the parameters that every ring spec shares.
func (p *Params) Validate() error {
	if p.N < 2 {
		return fmt.Errorf("ring size n must be at least 2, got %d", p.N)
	}
	if len(p.IDs) != p.N {
		return fmt.Errorf("got %d ids for a ring of n=%d", len(p.IDs), p.N)
	}
	seen := make(map[int]bool, p.N)
	for _, id := range p.IDs {
		if id <= 0 {
			return fmt.Errorf("ids must be positive, got %d", id)
		}
		if seen[id] {
			return fmt.Errorf("duplicate id %d", id)
		}
		seen[id] = true
	}
	if p.Bound < 0 {
		return fmt.Errorf("bound must not be negative, got %d", p.Bound)
	}
	if p.Drift < 0 {
		return fmt.Errorf("drift must be 0 (unbounded) or positive, got %d", p.Drift)
	}
	if p.Orientation != nil && len(p.Orientation) != p.N {
		return fmt.Errorf("orientation %s has %d bits for a ring of n=%d", FormatOrientation(p.Orientation), len(p.Orientation), p.N)
	}
	if p.Cap < 0 {
		return fmt.Errorf("channel capacity must not be negative, got %d", p.Cap)
	}
	if p.Initiators != nil {
		if len(p.Initiators) == 0 {
			return fmt.Errorf("initiators must name at least one process")
		}
		in := make(map[int]bool)
		for _, q := range p.Initiators {
			if q < 0 || q >= p.N {
				return fmt.Errorf("initiator %d is not a process of a ring of n=%d (0..%d)", q, p.N, p.N-1)
			}
			if in[q] {
				return fmt.Errorf("duplicate initiator %d", q)
			}
			in[q] = true
		}
	}
	return nil
}

// IsInitiator reports whether process q may start spontaneously.
func (p *Params) IsInitiator(q int) bool {
	if p.Initiators == nil {
		return true
	}
	for _, x := range p.Initiators {
		if x == q {
			return true
		}
	}
	return false
}

// MaxID returns the largest id.
func (p *Params) MaxID() int {
	m := 0
	for _, id := range p.IDs {
		m = max(m, id)
	}
	return m
}

// FormatInts writes a list as ParseInts reads it, "3,1,4,2": how mc
// prints ids and initiators everywhere.
func FormatInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// ParseInts reads a comma-separated list of integers such as "3,1,4,2".
func ParseInts(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty list")
	}
	parts := strings.Split(s, ",")
	out := make([]int, len(parts))
	for i, f := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", strings.TrimSpace(f))
		}
		out[i] = v
	}
	return out, nil
}

// Variant is one named version of a spec. A spec's first variant is its
// default.
type Variant struct {
	Name string
	Doc  string
}

// Resolve validates p (Validate) and resolves its variant against the
// spec's (PickVariant), setting p.Variant: what a spec's New does first.
func (p *Params) Resolve(spec string, vs []Variant) error {
	if err := p.Validate(); err != nil {
		return err
	}
	v, err := PickVariant(spec, vs, p.Variant)
	p.Variant = v
	return err
}

// PickVariant resolves name ("" for the default) against a spec's variants.
func PickVariant(spec string, vs []Variant, name string) (string, error) {
	if name == "" {
		return vs[0].Name, nil
	}
	for _, v := range vs {
		if v.Name == name {
			return name, nil
		}
	}
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return "", fmt.Errorf("spec %s has no variant %q (variants: %s)", spec, name, strings.Join(names, ", "))
}

// String renders the parameters on one line, as mc prints them:
// "n=4 ids=3,1,4,2 chan=fifo initiators=0"; without ids when there are
// none; the spec's own parameters last ("k=3").
func (p *Params) String() string {
	ids := make([]string, len(p.IDs))
	for i, id := range p.IDs {
		ids[i] = fmt.Sprint(id)
	}
	init := "all"
	if p.Initiators != nil {
		xs := make([]string, len(p.Initiators))
		for i, x := range p.Initiators {
			xs[i] = fmt.Sprint(x)
		}
		init = strings.Join(xs, ",")
	}
	s := fmt.Sprintf("n=%d", p.N)
	if len(p.IDs) > 0 {
		s += " ids=" + strings.Join(ids, ",")
	}
	s += fmt.Sprintf(" chan=%s initiators=%s", p.Chan, init)
	if p.Cap > 0 {
		s += fmt.Sprintf(" cap=%d", p.Cap)
	}
	if p.Drift > 0 {
		s += fmt.Sprintf(" drift=%d", p.Drift)
	}
	if p.Bound > 0 {
		s += fmt.Sprintf(" bound=%d", p.Bound)
	}
	if p.Duplex != DefaultDuplex {
		s += fmt.Sprintf(" links=%s", p.Duplex)
		if p.Orientation != nil {
			s += " orientation=" + FormatOrientation(p.Orientation)
		} else {
			s += fmt.Sprintf(" orientations=every assignment up to symmetry (%d, one initial state each)", p.orientationCount())
		}
	}
	if p.Claims {
		s += " claims=on"
	}
	return s + p.ownString()
}

// Duplex is how the links of a bidirectional ring carry messages: in one
// direction at a time or in both at once. The definitions are package
// ring's ("Links of a bidirectional ring").
type Duplex uint8

const (
	// DefaultDuplex leaves the choice to the spec or its variant.
	DefaultDuplex Duplex = iota
	// HalfDuplex links carry at most one message at a time, in either
	// direction; messages never pass each other on a link (000 §2).
	HalfDuplex
	// FullDuplex links are two independent FIFO channels, one per
	// direction; messages going opposite ways may pass each other (000 §4).
	FullDuplex
)

func (m Duplex) String() string {
	switch m {
	case HalfDuplex:
		return "half"
	case FullDuplex:
		return "full"
	}
	return "default"
}

// ParseDuplex reads "half" or "full", the values of --links.
func ParseDuplex(s string) (Duplex, error) {
	switch s {
	case "half":
		return HalfDuplex, nil
	case "full":
		return FullDuplex, nil
	}
	return DefaultDuplex, fmt.Errorf("unknown link semantics %q (want half or full)", s)
}

// orientationCount is how many initial states a bidirectional run without
// --orientation starts from, one per orientation assignment up to the
// ring's symmetries that fix the ids (ring.OrientationsUpToSymmetry, which
// a test in package ring compares this with): all 2^n for n ≥ 3, and for
// n = 2 the two with process 0 unflipped. Params cannot enumerate them
// itself: the symmetries are package ring's, which builds on this one.
func (p *Params) orientationCount() int {
	if p.N == 2 {
		return 2
	}
	return 1 << p.N
}

// FormatOrientation writes an assignment as a bit string, process 0 first:
// 1 means the process's Right port leads counter-clockwise.
func FormatOrientation(f []bool) string {
	b := make([]byte, len(f))
	for i, x := range f {
		b[i] = '0'
		if x {
			b[i] = '1'
		}
	}
	return string(b)
}

// ParseOrientation reads a bit string such as 0110 for a ring of n.
func ParseOrientation(s string, n int) ([]bool, error) {
	if len(s) != n {
		return nil, fmt.Errorf("orientation %q has %d bits for a ring of n=%d (want one 0 or 1 per process)", s, len(s), n)
	}
	f := make([]bool, n)
	for i, c := range s {
		switch c {
		case '0':
		case '1':
			f[i] = true
		default:
			return nil, fmt.Errorf("orientation %q: want only 0 and 1, one per process", s)
		}
	}
	return f, nil
}
