package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/runinfo"
	"github.com/ringcheck/mc/specs"
	"github.com/ringcheck/mc/specs/specdef"
	"github.com/ringcheck/mc/tracefile"
)

// Every command prints its help once, on stdout, and exits 0: pflag prints
// it itself on --help, and mc used to print it a second time, on stderr.
func TestHelpIsPrintedOnceOnStdout(t *testing.T) {
	for _, cmd := range append(slices.Clone(commands), "help") {
		for _, flag := range []string{"--help", "-h"} {
			code, out, errs := mc(t, context.Background(), cmd, flag)
			if code != exitPass || errs != "" || strings.Count(out, "usage:") != 1 {
				t.Errorf("mc %s %s: exit %d, %d usages on stdout, stderr %q:\n%s", cmd, flag, code, strings.Count(out, "usage:"), errs, out)
			}
			if cmd != "help" && !strings.HasPrefix(out, "usage: mc "+cmd+" ") {
				t.Errorf("mc %s %s does not start with its usage line:\n%s", cmd, flag, out)
			}
		}
		if cmd == "help" {
			continue
		}
		_, viaHelp, _ := mc(t, context.Background(), "help", cmd)
		_, viaFlag, _ := mc(t, context.Background(), cmd, "--help")
		if viaHelp != viaFlag {
			t.Errorf("mc help %s differs from mc %s --help:\n%s\n---\n%s", cmd, cmd, viaHelp, viaFlag)
		}
	}
	if code, _, errs := mc(t, context.Background(), "help", "nosuch"); code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `unknown command "nosuch"`) {
		t.Errorf("mc help nosuch: exit %d, stderr %q", code, errs)
	}
}

func TestVersionNamesTheBuildAndItsFormats(t *testing.T) {
	want := []string{
		"mc " + runinfo.ThisBuild().String() + "\n",
		"go " + runtime.Version() + " ",
		"fingerprint " + checker.FingerprintFunc + "\n",
		fmt.Sprintf("checkpoint format %v\n", checker.CheckpointFormat),
		fmt.Sprintf("trace format %s %v\n", tracefile.Format, tracefile.Version),
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := mc(t, context.Background(), args...)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("mc %s lacks %q:\n%s", args[0], w, out)
			}
		}
		if code != exitPass || errs != "" {
			t.Errorf("mc %s: exit %d, stderr %q", args[0], code, errs)
		}
	}
	code, out, _ := mc(t, context.Background(), "version", "--json")
	var b buildFacts
	if err := json.Unmarshal([]byte(out), &b); err != nil || code != exitPass {
		t.Fatalf("mc version --json: exit %d, %v:\n%s", code, err, out)
	}
	if b != currentBuild() || b.Schema != jsonSchema || b.TraceFormat == "" || b.CheckpointFormat == "" {
		t.Errorf("mc version --json: %+v, want %+v", b, currentBuild())
	}
	if code, _, errs := mc(t, context.Background(), "version", "extra"); code != exitUsage || strings.Count(errs, "\n") != 1 {
		t.Errorf("mc version extra: exit %d, stderr %q", code, errs)
	}
}

// Every JSON object mc prints names the mc that wrote it and its schema.
func TestJSONOutputCarriesVersionAndSchema(t *testing.T) {
	for _, args := range [][]string{
		{"check", "changroberts", "--n", "3", "--json"},
		{"check", "changroberts", "--n", "3", "--all-ids", "--json"},
		{"sweep", "changroberts", "--n", "3", "--json"},
		{"list", "--json"},
		{"version", "--json"},
	} {
		_, out, _ := mc(t, context.Background(), args...)
		var s jsonStamp
		if err := json.Unmarshal([]byte(out), &s); err != nil || s.MCVersion != version() || s.Schema != jsonSchema {
			t.Errorf("mc %s: stamp %+v (%v), want %s schema %d:\n%s", strings.Join(args, " "), s, err, version(), jsonSchema, out)
		}
	}
}

// mc list's line names only the flags of the knobs a spec takes: it
// showed --chan fifo for tokenring, which refuses --chan.
func TestListShowsOnlyTheKnobsASpecTakes(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "list")
	if code != exitPass {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	flags := []struct {
		flag string
		knob specdef.Knob
	}{{" --ids ", specdef.IDs}, {" --chan ", specdef.Chan}, {" --initiators ", specdef.Initiators}, {" --orientation ", specdef.Orientation}, {" --drift ", specdef.Drift}}
	lines := strings.Split(out, "\n")
	for _, e := range specs.All() {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, e.Name+" ") })
		if i < 0 {
			t.Fatalf("%s not listed:\n%s", e.Name, out)
		}
		defaults, _, _ := strings.Cut(lines[i][strings.Index(lines[i], "defaults:"):], ";")
		for _, f := range flags {
			if strings.Contains(defaults, f.flag) != e.Takes.Has(f.knob) {
				t.Errorf("%s takes%s: %v; its line says %q", e.Name, f.flag, e.Takes.Has(f.knob), defaults)
			}
		}
	}
}

func TestListJSONDescribesEverySpec(t *testing.T) {
	code, out, _ := mc(t, context.Background(), "list", "--json")
	var got struct{ Specs []listedSpec }
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitPass {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	byName := map[string]listedSpec{}
	for _, s := range got.Specs {
		byName[s.Name] = s
	}
	for _, e := range specs.All() {
		s, ok := byName[e.Name]
		if !ok || s.Ref != e.Ref || s.Title != e.Title || len(s.Variants) != len(e.Variants) || s.Defaults.Variant != e.Variants[0].Name || len(s.Properties) == 0 {
			t.Errorf("%s: listed as %+v", e.Name, s)
		}
	}
	cr := byName["changroberts"]
	if !reflect.DeepEqual(cr.Defaults.IDs, []int{5, 4, 3, 2, 1}) || cr.Defaults.N != 5 || cr.Defaults.Fair != "process" || cr.Defaults.Drift != nil ||
		cr.Properties[0] != (listedProp{"at-most-one-leader", "invariant", "002 §5.2", "no two processes are leaders at once", false}) {
		t.Errorf("changroberts: %+v", cr)
	}
	if m := byName["misra"]; m.Defaults.IDs != nil || m.Defaults.Fair != "action" || m.Defaults.Bound == "" || m.Symmetry != "" {
		t.Errorf("misra, whose processes have no ids: %+v", m.Defaults)
	}
	if v := byName["vitanyi"]; v.Defaults.Drift == nil || *v.Defaults.Drift != 0 {
		t.Errorf("vitanyi's default drift: %+v", v.Defaults)
	}
	if v := byName["vlt"]; v.Defaults.Links == "" || v.Symmetry != "rotation and reflection" {
		t.Errorf("vlt: %+v, symmetry %q", v.Defaults, v.Symmetry)
	}
	// A claim exists only with --claims; it is listed all the same, marked.
	vltProps := map[string]listedProp{}
	for _, p := range byName["vlt"].Properties {
		vltProps[p.Name] = p
	}
	for _, name := range []string{"lemma-3-3-ii-c-active-not-again", "lemma-3-3-iii-d-active-not-c-active", "lemma-3-3-iv-neighbours-not-head-on",
		"prop-3-4-no-silent-phase", "lemma-3-5-ii-shared-colour-interval", "lemma-3-5-iii-shared-colour-away"} {
		if p, ok := vltProps[name]; !ok || !p.Claims {
			t.Errorf("vlt's claim %s: listed as %+v (%v)", name, p, ok)
		}
	}
	if p := vltProps["at-most-one-leader"]; p.Claims {
		t.Errorf("vlt's at-most-one-leader marked as needing --claims")
	}
	if code, _, errs := mc(t, context.Background(), "list", "extra"); code != exitUsage || strings.Count(errs, "\n") != 1 {
		t.Errorf("mc list extra: exit %d, stderr %q", code, errs)
	}
}

// A list flag given empty is refused: --initiators "" used to mean every
// process, silently.
func TestEmptyListFlagsAreRefused(t *testing.T) {
	for _, args := range [][]string{
		{"check", "changroberts", "--initiators", ""},
		{"check", "changroberts", "--ids", " "},
		{"explore", "changroberts", "--initiators", "", "--addr", "127.0.0.1:0"},
		{"explore", "changroberts", "--ids", "", "--addr", "127.0.0.1:0"},
	} {
		code, _, errs := mc(t, context.Background(), args...)
		if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, args[2]+": empty list") {
			t.Errorf("mc %q: exit %d, stderr %q", args, code, errs)
		}
	}
}

// The specs whose processes have no ids are shown without the placeholder
// ids they are built with.
func TestHeaderShowsIDsOnlyForSpecsThatHaveThem(t *testing.T) {
	_, out, _ := mc(t, context.Background(), "check", "tokenring", "--n", "3")
	if head := strings.SplitN(out, "\n", 2)[0]; head != "mc check tokenring (variant seed) n=3 chan=fifo initiators=all" {
		t.Errorf("tokenring's header: %q", head)
	}
	_, out, _ = mc(t, context.Background(), "check", "tokenring", "--n", "3", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := r["ids"]; ok {
		t.Errorf("tokenring's JSON has ids: %v", r["ids"])
	}
	_, out, _ = mc(t, context.Background(), "check", "changroberts", "--n", "3")
	if !strings.HasPrefix(out, "mc check changroberts (variant canonical) n=3 ids=3,2,1 chan=fifo") {
		t.Errorf("changroberts's header: %q", strings.SplitN(out, "\n", 2)[0])
	}
}

// Each flag --all-ids refuses is refused with its own reason.
func TestAllIDsRefusalsGiveTheirReason(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		why  string
	}{
		{[]string{"changroberts", "--trace-out", dir + "/t.json"}, "a trace file holds one run"},
		{[]string{"changroberts", "--checkpoint", dir}, "a checkpoint holds one run"},
		{[]string{"vlt", "--orientation", "01101"}, "needs every assignment"},
		{[]string{"changroberts", "--initiators", "0"}, "every process an initiator"},
		{[]string{"changroberts", "--ids", "1,2,3"}, "--ids fixes one"},
	} {
		code, _, errs := mc(t, context.Background(), append([]string{"check", "--all-ids"}, c.args...)...)
		if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.why) {
			t.Errorf("--all-ids %v: exit %d, stderr %q, want the reason %q", c.args, code, errs, c.why)
		}
	}
}

// mc check takes a fractional --max-memory (memlimit.Parse reads it).
func TestMaxMemoryTakesFractions(t *testing.T) {
	if code, out, errs := mc(t, context.Background(), "check", "changroberts", "--n", "3", "--max-memory", "1.5GiB"); code != exitPass || errs != "" {
		t.Errorf("--max-memory 1.5GiB: exit %d, stderr %q\n%s", code, errs, out)
	}
}
