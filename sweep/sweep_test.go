package sweep

import (
	"context"
	"math/big"
	"os"
	"testing"

	"mc/specs"
)

func config(t *testing.T, name string) Config {
	t.Helper()
	prof := Profiles[name]
	e, err := specs.Lookup(prof.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Entry: e, Profile: prof, Variant: prof.Variant, Drift: prof.Drift}
}

// harmonic is n·H_n, exactly.
func harmonic(n int) *big.Rat {
	h := new(big.Rat)
	for k := 1; k <= n; k++ {
		h.Add(h, big.NewRat(1, int64(k)))
	}
	return h.Mul(h, big.NewRat(int64(n), 1))
}

// maxN is 6 in the suite and 7 with MC_LONG=1 (n=7 takes about 20 s).
func maxN() int {
	if os.Getenv("MC_LONG") != "" {
		return 7
	}
	return 6
}

// Chang and Roberts, all initiating: each ⟨elect j⟩ travels to the first
// larger id, whatever the schedule. The worst case n(n+1)/2 is reached by
// the descending arrangement, and the mean over all n! arrangements is
// n·H_n (002 §5.2).
func TestChangRobertsAllInitiate(t *testing.T) {
	cfg := config(t, "changroberts-all-initiate")
	for n := 3; n <= maxN(); n++ {
		row, err := Run(context.Background(), cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		if row.Worst != n*(n+1)/2 {
			t.Errorf("n=%d: worst %d, want n(n+1)/2 = %d", n, row.Worst, n*(n+1)/2)
		}
		if !descending(row.WorstIDs) {
			t.Errorf("n=%d: worst reached by %v, not the descending arrangement", n, row.WorstIDs)
		}
		if row.ScheduleDependent != 0 {
			t.Errorf("n=%d: %d classes have best ≠ worst; the count must depend on the arrangement only", n, row.ScheduleDependent)
		}
		if mean, want := row.Mean(false), harmonic(n); mean.Cmp(want) != 0 {
			t.Errorf("n=%d: mean %s, want n·H_n = %s", n, mean.RatString(), want.RatString())
		}
		if row.Arrangements != factorial(n) || row.Classes != factorial(n-1) {
			t.Errorf("n=%d: %d arrangements in %d classes, want %d in %d", n, row.Arrangements, row.Classes, factorial(n), factorial(n-1))
		}
	}
}

// In the canonical model a process may forward a larger id before it
// starts, so the count depends on the schedule in every arrangement; the
// worst case is still n(n+1)/2, and the best is n (the maximum starts
// first and every other process only forwards it).
func TestChangRobertsCanonicalDependsOnSchedule(t *testing.T) {
	cfg := config(t, "changroberts")
	for n := 3; n <= 5; n++ {
		row, err := Run(context.Background(), cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		if row.Worst != n*(n+1)/2 || row.Best != n {
			t.Errorf("n=%d: worst %d, best %d, want %d and %d", n, row.Worst, row.Best, n*(n+1)/2, n)
		}
		if row.ScheduleDependent != row.Classes {
			t.Errorf("n=%d: %d of %d classes depend on the schedule, want all", n, row.ScheduleDependent, row.Classes)
		}
	}
}

// --ids sweeps one arrangement: the descending ring of 4, all initiating,
// sends 10 ⟨elect⟩ in every run.
func TestOneArrangement(t *testing.T) {
	cfg := config(t, "changroberts-all-initiate")
	cfg.IDs = []int{4, 3, 2, 1}
	row, err := Run(context.Background(), cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	if row.Classes != 1 || row.Worst != 10 || row.Best != 10 {
		t.Fatalf("row = %+v, want one class with best = worst = 10", row)
	}
	if got := len(row.WorstRun().Steps); got == 0 {
		t.Error("no witness run")
	}
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

// descending reports whether ids (a rotation of 1..n) decrease by one along
// the ring from n.
func descending(ids []int) bool {
	for i, id := range ids {
		next := ids[(i+1)%len(ids)]
		if next != id-1 && !(id == 1 && next == len(ids)) {
			return false
		}
	}
	return true
}
