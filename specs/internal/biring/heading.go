package biring

import "github.com/ringcheck/mc/ring"

// Heading is the direction in which a message waiting at a process's port
// travels, +1 (towards i+1) or −1 (towards i−1): one that arrived through
// the Left port came from i−1, and passing it on through the other port
// sends it to i+1 (package doc, Orientation). The termination measures of
// hs and franklin count a message's hops ahead in this direction.
func Heading(port ring.Port) int {
	if port == ring.Left {
		return 1
	}
	return -1
}

// Ahead is the process k hops from i in direction dir on a ring of n.
func Ahead(n, i, dir, k int) int { return ((i+dir*k)%n + n) % n }

// HopsTo is the number of hops from i to j in direction dir on a ring of n:
// 0 when j is i.
func HopsTo(n, i, j, dir int) int { return ((j-i)*dir%n + n) % n }
