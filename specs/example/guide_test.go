package example

import (
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
