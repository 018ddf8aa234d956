package spectest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// CountsFile is where a spec package pins its state counts, once, as data
// (issue 34, "state counts are pinned once"): one row per configuration,
// tab-separated, with the columns of countColumns. docs/testing.md says how
// to add a row.
const CountsFile = "testdata/counts.tsv"

// ShortCountLimit is the most states a row may pin and still be explored
// under go test -short; larger rows run in the full tests only.
const ShortCountLimit = 100000

// countColumns names the table's columns, in order; the table's header
// line must repeat them.
var countColumns = []string{"variant", "n", "ids", "options", "states", "transitions", "depth", "terminal", "verdict", "source"}

// unpinned in a numeric column, or an empty one, says the row does not pin
// that number; in variant, ids and options it means the spec's default.
const unpinned = "-"

// CountRow is one row of a spec's counts table: a configuration and what a
// full exploration of it must give.
type CountRow struct {
	// Line is the row's line in the file, for messages.
	Line   int
	Params model.Params
	// Opt is the run's options (fairness, --por, --safety): the options
	// column's run options; the others set Params.
	Opt checker.Options
	// Options is the options column as written.
	Options string
	States  int64
	// Transitions, Depth and Terminal are −1 when the row does not pin
	// them.
	Transitions, Depth, Terminal int64
	Verdict                      checker.Verdict
	// Source says where the count comes from: another checker (SPIN, TLC),
	// an independent explorer, a formula, or "mc" alone.
	Source string
}

// String names the row's configuration, as a message's prefix.
func (r CountRow) String() string {
	return fmt.Sprintf("%s:%d (%s n=%d ids %v %s)", CountsFile, r.Line, r.Params.Variant, r.Params.N, r.Params.IDs, r.Options)
}

// CountRows reads the counts table of the package under test; a missing or
// malformed table fails the test.
func CountRows(t testing.TB) []CountRow {
	t.Helper()
	f, err := os.Open(CountsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []CountRow
	sc := bufio.NewScanner(f)
	header := false
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cells := strings.Split(text, "\t")
		if !header {
			if strings.Join(cells, "\t") != strings.Join(countColumns, "\t") {
				t.Fatalf("%s:%d: header %q, want the columns %s", CountsFile, line, text, strings.Join(countColumns, ", "))
			}
			header = true
			continue
		}
		row, err := parseCountRow(cells)
		if err != nil {
			t.Fatalf("%s:%d: %v", CountsFile, line, err)
		}
		row.Line = line
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s holds no row", CountsFile)
	}
	return rows
}

func parseCountRow(cells []string) (CountRow, error) {
	if len(cells) != len(countColumns) {
		return CountRow{}, fmt.Errorf("%d cells, want %d (%s)", len(cells), len(countColumns), strings.Join(countColumns, ", "))
	}
	cell := map[string]string{}
	for i, c := range countColumns {
		cell[c] = strings.TrimSpace(cells[i])
	}
	var r CountRow
	var err error
	if v := cell["variant"]; v != unpinned {
		r.Params.Variant = v
	}
	if r.Params.N, err = strconv.Atoi(cell["n"]); err != nil {
		return r, fmt.Errorf("n: %v", err)
	}
	if ids := cell["ids"]; ids != unpinned {
		for _, s := range strings.Split(ids, ",") {
			id, err := strconv.Atoi(s)
			if err != nil {
				return r, fmt.Errorf("ids: %v", err)
			}
			r.Params.IDs = append(r.Params.IDs, id)
		}
		if len(r.Params.IDs) != r.Params.N {
			return r, fmt.Errorf("%d ids for n=%d", len(r.Params.IDs), r.Params.N)
		}
	}
	r.Options = cell["options"]
	if r.Options != unpinned {
		for _, o := range strings.Fields(r.Options) {
			if err := r.setOption(o); err != nil {
				return r, fmt.Errorf("options: %v", err)
			}
		}
	}
	if r.States, err = strconv.ParseInt(cell["states"], 10, 64); err != nil {
		return r, fmt.Errorf("states: %v", err)
	}
	for _, c := range []struct {
		name string
		to   *int64
	}{{"transitions", &r.Transitions}, {"depth", &r.Depth}, {"terminal", &r.Terminal}} {
		*c.to = -1
		if v := cell[c.name]; v != unpinned && v != "" {
			if *c.to, err = strconv.ParseInt(v, 10, 64); err != nil {
				return r, fmt.Errorf("%s: %v", c.name, err)
			}
		}
	}
	switch v := checker.Verdict(cell["verdict"]); v {
	case checker.Pass, checker.Fail:
		r.Verdict = v
	default:
		return r, fmt.Errorf("verdict %q, want pass or fail", v)
	}
	if r.Source = cell["source"]; r.Source == "" || r.Source == unpinned {
		return r, fmt.Errorf("no source: say where the count comes from (mc when nothing else reproduced it)")
	}
	return r, nil
}

// setOption reads one option of the options column: a model parameter
// (claims, chan=, cap=, initiators=, drift=, bound=, links=, orientation=)
// or a run option (fair=, por, safety).
func (r *CountRow) setOption(o string) error {
	key, value, hasValue := strings.Cut(o, "=")
	number := func() (int, error) {
		if !hasValue {
			return 0, fmt.Errorf("%s needs a value", key)
		}
		return strconv.Atoi(value)
	}
	var err error
	p := &r.Params
	switch key {
	case "claims":
		p.Claims = true
	case "por":
		r.Opt.Reduce = true
	case "safety":
		r.Opt.Safety = true
	case "chan":
		p.Chan, err = model.ParseChanKind(value)
	case "links":
		p.Duplex, err = model.ParseDuplex(value)
	case "orientation":
		p.Orientation, err = model.ParseOrientation(value, p.N)
	case "fair":
		r.Opt.Fair, err = model.ParseFairness(value)
	case "cap":
		p.Cap, err = number()
	case "drift":
		p.Drift, err = number()
	case "bound":
		p.Bound, err = number()
	case "initiators":
		for _, s := range strings.Split(value, ",") {
			q, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("initiators: %v", err)
			}
			p.Initiators = append(p.Initiators, q)
		}
	default:
		return fmt.Errorf("unknown option %q", o)
	}
	return err
}

// CheckCounts explores each row's configuration, built with build and
// with the extra properties added (which must hold: a witness that makes a
// row's run meaningful, say), checking every property to the end, and
// fails the test unless it gives the row's verdict and every number the
// row pins. Under -short it skips the rows of more than ShortCountLimit
// states. Each row is a subtest (name). It returns the results of the
// rows it explored, by index in rows, for the caller's further checks.
func CheckCounts[S any](t *testing.T, build func(model.Params) (*model.System[S], error), rows []CountRow, extra ...model.Property[S]) map[int]checker.Result {
	t.Helper()
	out := map[int]checker.Result{}
	for i, row := range rows {
		if testing.Short() && row.States > ShortCountLimit {
			continue
		}
		t.Run(row.name(), func(t *testing.T) {
			sys := Build(t, build, row.Params)
			sys.Props = append(sys.Props, extra...)
			r := Run(t, sys, row.Opt)
			out[i] = r
			if got := row.differs(&r); got != "" {
				t.Errorf("%s: %s", row, got)
			}
		})
	}
	return out
}

// name is the row's subtest's name: its line and configuration, so that
// -run can pick one row (go test -run 'TestStateCounts/line12').
func (r CountRow) name() string {
	opts := r.Options
	if opts == unpinned {
		opts = ""
	}
	return strings.Join(strings.Fields(fmt.Sprintf("line%d %s n=%d ids=%s %s", r.Line, r.Params.Variant, r.Params.N, idList(r.Params.IDs), opts)), "_")
}

func idList(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ",")
}

// differs says how r differs from what the row pins, or "".
func (row CountRow) differs(r *checker.Result) string {
	pinned := func(want, got int64) bool { return want < 0 || want == got }
	if r.Verdict == row.Verdict && r.States == row.States && pinned(row.Transitions, r.Transitions) &&
		pinned(row.Depth, int64(r.Depth)) && pinned(row.Terminal, r.Terminal) && r.Reduced == row.Opt.Reduce {
		return ""
	}
	show := func(v int64) string {
		if v < 0 {
			return unpinned
		}
		return strconv.FormatInt(v, 10)
	}
	return fmt.Sprintf("%s, reduced %v, %d states %d transitions depth %d, %d terminal; the table pins %s, %d %s %s, %s",
		r.Verdict, r.Reduced, r.States, r.Transitions, r.Depth, r.Terminal,
		row.Verdict, row.States, show(row.Transitions), show(row.Depth), show(row.Terminal))
}

// PinnedCounts checks every row of the package's counts table
// (CheckCounts on CountRows).
func PinnedCounts[S any](t *testing.T, build func(model.Params) (*model.System[S], error), extra ...model.Property[S]) map[int]checker.Result {
	t.Helper()
	return CheckCounts(t, build, CountRows(t), extra...)
}
