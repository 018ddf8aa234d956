package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintableEscapesEveryControlCharacter(t *testing.T) {
	for in, want := range map[string]string{
		"start p0 (sends ⟨elect 3⟩)": "start p0 (sends ⟨elect 3⟩)",
		"\x1b]0;pwned\a\x1b[2J":      `\x1b]0;pwned\x07\x1b[2J`,
		"a\nb\tc\rd":                 `a\nb\tc\x0dd`,
		"del\x7f":                    `del\x7f`,
		"csi\u009b31m, nel\u0085":    `csi\u009b31m, nel\u0085`,
		"bad \xff byte":              `bad \xff byte`,
		"\x00":                       `\x00`,
		"U+FFFD � stays":             "U+FFFD � stays",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := printableLines("line one\x1b[H\nline two\n"); got != "line one\\x1b[H\nline two\n" {
		t.Errorf("printableLines: %q", got)
	}
}

// controlIn returns the first control character in s other than newline,
// or "".
func controlIn(s string) string {
	for _, r := range s {
		if r != '\n' && (r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == utf8.RuneError) {
			return string(r)
		}
	}
	return ""
}

// A trace file can hold any string. mc trace prints its property doc,
// actions, names and values with the control characters escaped, in every
// mode, so that the file cannot set the terminal's title, clear the screen
// or move the cursor.
func TestTraceFileEscapeSequencesAreNotPrintedRaw(t *testing.T) {
	data, err := os.ReadFile(traceFile(t))
	if err != nil {
		t.Fatal(err)
	}
	hostile := string(data)
	for old, evil := range map[string]string{
		`"doc": "every terminal state`:           `"doc": "\u001b]0;pwned\u0007\u001b[2Jevery terminal state`,
		`"action": "start p0 (sends ⟨elect 3⟩)"`: `"action": "start p0 (sends ⟨elect 3⟩)\u009b2J\r"`,
		`"name": "election-complete"`:            `"name": "election-complete\u001b[8m"`,
		`"value": "undecided"`:                   `"value": "undecided\u001b[H\u007f"`,
	} {
		if !strings.Contains(hostile, old) {
			t.Fatalf("the trace file has no %s", old)
		}
		hostile = strings.Replace(hostile, old, evil, 1)
	}
	path := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", path},
		{"trace", path, "--format", "svg"},
		{"trace", path, "--format", "dot"},
		{"trace", path, "--replay"},
	} {
		_, out, errs := mc(t, context.Background(), args...)
		if c := controlIn(out + errs); c != "" {
			t.Errorf("mc %s prints the control character %q raw:\n%s%s", strings.Join(args[2:], " "), c, out, errs)
		}
	}
	_, out, _ := mc(t, context.Background(), "trace", path)
	for _, shown := range []string{`\x1b]0;pwned\x07\x1b[2Jevery terminal state`, `start p0 (sends ⟨elect 3⟩)\u009b2J\x0d`, `election-complete\x1b[8m`, `undecided\x1b[H\x7f`} {
		if !strings.Contains(out, shown) {
			t.Errorf("mc trace does not show %s:\n%s", shown, out)
		}
	}
	// With colour, the only escape sequences are mc's own styles.
	_, out, _ = mc(t, context.Background(), "trace", path, "--color", "always")
	for _, style := range []string{ansiReset, ansiBold, ansiChanged, ansiMessage, ansiBad, ansiGood} {
		out = strings.ReplaceAll(out, style, "")
	}
	if c := controlIn(out); c != "" {
		t.Errorf("mc trace --color always prints the control character %q raw:\n%s", c, out)
	}
}
