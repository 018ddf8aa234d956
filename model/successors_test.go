package model

import (
	"fmt"
	"strings"
	"testing"
)

// addOrBlock has two processes: rule add has p+1 choices at p, each adding
// 10p+k+1; rule blocked's send blocks at p0 and sets −1 at p1.
func addOrBlock() *System[int] {
	return &System[int]{
		Procs: 2, Init: []int{0},
		Rules: []Rule[int]{
			{Name: "add", Guard: func(s *int, _ int) bool { return true },
				Choices: func(s *int, p int) int { return p + 1 },
				Do:      func(s *int, p, k int) bool { *s += 10*p + k + 1; return true }},
			{Name: "blocked", Guard: func(s *int, _ int) bool { return true },
				Do: func(s *int, p, _ int) bool { *s = -1; return p == 1 }},
		},
		Copy: func(d, s *int) { *d = *s },
	}
}

// Next walks every group in order, skipping a refused choice; OfGroup
// takes one group, counts its choices and says whether a send blocked;
// NextChoice hands over the refused choice too.
func TestSuccessorsEnumerateGroupsAndChoices(t *testing.T) {
	sys := addOrBlock()
	s, next := 100, 0
	succ := sys.Successors(0)
	var got []string
	for succ.Of(&s); succ.Next(&next); {
		a := succ.Action()
		got = append(got, fmt.Sprintf("%d/%d/%d→%d", a.Rule, a.Proc, a.Choice, next))
	}
	if want := "[0/0/0→101 0/1/0→111 0/1/1→112 1/1/0→-1]"; fmt.Sprint(got) != want || !succ.Blocked() || succ.Err() != nil {
		t.Fatalf("Of: %v, blocked %v, %v; want %s, blocked", got, succ.Blocked(), succ.Err(), want)
	}
	for _, c := range []struct {
		ri, p, choices int
		want           string
		blocked        bool
	}{
		{0, 1, 2, "[111 112]", false},
		{1, 0, 1, "[]", true},
		{1, 1, 1, "[-1]", false},
	} {
		got = got[:0]
		succ.OfGroup(&s, c.ri, c.p)
		choices := succ.Choices()
		for succ.Next(&next) {
			got = append(got, fmt.Sprint(next))
		}
		if fmt.Sprint(got) != c.want || choices != c.choices || succ.Blocked() != c.blocked {
			t.Errorf("group %d/%d: %v, %d choices, blocked %v; want %s, %d, %v", c.ri, c.p, got, choices, succ.Blocked(), c.want, c.choices, c.blocked)
		}
	}
	got = got[:0]
	for succ.Of(&s); succ.NextChoice(&next); {
		got = append(got, fmt.Sprintf("%v:%v", succ.Action(), succ.Enabled()))
	}
	if want := "[{0 0 0}:true {0 1 0}:true {0 1 1}:true {1 0 0}:false {1 1 0}:true]"; fmt.Sprint(got) != want {
		t.Fatalf("NextChoice: %v, want %s", got, want)
	}
	if s != 100 {
		t.Fatalf("the enumeration changed the state to %d", s)
	}
}

// A rule with more choices than the limit stops the enumeration there,
// with an internal error naming it; the groups before it are handed over.
func TestSuccessorsRefuseTooManyChoices(t *testing.T) {
	sys := addOrBlock()
	s, next := 0, 0
	succ := sys.Successors(1)
	n := 0
	for succ.Of(&s); succ.Next(&next); {
		n++
	}
	if err := succ.Err(); n != 1 || err == nil || !strings.Contains(err.Error(), "rule add has 2 choices; mc supports at most 1") {
		t.Fatalf("%d successors, %v; want 1 and the error on add at p1", n, err)
	}
	if succ.OfGroup(&s, 0, 1); succ.Next(&next) || succ.Err() == nil {
		t.Fatalf("OfGroup on the group with too many choices: %v", succ.Err())
	}
}

// The kernel allocates nothing per state: an expander keeps one and
// restarts it on every state it expands.
func TestSuccessorsAllocateNothing(t *testing.T) {
	sys := addOrBlock()
	s, next := 0, 0
	succ := sys.Successors(2)
	n := 0
	if allocs := testing.AllocsPerRun(100, func() {
		for succ.Of(&s); succ.Next(&next); {
			n++
		}
		succ.OfGroup(&s, 1, 0)
		for succ.NextChoice(&next) {
			n++
		}
	}); allocs != 0 || n == 0 {
		t.Fatalf("%v allocations per state, %d successors", allocs, n)
	}
}
