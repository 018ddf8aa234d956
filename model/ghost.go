package model

// Ghost (history) variables.
//
// Some claims of the papers are about a run's history, not its current
// state: how many messages were sent, which colours were active in a phase.
// A spec keeps such history in ghost variables, in a sub-struct of its state
// of their own, under these rules (Lamport's rule for auxiliary variables):
//
//   - Rules may write ghosts; guards and effects never read them. So ghosts
//     cannot change which actions are enabled or what they do to the real
//     variables.
//   - Ghosts are encoded and hashed with the rest of the state, because two
//     states with different histories are different states.
//   - They are off by default (Params.Claims false): the rules then leave
//     them zero, so the state space is the plain one. Claims on turns them
//     on together with the properties that read them.
//   - System.Erase zeroes them. checker.CheckErasure explores the system with
//     claims on, erases every reachable state and transition, and checks that
//     the result is exactly the plain system's state graph: ghosts never
//     influence behaviour. Every spec with ghosts has a test that calls it.

// CloneInts copies the ghost list src into dst's storage for a state's Copy,
// keeping nil (a ghost that is off or erased) as nil.
func CloneInts(dst, src []int) []int {
	if src == nil {
		return nil
	}
	return append(dst[:0], src...)
}
