package spectest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// MutantsDoc is the file, from the module's root, that lists every
// mutation suite: a suite fails when its section there does not show
// exactly its mutants, so the page cannot go stale.
const MutantsDoc = "docs/mutants.md"

// TableHeader heads the table of a suite's mutants in MutantsDoc.
const TableHeader = "| mutant | rule | ring | properties that fail |"

// Suite is a spec's mutation suite: its mutants, run by Kill, and the
// section of MutantsDoc that lists them.
type Suite[S any] struct {
	// Section is the heading of the suite's section in MutantsDoc, without
	// the "## ".
	Section string
	// Build builds the spec's system (the spec's New).
	Build func(model.Params) (*model.System[S], error)
	// Options are what every mutant is explored within (Kill).
	Options checker.Options
	// IDless: the spec never reads the ids, so the ring column gives n.
	IDless bool
	// Chan are the channels of the section's title; the ring column names
	// a mutant's that differ.
	Chan model.ChanKind
	// Unkilled are the properties that no mutant of the suite fails, each
	// killed by another test that the section names.
	Unkilled []string
	Mutants  []Mutant[S]
}

// Run kills the suite's mutants (Kill), requires that exactly Unkilled
// survive among the properties, and that MutantsDoc's section Section
// holds the suite's table and score line as Table and Score render them.
func (su Suite[S]) Run(t *testing.T) {
	t.Helper()
	survivors, all := kill(t, su.Build, su.Options, su.Mutants)
	if !slices.Equal(survivors, su.Unkilled) {
		t.Errorf("properties no mutant kills: %v, want %v (%s)", survivors, su.Unkilled, MutantsDoc)
	}
	section, err := readSection(su.Section)
	if err != nil {
		t.Fatal(err)
	}
	score := su.Score(len(all))
	if !slices.Contains(section, score) {
		t.Errorf("%s, section %q: no line %q", MutantsDoc, su.Section, score)
	}
	want := su.Table()
	if got := tableIn(section); !slices.Equal(got, want) {
		t.Errorf("%s, section %q: its table is not the suite's; it should read:\n%s", MutantsDoc, su.Section, strings.Join(want, "\n"))
	}
}

// Score is the suite's score line, for a spec of props properties: the
// mutants killed, then the properties some mutant fails.
func (su Suite[S]) Score(props int) string {
	killed := 0
	for _, m := range su.Mutants {
		if len(m.Kills) > 0 {
			killed++
		}
	}
	return fmt.Sprintf("Score: %d of %d mutants killed; %d of the %d properties fail on some mutant.",
		killed, len(su.Mutants), props-len(su.Unkilled), props)
}

// Table is the suite's table in MutantsDoc: its header, the rule under
// it, and a row per mutant in the suite's order.
func (su Suite[S]) Table() []string {
	rows := []string{TableHeader, "|---|---|---|---|"}
	for _, m := range su.Mutants {
		kills := "none: " + m.Survives
		if len(m.Kills) > 0 {
			kills = strings.Join(m.Kills, ", ")
		}
		ring := su.ring(m.Params)
		if m.Fair != nil {
			ring += ", fairness " + m.Fair.String()
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", m.Name, m.Rule, ring, kills))
	}
	return rows
}

// ring is the ring column: the ids (n when the spec reads none) and every
// parameter the mutant sets apart from the claims, which are on unless it
// says so.
func (su Suite[S]) ring(p model.Params) string {
	var parts []string
	if su.IDless {
		parts = append(parts, "n = "+strconv.Itoa(p.N))
	} else {
		parts = append(parts, joinInts(p.IDs))
	}
	if p.Chan != su.Chan {
		parts = append(parts, p.Chan.String()+" channels")
	}
	if p.Variant != "" {
		parts = append(parts, "variant "+p.Variant)
	}
	if p.Drift != 0 {
		parts = append(parts, "drift "+strconv.Itoa(p.Drift))
	}
	if p.Bound != 0 {
		parts = append(parts, "bound "+strconv.Itoa(p.Bound))
	}
	if p.Initiators != nil {
		var ps []string
		for _, i := range p.Initiators {
			ps = append(ps, "p"+strconv.Itoa(i))
		}
		parts = append(parts, "initiators "+strings.Join(ps, " "))
	}
	if !p.Claims {
		parts = append(parts, "claims off")
	}
	return strings.Join(parts, ", ")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// readSection is the lines of MutantsDoc's section headed "## "+heading,
// up to the next heading of its level.
func readSection(heading string) ([]string, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(MutantsDoc)))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, "## "+heading)
	if start < 0 {
		return nil, fmt.Errorf("%s has no section %q", MutantsDoc, "## "+heading)
	}
	end := start + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "## ") {
		end++
	}
	return lines[start+1 : end], nil
}

// tableIn is the first table in section headed TableHeader, header
// included.
func tableIn(section []string) []string {
	start := slices.Index(section, TableHeader)
	if start < 0 {
		return nil
	}
	end := start
	for end < len(section) && strings.HasPrefix(section[end], "|") {
		end++
	}
	return section[start:end]
}

// moduleRoot is the nearest directory above the working directory (a
// package's, under go test) that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}
