package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ringcheck/mc/runinfo"
)

// jsonSchema is the version of the JSON mc prints (runinfo.Schema).
const jsonSchema = runinfo.Schema

// jsonStamp opens every JSON object mc prints (runinfo.Stamp).
type jsonStamp = runinfo.Stamp

func stamp() jsonStamp { return runinfo.ThisStamp() }

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
