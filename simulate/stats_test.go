package simulate

import (
	"math"
	"reflect"
	"testing"
)

func TestSummaryOfKnownData(t *testing.T) {
	s := summarise([]int{2, 4, 4, 4, 5, 5, 7, 9})
	if s.Mean != 5 || s.Min != 2 || s.Max != 9 || s.Runs != 8 {
		t.Fatalf("summary %+v", s)
	}
	if want := math.Sqrt(32.0 / 7); math.Abs(s.Stddev-want) > 1e-12 {
		t.Fatalf("stddev %v, want %v (sample, n−1)", s.Stddev, want)
	}
	half := 1.96 * s.Stddev / math.Sqrt(8)
	if math.Abs(s.CI95[0]-(5-half)) > 1e-12 || math.Abs(s.CI95[1]-(5+half)) > 1e-12 {
		t.Fatalf("ci95 %v", s.CI95)
	}
	want := []Bin{{2, 2, 1}, {3, 3, 0}, {4, 4, 3}, {5, 5, 2}, {6, 6, 0}, {7, 7, 1}, {8, 8, 0}, {9, 9, 1}}
	if !reflect.DeepEqual(s.Histogram, want) {
		t.Fatalf("histogram %v, want %v", s.Histogram, want)
	}
	wide := summarise([]int{0, 100})
	// 101 values in bins of ⌈101/20⌉ = 6: 17 bins, the last one short.
	if len(wide.Histogram) != 17 || wide.Histogram[0] != (Bin{0, 5, 1}) || wide.Histogram[16] != (Bin{96, 100, 1}) {
		t.Fatalf("histogram of 0..100: %v", wide.Histogram)
	}
}

func TestFenwickDrawsEachUnitOfWeightOnce(t *testing.T) {
	w := newWeights(5)
	for g, v := range []int{2, 0, 3, 1, 0} {
		w.set(g, v)
	}
	var got []int
	for k := range w.sum {
		g, off := w.find(k)
		got = append(got, g*10+off)
	}
	if want := []int{0, 1, 20, 21, 22, 30}; !reflect.DeepEqual(got, want) {
		t.Fatalf("draws %v, want %v", got, want)
	}
}
