package chart

import (
	"bytes"
	"encoding/xml"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/tracefile"
	"github.com/ringcheck/mc/tracefile/tracefiletest"
)

func traceOf(t *testing.T, p model.Params, name string) (checker.Target, *tracefile.File) {
	return tracefiletest.Record(t, "changroberts", p, name)
}

var readme = model.Params{N: 4, IDs: []int{3, 1, 4, 2}, Variant: "raynal-literal", Initiators: []int{0}}

// drawing is what a person sees in a chart: the lifelines with their x and
// names, the arrows with their end points and labels, the decision boxes
// and the texts, read from the SVG's geometry and text.
type drawing struct {
	lifelines []lifeline
	arrows    []arrow
	decisions []decision
	texts     []string
}

type lifeline struct {
	x     int
	names []string
}

type arrow struct {
	x1, y1, x2, y2 int
	label          string
}

type decision struct {
	x, y  int
	label string
}

// parse reads an SVG: each <g class=…> group gives one lifeline, arrow or
// decision from its line, rect and text children.
func parse(t *testing.T, svg []byte) drawing {
	t.Helper()
	var d drawing
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var group string
	var texts []string
	var line, rect map[string]int
	num := func(attrs []xml.Attr) map[string]int {
		m := map[string]int{}
		for _, a := range attrs {
			if v, err := strconv.Atoi(a.Value); err == nil {
				m[a.Name.Local] = v
			}
		}
		return m
	}
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "g":
				group, texts, line, rect = "", nil, nil, nil
				for _, a := range e.Attr {
					if a.Name.Local == "class" {
						group = a.Value
					}
				}
			case "line":
				line = num(e.Attr)
			case "rect":
				rect = num(e.Attr)
			case "text":
				inText = true
			}
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
				d.texts = append(d.texts, string(e))
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "text":
				inText = false
			case "g":
				switch group {
				case "lifeline":
					d.lifelines = append(d.lifelines, lifeline{x: line["x1"], names: texts})
				case "message":
					d.arrows = append(d.arrows, arrow{line["x1"], line["y1"], line["x2"], line["y2"], strings.Join(texts, " ")})
				case "decision":
					d.decisions = append(d.decisions, decision{rect["x"] + rect["width"]/2, rect["y"] + rect["height"]/2, strings.Join(texts, " ")})
				}
				group = ""
			}
		}
	}
	return d
}

func svgOf(t *testing.T, f *tracefile.File) drawing {
	t.Helper()
	var buf bytes.Buffer
	if err := SVG(&buf, f); err != nil {
		t.Fatal(err)
	}
	// Self-contained: the only URL is the SVG namespace, nothing is linked.
	if bytes.Count(buf.Bytes(), []byte("://")) != 1 || bytes.Contains(buf.Bytes(), []byte("href")) {
		t.Fatal("the SVG refers to something outside itself")
	}
	return parse(t, buf.Bytes())
}

// x returns the lifeline x of the process named name.
func (d drawing) x(t *testing.T, name string) int {
	for _, l := range d.lifelines {
		if len(l.names) > 0 && l.names[0] == name {
			return l.x
		}
	}
	t.Fatalf("no lifeline %s", name)
	return 0
}

// byTime sorts arrows by the time they are sent, then received.
func byTime(as []arrow) []arrow {
	out := append([]arrow(nil), as...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].y1 != out[j].y1 {
			return out[i].y1 < out[j].y1
		}
		return out[i].y2 < out[j].y2
	})
	return out
}

func TestChartOfTheReadmeDeadlock(t *testing.T) {
	_, f := traceOf(t, readme, "election-complete")
	d := svgOf(t, f)
	// Lifelines left to right in ring order, each named with its id.
	want := [][]string{{"p0", "id 3"}, {"p1", "id 1"}, {"p2", "id 4"}, {"p3", "id 2"}}
	if len(d.lifelines) != len(want) {
		t.Fatalf("%d lifelines, want %d", len(d.lifelines), len(want))
	}
	for i, l := range d.lifelines {
		if strings.Join(l.names, " ") != strings.Join(want[i], " ") || (i > 0 && l.x <= d.lifelines[i-1].x) {
			t.Fatalf("lifeline %d: %v at x=%d; want %v, right of the one before", i, l.names, l.x, want[i])
		}
	}
	// ⟨elect 3⟩ goes p0 → p1, then p1 → p2, where it is swallowed.
	arrows := byTime(d.arrows)
	hops := [][2]string{{"p0", "p1"}, {"p1", "p2"}}
	if len(arrows) != len(hops) {
		t.Fatalf("%d arrows, want %d: %+v", len(arrows), len(hops), arrows)
	}
	for i, a := range arrows {
		if a.x1 != d.x(t, hops[i][0]) || a.x2 != d.x(t, hops[i][1]) || a.label != "⟨elect 3⟩" || a.y2 <= a.y1 {
			t.Fatalf("arrow %d: %+v, want %s → %s labelled ⟨elect 3⟩, pointing down", i, a, hops[i][0], hops[i][1])
		}
		if i > 0 && a.y1 != arrows[i-1].y2 {
			t.Fatalf("arrow %d leaves at y=%d, not where arrow %d arrived (y=%d): a forward is one step", i, a.y1, i-1, arrows[i-1].y2)
		}
	}
	if len(d.decisions) != 0 {
		t.Fatalf("decisions %+v in a run where nobody decides", d.decisions)
	}
	all := strings.Join(d.texts, "\n")
	for _, s := range []string{"deadlock", "election-complete", "start p0 (sends ⟨elect 3⟩)", "recv p2 ⟨elect 3⟩"} {
		if !strings.Contains(all, s) {
			t.Errorf("chart does not say %q", s)
		}
	}
}

// The canonical witness run: p2 (id 4) starts, its ⟨elect 4⟩ goes all the
// way round, p2 decides leader and its ⟨done 4⟩ is left in transit.
func TestChartMarksDecisionsAndMessagesInTransit(t *testing.T) {
	_, f := traceOf(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}}, "leader-elected")
	d := svgOf(t, f)
	arrows := byTime(d.arrows)
	hops := [][2]string{{"p2", "p3"}, {"p3", "p0"}, {"p0", "p1"}, {"p1", "p2"}}
	if len(arrows) != 5 {
		t.Fatalf("%d arrows, want 5: %+v", len(arrows), arrows)
	}
	for i, h := range hops {
		a := arrows[i]
		if a.x1 != d.x(t, h[0]) || a.x2 != d.x(t, h[1]) || a.label != "⟨elect 4⟩" {
			t.Fatalf("arrow %d: %+v, want %s → %s ⟨elect 4⟩", i, a, h[0], h[1])
		}
	}
	last := arrows[4]
	if last.x1 != d.x(t, "p2") || last.label != "⟨done 4⟩ (in transit)" || last.x2 <= last.x1 || last.x2 >= d.x(t, "p3") {
		t.Fatalf("⟨done 4⟩: %+v, want a short arrow from p2 towards p3, in transit", last)
	}
	if len(d.decisions) != 1 || d.decisions[0].label != "leader" || d.decisions[0].x != d.x(t, "p2") || d.decisions[0].y != arrows[3].y2 {
		t.Fatalf("decisions %+v, want p2 leader where ⟨elect 4⟩ comes back", d.decisions)
	}
}

func TestSequenceMatchesEqualMessagesOnABag(t *testing.T) {
	p := model.Params{N: 3, IDs: []int{1, 2, 3}, Chan: model.Bag}
	_, f := traceOf(t, p, "leader-elected")
	seq, err := SequenceOf(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range seq.Arrows {
		if a.Received >= 0 && a.Received <= a.Sent {
			t.Fatalf("arrow %+v received before it was sent", a)
		}
	}
}

func TestDotDrawsSmallGraphsAndRefusesLargeOnes(t *testing.T) {
	target, f := traceOf(t, readme, "election-complete")
	var buf bytes.Buffer
	if err := Dot(&buf, target, f); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, " -> "); n != 3 {
		t.Fatalf("%d edges, want the 3 transitions of this system:\n%s", n, out)
	}
	if n := strings.Count(out, `color="#b00000", fontcolor`); n != 3 || !strings.Contains(out, `"3: recv p2 ⟨elect 3⟩"`) {
		t.Fatalf("the run's 3 steps are not all marked:\n%s", out)
	}
	big, g := traceOf(t, model.Params{N: 5, IDs: ring.DescendingIDs(5)}, "leader-elected")
	err := Dot(&buf, big, g)
	if err == nil || !strings.Contains(err.Error(), "more than 100 states") {
		t.Fatalf("a 489-state graph: %v", err)
	}
}
