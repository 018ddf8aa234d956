package sweep

import "testing"

// The c needed is exact where log₂ n is whole (a float rounds those up a
// thousandth too many: 0.459 for hp at n = 4), and still rounded up
// where it is not.
func TestLinearTermNeeded(t *testing.T) {
	for _, c := range []struct {
		worst, n int
		lead     float64
		want     float64
	}{
		{12, 4, 1.271, 0.458}, // hp: 3 − 1.271·2
		{16, 4, 1.271, 1.458}, // hp-elect-literal
		{36, 8, 1.271, 0.687}, // hp: 4.5 − 1.271·3
		{12, 4, 1.44, 0.12},   // vlt: 3 − 1.44·2
		{27, 6, 1.271, 1.215}, // hp: 4.5 − 1.271·log₂ 6 = 1.21459…
		{9, 3, 1.271, 0.986},  // hp: 3 − 1.271·log₂ 3 = 0.98553…
		{9, 3, 1.44, 0.718},   // vlt: 3 − 1.44·log₂ 3 = 0.71764…
		{3, 4, 1.271, -1.792}, // below the curve: c negative, still the smallest
	} {
		got := linearTermNeeded(c.worst, c.n, c.lead)
		if got != c.want {
			t.Errorf("worst %d, n=%d, lead %g: c needed %v, want %v", c.worst, c.n, c.lead, got, c.want)
		}
	}
}
