package cli

import (
	"context"
	"strings"
	"testing"
)

// The specs on a bidirectional ring from the command line: hs's default
// passes, its literal variant fails with the deadlock trace, franklin
// passes with its claims and refuses bag channels in one line.
func TestBidirectionalSpecs(t *testing.T) {
	ctx := context.Background()
	if code, out, _ := mc(t, ctx, "check", "hs", "--ids", "3,1,4,2", "--claims"); code != exitPass || !strings.Contains(out, "verdict: pass") {
		t.Fatalf("hs: exit %d, output:\n%s", code, out)
	}
	code, out, _ := mc(t, ctx, "check", "hs", "--variant", "raynal-literal", "--ids", "3,2,1")
	if code != exitFail || !strings.Contains(out, "deadlock: a terminal state violates end property election-complete") ||
		!strings.Contains(out, "6. resume p0 (nresp = 2, respOK = T)") {
		t.Fatalf("hs raynal-literal: exit %d, output:\n%s", code, out)
	}
	if code, out, _ := mc(t, ctx, "check", "hs", "--variant", "probe", "--n", "4", "--claims"); code != exitPass {
		t.Fatalf("hs probe: exit %d, output:\n%s", code, out)
	}
	code, out, _ = mc(t, ctx, "check", "franklin", "--ids", "4,1,3,2", "--claims")
	if code != exitPass || !strings.Contains(out, "566 distinct states") {
		t.Fatalf("franklin: exit %d, output:\n%s", code, out)
	}
	for _, args := range [][]string{{"franklin", "--chan", "bag"}, {"hs", "--links", "half"}, {"franklin", "--orientation", "01010"}} {
		code, out, errs := mc(t, ctx, append([]string{"check"}, args...)...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
