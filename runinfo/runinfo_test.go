package runinfo

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/ring"
)

// Every parameter survives the trip into a file and back: the defect of
// issue 17 was links, orientation, drift and bound lost on the way.
func TestParamsRoundTrip(t *testing.T) {
	for _, p := range []model.Params{
		{N: 3, IDs: []int{3, 1, 2}, Variant: "v"},
		{N: 5, IDs: []int{1, 5, 2, 4, 3}, Chan: model.Bag, Cap: 2, Variant: "e", Initiators: []int{0, 2}, Claims: true,
			Drift: 1, Duplex: model.FullDuplex, Orientation: []bool{false, true, true, false, true}, Bound: 2},
		{N: 2, IDs: []int{2, 1}, Variant: "w", Duplex: model.HalfDuplex},
		{N: 3, IDs: []int{3, 2, 1}, Variant: "k", Own: []model.Param{{Name: "a", Value: -1}, {Name: "k", Value: 4}}},
	} {
		var back Params
		data, _ := json.Marshal(ParamsOf(p))
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		got, err := back.Model(p.Variant)
		if err != nil || !reflect.DeepEqual(got, p) {
			t.Errorf("%+v came back as %+v (%v) from %s", p, got, err, data)
		}
	}
	for _, bad := range []Params{{N: 2, Chan: "lifo"}, {N: 2, Chan: "fifo", Links: "simplex"}, {N: 2, Chan: "fifo", Links: "half", Orientation: "012"}} {
		if _, err := bad.Model(""); err == nil {
			t.Errorf("%+v converted without error", bad)
		}
	}
}

// A spec's own parameters are recorded by name, in a field that files of
// specs without any leave out: a file written before they existed reads
// as a run without them.
func TestParamsOfSpecsOwn(t *testing.T) {
	data, _ := json.Marshal(ParamsOf(model.Params{N: 2, IDs: []int{2, 1}, Own: []model.Param{{Name: "k", Value: 4}, {Name: "m", Value: 0}}}))
	if !strings.Contains(string(data), `"param":{"k":4,"m":0}`) {
		t.Errorf("recorded as %s", data)
	}
	data, _ = json.Marshal(ParamsOf(model.Params{N: 2, IDs: []int{2, 1}}))
	if strings.Contains(string(data), "param") {
		t.Errorf("a spec without parameters recorded as %s", data)
	}
	var old Params
	if err := json.Unmarshal([]byte(`{"n":2,"ids":[2,1],"chan":"fifo","cap":0,"initiators":null,"claims":false,"links":"default","orientation":"","drift":0,"bound":0}`), &old); err != nil {
		t.Fatal(err)
	}
	if p, err := old.Model("v"); err != nil || p.Own != nil {
		t.Errorf("an older file's parameters: %+v, %v", p, err)
	}
}

// Differences names each option that differs, as the command line does.
func TestDifferencesNameTheOptions(t *testing.T) {
	was := Meaning{Spec: "misra", Variant: "signed", Params: ParamsOf(model.Params{N: 4, IDs: ring.DescendingIDs(4), Bound: 1}), Fair: "none"}
	is := was
	is.Fair, is.Safety, is.Params.Orientation = "action", true, "0110"
	var lines []string
	for _, d := range Differences(was, is) {
		lines = append(lines, d.Phrase("the checkpoint", "the command line"))
	}
	want := []string{
		"--orientation: the checkpoint has every assignment, the command line has 0110",
		"--fair: the checkpoint has none, the command line has action",
		"--safety: the checkpoint has off, the command line has on",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("differences:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	own := func(values map[string]int) Meaning {
		m := was
		m.Params.Param = values
		return m
	}
	lines = nil
	for _, d := range Differences(own(map[string]int{"k": 3, "m": 1}), own(map[string]int{"k": 4, "m": 1, "z": 2})) {
		lines = append(lines, d.Phrase("the checkpoint", "the command line"))
	}
	want = []string{"--param k: the checkpoint has 3, the command line has 4", "--param z: the checkpoint has none, the command line has 2"}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("differences in --param:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if d := Differences(own(map[string]int{"k": 3}), own(nil)); len(d) != 1 || d[0].Phrase("a", "b") != "--param k: a has 3, b has none" {
		t.Fatalf("a parameter only one side has: %v", d)
	}
	if s := (Setting{Option: ParamOption("k")}); s.Flag() != "param" || (Setting{Option: "--fair"}).Flag() != "fair" || (Setting{Option: "SPEC"}).Flag() != "" {
		t.Fatalf("flags of settings: %q", s.Flag())
	}
	if d := Differences(was, was); len(d) != 0 {
		t.Fatalf("a meaning differs from itself: %v", d)
	}
	if d := StoreDifference(MemoryStore, DiskStore); d == nil || d.Phrase("a", "b") != "--store: a has memory, b has disk" || StoreDifference(DiskStore, DiskStore) != nil {
		t.Fatalf("store difference %v", d)
	}
}

// A release build resumes the checkpoints of its revision; a development
// build only its own executable's.
func TestBuildSame(t *testing.T) {
	release := Build{Version: "0.1.0-dev+0123456789ab", Revision: "0123456789abcdef"}
	dev := Build{Version: "0.1.0-dev", Executable: "aaaa"}
	for _, c := range []struct {
		a, b Build
		same bool
	}{
		{release, release, true},
		{release, Build{Version: "0.1.0-dev+fedcba987654", Revision: "fedcba9876543210"}, false},
		{release, Build{Version: release.Version + ".dirty", Revision: release.Revision, Modified: true, Executable: "aaaa"}, false},
		{dev, dev, true},
		{dev, Build{Version: "0.1.0-dev", Executable: "bbbb"}, false},
		{Build{Version: "0.1.0-dev"}, Build{Version: "0.1.0-dev"}, false}, // no executable hash: nothing identifies it
	} {
		if got := c.a.Same(c.b); got != c.same {
			t.Errorf("%v.Same(%v) = %v", c.a, c.b, got)
		}
	}
	if this := ThisBuild(); this.Development() && this.Executable == "" {
		t.Errorf("this development build has no executable hash: %+v", this)
	}
}
