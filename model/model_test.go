package model

import (
	"fmt"
	"strings"
	"testing"
)

type msg struct{ v int }

func (m msg) Compare(o msg) int        { return m.v - o.v }
func (m msg) AppendTo(b []byte) []byte { return AppendUint(b, uint64(m.v)) }
func (m msg) String() string           { return fmt.Sprint(m.v) }
func readMsg(d *Decoder) msg           { return msg{d.Int()} }
func sendAll(c *Chan[msg], l Link, vs ...int) {
	for _, v := range vs {
		c.Send(l, msg{v})
	}
}

func TestFIFOKeepsSendingOrder(t *testing.T) {
	var c Chan[msg]
	l := Link{Kind: FIFO}
	sendAll(&c, l, 3, 1, 2)
	if got := c.String(); got != "[3 1 2]" {
		t.Fatalf("fifo holds %s, want [3 1 2]", got)
	}
	if c.Choices(l) != 1 {
		t.Fatalf("fifo offers %d receives, want 1 (the head)", c.Choices(l))
	}
	if m := c.Recv(l, 0); m.v != 3 {
		t.Fatalf("fifo delivered %d first, want 3", m.v)
	}
}

func TestBagIsCanonicalAndOffersEachDistinctMessage(t *testing.T) {
	l := Link{Kind: Bag}
	var a, b Chan[msg]
	sendAll(&a, l, 3, 1, 3, 2)
	sendAll(&b, l, 2, 3, 3, 1)
	if string(a.AppendTo(nil)) != string(b.AppendTo(nil)) {
		t.Fatalf("bags with the same messages encode differently: %s vs %s", &a, &b)
	}
	if a.Choices(l) != 3 {
		t.Fatalf("bag [1 2 3 3] offers %d receives, want 3 distinct", a.Choices(l))
	}
	if m := a.Peek(l, 2); m.v != 3 {
		t.Fatalf("choice 2 peeks %d, want 3", m.v)
	}
	a.Recv(l, 2)
	if got := a.String(); got != "[1 2 3]" {
		t.Fatalf("after receiving one 3 the bag holds %s", got)
	}
}

func TestBoundedChannelBlocksWhenFull(t *testing.T) {
	var c Chan[msg]
	l := Link{Kind: FIFO, Cap: 2}
	if !c.Send(l, msg{1}) || !c.Send(l, msg{2}) {
		t.Fatal("sends within capacity blocked")
	}
	if c.Send(l, msg{3}) {
		t.Fatal("a third send on a channel of capacity 2 went through")
	}
	if c.Len() != 2 {
		t.Fatalf("blocked send changed the channel: %s", &c)
	}
}

func TestChanEncodingRoundTrips(t *testing.T) {
	var c, d Chan[msg]
	sendAll(&c, Link{}, 300, 0, 7)
	enc := c.AppendTo(nil)
	dec := NewDecoder(enc)
	d.DecodeFrom(&dec, readMsg)
	if err := dec.Finish(); err != nil || d.String() != c.String() {
		t.Fatalf("decoded %s (%v), want %s", &d, err, &c)
	}
	short := NewDecoder(enc[:len(enc)-1])
	d.DecodeFrom(&short, readMsg)
	if short.Finish() == nil {
		t.Fatal("a truncated encoding decoded without error")
	}
}

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

func TestArrangementsAreAllDistinctPermutations(t *testing.T) {
	all := Arrangements(4)
	if len(all) != 24 {
		t.Fatalf("got %d arrangements of 4, want 24", len(all))
	}
	seen := map[string]bool{}
	for _, a := range all {
		seen[fmt.Sprint(a)] = true
	}
	if len(seen) != 24 || fmt.Sprint(all[0]) != "[1 2 3 4]" || fmt.Sprint(all[23]) != "[4 3 2 1]" {
		t.Fatalf("arrangements not the 24 distinct permutations in order: first %v last %v", all[0], all[23])
	}
}

func TestRingPortsWithoutCommonOrientation(t *testing.T) {
	r := Ring{N: 4, Bidirectional: true, Flipped: []bool{false, true, false, false}}
	if r.Neighbour(0, Right) != 1 || r.Neighbour(0, Left) != 3 {
		t.Fatal("unflipped process 0: right should lead to 1, left to 3")
	}
	if r.Neighbour(1, Right) != 0 || r.Neighbour(1, Left) != 2 {
		t.Fatal("flipped process 1: right should lead to 0, left to 2")
	}
	if r.PortTo(1, 2) != Left || r.PortTo(2, 1) != Left || Left.Opposite() != Right {
		t.Fatal("PortTo disagrees with Neighbour")
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

func TestArrangementClasses(t *testing.T) {
	for _, c := range []struct {
		n       int
		sym     Symmetry
		classes int
	}{
		{4, Rotation, 6}, {5, Rotation, 24}, {6, Rotation, 120},
		{4, RotationReflection, 3}, {5, RotationReflection, 12}, {6, RotationReflection, 60},
	} {
		cls := ArrangementClasses(c.n, c.sym)
		total := 0
		for _, cl := range cls {
			total += cl.Size
			if fmt.Sprint(canonical(cl.Rep, c.sym)) != fmt.Sprint(cl.Rep) {
				t.Fatalf("representative %v is not canonical", cl.Rep)
			}
		}
		if len(cls) != c.classes || total != len(Arrangements(c.n)) {
			t.Fatalf("n=%d %s: %d classes covering %d, want %d covering %d", c.n, c.sym, len(cls), total, c.classes, len(Arrangements(c.n)))
		}
	}
}

type tag uint8

func (k tag) String() string { return [...]string{"wakeup", "elect"}[k] }

// Tagged messages print bare without an id, sort by kind then id in a bag,
// and decode to what was encoded.
func TestTaggedMessages(t *testing.T) {
	var c Chan[Tagged[tag]]
	l := Link{Kind: Bag}
	for _, m := range []Tagged[tag]{{Kind: 1, ID: 5}, {Kind: 0}, {Kind: 1, ID: 2}} {
		c.Send(l, m)
	}
	if got := c.String(); got != "[⟨wakeup⟩ ⟨elect 2⟩ ⟨elect 5⟩]" {
		t.Fatalf("bag holds %s", got)
	}
	var d Chan[Tagged[tag]]
	dec := NewDecoder(c.AppendTo(nil))
	d.DecodeFrom(&dec, ReadTagged[tag])
	if err := dec.Finish(); err != nil || d.String() != c.String() {
		t.Fatalf("decoded %s (%v), want %s", d.String(), err, c.String())
	}
}
