// Package chart draws mc traces: a message-sequence chart as one
// self-contained SVG (msc.go), and the state graph of a small system in
// Graphviz dot with a trace's run marked (dot.go).
package chart

import (
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/tracefile"
)

// Arrow is one message of a chart: sent by From at step Sent (0: already in
// transit in the initial state) and received by To at step Received, or
// still in transit at the end (Received = -1).
type Arrow struct {
	From, To       int
	Text           string
	Sent, Received int
}

// Decision is a change of a process's status at a step ("leader").
type Decision struct {
	Proc, Step int
	Status     string
}

// Sequence is what a message-sequence chart shows: processes in ring order,
// the messages between them and the decisions they take.
type Sequence struct {
	Procs     []string // "p0"
	Labels    []string // "id 3"
	Steps     []string // the action of each step, step 1 first
	Actors    []int    // the process acting at each step
	Arrows    []Arrow
	Decisions []Decision
}

// SequenceOf derives the chart of a trace from its recorded views and
// messages. A received message is matched with the oldest message of the
// same text pending on the same link (equal messages are interchangeable).
func SequenceOf(f *tracefile.File) (*Sequence, error) {
	v0 := f.States[0].View
	if v0 == nil {
		return nil, fmt.Errorf("spec %s records no view of its processes and messages, so mc cannot chart its traces", f.Run.Spec)
	}
	seq := &Sequence{}
	for _, p := range v0.Procs {
		seq.Procs, seq.Labels = append(seq.Procs, p.Name), append(seq.Labels, p.Label)
	}
	type link struct{ from, to int }
	pending := map[link][]int{} // indices into seq.Arrows
	send := func(m checker.Message, step int) {
		l := link{m.From, m.To}
		pending[l] = append(pending[l], len(seq.Arrows))
		seq.Arrows = append(seq.Arrows, Arrow{From: m.From, To: m.To, Text: m.Text, Sent: step, Received: -1})
	}
	for _, l := range v0.Chans {
		for _, m := range l.Msgs {
			send(checker.Message{From: l.From, To: l.To, Text: m}, 0)
		}
	}
	status := make([]string, len(v0.Procs))
	for i, p := range v0.Procs {
		status[i] = p.Status
	}
	for i, s := range f.Steps {
		step := i + 1
		seq.Steps, seq.Actors = append(seq.Steps, s.Action), append(seq.Actors, s.Process)
		for _, m := range s.Received {
			l := link{m.From, m.To}
			q := pending[l]
			k := 0
			for k < len(q) && seq.Arrows[q[k]].Text != m.Text {
				k++
			}
			if k == len(q) {
				return nil, fmt.Errorf("malformed mc trace: step %d receives %s on link p%d→p%d, which no earlier step sent", step, m.Text, m.From, m.To)
			}
			seq.Arrows[q[k]].Received = step
			pending[l] = append(q[:k:k], q[k+1:]...)
		}
		for _, m := range s.Sent {
			send(m, step)
		}
		if v := f.States[step].View; v != nil && len(v.Procs) == len(status) {
			for p, pv := range v.Procs {
				if pv.Status != status[p] {
					seq.Decisions = append(seq.Decisions, Decision{Proc: p, Step: step, Status: pv.Status})
					status[p] = pv.Status
				}
			}
		}
	}
	return seq, nil
}

// Layout of the chart, in SVG user units.
const (
	marginLeft = 40  // step numbers
	colWidth   = 150 // between lifelines
	headTop    = 20
	headHeight = 44
	rowHeight  = 40
	labelWidth = 300 // the action column on the right
	charWidth  = 8   // generous width of one character at font-size 13
	// halo keeps a label legible where it crosses a line.
	halo = ` stroke="white" stroke-width="4" paint-order="stroke" fill="#1f4e8c"`
)

// SVG writes the message-sequence chart of f: one lifeline per process in
// ring order, time running down one row per step; each message an arrow
// from the step that sent it to the step that received it, labelled with
// the message; each decision a box on its lifeline; the property's verdict
// at the bottom. The SVG has no external references.
func SVG(w io.Writer, f *tracefile.File) error {
	seq, err := SequenceOf(f)
	if err != nil {
		return err
	}
	n, steps := len(seq.Procs), len(seq.Steps)
	x := func(p int) int { return marginLeft + colWidth/2 + p*colWidth }
	y := func(step int) int { return headTop + headHeight + rowHeight/2 + step*rowHeight }
	bottom := y(steps) + rowHeight
	headline := Headline(f)
	width, height := marginLeft+n*colWidth+labelWidth, bottom+60
	for _, line := range []string{headline, f.Property.Doc} {
		width = max(width, marginLeft+charWidth*utf8.RuneCountInString(line)+20)
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(title(f)))
	b.WriteString(`<defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f4e8c"/></marker></defs>` + "\n")
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for p := range seq.Procs {
		fmt.Fprintf(&b, `<g class="lifeline" data-proc="%d"><rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#eef3fa" stroke="#1f4e8c"/>`,
			p, x(p)-colWidth/2+12, headTop, colWidth-24, headHeight)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>`, x(p), headTop+18, esc(seq.Procs[p]))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x(p), headTop+36, esc(seq.Labels[p]))
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999" stroke-dasharray="4 3"/></g>`+"\n", x(p), headTop+headHeight, x(p), bottom)
	}
	for i, label := range seq.Steps {
		step := i + 1
		fmt.Fprintf(&b, `<g class="step" data-step="%d"><text x="%d" y="%d" text-anchor="end" fill="#666">%d</text>`, step, marginLeft-8, y(step)+4, step)
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4" fill="#1f4e8c"/>`, x(seq.Actors[i]), y(step))
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">%s</text></g>`+"\n", marginLeft+n*colWidth+10, y(step)+4, esc(label))
	}
	for _, a := range seq.Arrows {
		x1, y1, x2 := x(a.From), y(a.Sent), x(a.To)
		fmt.Fprintf(&b, `<g class="message" data-from="%d" data-to="%d" data-sent="%d" data-received="%d">`, a.From, a.To, a.Sent, a.Received)
		if a.Received >= 0 {
			y2 := y(a.Received)
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1f4e8c" stroke-width="1.5" marker-end="url(#head)"/>`, x1, y1, x2, y2)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle"%s>%s</text></g>`+"\n", (x1+x2)/2, (y1+y2)/2-4, halo, esc(a.Text))
			continue
		}
		// Still in transit at the end: a dashed arrow that stops short,
		// below the last step, labelled at its tip.
		x2, y2, anchor, dx := x1+(x2-x1)*2/5, y(steps)+rowHeight*3/5, "start", 6
		if x2 < x1 {
			anchor, dx = "end", -6
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1f4e8c" stroke-width="1.5" stroke-dasharray="6 4" marker-end="url(#head)"/>`, x1, y1, x2, y2)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="%s"%s>%s</text></g>`+"\n", x2+dx, y2+4, anchor, halo, esc(a.Text+" (in transit)"))
	}
	for _, d := range seq.Decisions {
		status := d.Status
		if status == "" {
			status = "(none)"
		}
		fill := "#fff4d6"
		if d.Status == "leader" {
			fill = "#d9f2d9"
		}
		// A box on the lifeline, over the event it comes from.
		fmt.Fprintf(&b, `<g class="decision" data-proc="%d" data-step="%d"><rect x="%d" y="%d" width="64" height="20" rx="4" fill="%s" stroke="#555"/>`,
			d.Proc, d.Step, x(d.Proc)-32, y(d.Step)-10, fill)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text></g>`+"\n", x(d.Proc), y(d.Step)+4, esc(status))
	}
	if f.LoopStart != nil {
		fmt.Fprintf(&b, `<g class="loop" data-from="%d"><path d="M%d,%d h-10 V%d h10" fill="none" stroke="#b00" stroke-width="2"/><text x="4" y="%d" fill="#b00">loop</text></g>`+"\n",
			*f.LoopStart, marginLeft-20, y(*f.LoopStart), y(steps), y(steps)+18)
	}
	fmt.Fprintf(&b, `<g class="verdict"><text x="%d" y="%d" fill="%s" font-weight="bold">%s</text>`, marginLeft, bottom+24, verdictColour(f), esc(headline))
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">%s</text></g>`+"\n", marginLeft, bottom+44, esc(f.Property.Doc))
	b.WriteString("</svg>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func title(f *tracefile.File) string {
	return fmt.Sprintf("mc trace: %s (variant %s), %s", f.Run.Spec, f.Run.Variant, f.Property.Name)
}

func verdictColour(f *tracefile.File) string {
	if f.Property.Verdict == "pass" {
		return "#1a7f1a"
	}
	return "#b00000"
}

// Headline says in one line what the run shows about its property; the
// property's Doc says what the property means.
func Headline(f *tracefile.File) string {
	p := f.Property
	switch {
	case p.Verdict == "pass":
		return fmt.Sprintf("%s %s holds at the end of this run", p.Kind, p.Name)
	case f.Deadlock && p.Name == model.Deadlock:
		return "deadlock: no action is enabled, and the spec does not declare this state a proper end"
	case f.Deadlock:
		return fmt.Sprintf("deadlock: no action is enabled, and end property %s fails", p.Name)
	case f.LoopStart != nil:
		return fmt.Sprintf("%s %s fails: the run loops forever from the state after step %d", p.Kind, p.Name, *f.LoopStart)
	case p.Kind == "step":
		return fmt.Sprintf("step property %s fails on the last step", p.Name)
	}
	return fmt.Sprintf("%s %s fails at the end of this run", p.Kind, p.Name)
}

// esc escapes text for XML.
func esc(s string) string { return html.EscapeString(s) }
