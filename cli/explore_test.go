package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestExploreServesTheTraceUntilInterrupted(t *testing.T) {
	path := traceFile(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- Run(ctx, []string{"explore", "--trace", path, "--addr", "127.0.0.1:0"}, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, out)
	url := strings.TrimSuffix(strings.TrimPrefix(line, "mc explore: open "), " (Ctrl-C to stop)\n")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("mc explore printed %q", line)
	}
	resp, err := http.Get(url + "api/session")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Variant string
		Trace   struct{ Steps []any }
	}
	err = json.NewDecoder(resp.Body).Decode(&s)
	resp.Body.Close()
	if err != nil || s.Variant != "raynal-literal" || len(s.Trace.Steps) != 3 {
		t.Fatalf("session %+v (%v)", s, err)
	}
	cancel()
	if code := <-exit; code != exitPass {
		t.Fatalf("exit %d after Ctrl-C", code)
	}
}

func TestExploreBadInputIsAOneLineUsageError(t *testing.T) {
	path := traceFile(t)
	cases := [][]string{
		{"explore"},
		{"explore", "nosuchspec"},
		{"explore", "changroberts", "lelann"},
		{"explore", "changroberts", "--ids", "1,1"},
		{"explore", "lelann", "--trace", path},
		{"explore", "--trace", path, "--ids", "1,2,3"},
		{"explore", "--trace", "/no/such/trace.json"},
		{"explore", "changroberts", "--addr", "not an address"},
	}
	for _, args := range cases {
		code, out, errs := mc(t, context.Background(), args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "mc explore: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
