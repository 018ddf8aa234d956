package model

import (
	"fmt"
	"strings"
	"testing"
)

func TestParamsValidate(t *testing.T) {
	cases := []struct {
		p    Params
		want string
	}{
		{Params{N: 1, IDs: []int{1}}, "at least 2"},
		{Params{N: 3, IDs: []int{1, 2}}, "got 2 ids"},
		{Params{N: 3, IDs: []int{1, 2, 2}}, "duplicate id 2"},
		{Params{N: 2, IDs: []int{0, 2}}, "positive"},
		{Params{N: 2, IDs: []int{1, 2}, Initiators: []int{2}}, "not a process"},
		{Params{N: 2, IDs: []int{1, 2}, Initiators: []int{}}, "at least one"},
		{Params{N: 2, IDs: []int{1, 2}, Initiators: []int{1, 1}}, "duplicate initiator"},
		{Params{N: 2, IDs: []int{1, 2}, Cap: -1}, "capacity"},
	}
	for _, c := range cases {
		err := c.p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want an error mentioning %q", c.p, err, c.want)
		}
	}
	ok := Params{N: 3, IDs: []int{3, 1, 2}, Initiators: []int{0}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid params rejected: %v", err)
	}
	if !ok.IsInitiator(0) || ok.IsInitiator(1) {
		t.Fatal("IsInitiator disagrees with Initiators [0]")
	}
}

// A spec reads its own parameters by name; one it did not get is an error
// naming it; String shows them last.
func TestOwnParams(t *testing.T) {
	p := Params{N: 3, Own: []Param{{Name: "k", Value: 4}, {Name: "m", Value: -1}}}
	if k, err := p.Param("k"); k != 4 || err != nil {
		t.Fatalf("Param(k) = %d, %v", k, err)
	}
	if m, err := p.Param("m"); m != -1 || err != nil {
		t.Fatalf("Param(m) = %d, %v", m, err)
	}
	if _, err := p.Param("x"); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("Param(x): %v", err)
	}
	if s := p.String(); s != "n=3 chan=fifo initiators=all k=4 m=-1" {
		t.Fatalf("String() = %q", s)
	}
	if s := (&Params{N: 3}).String(); s != "n=3 chan=fifo initiators=all" {
		t.Fatalf("String() without parameters = %q", s)
	}
}

func TestParseInts(t *testing.T) {
	if got, err := ParseInts("3, 1,4"); err != nil || fmt.Sprint(got) != "[3 1 4]" {
		t.Fatalf("ParseInts = %v, %v", got, err)
	}
	for _, bad := range []string{"", "1,,2", "1,x", "1.5"} {
		if _, err := ParseInts(bad); err == nil {
			t.Errorf("ParseInts(%q) accepted", bad)
		}
	}
}

func TestIntsRoundTripAndNilEncodesLikeEmpty(t *testing.T) {
	enc := AppendInts(nil, []int{3, 0, 300})
	d := NewDecoder(enc)
	if got := d.Ints(nil); d.Finish() != nil || fmt.Sprint(got) != "[3 0 300]" {
		t.Fatalf("decoded %v", got)
	}
	if string(AppendInts(nil, nil)) != string(AppendInts(nil, []int{})) {
		t.Fatal("nil and empty lists encode differently")
	}
	d = NewDecoder(AppendInts(nil, nil))
	if got := d.Ints([]int{7}); got != nil {
		t.Fatalf("an empty list decoded as %v, want nil", got)
	}
	if CloneInts([]int{1}, nil) != nil || fmt.Sprint(CloneInts(nil, []int{4, 5})) != "[4 5]" {
		t.Fatal("CloneInts does not keep nil as nil or copy a list")
	}
}

// upTo is a one-process system that counts from 0 to k.
func upTo(k int) *System[int] {
	return &System[int]{
		Procs: 1, Init: []int{0},
		Rules: []Rule[int]{{
			Name:  "inc",
			Guard: func(s *int, _ int) bool { return *s < k },
			Do:    func(s *int, _, _ int) bool { *s++; return true },
		}},
		Copy: func(d, s *int) { *d = *s },
	}
}

func TestFirstRunStopsAtATerminalStateOrTheStepLimit(t *testing.T) {
	if s, terminal := upTo(3).FirstRun(10); s != 3 || !terminal {
		t.Fatalf("FirstRun(10) = %d, %v; want 3, terminal", s, terminal)
	}
	if s, terminal := upTo(3).FirstRun(3); s != 3 || !terminal {
		t.Fatalf("FirstRun(3) = %d, %v; want 3, terminal", s, terminal)
	}
	if s, terminal := upTo(3).FirstRun(2); s != 2 || terminal {
		t.Fatalf("FirstRun(2) = %d, %v; want 2, not terminal", s, terminal)
	}
}

// Steps yields the enabled actions in enumeration order with their
// successors, skips an action whose Do refuses, and stops when asked to.
func TestStepsEnumeratesEnabledActionsInOrder(t *testing.T) {
	sys := addOrBlock()
	s, next := 100, 0
	var got []string
	for a := range sys.Steps(&s, &next) {
		got = append(got, fmt.Sprintf("%d/%d/%d→%d", a.Rule, a.Proc, a.Choice, next))
	}
	if want := "[0/0/0→101 0/1/0→111 0/1/1→112 1/1/0→-1]"; fmt.Sprint(got) != want {
		t.Fatalf("Steps yielded %v, want %s", got, want)
	}
	if s != 100 {
		t.Fatalf("Steps changed the state to %d", s)
	}
	n := 0
	for range sys.Steps(&s, &next) {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Fatalf("Steps went on after a break: %d", n)
	}
}

func TestParseDuplex(t *testing.T) {
	for s, want := range map[string]Duplex{"half": HalfDuplex, "full": FullDuplex} {
		if m, err := ParseDuplex(s); err != nil || m != want || m.String() != s {
			t.Errorf("ParseDuplex(%q) = %s, %v", s, m, err)
		}
	}
	if _, err := ParseDuplex("simplex"); err == nil {
		t.Error("ParseDuplex accepted simplex")
	}
}
