package model

import "fmt"

// Successors enumerates the successors of one state: for each rule, each
// process, each of the rule's choices there (ChoicesAt), it copies the
// state into a scratch state the caller gives, applies Do and, unless Do
// refuses (a send blocks), hands over the action and that successor. This
// is the enumeration order System.Rules promises, which traces replay by,
// written once: the expansions of a state use it rather than each its own
// copy of the rule × process × choice loop.
//
// It is a small iterator value, not a callback, so that the caller keeps
// its own loop: it passes the scratch state on each call (the checker
// builds each successor in its own slot), and it can take one group, one
// rule at one process, at a time (a reduced expansion asks for groups in
// the order its ample set does). It allocates nothing: an expander keeps
// one and restarts it on each state with Of or OfGroup.
//
//	succ := sys.Successors(0)
//	for succ.Of(s); succ.Next(&next); {
//		a := succ.Action() // next is s after a
//	}
//	if err := succ.Err(); err != nil { ... }
type Successors[S any] struct {
	sys        *System[S]
	maxChoices int
	s          *S
	rule       *Rule[S]
	// ri, p: the current group; groups, how many groups are left after it.
	ri, p, groups int
	// k: the next choice of the group; choices, how many it has.
	k, choices       int
	act              Action
	enabled, blocked bool
	err              error
}

// Successors returns an enumerator of sys's successors. A positive
// maxChoices is the most choices a rule may have at a process: a state
// where one has more stops the enumeration with an internal error (Err),
// for a caller that packs actions into fixed widths; 0 means no limit.
func (sys *System[S]) Successors(maxChoices int) Successors[S] {
	return Successors[S]{sys: sys, maxChoices: maxChoices}
}

// Of starts the enumeration of every successor of s, all groups in
// order. s must stay unchanged until the enumeration ends.
func (e *Successors[S]) Of(s *S) {
	e.s, e.ri, e.p, e.groups = s, 0, -1, len(e.sys.Rules)*e.sys.Procs
	e.k, e.choices, e.blocked, e.err = 0, 0, false, nil
}

// OfGroup starts the enumeration of the successors of s by rule ri at
// process p alone. The group's choices are counted at once (Choices).
func (e *Successors[S]) OfGroup(s *S, ri, p int) {
	e.s, e.ri, e.p, e.groups = s, ri, p-1, 1
	e.k, e.choices, e.blocked, e.err = 0, 0, false, nil
	e.nextGroup()
}

// nextGroup moves to the next group and counts its choices; false when
// there is none left or the choices are too many.
func (e *Successors[S]) nextGroup() bool {
	if e.groups == 0 || e.err != nil {
		e.k, e.choices = 0, 0
		return false
	}
	e.groups--
	if e.p++; e.p == e.sys.Procs {
		e.ri, e.p = e.ri+1, 0
	}
	e.rule = &e.sys.Rules[e.ri]
	e.k, e.choices = 0, e.rule.ChoicesAt(e.s, e.p)
	return e.withinLimit()
}

// withinLimit checks the current group's choices against the limit,
// stopping the enumeration with an error past it.
func (e *Successors[S]) withinLimit() bool {
	if e.maxChoices > 0 && e.choices > e.maxChoices {
		e.err = fmt.Errorf("internal error: rule %s has %d choices; mc supports at most %d", e.rule.Name, e.choices, e.maxChoices)
		e.k, e.choices = 0, 0
		return false
	}
	return true
}

// Next builds the next successor into dst and reports whether there was
// one; Action names the action that leads to it. A choice whose Do
// refuses is skipped (Blocked then reports it). It is the explorer's
// inner loop, so it walks the groups in local variables and stores them
// back only when it hands over a successor or ends.
func (e *Successors[S]) Next(dst *S) bool {
	if e.err != nil {
		return false
	}
	sys, s := e.sys, e.s
	rule, ri, p, k, choices, groups := e.rule, e.ri, e.p, e.k, e.choices, e.groups
	for {
		for ; k < choices; k++ {
			sys.Copy(dst, s)
			if rule.Do(dst, p, k) {
				e.rule, e.ri, e.p, e.k, e.choices, e.groups = rule, ri, p, k+1, choices, groups
				e.act, e.enabled = Action{Rule: ri, Proc: p, Choice: k}, true
				return true
			}
			e.blocked = true
		}
		if groups == 0 {
			e.ri, e.p, e.k, e.choices, e.groups = ri, p, 0, 0, 0
			return false
		}
		groups--
		if p++; p == sys.Procs {
			ri, p = ri+1, 0
		}
		rule = &sys.Rules[ri]
		k, choices = 0, 0
		if rule.Guard(s, p) {
			choices = 1
			if rule.Choices != nil {
				choices = rule.Choices(s, p)
			}
		}
		if e.maxChoices > 0 && choices > e.maxChoices {
			e.rule, e.ri, e.p, e.choices, e.groups = rule, ri, p, choices, groups
			return e.withinLimit()
		}
	}
}

// NextChoice is Next without the skipping, for the checks of the rules
// themselves (checker.CheckCodec): it applies the next choice into dst,
// whether Do accepts it or not, and Enabled tells which.
func (e *Successors[S]) NextChoice(dst *S) bool {
	for e.k == e.choices {
		if !e.nextGroup() {
			return false
		}
	}
	k := e.k
	e.k++
	e.sys.Copy(dst, e.s)
	e.act, e.enabled = Action{Rule: e.ri, Proc: e.p, Choice: k}, e.rule.Do(dst, e.p, k)
	e.blocked = e.blocked || !e.enabled
	return true
}

// Action is the action of the choice Next or NextChoice applied last.
func (e *Successors[S]) Action() Action { return e.act }

// Enabled reports whether Do accepted the choice NextChoice applied last.
func (e *Successors[S]) Enabled() bool { return e.enabled }

// Choices is the number of choices of the current group: with OfGroup,
// the group's ChoicesAt (0 when disabled, or when there are too many).
func (e *Successors[S]) Choices() int { return e.choices }

// Blocked reports whether a choice enumerated since Of or OfGroup was
// refused by its Do: a send would have overflowed a bounded channel.
func (e *Successors[S]) Blocked() bool { return e.blocked }

// Err is the error that stopped the enumeration: too many choices.
func (e *Successors[S]) Err() error { return e.err }
