package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ringcheck/mc/specs"
)

func config(t *testing.T, name string) Config {
	t.Helper()
	s, ok := specs.SweepOf(name)
	if !ok {
		t.Fatalf("no sweep %s", name)
	}
	return Config{Spec: s.Entry, Profile: s.Profile, Variant: s.Profile.Variant, Drift: s.Profile.Drift}
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
		if row.Worst != Messages(n*(n+1)/2) {
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
		if row.Worst != Messages(n*(n+1)/2) || row.Best != Messages(n) {
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

func sweepRow(t *testing.T, cfg Config, n int) *Row {
	t.Helper()
	row, err := Run(context.Background(), cfg, n)
	if err != nil {
		t.Fatal(err)
	}
	return row
}

// Dolev–Klawe–Rodeh: the worst case over every arrangement is 2n⌊log₂ n⌋+n
// (1, ·) and (2, ·) messages, within the seed's 2n log n + n, in every run
// of its arrangement; no process is active in more than log₂ n + 1 stages
// (002 §5.4).
func TestDKR(t *testing.T) {
	cfg := config(t, "dkr")
	for n := 3; n <= 5; n++ {
		row := sweepRow(t, cfg, n)
		floorLog := 0
		for 2<<floorLog <= n {
			floorLog++
		}
		if want := Messages(2*n*floorLog + n); row.Worst != want {
			t.Errorf("n=%d: worst %d, want 2n⌊log₂ n⌋+n = %d", n, row.Worst, want)
		}
		if float64(row.Worst) > *row.Bound || float64(row.Phases) > *row.PhaseBound || row.Phases < 2 {
			t.Errorf("n=%d: worst %d (bound %g), %d stages (bound %g)", n, row.Worst, *row.Bound, row.Phases, *row.PhaseBound)
		}
		if row.ScheduleDependent != 0 {
			t.Errorf("n=%d: %d classes depend on the schedule", n, row.ScheduleDependent)
		}
		// Deterministic processes on FIFO channels: the stamps are a
		// function of the state, so every run to a state has its chain.
		if row.CausalStates != row.States || row.Causal != row.WorstCausal {
			t.Errorf("n=%d: %d stamped states for %d states; longest chain %d, worst run's %d", n, row.CausalStates, row.States, row.Causal, row.WorstCausal)
		}
	}
}

// Higham–Przytycka ELECT: 9, 12, 18 and 27 edges at worst for n = 3..6, the
// same in every run of an arrangement; Theorem 1's 1.271 n log₂ n + c·n
// needs c ≥ 1.215 at n = 6 (003 Theorem 1; hp's package doc).
func TestHPElect(t *testing.T) {
	cfg := config(t, "hp")
	for n, want := range map[int]Messages{3: 9, 4: 12, 5: 18, 6: 27} {
		row := sweepRow(t, cfg, n)
		if row.Worst != want || row.ScheduleDependent != 0 {
			t.Errorf("n=%d: worst %d, %d schedule-dependent classes; want %d and 0", n, row.Worst, row.ScheduleDependent, want)
		}
		if n == 6 && *row.LinearTerm != 1.215 {
			t.Errorf("n=6: c needed %v, want 1.215", *row.LinearTerm)
		}
	}
}

// The literal reading of promotion by witness livelocks: at n = 5 the sweep
// reports the cycle (ids 1,3,4,2,5 first, as hp's package doc says)
// instead of a cost; at n = 4 every arrangement terminates.
func TestHPWitnessLiteralCycles(t *testing.T) {
	cfg := config(t, "hp-witness-literal")
	if row := sweepRow(t, cfg, 4); row.Cycles != 0 || row.Costs() != fmt.Sprintf("worst %d, best %d", row.Worst, row.Best) || row.Worst == 0 {
		t.Errorf("n=4: %d classes with a cycle, want none; costs %q", row.Cycles, row.Costs())
	}
	row := sweepRow(t, cfg, 5)
	if row.Cycles == 0 || !strings.HasPrefix(firstCycle(row), "ids 1,3,4,2,5 after") {
		t.Fatalf("n=5: %d classes with a cycle, first %q", row.Cycles, firstCycle(row))
	}
	// mc ci prints Costs: never "worst 0, best 0" for a row with a cycle.
	if got, want := row.Costs(), fmt.Sprintf("unbounded (%d classes with a cycle)", row.Cycles); got != want {
		t.Fatalf("n=5: costs %q, want %q", got, want)
	}
	// Its JSON says null where there is no cost, for the row and for each
	// class with a cycle, never 0; and reads back as it was.
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	if !strings.Contains(js, `"worst_messages":null,"best_messages":null,"mean_messages":null`) ||
		!strings.Contains(js, `"best_messages":null,"worst_messages":null`) || strings.Contains(js, `_messages":0`) {
		t.Errorf("n=5: JSON of a row with a cycle: %s", js)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil || back.Worst != Unbounded || back.MeanWorst != nil {
		t.Errorf("n=5: read back: worst %d, mean %v, %v", back.Worst, back.MeanWorst, err)
	}
	for _, a := range back.PerClass {
		if (a.Cycle != "") != (a.Max == Unbounded && a.Min == Unbounded) {
			t.Errorf("n=5: class %v read back with cycle %q, worst %d, best %d", a.IDs, a.Cycle, a.Max, a.Min)
		}
	}
}

// van Leeuwen–Tan, both variants: classes up to rotation and reflection
// (1 and 3 at n = 3, 4), worst 9 and 12 phase messages within Prop. 3.9's
// count, and no run past phase 1 (2 phases) at these sizes.
func TestVLT(t *testing.T) {
	for _, name := range []string{"vlt", "vlt-modified"} {
		cfg := config(t, name)
		for n, want := range map[int][2]int{3: {1, 9}, 4: {3, 12}} {
			row := sweepRow(t, cfg, n)
			if got := [2]int{row.Classes, int(row.Worst)}; got != want {
				t.Errorf("%s n=%d: (classes, worst) %v, want %v", name, n, got, want)
			}
			if float64(row.Worst) > *row.Bound || row.Phases != 2 {
				t.Errorf("%s n=%d: worst %d (bound %g), %d phases", name, n, row.Worst, *row.Bound, row.Phases)
			}
		}
	}
}

// A profile that reads its phases off a ghost builds the spec with claims;
// that must not change the graph the costs are computed on.
func TestGhostPhasesAddNoStates(t *testing.T) {
	for _, s := range specs.Sweeps() {
		name, p := s.Profile.Name, s.Profile
		if !p.GhostPhases || p.Measure != "" || p.Bits != "" {
			continue
		}
		with := config(t, name)
		without := with
		without.Profile.GhostPhases, without.Profile.Phases = false, ""
		for n := 3; n <= 4; n++ {
			a, b := sweepRow(t, with, n), sweepRow(t, without, n)
			if a.States != b.States || a.Transitions != b.Transitions || a.Worst != b.Worst || a.Phases == 0 {
				t.Errorf("%s n=%d: with claims %d states %d transitions worst %d (%d %s); without %d %d worst %d",
					name, n, a.States, a.Transitions, a.Worst, a.Phases, p.Phase, b.States, b.Transitions, b.Worst)
			}
		}
	}
}
