package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The same seed gives the same table, the same JSON and the same files
// with one worker and with two.
func TestSampledSweepIsTheSameForAnyWorkers(t *testing.T) {
	ctx := context.Background()
	var outs [2]string
	var files [2]map[string]string
	for i, workers := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, errs := mc(t, ctx, "sweep", "changroberts", "--variant", "all-initiate", "--n", "16..64", "--sample", "30", "--seed", "7", "--workers", workers, "--out", dir)
		if code != exitPass {
			t.Fatalf("--workers %s: exit %d: %s", workers, code, errs)
		}
		outs[i], files[i] = out, map[string]string{}
		for _, ext := range []string{"json", "md", "svg"} {
			b, err := os.ReadFile(filepath.Join(dir, "changroberts-all-initiate-sampled."+ext))
			if err != nil {
				t.Fatal(err)
			}
			files[i][ext] = string(b)
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("the tables differ:\n%s\n%s", outs[0], outs[1])
	}
	for ext, text := range files[0] {
		if files[1][ext] != text {
			t.Errorf("the .%s files differ between --workers 1 and 2", ext)
		}
	}
	if !strings.Contains(outs[0], "sampled: 30 runs per n (seed 7)") || !strings.Contains(files[0]["md"], "(sampled)") {
		t.Errorf("the table or the markdown is not marked sampled:\n%s\n%s", outs[0], files[0]["md"])
	}
	var table struct {
		Sampled bool
		Seed    uint64
		Rows    []struct {
			N       int
			Sampled bool
		}
	}
	if err := json.Unmarshal([]byte(files[0]["json"]), &table); err != nil {
		t.Fatal(err)
	}
	if !table.Sampled || table.Seed != 7 || len(table.Rows) != 3 || table.Rows[2].N != 64 || !table.Rows[0].Sampled {
		t.Errorf("results JSON = %+v; want sampled, seed 7, rows 16, 32, 64 each sampled", table)
	}
}

// At sizes mc sweep covers exhaustively the sampled runs stay within what
// every schedule and arrangement can do: Chang–Roberts with every process
// initiating sends at least 2n−1 and at most n(n+1)/2 ⟨elect⟩ messages
// (results/changroberts-all-initiate.md), and over 400 runs at n = 4 both
// extremes are seen.
func TestSampledSweepStaysWithinTheExhaustiveRows(t *testing.T) {
	code, out, errs := mc(t, context.Background(), "sweep", "changroberts", "--variant", "all-initiate", "--n", "4,5", "--sample", "400", "--json")
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "seed 1") {
		t.Errorf("stderr %q does not say the default seed", errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON object per n, got %q", out)
	}
	for i, n := range []int{4, 5} {
		var row struct {
			N       int
			Sampled bool
			Runs    int
			Mean    float64
			Best    int      `json:"best_seen"`
			Worst   int      `json:"worst_seen"`
			Bound   *float64 `json:"bound"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &row); err != nil {
			t.Fatal(err)
		}
		if row.N != n || !row.Sampled || row.Runs != 400 || row.Best < 2*n-1 || row.Worst > n*(n+1)/2 || row.Bound == nil || *row.Bound != float64(n*(n+1)/2) {
			t.Errorf("n=%d row = %+v", n, row)
		}
		if n == 4 && (row.Best != 7 || row.Worst != 10) {
			t.Errorf("n=4: best and worst seen %d, %d; want 7 and 10 over 400 runs", row.Best, row.Worst)
		}
	}
}

func TestSampledSweepUsageErrors(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"sweep", "changroberts", "--sample", "0"},
		{"sweep", "changroberts", "--sample", "5", "--workers", "0"},
		{"sweep", "changroberts", "--seed", "3"},
		{"sweep", "changroberts", "--n", "3", "--workers", "0"},
		{"sweep", "changroberts", "--sample", "5", "--ids", "1,2,3"},
		{"sweep", "changroberts", "--sample", "5", "--max-states", "10"},
		{"sweep", "changroberts", "--sample", "5", "--n", "1..8"},
		{"sweep", "changroberts", "--sample", "5", "--n", "16..8192"},
		{"sweep", "changroberts", "--sample", "5", "--n", "32,16"},
		{"sweep", "changroberts", "--sample", "5", "--n", "x"},
		{"sweep", "changroberts", "--sample", "5", "--variant", "raynal-literal"},
		{"sweep", "all", "--sample", "5"},
		{"sweep", "tokenring", "--sample", "5"},
	} {
		code, _, errs := mc(t, ctx, args...)
		if code != exitUsage || strings.Count(strings.TrimSpace(errs), "\n") != 0 || errs == "" {
			t.Errorf("mc %v: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
	}
}

// vlt is sampled at its one orientation with every processor's ports
// alike, beyond n = 16 too, and its table says so; its messages stay
// within Prop. 3.9's bound (2n + (T−1)n: 20 at n = 4, 288 at n = 32).
func TestSampledSweepOfVltFixesItsOrientation(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := mc(t, context.Background(), "sweep", "vlt", "--n", "4,32", "--sample", "3", "--seed", "1", "--workers", "1", "--out", dir)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "vlt-sampled.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Oriented bool
		Counted  string
		Rows     []struct {
			N     int
			Best  int `json:"best_seen"`
			Worst int `json:"worst_seen"`
		}
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if !table.Oriented || !strings.Contains(table.Counted, "one orientation") || len(table.Rows) != 2 {
		t.Fatalf("vlt-sampled.json = %s", b)
	}
	for i, bound := range []int{20, 288} {
		if r := table.Rows[i]; r.Best < 2*r.N || r.Worst > bound {
			t.Errorf("n=%d: messages %d..%d, want within %d..%d", r.N, r.Best, r.Worst, 2*r.N, bound)
		}
	}
}
