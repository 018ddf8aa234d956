package liveness

import (
	"fmt"

	"github.com/ringcheck/mc/model"
)

// Classes assigns every action of a system its fairness class: an index in
// [0, count), or -1 for an action that fairness ignores (environment
// actions, and every action under model.FairNone). Classes are kept as bit
// sets of words 64-bit words.
type Classes struct {
	fair   model.Fairness
	ofRule []int // model.FairAction: class of each rule; -1 for environment rules
	env    []bool
	names  []string
	count  int
	words  int
}

// NewClasses assigns the actions of sys their classes under fair. It
// refuses fairness per action class when rules of one name are both
// environment actions and not.
func NewClasses[S any](sys *model.System[S], fair model.Fairness) (*Classes, error) {
	c := &Classes{fair: fair, env: make([]bool, len(sys.Rules))}
	for i := range sys.Rules {
		c.env[i] = sys.Rules[i].Env
	}
	switch fair {
	case model.FairNone:
	case model.FairProcess:
		c.count = sys.Procs
		for p := 0; p < sys.Procs; p++ {
			c.names = append(c.names, fmt.Sprintf("p%d", p))
		}
	case model.FairAction:
		byName := map[string]int{}
		c.ofRule = make([]int, len(sys.Rules))
		envOf := map[string]bool{}
		for i := range sys.Rules {
			n := sys.Rules[i].Name
			if env, seen := envOf[n]; seen && env != c.env[i] {
				return nil, fmt.Errorf("spec %s: rules named %s are environment actions and not; fairness per action class cannot tell them apart", sys.Spec, n)
			}
			envOf[n] = c.env[i]
		}
		for i := range sys.Rules {
			c.ofRule[i] = -1
			if c.env[i] {
				continue
			}
			name := sys.Rules[i].Name
			k, ok := byName[name]
			if !ok {
				k = len(c.names)
				byName[name] = k
				c.names = append(c.names, name)
			}
			c.ofRule[i] = k
		}
		c.count = len(c.names)
	default:
		return nil, fmt.Errorf("unknown fairness %d", int(fair))
	}
	c.words = (c.count + 63) / 64
	return c, nil
}

// of returns the class of action a, or -1.
func (c *Classes) of(a model.Action) int {
	switch {
	case c.fair == model.FairNone || c.env[a.Rule]:
		return -1
	case c.fair == model.FairProcess:
		return a.Proc
	}
	return c.ofRule[a.Rule]
}

// set adds class k (if k ≥ 0) to the bit set m.
func set(m []uint64, k int) {
	if k >= 0 {
		m[k/64] |= 1 << (k % 64)
	}
}

// has reports whether class k is in the bit set m.
func has(m []uint64, k int) bool { return m[k/64]&(1<<(k%64)) != 0 }
