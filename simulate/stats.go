package simulate

import (
	"math"
	"slices"
)

// Summary is the distribution of one number over the runs.
type Summary struct {
	Runs   int     `json:"runs"`
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	// CI95 and CI99 are the normal-approximation confidence intervals of
	// the mean, mean ± z·stddev/√runs (z = 1.96 and 2.576): the runs are
	// independent draws, and over hundreds of them the mean is close to
	// normal whatever the distribution.
	CI95 [2]float64 `json:"ci95"`
	CI99 [2]float64 `json:"ci99"`
	Min  int        `json:"min"`
	Max  int        `json:"max"`
	// Histogram covers [Min, Max] with at most histogramBins bins of equal
	// integer width.
	Histogram []Bin `json:"histogram"`
}

// Bin counts the runs whose value is in [Lo, Hi].
type Bin struct {
	Lo    int `json:"lo"`
	Hi    int `json:"hi"`
	Count int `json:"count"`
}

const histogramBins = 20

// summarise describes xs; Stddev is the sample standard deviation (n−1),
// 0 for a single run.
func summarise(xs []int) Summary {
	s := Summary{Runs: len(xs)}
	if len(xs) == 0 {
		return s
	}
	s.Min, s.Max = slices.Min(xs), slices.Max(xs)
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	s.Mean = sum / float64(len(xs))
	if len(xs) > 1 {
		var sq float64
		for _, x := range xs {
			d := float64(x) - s.Mean
			sq += d * d
		}
		s.Stddev = math.Sqrt(sq / float64(len(xs)-1))
	}
	half := s.Stddev / math.Sqrt(float64(len(xs)))
	s.CI95 = [2]float64{s.Mean - 1.96*half, s.Mean + 1.96*half}
	s.CI99 = [2]float64{s.Mean - 2.576*half, s.Mean + 2.576*half}
	width := (s.Max - s.Min + histogramBins) / histogramBins // ⌈(max−min+1)/bins⌉
	for lo := s.Min; lo <= s.Max; lo += width {
		s.Histogram = append(s.Histogram, Bin{Lo: lo, Hi: min(lo+width-1, s.Max)})
	}
	for _, x := range xs {
		s.Histogram[(x-s.Min)/width].Count++
	}
	return s
}
