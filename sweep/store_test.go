package sweep

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ringcheck/mc/ring"
	"github.com/ringcheck/mc/runstore"
)

// A row is the same whether its classes were computed or taken from the
// store: its JSON byte for byte, and its witness runs with the actions
// that replay them. The profiles cover counted kinds, phases, a measure
// with bits, and a cycle.
func TestReusedRowIsTheComputedRow(t *testing.T) {
	store, err := runstore.Open(filepath.Join(t.TempDir(), "store"), runstore.Options{Holder: "sweep test", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cycles := 0
	for _, c := range []struct {
		profile string
		n       int
	}{{"changroberts", 5}, {"hp", 4}, {"vitanyi", 3}, {"hp-witness-literal", 5}} {
		plain := config(t, c.profile)
		stored := plain
		stored.Store = store
		want, err := Run(context.Background(), plain, c.n)
		if err != nil {
			t.Fatal(err)
		}
		cycles += want.Cycles
		for round, wantReused := range []int{0, want.Classes} {
			got, err := Run(context.Background(), stored, c.n)
			if err != nil {
				t.Fatalf("%s round %d: %v", c.profile, round, err)
			}
			if got.Reused != wantReused {
				t.Errorf("%s round %d: %d of %d classes reused, want %d", c.profile, round, got.Reused, got.Classes, wantReused)
			}
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(got)
			if string(a) != string(b) {
				t.Errorf("%s round %d: the row differs\n%s\n%s", c.profile, round, a, b)
			}
			for i := range want.PerClass {
				w, g := want.PerClass[i], got.PerClass[i]
				if !reflect.DeepEqual(w.MinRun, g.MinRun) || !reflect.DeepEqual(w.MaxRun, g.MaxRun) {
					t.Errorf("%s round %d: class %v's witness runs differ", c.profile, round, w.IDs)
				}
			}
		}
		fresh := stored
		fresh.Fresh = true
		if got, err := Run(context.Background(), fresh, c.n); err != nil || got.Reused != 0 {
			t.Errorf("%s fresh: %d reused, %v", c.profile, got.Reused, err)
		}
	}
	if cycles == 0 {
		t.Fatal("no profile had a class with a cycle")
	}
}

// Stored finds the classes a sweep saved, and none of another size or
// counting; what Keep saves, a sweep then reuses: the two are what Class
// does with the store, split around mc-beam sweep's pipeline.
func TestStoredAndKeepAreClasssStore(t *testing.T) {
	open := func() *runstore.Store {
		s, err := runstore.Open(filepath.Join(t.TempDir(), "store"), runstore.Options{Holder: "sweep test", Create: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	cfg := config(t, "changroberts")
	cfg.Store = open()
	row, err := Run(context.Background(), cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	classes, err := cfg.Classes(4)
	if err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Profile.Kinds = nil // counting every message is another computation
	fresh := cfg
	fresh.Fresh = true
	for i, cl := range classes {
		a, found, err := cfg.Stored(4, cl)
		if err != nil || !found {
			t.Fatalf("class %v: found %v, %v", cl.Rep, found, err)
		}
		got, _ := MarshalClass(a)
		want, _ := MarshalClass(row.PerClass[i])
		if string(got) != string(want) {
			t.Errorf("class %v: stored %s, computed %s", cl.Rep, got, want)
		}
		for name, c := range map[string]Config{"counting every message": other, "--fresh": fresh} {
			if _, found, err := c.Stored(4, cl); found || err != nil {
				t.Errorf("class %v %s: found %v, %v", cl.Rep, name, found, err)
			}
		}
	}
	if _, found, err := cfg.Stored(5, ring.ArrangementClass{Rep: []int{1, 2, 3, 4, 5}, Size: 1}); found || err != nil {
		t.Errorf("n=5, which no sweep computed: found %v, %v", found, err)
	}
	kept := cfg
	kept.Store = open()
	for _, a := range row.PerClass {
		if err := kept.Keep(4, a); err != nil {
			t.Fatal(err)
		}
	}
	again, err := Run(context.Background(), kept, 4)
	if err != nil || again.Reused != len(classes) {
		t.Fatalf("a sweep after Keep: %d of %d classes reused, %v", again.Reused, len(classes), err)
	}
	got, _ := json.Marshal(again)
	want, _ := json.Marshal(row)
	if string(got) != string(want) {
		t.Errorf("the row from kept classes differs:\n%s\nwant:\n%s", got, want)
	}
}
