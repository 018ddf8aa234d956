package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// examples/external, copied outside mc's tree with its replace pointed at
// this checkout, builds a checker of its own with one spec mc does not
// register (Dijkstra's K-state ring), on which mc's commands work: list
// --json, check (a pass, and a failure with its trace written), trace
// --replay, simulate, explore's HTTP API; and its own test, the
// conformance kit, passes. Nothing in mc's tree names the spec.
func TestExternalChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own: not with -short")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "mychecker")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, "examples", "external"))); err != nil {
		t.Fatal(err)
	}
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gocmd("mod", "edit", "-replace", "github.com/ringcheck/mc="+root)
	gocmd("build", "-o", "kc", ".")

	kc := func(want int, args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(dir, "kc"), args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
	var listed struct {
		Specs []struct {
			Name     string
			Variants []struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(kc(exitPass, "list", "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range listed.Specs {
		found = found || s.Name == "kstate" && len(s.Variants) == 2
	}
	if !found || len(listed.Specs) < 2 {
		t.Fatalf("list --json: no kstate with its two variants beside mc's specs: %+v", listed)
	}
	if out := kc(exitPass, "check", "kstate", "--no-db"); !strings.Contains(out, "256 distinct states, 640 transitions") {
		t.Fatalf("check kstate:\n%s", out)
	}
	kc(exitFail, "check", "kstate", "--param", "k=2", "--no-db", "--trace-out", "t.json")
	kc(exitPass, "trace", "t.json", "--replay")
	if out := kc(exitFail, "check", "kstate", "--variant", "bottom-differs", "--no-db", "--trace-out", "d.json"); !strings.Contains(out, "deadlock: a terminal state") {
		t.Fatalf("check kstate --variant bottom-differs: no deadlock\n%s", out)
	}
	kc(exitPass, "trace", "d.json", "--replay")
	kc(exitPass, "simulate", "kstate", "--runs", "5", "--seed", "1")
	exploreAPI(t, filepath.Join(dir, "kc"), dir)
	gocmd("test", "-count=1", "./...")

	// mc's own tree does not know the spec.
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || path == filepath.Join(root, "examples")):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go"):
			if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), "kstate") && !strings.HasSuffix(path, "external_test.go") {
				t.Errorf("%s names the external spec", path)
			}
		}
		return nil
	})
}

// exploreAPI starts kc explore kstate on a free port and reads the
// session and initial state from its HTTP API.
func exploreAPI(t *testing.T, kc, dir string) {
	t.Helper()
	cmd := exec.Command(kc, "explore", "kstate", "--addr", "127.0.0.1:0")
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
		io.Copy(io.Discard, stdout)
	}()
	var base string
	select {
	case s := <-line:
		base = regexp.MustCompile(`http://[0-9.:]+/`).FindString(s)
	case <-time.After(30 * time.Second):
		t.Fatal("explore printed no address")
	}
	if base == "" {
		t.Fatal("explore printed no address")
	}
	get := func(path string) []byte {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /%s: %s\n%s", path, resp.Status, body)
		}
		return body
	}
	var session struct {
		Initial  string
		Initials int
	}
	if err := json.Unmarshal(get("api/session"), &session); err != nil || session.Initials != 256 {
		t.Fatalf("GET /api/session: %v, %d initial states, want 4^4", err, session.Initials)
	}
	var picked struct{ ID string }
	if err := json.Unmarshal(get("api/initial?index=255"), &picked); err != nil || picked.ID == "" {
		t.Fatalf("GET /api/initial?index=255: %v", err)
	}
	if state := get("api/state?id=" + picked.ID); !strings.Contains(string(state), `"p3.x","value":"3"`) {
		t.Fatalf("GET /api/state of initial state 255 (every x = 3):\n%s", state)
	}
}
