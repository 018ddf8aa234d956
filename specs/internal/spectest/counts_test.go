package spectest

import (
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// A row's cells become the parameters and run options they name, and a
// number left "-" is not pinned.
func TestCountRowReadsItsCells(t *testing.T) {
	r, err := parseCountRow(strings.Split("modified\t4\t1,3,2,4\tchan=bag cap=1 initiators=0,2 claims por safety fair=action links=full orientation=0110 drift=2 bound=3\t610\t-\t7\t3\tfail\tmc", "\t"))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Params
	if p.Variant != "modified" || p.N != 4 || !slices.Equal(p.IDs, []int{1, 3, 2, 4}) || p.Chan != model.Bag || p.Cap != 1 ||
		!slices.Equal(p.Initiators, []int{0, 2}) || !p.Claims || p.Duplex != model.FullDuplex || !slices.Equal(p.Orientation, []bool{false, true, true, false}) ||
		p.Drift != 2 || p.Bound != 3 {
		t.Errorf("params %+v", p)
	}
	if !r.Opt.Reduce || !r.Opt.Safety || r.Opt.Fair != model.FairAction {
		t.Errorf("options %+v", r.Opt)
	}
	if r.States != 610 || r.Transitions != -1 || r.Depth != 7 || r.Terminal != 3 || r.Verdict != checker.Fail || r.Source != "mc" {
		t.Errorf("row %+v", r)
	}
}

// A malformed row is refused, naming what is wrong, rather than read as
// a default: a misspelt option would otherwise pin another configuration.
func TestCountRowRefusesWhatItCannotRead(t *testing.T) {
	for _, c := range []struct{ row, want string }{
		{"-\t4\t3,1,4,2\tclaim\t75\t-\t-\t-\tpass\tmc", `unknown option "claim"`},
		{"-\t4\t3,1,4\t-\t75\t-\t-\t-\tpass\tmc", "3 ids for n=4"},
		{"-\t4\t3,1,4,2\t-\t75\t-\t-\t-\tpass\t-", "no source"},
		{"-\t4\t3,1,4,2\t-\t75\t-\t-\t-\tpassed\tmc", "verdict"},
		{"-\t4\t3,1,4,2\t-\t-\t-\t-\t-\tpass\tmc", "states"},
		{"-\t4\t3,1,4,2\t-\t75\t-\t-\tpass\tmc", "9 cells"},
		{"-\t4\t3,1,4,2\tcap\t75\t-\t-\t-\tpass\tmc", "cap needs a value"},
	} {
		if _, err := parseCountRow(strings.Split(c.row, "\t")); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.row, err, c.want)
		}
	}
}

// A row's check compares every pinned number and the verdict, and
// ignores those left unpinned.
func TestCountRowDiffers(t *testing.T) {
	row := CountRow{States: 75, Transitions: 191, Depth: -1, Terminal: -1, Verdict: checker.Pass}
	same := checker.Result{Verdict: checker.Pass, States: 75, Transitions: 191, Depth: 9, Terminal: 1}
	if d := row.differs(&same); d != "" {
		t.Errorf("equal counts differ: %s", d)
	}
	for _, r := range []checker.Result{
		{Verdict: checker.Fail, States: 75, Transitions: 191},
		{Verdict: checker.Pass, States: 76, Transitions: 191},
		{Verdict: checker.Pass, States: 75, Transitions: 190},
		{Verdict: checker.Pass, States: 75, Transitions: 191, Reduced: true},
	} {
		if row.differs(&r) == "" {
			t.Errorf("%+v passes for %+v", r, row)
		}
	}
}
