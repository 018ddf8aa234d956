package tokentemplate

import "fmt"

// Cutoff is the ring size up to which a template must be checked for its
// properties to hold at every size, and the theorem that says so.
type Cutoff struct {
	// Size is the cutoff c: checking n = 2..c decides every n ≥ 2.
	Size int
	// Fragment is the indexed form whose cutoff is Size, the largest of
	// the template's properties: "∀i f(i)", "∀i f(i, i+1)" or
	// "∀i≠j f(i, j)".
	Fragment string
	// Indices is the number of process indices that form names.
	Indices int
	// Theorem names the result and its source (docs/every-n.md).
	Theorem string
}

// The cutoffs of Emerson and Namjoshi for unidirectional token rings, per
// indexed form, as docs/every-n.md states them and says where they were
// verified: 2 for ∀i f(i), 3 for ∀i f(i, i+1), 4 for ∀i≠j f(i, j). (Their
// fourth form, ∀i≠j f(i, i+1, j) with cutoff 5, has no shape here.)
var (
	oneIndex   = Cutoff{Size: 2, Fragment: "∀i f(i)", Indices: 1, Theorem: enTheorem("∀i f(i)")}
	neighbours = Cutoff{Size: 3, Fragment: "∀i f(i, i+1)", Indices: 2, Theorem: enTheorem("∀i f(i, i+1)")}
	twoIndices = Cutoff{Size: 4, Fragment: "∀i≠j f(i, j)", Indices: 2, Theorem: enTheorem("∀i≠j f(i, j)")}
)

func enTheorem(form string) string {
	return "Emerson and Namjoshi, Reasoning about rings (POPL 1995; IJFCS 2003), for " + form + " with f in CTL*\\X, on unidirectional token rings"
}

// CutoffOf is p's cutoff: the theorem covering its shape and number of
// indices. Its error says why none does.
func (p Prop) CutoffOf() (Cutoff, error) {
	switch {
	case p.Shape == NeverNeighbours:
		return neighbours, nil
	case p.Indices() == 1:
		return oneIndex, nil
	case p.Indices() == 2:
		return twoIndices, nil
	}
	return Cutoff{}, fmt.Errorf("property %s quantifies over %d distinct processes: the cutoffs verified for docs/every-n.md cover at most 2 (Emerson and Namjoshi); a cutoff for more is stated by Aminof, Jacobs, Khalimov and Rubin (VMCAI 2014), whose text could not be checked, so --every-n claims nothing for it",
		p.Name, p.Indices())
}

// CutoffOf validates t and gives its cutoff: the largest of its
// properties' cutoffs, since each property is decided at every size from
// its own cutoff on and the sizes below are checked directly. Its error
// names the hypothesis that fails.
func CutoffOf(t *Template) (Cutoff, error) {
	if err := t.Validate(); err != nil {
		return Cutoff{}, err
	}
	if len(t.Props) == 0 {
		return Cutoff{}, fmt.Errorf("template %s has no properties: there is nothing to hold for every n", t.Name)
	}
	var cut Cutoff
	for _, p := range t.Props {
		c, err := p.CutoffOf()
		if err != nil {
			return Cutoff{}, err
		}
		if c.Size > cut.Size {
			cut = c
		}
	}
	return cut, nil
}
