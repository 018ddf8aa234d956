package tracefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the trace file reader: it never panics,
// and what it accepts can be written and read back.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"format":"mc-trace","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, tf); err != nil {
			t.Fatalf("accepted a file it cannot write: %v", err)
		}
		if _, err := Read(&buf); err != nil {
			t.Fatalf("cannot read back what it wrote: %v", err)
		}
		if tg, err := Target(tf); err == nil {
			Replay(tf, tg)
		}
	})
}
