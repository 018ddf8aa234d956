package model

import (
	"fmt"
	"testing"
)

// BenchmarkFingerprint fingerprints encodings of the sizes the specs' states
// have: a few dozen bytes for Chang–Roberts on 8 to 12 processes, a few
// hundred for the larger specs. Every successor the search generates is
// fingerprinted once.
func BenchmarkFingerprint(b *testing.B) {
	for _, size := range []int{24, 48, 96, 384} {
		enc := make([]byte, size)
		for i := range enc {
			enc[i] = byte(i * 7)
		}
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			var sum uint64
			for b.Loop() {
				sum += Fingerprint(enc)
				enc[0]++
			}
			b.ReportMetric(float64(sum%2), "odd")
		})
	}
}
