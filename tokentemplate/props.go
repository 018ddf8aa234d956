package tokentemplate

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// holds reports whether atom a holds at process i of s.
func (c *compiled) holds(a *atomTable, s *State, i int) bool {
	if !a.in[s.Local[i]] {
		return false
	}
	switch a.token {
	case Held:
		return s.Token == i
	case Free:
		return s.Token != i
	}
	return true
}

// atomTable is an atom with its states as a table.
type atomTable struct {
	in    []bool
	token Token
}

func (c *compiled) table(a Atom) *atomTable {
	at := &atomTable{in: make([]bool, len(c.t.States)), token: a.Token}
	for _, s := range a.States {
		at.in[s] = true
	}
	return at
}

// props are pr's instances at ring size n: one invariant for Always,
// Never and NeverNeighbours, one witness or leads-to per process for Reachable and LeadsTo.
// Each reads what its atoms do (model.Property.Reads): the processes'
// local states, and the token's place when an atom needs it.
func (c *compiled) props(pr Prop, n int) []model.Property[State] {
	atoms := make([]*atomTable, len(pr.Atoms))
	tokenRead := false
	for k, a := range pr.Atoms {
		atoms[k] = c.table(a)
		tokenRead = tokenRead || a.Token != AnyToken
	}
	readAll := func(buf []byte, s *State) []byte {
		for _, l := range s.Local {
			buf = append(buf, l)
		}
		if tokenRead {
			buf = model.AppendUint(buf, uint64(s.Token))
		}
		return buf
	}
	readOne := func(i int) func(buf []byte, s *State) []byte {
		return func(buf []byte, s *State) []byte {
			buf = append(buf, s.Local[i])
			if tokenRead {
				buf = model.AppendBool(buf, s.Token == i)
			}
			return buf
		}
	}
	switch pr.Shape {
	case Always:
		return []model.Property[State]{model.InvariantProp(pr.Name, pr.Ref, pr.Doc, func(s *State) bool {
			for i := range s.Local {
				if !c.holds(atoms[0], s, i) {
					return false
				}
			}
			return true
		}).Reading(readAll)}
	case Never:
		return []model.Property[State]{model.InvariantProp(pr.Name, pr.Ref, pr.Doc, func(s *State) bool {
			return !c.match(atoms, s)
		}).Reading(readAll)}
	case NeverNeighbours:
		return []model.Property[State]{model.InvariantProp(pr.Name, pr.Ref, pr.Doc, func(s *State) bool {
			for i := range s.Local {
				if c.holds(atoms[0], s, i) && c.holds(atoms[1], s, c.ring.Succ(i)) {
					return false
				}
			}
			return true
		}).Reading(readAll)}
	case Reachable:
		out := make([]model.Property[State], n)
		for i := range out {
			out[i] = model.WitnessProp(fmt.Sprintf("%s-p%d", pr.Name, i), pr.Ref, pr.docFor(i),
				func(s *State) bool { return c.holds(atoms[0], s, i) }).Reading(readOne(i))
		}
		return out
	}
	out := make([]model.Property[State], n)
	for i := range out {
		out[i] = model.LeadsToProp(fmt.Sprintf("%s-p%d", pr.Name, i), pr.Ref, pr.docFor(i),
			func(s *State) bool { return c.holds(atoms[0], s, i) },
			func(s *State) bool { return c.holds(atoms[1], s, i) }).Reading(readOne(i))
	}
	return out
}

// match reports whether distinct processes satisfy atoms[0], atoms[1], …
// in s: a search over assignments, as the atoms are few (Cutoff bounds
// them). Its scratch space is its own, as workers evaluate a property
// concurrently.
func (c *compiled) match(atoms []*atomTable, s *State) bool {
	used := make([]bool, len(s.Local))
	var try func(k int) bool
	try = func(k int) bool {
		if k == len(atoms) {
			return true
		}
		for i := range s.Local {
			if !used[i] && c.holds(atoms[k], s, i) {
				used[i] = true
				ok := try(k + 1)
				used[i] = false
				if ok {
					return true
				}
			}
		}
		return false
	}
	return try(0)
}
