package spectest

import (
	"slices"
	"testing"

	"github.com/ringcheck/mc/model"
)

// A suite's table renders each mutant's row, a survivor's with its
// reason, and tableIn finds it in a section; a section whose table lists
// another mutant, or none, does not match it: the check a suite's Run
// makes against MutantsDoc can fail.
func TestSuiteTableIsCheckedAgainstItsSection(t *testing.T) {
	su := Suite[int]{IDless: true, Chan: model.Bag, Mutants: []Mutant[int]{
		{Name: "guard dropped: x", Rule: "send", Params: model.Params{N: 3, Chan: model.Bag, Bound: 2, Claims: true}, Kills: []string{"a", "b"}},
		{Name: "relay dropped: y", Rule: "relay", Params: model.Params{N: 2, Chan: model.FIFO, Variant: "v"}, Survives: "equivalent"},
	}}
	want := []string{TableHeader, "|---|---|---|---|",
		"| guard dropped: x | send | n = 3, bound 2 | a, b |",
		"| relay dropped: y | relay | n = 2, fifo channels, variant v, claims off | none: equivalent |"}
	if got := su.Table(); !slices.Equal(got, want) {
		t.Fatalf("table:\n%q\nwant\n%q", got, want)
	}
	if got, want := su.Score(4), "Score: 1 of 2 mutants killed; 4 of the 4 properties fail on some mutant."; got != want {
		t.Errorf("score %q, want %q", got, want)
	}
	section := append([]string{"prose", ""}, append(want, "", "more prose")...)
	if !slices.Equal(tableIn(section), want) {
		t.Errorf("tableIn does not find the table in %q", section)
	}
	stale := slices.Clone(section)
	stale[4] = "| guard dropped: x | send | n = 3, bound 2 | a |"
	if slices.Equal(tableIn(stale), want) {
		t.Error("a row that lists other properties matches")
	}
	if tableIn([]string{"prose"}) != nil {
		t.Error("a section without a table has one")
	}
}

// Every section a suite names is in MutantsDoc, and a heading that is not
// there is refused.
func TestReadSection(t *testing.T) {
	lines, err := readSection("changroberts (002 §5.2), claims on")
	if err != nil || tableIn(lines) == nil {
		t.Fatalf("changroberts' section: %v, table %v", err, tableIn(lines))
	}
	if _, err := readSection("nosuch"); err == nil {
		t.Error("a missing section was found")
	}
}
