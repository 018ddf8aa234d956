package specs

import (
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// A spec's MaxN is where its Build refuses: the CLI refuses larger rings
// by it before it makes the ids, so it must be no larger than what Build
// takes. (A build at MaxN itself holds gigabytes for the uniring specs.) Specs without one (MaxN 0) are left to the checker's limit.
func TestMaxNIsWhereBuildRefuses(t *testing.T) {
	limited := 0
	for _, e := range All() {
		if e.MaxN == 0 {
			continue
		}
		limited++
		n := e.MaxN + 1
		_, err := e.Build(model.Params{N: n, IDs: e.IDs(n), Chan: e.Defaults.Chan})
		if err == nil || !strings.Contains(err.Error(), "at most") && !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s builds a ring of MaxN+1 = %d: %v", e.Name, n, err)
		}
	}
	if limited < 4 {
		t.Fatalf("%d specs declare MaxN; changroberts, lelann, misra and suzukikasami do", limited)
	}
}
