package sweep

import (
	"math"
	"math/big"
	"strconv"
)

// linearTermNeeded is the smallest c, a whole number of thousandths, with
// worst ≤ lead·n·log₂ n + c·n: the "c needed" column. It is decided
// exactly, lead read as the decimal it prints as (%g, as the column's
// heading shows it): a float computation rounds up one thousandth too
// many where c is itself a whole number of thousandths, as at n = 4 for
// hp (12 = 1.271·4·2 + 0.458·4 exactly).
func linearTermNeeded(worst, n int, lead float64) float64 {
	a, ok := new(big.Rat).SetString(strconv.FormatFloat(lead, 'g', -1, 64))
	if !ok {
		panic("sweep: a profile's Lead is not a finite number")
	}
	// The float estimate is within a thousandth or two of the answer;
	// the exact test moves it to the smallest k that fits.
	k := int64(math.Ceil(1000 * (float64(worst) - lead*float64(n)*math.Log2(float64(n))) / float64(n)))
	for fits(worst, n, a, k-1) {
		k--
	}
	for !fits(worst, n, a, k) {
		k++
	}
	return float64(k) / 1000
}

// fits says whether worst ≤ a·n·log₂ n + (k/1000)·n, that is
// r ≤ log₂ n with r = (worst/n − k/1000)/a; for r = p/q > 0, with q > 0,
// that is 2^p ≤ n^q, compared on integers.
func fits(worst, n int, a *big.Rat, k int64) bool {
	r := new(big.Rat).Sub(big.NewRat(int64(worst), int64(n)), big.NewRat(k, 1000))
	r.Quo(r, a)
	if r.Sign() <= 0 {
		return true
	}
	p, q := r.Num(), r.Denom()
	lhs := new(big.Int).Lsh(big.NewInt(1), uint(p.Uint64()))
	rhs := new(big.Int).Exp(big.NewInt(int64(n)), q, nil)
	return lhs.Cmp(rhs) <= 0
}
