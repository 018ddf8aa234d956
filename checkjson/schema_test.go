package checkjson

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite "+SchemaFile+" (as go generate does)")

// TestSchemaIsCommitted: check.schema.json is the schema of Result as it
// is now; go generate (or -update) rewrites it.
func TestSchemaIsCommitted(t *testing.T) {
	b, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(SchemaFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, b) {
		t.Errorf("%s is not the schema of checkjson.Result; run go generate ./checkjson", SchemaFile)
	}
}

// sharedDef is the definition that several fields hold (the trace of a
// failure, a property, a measure, --shortest's re-run, a wrong measure),
// whose fields docs/json.md describes once, under "trace.".
const sharedDef = "Trace"

// fieldPaths are the fields of the schema s, each by its path: nested
// fields after a dot, an array's elements as [], the fields of sharedDef
// under "trace." wherever it is held.
func fieldPaths(t *testing.T, s []byte) []string {
	var root map[string]any
	if err := json.Unmarshal(s, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["$defs"].(map[string]any)
	var paths []string
	var walk func(prefix string, node map[string]any)
	walk = func(prefix string, node map[string]any) {
		if alts, ok := node["anyOf"].([]any); ok {
			node = alts[0].(map[string]any)
		}
		if ref, ok := node["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/$defs/")
			if name == sharedDef {
				return
			}
			node = defs[name].(map[string]any)
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(strings.TrimSuffix(prefix, ".")+"[].", items)
			return
		}
		props, _ := node["properties"].(map[string]any)
		for name, p := range props {
			paths = append(paths, prefix+name)
			walk(prefix+name+".", p.(map[string]any))
		}
	}
	walk("", root)
	walk("trace.", defs[sharedDef].(map[string]any))
	slices.Sort(paths)
	return paths
}

// documentedField is a row of a table in docs/json.md: the field's path
// in backquotes.
var documentedField = regexp.MustCompile("(?m)^\\| `([^`]+)` +\\|")

// documentedPaths are the fields docs/json.md describes for mc check
// --json: the rows of the tables of the stamp every object opens with
// and of its section.
func documentedPaths(t *testing.T) []string {
	doc, err := os.ReadFile("../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	stamp, _, _ := strings.Cut(text, "\n## ")
	_, section, found := strings.Cut(text, "\n## `mc check --json`\n")
	if !found {
		t.Fatal("docs/json.md has no section ## `mc check --json`")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var paths []string
	for _, m := range documentedField.FindAllStringSubmatch(stamp+section, -1) {
		paths = append(paths, m[1])
	}
	slices.Sort(paths)
	return paths
}

// TestDocsDescribeEveryField: docs/json.md has a row for every field of
// the schema, and none for a field it does not have.
func TestDocsDescribeEveryField(t *testing.T) {
	s, err := os.ReadFile(SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	fields, documented := fieldPaths(t, s), documentedPaths(t)
	for _, f := range fields {
		if !slices.Contains(documented, f) {
			t.Errorf("docs/json.md does not describe %s", f)
		}
	}
	for _, d := range documented {
		if !slices.Contains(fields, d) {
			t.Errorf("docs/json.md describes %s, which mc check --json does not have", d)
		}
	}
	if len(fields) < 60 {
		t.Errorf("%d fields: the walk of the schema lost some", len(fields))
	}
}
