package cli

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/specs"
)

// knobArgs gives each knob's flag a value every spec that takes it
// accepts at n = 3.
var knobArgs = map[string][]string{
	"ids": {"--ids", "1,2,3"}, "all-ids": {"--all-ids"}, "initiators": {"--initiators", "0"},
	"chan": {"--chan", "fifo"}, "cap": {"--cap", "1"}, "claims": {"--claims"}, "drift": {"--drift", "1"},
	"bound": {"--bound", "1"}, "links": {"--links", "full"}, "orientation": {"--orientation", "000"},
}

// A knob a spec does not take (specdef.Knob) is refused for it, in one
// line with exit 2, by mc check, by mc check --resume and by mc sweep,
// rather than silently ignored; and one it takes is not refused.
func TestKnobsASpecDoesNotTakeAreRefused(t *testing.T) {
	ctx := context.Background()
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	cancelled, cancel := context.WithCancel(ctx)
	cancel() // the run saves level 0's checkpoint, then stops
	if code, out, errs := mc(t, cancelled, "check", "tokenring", "--n", "3", "--checkpoint", ckpt, "--checkpoint-every", "0"); code != exitIncomplete {
		t.Fatalf("checkpointed run: exit %d\n%s%s", code, out, errs)
	}
	for _, e := range specs.All() {
		taken := e.Takes.Flags()
		for flag, args := range knobArgs {
			cmd := append([]string{"check", e.Name, "--n", "3", "--max-states", "10"}, args...)
			code, _, errs := mc(t, ctx, cmd...)
			refused := code == exitUsage && strings.Contains(errs, "does not take --"+flag)
			if slices.Contains(taken, flag) == refused {
				t.Errorf("%v: exit %d, stderr %q; the spec takes %s", cmd, code, errs, e.Takes)
			}
			if !slices.Contains(taken, flag) && strings.Count(errs, "\n") != 1 {
				t.Errorf("%v: want one line, got %q", cmd, errs)
			}
		}
	}
	for _, cmd := range [][]string{
		{"check", "--resume", ckpt, "--claims"},
		{"sweep", "changroberts", "--n", "3", "--drift", "1"},
	} {
		if code, _, errs := mc(t, ctx, cmd...); code != exitUsage || !strings.Contains(errs, "does not take --") {
			t.Errorf("%v: exit %d, stderr %q", cmd, code, errs)
		}
	}
}
