package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// jsonSchema is the version of the JSON mc prints (mc check --json, mc list
// --json, mc sweep --json, mc version --json), which docs/json.md
// describes. It changes when a field is removed or changes meaning, so
// that a program reading the output can refuse a schema it does not know;
// a new field does not change it.
const jsonSchema = 1

// jsonStamp opens every JSON object mc prints: the mc that wrote it and the
// schema it follows.
type jsonStamp struct {
	MCVersion string `json:"mc_version"`
	Schema    int    `json:"schema"`
}

func stamp() jsonStamp { return jsonStamp{MCVersion: version(), Schema: jsonSchema} }

// encodeJSON prints v, indented, as mc cmd's output.
func encodeJSON(stdout, stderr io.Writer, cmd string, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "mc %s: %v\n", cmd, err)
		return exitInternal
	}
	return exitPass
}
