package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Algorithm E on full-duplex links fails: two processors become leaders,
// and the trace shows two messages of phase 1 passing on one link (the
// shorter violation: --continue checks on to the second leader).
// Reference: 000 §4.
func TestVLTEOnFullDuplexLinksFails(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "vlt", "--n", "4", "--variant", "e", "--links", "full", "--continue")
	for _, want := range []string{
		"n=4 ids=1,4,2,3 chan=fifo initiators=all links=full orientations=every assignment up to symmetry (16, one initial state each)",
		"fail       at-most-one-leader", "fail       no-same-phase-bypass",
		"invariant no-same-phase-bypass violated", "= [⟨4,1⟩]", "verdict: fail",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitFail || t.Failed() {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, context.Background(), "check", "vlt", "--n", "4", "--variant", "modified", "--links", "full", "--claims")
	if code != exitPass || !strings.Contains(out, "pass       prop-4-2-bypass") {
		t.Fatalf("modified on full-duplex links: exit %d, output:\n%s", code, out)
	}
}

func TestVLTFixedOrientationAndJSON(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "check", "vlt", "--ids", "1,3,2,4", "--orientation", "0110", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if r["links"] != "half" || r["orientation"] != "0110" || r["orientations"] != 1.0 || r["states"] != 610.0 {
		t.Fatalf("JSON %v", r)
	}
	code, out, _ = mc(t, context.Background(), "check", "vlt", "--n", "3", "--variant", "modified", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitPass || r["links"] != "full" || r["orientations"] != 8.0 {
		t.Fatalf("exit %d, JSON %v", code, r)
	}
}
