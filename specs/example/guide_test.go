package example

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuideQuotesTheExample keeps docs/writing-a-spec.md from going stale:
// every Go block of the guide names, on the line above it, the file it
// quotes ("<!-- quoted from specs/example/spec.go -->"), and must appear
// there verbatim. Most quote this package, whose tests compile and check
// the code the guide teaches.
func TestGuideQuotesTheExample(t *testing.T) {
	root := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(root, "docs", "writing-a-spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(guide), "\n")
	fromExample := 0
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```go" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		block := strings.Join(lines[i+1:end], "\n")
		path, ok := quotedFile(lines, i)
		if !ok {
			t.Errorf("guide line %d: a Go block without a \"<!-- quoted from FILE -->\" line above it", i+1)
		} else if src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path))); err != nil {
			t.Errorf("guide line %d: %v", i+1, err)
		} else if !strings.Contains(string(src), block) {
			t.Errorf("guide line %d: this block is no longer in %s:\n%s", i+1, path, block)
		} else if strings.HasPrefix(path, "specs/example/") {
			fromExample++
		}
		i = end
	}
	if fromExample < 10 {
		t.Errorf("the guide quotes the example %d times; it walks through it in at least 10 blocks", fromExample)
	}
}

// quotedFile reads the marker on the line above the block that opens at
// line i.
func quotedFile(lines []string, i int) (string, bool) {
	if i == 0 {
		return "", false
	}
	path, ok := strings.CutPrefix(lines[i-1], "<!-- quoted from ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(path, " -->")
}

// TestTheExampleIsShort keeps the worked example within the 100 lines of
// Go that docs/writing-a-spec.md promises, boilerplate included: every
// non-test file of the package but the one cmd/mc-gen writes, without
// comment and blank lines.
func TestTheExampleIsShort(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += codeLines(string(src))
	}
	if lines > 100 {
		t.Errorf("the example is %d lines of Go; the guide promises at most 100", lines)
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "writing-a-spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(guide)), " "), fmt.Sprintf("The whole example is %d lines of Go", lines)) {
		t.Errorf("the guide does not say that the example is %d lines of Go", lines)
	}
}

// codeLines counts the lines of src that are neither blank nor comments
// alone (a block comment counts as comment lines; the example has none).
func codeLines(src string) int {
	n := 0
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "//") {
			n++
		}
	}
	return n
}
