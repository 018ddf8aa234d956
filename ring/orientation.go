package ring

import (
	"github.com/ringcheck/mc/model"
	"slices"
)

// Orientation assignments.
//
// On a bidirectional ring without a common sense of orientation, each
// process names its own two ports; Flipped[i] says that process i's Right
// port leads counter-clockwise. An orientation assignment is one such
// []bool, written as a bit string with process 0's bit first ("0110").
//
// RingSymmetry. A transformation of orientation assignments may be skipped only
// if it maps every system to an isomorphic one. The ring's symmetries are
// its rotations and reflections; rotating or reflecting the description of
// a ring (relabelling process i as i+k, or as -i with clockwise and
// counter-clockwise exchanged, so that every Flipped bit is inverted) gives
// the same physical ring, so (ids, orientation) and its image are
// isomorphic for every spec. But they move the ids. With the ids fixed, only
// the symmetries that leave every id in place remain, and with distinct ids
// on n ≥ 3 processes that is the identity alone: every one of the 2^n
// assignments must be checked (OrientationsUpToSymmetry). For n = 2 the
// reflection fixes both processes and swaps the two links, so flipping both
// processes at once is a symmetry.
//
// In particular, flipping all processes at once is not a symmetry when ids
// are fixed and n ≥ 3: it equals reflecting the ring, which reverses the id
// arrangement. A spec whose rules prefer one port (a process that sends on
// its Right port first, say) behaves differently: Chang–Roberts sending on
// Right with a common orientation explores 270 states for ids 3,1,5,2,4 and
// 189 with every process flipped (the test TestFlipAllIsNotASymmetry
// rebuilds this). A spec whose rules treat both ports alike (port-symmetric,
// like Algorithm E) gives isomorphic systems for every assignment; that is a
// fact about the spec, which its tests check, not one mc assumes.
//
// When every arrangement of ids is checked too, the ring's symmetries do
// act: each (arrangement, orientation) pair is isomorphic to its 2n images,
// and ArrangementsUpToSymmetry with every orientation covers every pair
// exactly once.

// Orientations returns every orientation assignment of a ring of n, 2^n of
// them, in counting order with process 0 as the most significant bit
// (0…00, 0…01, …, 1…11).
func Orientations(n int) [][]bool {
	out := make([][]bool, 0, 1<<n)
	for x := 0; x < 1<<n; x++ {
		f := make([]bool, n)
		for i := range f {
			f[i] = x&(1<<(n-1-i)) != 0
		}
		out = append(out, f)
	}
	return out
}

// OrientationsUpToSymmetry returns one orientation assignment per class of
// assignments that the ring's symmetries fixing ids make isomorphic, in
// counting order: all 2^n when n ≥ 3 (distinct ids are fixed only by the
// identity); for n = 2 the assignments with process 0 unflipped, since the
// reflection flips both processes.
func OrientationsUpToSymmetry(ids []int) [][]bool {
	all := Orientations(len(ids))
	var out [][]bool
	for _, f := range all {
		if isCanonical(ids, f) {
			out = append(out, f)
		}
	}
	return out
}

// isCanonical reports whether f is the smallest of its images under the
// ring symmetries that fix ids.
func isCanonical(ids []int, f []bool) bool {
	for _, g := range RingSymmetries(len(ids)) {
		gi, gf := g.Apply(ids, f)
		if slices.Equal(gi, ids) && model.FormatOrientation(gf) < model.FormatOrientation(f) {
			return false
		}
	}
	return true
}

// ArrangementsUpToSymmetry returns one arrangement of the ids 1..n per
// class under the ring's rotations and reflections, the lexicographically
// smallest: n!/(2n) of them for n ≥ 3.
func ArrangementsUpToSymmetry(n int) [][]int {
	var out [][]int
	for _, c := range ArrangementClasses(n, RotationReflection) {
		out = append(out, c.Rep)
	}
	return out
}

// RingSymmetry is one of the 2n symmetries of a ring of n, as a relabelling of
// its description: new process i is old process Reflect ? Shift-i : Shift+i
// (mod n). A reflection exchanges clockwise and counter-clockwise, so it
// also inverts every Flipped bit.
type RingSymmetry struct {
	Reflect bool
	Shift   int
}

// RingSymmetries returns the 2n symmetries of a ring of n, the identity
// first.
func RingSymmetries(n int) []RingSymmetry {
	out := make([]RingSymmetry, 0, 2*n)
	for _, r := range []bool{false, true} {
		for k := 0; k < n; k++ {
			out = append(out, RingSymmetry{Reflect: r, Shift: k})
		}
	}
	return out
}

// Apply returns the description of the same ring relabelled by g: the ids
// and orientation of new process i are those of old process g(i), with the
// orientation inverted by a reflection.
func (g RingSymmetry) Apply(ids []int, flipped []bool) ([]int, []bool) {
	n := len(ids)
	gi, gf := make([]int, n), make([]bool, n)
	for i := range ids {
		old := (g.Shift + i) % n
		if g.Reflect {
			old = ((g.Shift-i)%n + n) % n
		}
		gi[i], gf[i] = ids[old], flipped[old] != g.Reflect
	}
	return gi, gf
}

// InitialOrientations is the orientation assignments a bidirectional spec
// starts from: the one p fixes (--orientation), or every assignment up to
// the ring's symmetry (OrientationsUpToSymmetry).
func InitialOrientations(p *model.Params) [][]bool {
	if p.Orientation != nil {
		return [][]bool{p.Orientation}
	}
	return OrientationsUpToSymmetry(p.IDs)
}
