// Package junit is the JUnit XML report that CI services read (GitHub
// Actions' test reporters, GitLab, Jenkins): test suites of test cases,
// each passed, failed, in error or skipped. mc check, mc ci and mc simulate
// write one with --junit (docs/ci.md).
//
// The counts and times of a suite and of the whole report are computed
// from its cases when it is written, so they cannot disagree with them.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is the document: its <testsuites> element.
type Report struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr,omitempty"`
	Counts
	Suites []Suite `xml:"testsuite"`
}

// Counts are the totals a suite, or the report, carries as attributes.
type Counts struct {
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Time     Seconds `xml:"time,attr"`
}

// Suite is a <testsuite>: one run of mc (mc check's arrangement, mc ci's
// profile, mc simulate's runs).
type Suite struct {
	Name string `xml:"name,attr"`
	Counts
	// Timestamp is when the suite started, in RFC 3339 without a zone
	// offset, as the schema wants it.
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Properties *Properties `xml:"properties,omitempty"`
	Cases      []Case      `xml:"testcase"`
	// Elapsed is how long the suite's run took: its time once written.
	Elapsed time.Duration `xml:"-"`
}

// Properties are the names and values a suite records (the spec, its
// variant): nil for none, which writes no <properties> element.
type Properties struct {
	List []Property `xml:"property"`
}

// Property is one of them.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is a <testcase>. At most one of Failure, Error and Skipped is set;
// none means it passed. It has no time of its own: mc decides a run's
// properties together, and its suite has the run's time.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Failure   *Outcome `xml:"failure,omitempty"`
	Error     *Outcome `xml:"error,omitempty"`
	Skipped   *Outcome `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Outcome is a failure, an error or a skip: a one-line message and, for a
// failure, the counterexample as text. The text goes in a CDATA section,
// where its lines stay lines for a person reading the file.
type Outcome struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// Seconds is a duration as the schema's time attribute: seconds, with
// three decimals and never an exponent.
type Seconds float64

// MarshalXMLAttr writes s as "1.250".
func (s Seconds) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: fmt.Sprintf("%.3f", float64(s))}, nil
}

// NewSuite starts a suite called name, at start.
func NewSuite(name string, start time.Time) Suite {
	return Suite{Name: name, Timestamp: start.UTC().Format("2006-01-02T15:04:05")}
}

// Add appends c to the suite.
func (s *Suite) Add(c Case) { s.Cases = append(s.Cases, c) }

// Set records name's value among the suite's properties.
func (s *Suite) Set(name, value string) {
	if s.Properties == nil {
		s.Properties = &Properties{}
	}
	s.Properties.List = append(s.Properties.List, Property{Name: name, Value: value})
}

// Write writes r as an XML document, its counts and times computed from
// its cases.
func Write(w io.Writer, r *Report) error {
	r.Counts = Counts{}
	var total time.Duration
	for i := range r.Suites {
		s := &r.Suites[i]
		s.count()
		r.Tests += s.Tests
		r.Failures += s.Failures
		r.Errors += s.Errors
		r.Skipped += s.Skipped
		total += s.Elapsed
	}
	r.Time = Seconds(total.Seconds())
	r.sanitize()
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// count sets the suite's counts from its cases.
func (s *Suite) count() {
	s.Counts = Counts{Tests: len(s.Cases), Time: Seconds(s.Elapsed.Seconds())}
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
}

// sanitize replaces in every text the characters XML 1.0 cannot hold (the
// control characters but tab, newline and carriage return; a spec's value
// may print one) with U+FFFD: a CDATA section, unlike an attribute, is
// written as it is.
func (r *Report) sanitize() {
	for i := range r.Suites {
		for j := range r.Suites[i].Cases {
			c := &r.Suites[i].Cases[j]
			for _, o := range []*Outcome{c.Failure, c.Error, c.Skipped} {
				if o != nil {
					o.Text = strings.Map(xmlChar, o.Text)
				}
			}
		}
	}
}

// xmlChar is r if XML 1.0 allows it in a document, else U+FFFD.
func xmlChar(r rune) rune {
	switch {
	case r == '\t' || r == '\n' || r == '\r',
		r >= 0x20 && r <= 0xD7FF,
		r >= 0xE000 && r <= 0xFFFD,
		r >= 0x10000 && r <= 0x10FFFF:
		return r
	}
	return '\uFFFD'
}
