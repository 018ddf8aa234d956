package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// A report read back has the counts of its cases, the text of its
// failures whole (its lines as lines in the file, the control characters
// XML cannot hold replaced, a "]]>" split out of the CDATA section), and
// times in seconds without an exponent.
func TestWrittenReportDecodesWithItsCounts(t *testing.T) {
	start := time.Date(2026, 11, 28, 13, 0, 0, 0, time.UTC)
	a := NewSuite("mc check a", start)
	a.Elapsed = 1500 * time.Millisecond
	a.Set("spec", "changroberts")
	a.Add(Case{Name: "p", Classname: "a"})
	a.Add(Case{Name: "q", Classname: "a", Failure: &Outcome{Message: "q violated", Text: "  1. send <elect 3> & stop\x1b[0m\n  2. ]]> end\n"}})
	a.Add(Case{Name: "r", Classname: "a", Skipped: &Outcome{Message: "not checked"}})
	b := NewSuite("mc check b", start)
	b.Elapsed = 10 * time.Microsecond
	b.Add(Case{Name: "p", Classname: "b", Error: &Outcome{Message: "incomplete: state limit 10 reached"}})
	var buf bytes.Buffer
	if err := Write(&buf, &Report{Name: "mc", Suites: []Suite{a, b}}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, xml.Header) {
		t.Errorf("no XML header:\n%s", text)
	}
	for _, want := range []string{"& stop\uFFFD[0m\n  2. ]]", `tests="4" failures="1" errors="1" skipped="1" time="1.500"`, `time="0.000"`, `timestamp="2026-11-28T13:00:00"`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %s:\n%s", want, text)
		}
	}
	if strings.Count(text, "<properties>") != 1 {
		t.Errorf("want <properties> in the suite that has some only:\n%s", text)
	}
	var got Report
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("does not decode: %v\n%s", err, text)
	}
	if got.Tests != 4 || got.Failures != 1 || got.Errors != 1 || got.Skipped != 1 || len(got.Suites) != 2 {
		t.Fatalf("decoded totals %+v, %d suites", got.Counts, len(got.Suites))
	}
	s := got.Suites[0]
	if p := s.Properties; p == nil || len(p.List) != 1 || p.List[0] != (Property{Name: "spec", Value: "changroberts"}) {
		t.Errorf("first suite's properties %+v", p)
	}
	if s.Name != "mc check a" || s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 || s.Errors != 0 || s.Time != 1.5 {
		t.Errorf("first suite %q %+v", s.Name, s.Counts)
	}
	if f := s.Cases[1].Failure; f == nil || f.Text != "  1. send <elect 3> & stop\uFFFD[0m\n  2. ]]> end\n" || f.Message != "q violated" {
		t.Errorf("failure %+v", f)
	}
	if s.Cases[0].Failure != nil || s.Cases[0].Error != nil || s.Cases[0].Skipped != nil {
		t.Errorf("a passed case decodes as %+v", s.Cases[0])
	}
	if e := got.Suites[1].Cases[0].Error; e == nil || got.Suites[1].Errors != 1 {
		t.Errorf("second suite %+v", got.Suites[1])
	}
}
