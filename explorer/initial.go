package explorer

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ringcheck/mc/model"
)

// A spec may start from many initial states: vlt without --orientation from
// one per orientation assignment, a self-stabilising ring from every
// configuration. The page lists them so that a person can start from any,
// and the list is paged and filtered here, so that the page never loads
// more than one page of them.
//
//	GET /api/initials?q=TEXT&offset=N&limit=M   a page of the initial states matching TEXT
//	GET /api/initial?index=K                    initial state K's id, to start from it

const (
	// defaultInitialsPage is how many initial states a page lists unless
	// the request says otherwise.
	defaultInitialsPage = 50
	// maxInitialsPage bounds what one request lists.
	maxInitialsPage = 500
)

// initialDiff is how an initial state reads to a person: the variables
// whose value differs from initial state 0's.
type initialDiff struct {
	// at are the positions, in initial state 0's variables, of those whose
	// value differs, and values their values here.
	at     []int
	values []string
	// whole marks a state whose variables are not those of initial state 0
	// (other names, or another number of them): values are then all of
	// its variables, named by names.
	whole bool
	names []string
}

// initialDiffs computes, once per session, how every initial state differs
// from initial state 0: what the filter searches. It runs under the
// server's lock, as everything that calls the spec does: a spec's Vars
// need not be safe to call concurrently.
func (se *session) initialDiffs() ([]model.Var, []initialDiff, error) {
	if se.diffs != nil {
		return se.base, se.diffs, nil
	}
	base, err := se.initialVars(0)
	if err != nil {
		return nil, nil, err
	}
	diffs := make([]initialDiff, len(se.initial))
	for k := 1; k < len(se.initial); k++ {
		vars, err := se.initialVars(k)
		if err != nil {
			return nil, nil, err
		}
		diffs[k] = diffFrom(base, vars)
	}
	se.base, se.diffs = base, diffs
	return base, diffs, nil
}

func (se *session) initialVars(k int) ([]model.Var, error) {
	if k >= len(se.initial) {
		return nil, nil
	}
	return se.target.Vars(se.initial[k])
}

// diffFrom is vars as it differs from base.
func diffFrom(base, vars []model.Var) initialDiff {
	var d initialDiff
	if len(vars) != len(base) {
		return whole(vars)
	}
	for i, v := range vars {
		if v.Name != base[i].Name {
			return whole(vars)
		}
		if v.Value != base[i].Value {
			d.at = append(d.at, i)
			d.values = append(d.values, v.Value)
		}
	}
	return d
}

func whole(vars []model.Var) initialDiff {
	d := initialDiff{whole: true}
	for _, v := range vars {
		d.names = append(d.names, v.Name)
		d.values = append(d.values, v.Value)
	}
	return d
}

// vars lists d's variables: those that differ from base, or all of them.
func (d *initialDiff) vars(base []model.Var) []model.Var {
	out := make([]model.Var, len(d.values))
	for j, v := range d.values {
		if d.whole {
			out[j] = model.Var{Name: d.names[j], Value: v}
		} else {
			out[j] = model.Var{Name: base[d.at[j]].Name, Value: v}
		}
	}
	return out
}

// initialFilter is a search over the initial states' variables: a state
// matches when each of its words, ignoring case, occurs in one of the
// state's variables written "name=value" (so "p1.dir=cw" or "ccw").
type initialFilter struct {
	words []string
	// inBase[w] marks which of initial state 0's variables contain word w.
	inBase [][]bool
}

func newInitialFilter(q string, base []model.Var) *initialFilter {
	f := &initialFilter{words: strings.Fields(strings.ToLower(q))}
	for _, w := range f.words {
		in := make([]bool, len(base))
		for i, v := range base {
			in[i] = varContains(v.Name, v.Value, w)
		}
		f.inBase = append(f.inBase, in)
	}
	return f
}

func varContains(name, value, word string) bool {
	return strings.Contains(strings.ToLower(name+"="+value), word)
}

// matches says whether the state that differs from base by d matches f.
func (f *initialFilter) matches(base []model.Var, d *initialDiff) bool {
	for w, word := range f.words {
		if !f.hasWord(w, word, base, d) {
			return false
		}
	}
	return true
}

func (f *initialFilter) hasWord(w int, word string, base []model.Var, d *initialDiff) bool {
	if d.whole {
		for j, v := range d.values {
			if varContains(d.names[j], v, word) {
				return true
			}
		}
		return false
	}
	j := 0
	for i, in := range f.inBase[w] {
		changed := j < len(d.at) && d.at[j] == i
		switch {
		case changed && varContains(base[i].Name, d.values[j], word):
			return true
		case !changed && in:
			return true
		}
		if changed {
			j++
		}
	}
	return false
}

type initialsJSON struct {
	// Total is how many initial states the spec has, Matched how many the
	// filter keeps; Items are those of Matched from Offset on, at most
	// Limit of them.
	Total   int           `json:"total"`
	Matched int           `json:"matched"`
	Offset  int           `json:"offset"`
	Limit   int           `json:"limit"`
	Items   []initialItem `json:"items"`
	// Base is initial state 0's variables, which the items' differ from.
	Base []model.Var `json:"base"`
}

type initialItem struct {
	Index int `json:"index"`
	// Differs lists the variables whose value is not initial state 0's;
	// all of them when Whole is set (the state's variables are not named
	// as initial state 0's are).
	Differs []model.Var `json:"differs"`
	Whole   bool        `json:"whole"`
}

func (s *Server) handleInitials(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	offset, err := queryInt(q, "offset", 0, 0)
	if err != nil {
		fail(w, err)
		return
	}
	limit, err := queryInt(q, "limit", defaultInitialsPage, 1)
	if err != nil {
		fail(w, err)
		return
	}
	if limit > maxInitialsPage {
		fail(w, &httpError{http.StatusBadRequest, fmt.Sprintf("limit %d: at most %d initial states a page", limit, maxInitialsPage)})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out, err := s.cur.initials(q.Get("q"), offset, limit)
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, out)
}

// initials lists the initial states matching filter, limit of them from
// the offset-th on. Without a filter it describes only those it lists.
func (se *session) initials(filter string, offset, limit int) (*initialsJSON, error) {
	out := &initialsJSON{Total: len(se.initial), Offset: offset, Limit: limit, Items: []initialItem{}}
	if strings.TrimSpace(filter) == "" {
		base, err := se.initialVars(0)
		if err != nil {
			return nil, err
		}
		out.Base, out.Matched = base, len(se.initial)
		for k := offset; k < len(se.initial) && len(out.Items) < limit; k++ {
			vars, err := se.initialVars(k)
			if err != nil {
				return nil, err
			}
			d := diffFrom(base, vars)
			out.Items = append(out.Items, initialItem{Index: k, Differs: d.vars(base), Whole: d.whole})
		}
		return out, nil
	}
	base, diffs, err := se.initialDiffs()
	if err != nil {
		return nil, err
	}
	out.Base = base
	f := newInitialFilter(filter, base)
	for k := range diffs {
		if !f.matches(base, &diffs[k]) {
			continue
		}
		if out.Matched >= offset && len(out.Items) < limit {
			out.Items = append(out.Items, initialItem{Index: k, Differs: diffs[k].vars(base), Whole: diffs[k].whole})
		}
		out.Matched++
	}
	return out, nil
}

type initialJSON struct {
	Index int    `json:"index"`
	ID    string `json:"id"`
}

func (s *Server) handleInitial(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.cur
	k, err := queryInt(r.URL.Query(), "index", -1, 0)
	switch {
	case err != nil:
	case k < 0:
		err = &httpError{http.StatusBadRequest, "missing index: which initial state to start from"}
	case k >= len(se.initial):
		err = &httpError{http.StatusBadRequest, fmt.Sprintf("no initial state %d: this spec has %d, numbered from 0", k, len(se.initial))}
	}
	if err == nil {
		var id string
		if id, err = se.register(se.initial[k]); err == nil {
			reply(w, initialJSON{Index: k, ID: id})
			return
		}
	}
	fail(w, err)
}

// queryInt reads the query parameter name, a whole number at least min,
// or def when it is absent.
func queryInt(q url.Values, name string, def, min int) (int, error) {
	if !q.Has(name) {
		return def, nil
	}
	text := q.Get(name)
	n, err := strconv.Atoi(text)
	if err != nil || n < min {
		if len(text) > 40 {
			text = text[:40] + "…"
		}
		return 0, &httpError{http.StatusBadRequest, fmt.Sprintf("%s %q: want a whole number, %d or more", name, text, min)}
	}
	return n, nil
}
