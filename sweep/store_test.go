package sweep

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"mc/runstore"
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

// ClassKey is the key a sweep saves a class under: a store that has swept
// a size holds the key of each of its classes, and not those of another.
func TestClassKeyFindsTheSavedClasses(t *testing.T) {
	store, err := runstore.Open(filepath.Join(t.TempDir(), "store"), runstore.Options{Holder: "sweep test", Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := config(t, "changroberts")
	cfg.Store = store
	row, err := Run(context.Background(), cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range row.PerClass {
		k, err := cfg.ClassKey(4, a.IDs)
		if err != nil {
			t.Fatal(err)
		}
		if has, err := store.Has(k); !has || err != nil {
			t.Errorf("class %v: Has %v %v", a.IDs, has, err)
		}
	}
	other := cfg
	other.Profile.Kinds = nil // counting every message is another computation
	for _, k := range []func() (runstore.Key, error){
		func() (runstore.Key, error) { return cfg.ClassKey(5, []int{1, 2, 3, 4, 5}) },
		func() (runstore.Key, error) { return other.ClassKey(4, row.PerClass[0].IDs) },
	} {
		key, err := k()
		if err != nil {
			t.Fatal(err)
		}
		if has, _ := store.Has(key); has {
			t.Errorf("the store holds %+v, which no sweep computed", key)
		}
	}
}
