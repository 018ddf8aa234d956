package paramflags

import (
	"fmt"
	"testing"
)

// ParseParams reads NAME=VALUE in the order given and refuses, naming the
// text, anything else.
func TestParseParams(t *testing.T) {
	got, err := ParseParams([]string{"k=3", "max-rounds=-1", "a2=+7"})
	if err != nil || fmt.Sprint(got) != "[{k 3} {max-rounds -1} {a2 7}]" {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := ParseParams(nil); got != nil || err != nil {
		t.Fatalf("none: %v, %v", got, err)
	}
	for text, want := range map[string]string{
		"k":       `"k": want NAME=VALUE, e.g. k=3`,
		"=3":      `"=3": want NAME=VALUE, e.g. k=3`,
		"K=3":     `"K=3": want NAME=VALUE, e.g. k=3`,
		"k\x1b=3": `"k\x1b=3": want NAME=VALUE, e.g. k=3`,
		"k=":      `"k=": the value of k is not an integer`,
		"k=3.5":   `"k=3.5": the value of k is not an integer`,
		"k=3=4":   `"k=3=4": the value of k is not an integer`,
	} {
		if _, err := ParseParams([]string{text}); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
	if _, err := ParseParams([]string{"k=3", "m=1", "k=3"}); err == nil || err.Error() != "parameter k is given twice" {
		t.Errorf("twice: %v", err)
	}
}
