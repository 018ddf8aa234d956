// Command genschema writes checkjson.Schema to check.schema.json in the
// working directory: go generate runs it in package checkjson's.
package main

import (
	"fmt"
	"os"

	"github.com/ringcheck/mc/checkjson"
	"github.com/ringcheck/mc/internal/atomicfile"
)

func main() {
	b, err := checkjson.Schema()
	if err == nil {
		err = atomicfile.WriteFile(checkjson.SchemaFile, b)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "genschema: %v\n", err)
		os.Exit(1)
	}
}
