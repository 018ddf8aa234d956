package sweepout

import (
	"fmt"
	"testing"
)

func TestSampledSizes(t *testing.T) {
	for s, want := range map[string]string{"16..1024": "[16 32 64 128 256 512 1024]", "3..20": "[3 6 12]", "16,100,1000": "[16 100 1000]", "5": "[5]"} {
		got, err := ParseSampledSizes(s)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("ParseSampledSizes(%q) = %v, %v; want %s", s, got, err, want)
		}
	}
}
