package explorer

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/tracefile"
)

// vltFree is vlt on a ring of 3 without --orientation: 8 initial states,
// initial state k with orientation k in binary (000 … 111), all else
// alike.
func vltFree(t testing.TB) checker.Target {
	t.Helper()
	e, err := specs.Lookup("vlt")
	if err != nil {
		t.Fatal(err)
	}
	target, err := e.Build(model.Params{N: 3, IDs: e.IDs(3)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(target.Initial()); n != 8 {
		t.Fatalf("vlt n=3 without --orientation has %d initial states, want 8", n)
	}
	return target
}

// indices lists the indices of a page of initial states.
func indices(page initialsJSON) []int {
	out := []int{}
	for _, it := range page.Items {
		out = append(out, it.Index)
	}
	return out
}

func TestInitialStatesAreListedFilteredAndPaged(t *testing.T) {
	srv := httptest.NewServer(LocalOnly(New(vltFree(t)).Handler()))
	defer srv.Close()
	var s sessionJSON
	if code := get(t, srv.URL+"/api/session", &s); code != http.StatusOK || s.Initials != 8 || s.Initial == "" {
		t.Fatalf("session: %d, %d initial states, initial state 0 %q", code, s.Initials, s.Initial)
	}
	var all initialsJSON
	if code := get(t, srv.URL+"/api/initials", &all); code != http.StatusOK {
		t.Fatalf("GET /api/initials: %d", code)
	}
	if all.Total != 8 || all.Matched != 8 || !reflect.DeepEqual(indices(all), []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("the list: total %d, matched %d, items %v", all.Total, all.Matched, indices(all))
	}
	// Each is summed up by what differs from initial state 0: here its
	// orientation, and nothing for initial state 0 itself.
	if len(all.Items[0].Differs) != 0 || !reflect.DeepEqual(all.Items[5].Differs, []model.Var{{Name: "orientation", Value: "101"}}) {
		t.Fatalf("summaries: #0 %v, #5 %v", all.Items[0].Differs, all.Items[5].Differs)
	}
	for q, want := range map[string][]int{
		"orientation=1":          {4, 5, 6, 7}, // a variable that differs
		"ORIENTATION=01":         {2, 3},       // case ignored
		"01":                     {1, 2, 3, 5}, // anywhere in name=value
		"orientation=000":        {0},          // initial state 0's own value
		"p1.ID=3 orientation=11": {6, 7},       // every word, one unchanged variable
		"p1.ID=2":                {},
		"  ":                     {0, 1, 2, 3, 4, 5, 6, 7},
	} {
		var page initialsJSON
		if code := get(t, srv.URL+"/api/initials?q="+strings.ReplaceAll(q, " ", "+"), &page); code != http.StatusOK {
			t.Fatalf("filter %q: %d", q, code)
		}
		if got := indices(page); page.Total != 8 || page.Matched != len(want) || !reflect.DeepEqual(got, want) {
			t.Errorf("filter %q: %d matched of %d, items %v; want %v", q, page.Matched, page.Total, got, want)
		}
	}
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"offset=3&limit=3", []int{3, 4, 5}},
		{"offset=6&limit=3", []int{6, 7}},
		{"offset=9&limit=3", []int{}},
		{"q=orientation%3D1&offset=1&limit=2", []int{5, 6}},
	} {
		var page initialsJSON
		get(t, srv.URL+"/api/initials?"+c.query, &page)
		if got := indices(page); !reflect.DeepEqual(got, c.want) || page.Limit != 3 && page.Limit != 2 {
			t.Errorf("%s: items %v (limit %d), want %v", c.query, got, page.Limit, c.want)
		}
	}
}

func TestAnInitialStateIsChosenByIndex(t *testing.T) {
	srv := httptest.NewServer(LocalOnly(New(vltFree(t)).Handler()))
	defer srv.Close()
	var s sessionJSON
	get(t, srv.URL+"/api/session", &s)
	var zero, five initialJSON
	get(t, srv.URL+"/api/initial?index=0", &zero)
	if code := get(t, srv.URL+"/api/initial?index=5", &five); code != http.StatusOK || five.Index != 5 || five.ID == s.Initial {
		t.Fatalf("initial state 5: %d %+v", code, five)
	}
	if zero.ID != s.Initial {
		t.Fatalf("initial state 0 is %q by index, %q in the session", zero.ID, s.Initial)
	}
	var st stateJSON
	if code := get(t, srv.URL+"/api/state?id="+five.ID, &st); code != http.StatusOK || varValue(st.Vars, "orientation") != "101" || len(st.Moves) == 0 {
		t.Fatalf("initial state 5: %d, orientation %q, %d moves", code, varValue(st.Vars, "orientation"), len(st.Moves))
	}
	for _, c := range []struct{ query, why string }{
		{"index=8", "no initial state 8: this spec has 8, numbered from 0"},
		{"index=-1", `index "-1": want a whole number, 0 or more`},
		{"index=two", `index "two": want a whole number, 0 or more`},
		{"index=", `index "": want a whole number, 0 or more`},
		{"", "missing index: which initial state to start from"},
	} {
		resp, msg := request(t, srv, "GET", "/api/initial?"+c.query, nil, nil)
		if resp.StatusCode != http.StatusBadRequest || msg != c.why+"\n" {
			t.Errorf("GET /api/initial?%s: %d %q, want 400 %q", c.query, resp.StatusCode, msg, c.why)
		}
	}
	for _, query := range []string{"offset=-1", "limit=0", "limit=501", "offset=x"} {
		resp, msg := request(t, srv, "GET", "/api/initials?"+query, nil, nil)
		if resp.StatusCode != http.StatusBadRequest || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, strings.Split(query, "=")[0]) {
			t.Errorf("GET /api/initials?%s: %d %q, want 400 with one line", query, resp.StatusCode, msg)
		}
	}
	// The new endpoints answer only the explorer's own page.
	for _, path := range []string{"/api/initials", "/api/initial?index=1"} {
		for _, h := range []map[string]string{{"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://attacker.example"}} {
			if resp, _ := request(t, srv, "GET", path, nil, h); resp.StatusCode != http.StatusForbidden {
				t.Errorf("GET %s with %v: %d, want 403", path, h, resp.StatusCode)
			}
		}
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Host = "attacker.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s for host attacker.example: %d, want 403", path, resp.StatusCode)
		}
	}
}

func varValue(vars []model.Var, name string) string {
	for _, v := range vars {
		if v.Name == name {
			return v.Value
		}
	}
	return ""
}

// witnessFrom is a trace file of vlt's leader-elected witness whose run
// starts from initial state k: the first enabled action, taken until a
// leader is elected.
func witnessFrom(t testing.TB, target checker.Target, k int) *tracefile.File {
	t.Helper()
	r := target.Check(context.Background(), checker.Options{Continue: true})
	var pr *checker.PropResult
	for i := range r.Props {
		if r.Props[i].Name == "leader-elected" {
			pr = &r.Props[i]
		}
	}
	if pr == nil || pr.Verdict != checker.Pass {
		t.Fatalf("vlt has no witness leader-elected: %+v", pr)
	}
	run := &checker.Trace{Property: pr.Name, Kind: pr.Kind.String(), Init: k}
	cur := target.Initial()[k]
	for elected := false; !elected; {
		moves, err := target.Moves(cur)
		if err != nil || len(moves) == 0 {
			t.Fatalf("from initial state %d: no leader after %d steps (%v)", k, len(run.Steps), err)
		}
		run.Steps = append(run.Steps, checker.Step{Action: moves[0].Action})
		cur = moves[0].To
		snap, err := target.Inspect(cur)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range snap.Props {
			elected = elected || p.Name == pr.Name && p.Holds
		}
	}
	own := *pr
	own.Trace = run
	f, err := tracefile.Build(target, r.Meaning, &own, "test")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A trace that starts from initial state k opens from initial state k: the
// session's trace says so, and its first state is the one index k names.
func TestATraceFromAnotherInitialStateStartsThere(t *testing.T) {
	target := vltFree(t)
	f := witnessFrom(t, target, 6)
	if out := tracefile.Replay(f, target); !out.Reached {
		t.Fatalf("the witness from initial state 6 does not replay: %s", out.Why)
	}
	srv := New(target)
	if err := srv.LoadTrace(f); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	defer web.Close()
	var s sessionJSON
	get(t, web.URL+"/api/session", &s)
	var six initialJSON
	get(t, web.URL+"/api/initial?index=6", &six)
	if s.Trace == nil || s.Trace.Init != 6 || s.Trace.Start != six.ID || !s.Trace.Replay.Reached || len(s.Trace.Steps) != len(f.Steps) {
		t.Fatalf("the trace from initial state 6: %+v (initial state 6 is %s)", s.Trace, six.ID)
	}
	// Recorded from initial state 0, the same actions are another run.
	f.Init = 0
	if out := tracefile.Replay(f, target); out.Reached || out.Step != 0 {
		t.Fatalf("the run from initial state 6 replays from initial state 0: %+v", out)
	}
}

// A state whose variables are not named as initial state 0's is listed
// with all of them, and the filter searches them.
func TestAnInitialStateWithOtherVariablesIsListedWhole(t *testing.T) {
	base := []model.Var{{Name: "x", Value: "0"}, {Name: "y", Value: "0"}}
	for _, c := range []struct {
		vars  []model.Var
		whole bool
		q     string
		match bool
	}{
		{[]model.Var{{Name: "x", Value: "0"}, {Name: "y", Value: "1"}}, false, "y=1", true},
		{[]model.Var{{Name: "x", Value: "0"}, {Name: "y", Value: "1"}}, false, "y=0", false},
		{[]model.Var{{Name: "x", Value: "0"}, {Name: "y", Value: "1"}}, false, "x=0 y=1", true},
		{[]model.Var{{Name: "x", Value: "0"}}, true, "y=0", false},
		{[]model.Var{{Name: "x", Value: "0"}, {Name: "z", Value: "0"}}, true, "z=0 x", true},
	} {
		d := diffFrom(base, c.vars)
		if d.whole != c.whole {
			t.Errorf("%v: whole %v, want %v", c.vars, d.whole, c.whole)
		}
		if got := d.vars(base); c.whole && !reflect.DeepEqual(got, c.vars) {
			t.Errorf("%v listed as %v", c.vars, got)
		}
		if got := newInitialFilter(c.q, base).matches(base, &d); got != c.match {
			t.Errorf("%v: filter %q matches %v, want %v", c.vars, c.q, got, c.match)
		}
	}
}

// The listing is bounded by its page, however many initial states there
// are: vlt at n = 12 has 2^12 orientation assignments.
func TestAPageOfManyInitialStatesIsOnePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4096 initial states")
	}
	e, err := specs.Lookup("vlt")
	if err != nil {
		t.Fatal(err)
	}
	target, err := e.Build(model.Params{N: 12, IDs: e.IDs(12)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(target).Handler())
	defer srv.Close()
	var page initialsJSON
	get(t, srv.URL+"/api/initials", &page)
	if page.Total != len(target.Initial()) || len(page.Items) != defaultInitialsPage {
		t.Fatalf("%d initial states listed as %d items", page.Total, len(page.Items))
	}
	last := fmt.Sprintf("%012b", page.Total-1)
	get(t, srv.URL+"/api/initials?q=orientation%3D"+last, &page)
	if page.Matched != 1 || page.Items[0].Index != page.Total-1 {
		t.Fatalf("orientation %s: %+v", last, page)
	}
}
