package tokentemplate

import "fmt"

// Cutoff is the ring size up to which a template must be checked for its
// properties to hold at every size, and the theorem that says so.
type Cutoff struct {
	// Size is the cutoff c: checking n = 2..c decides every n ≥ 2.
	Size int
	// Indices is the largest number of indices of a property.
	Indices int
	// Theorem names the result and its source (docs/every-n.md).
	Theorem string
}

// MaxIndices bounds the indices of a property --every-n takes: a
// property over k indices has cutoff 2k, and the ring of 2k processes is
// checked whole.
const MaxIndices = 3

// The theorems, as docs/every-n.md states them.
const (
	// enOne: Emerson and Namjoshi, for ∧i f(i).
	enOne = "Emerson and Namjoshi, Reasoning about rings (POPL 1995; IJFCS 2003), for 1-indexed CTL*\\X on unidirectional token rings"
	// enTwo: Emerson and Namjoshi, for ∧i≠j f(i,j).
	enTwo = "Emerson and Namjoshi, Reasoning about rings (POPL 1995; IJFCS 2003), for 2-indexed CTL*\\X on unidirectional token rings"
	// ajkr: Aminof, Jacobs, Khalimov and Rubin, rings, k indices.
	ajkr = "Aminof, Jacobs, Khalimov and Rubin, Parameterized model checking of token-passing systems (VMCAI 2014), for k-indexed CTL*\\X on rings (cutoff 2k)"
)

// CutoffOf validates t and gives its cutoff: 2k for properties of at most
// k indices. Its error names the hypothesis that fails.
func CutoffOf(t *Template) (Cutoff, error) {
	if err := t.Validate(); err != nil {
		return Cutoff{}, err
	}
	if len(t.Props) == 0 {
		return Cutoff{}, fmt.Errorf("template %s has no properties: there is nothing to hold for every n", t.Name)
	}
	k := 0
	for _, p := range t.Props {
		if p.Indices() > MaxIndices {
			return Cutoff{}, fmt.Errorf("property %s quantifies over %d processes: its cutoff would be %d, and --every-n takes at most %d indices (ring of %d)",
				p.Name, p.Indices(), 2*p.Indices(), MaxIndices, 2*MaxIndices)
		}
		k = max(k, p.Indices())
	}
	thm := map[int]string{1: enOne, 2: enTwo}[k]
	if thm == "" {
		thm = ajkr
	}
	return Cutoff{Size: 2 * k, Indices: k, Theorem: thm}, nil
}
