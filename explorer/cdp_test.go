//go:build unix

package explorer

// A minimal client of the Chrome DevTools Protocol, enough to drive a real
// headless Chromium from a Go test: start the browser, open a WebSocket to
// its page (RFC 6455, written here on the standard library), evaluate
// JavaScript and hand a file to a file input. Debian's chromium package
// provides the browser; nothing else is needed.

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chromiumFlags run Chromium headless, as root, with no network of its own.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--remote-debugging-port=0", "--window-size=1200,1000",
}

// browser is a running Chromium with one page attached.
type browser struct {
	cmd     *exec.Cmd
	profile string
	conn    net.Conn
	rd      *bufio.Reader
	next    int
}

// startBrowser starts Chromium on about:blank and connects to its page. The
// test fails if Chromium is missing, unless MC_SKIP_BROWSER=1 is set.
func startBrowser(t *testing.T, ctx context.Context) *browser {
	t.Helper()
	if os.Getenv("MC_SKIP_BROWSER") == "1" {
		t.Skip("MC_SKIP_BROWSER=1: skipping the test in headless Chromium")
	}
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: apt-get install -y chromium (or set MC_SKIP_BROWSER=1 to skip this test)")
	}
	profile, err := os.MkdirTemp("", "mc-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile, "about:blank")
	cmd := exec.CommandContext(ctx, bin, args...)
	// Chromium's helpers share its process group, so that close ends them
	// all, and nothing writes to the profile while it is removed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &browser{cmd: cmd, profile: profile}
	t.Cleanup(b.close)
	// Chromium prints "DevTools listening on ws://127.0.0.1:PORT/…" on stderr.
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on ws://([^/]+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var hostport string
	select {
	case hostport = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("chromium did not open its DevTools port within 30s")
	}
	ws, err := pageSocket(hostport)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.dial(ws); err != nil {
		t.Fatal(err)
	}
	return b
}

// close ends the browser's process group (the one it started) and removes
// its profile.
func (b *browser) close() {
	if b.conn != nil {
		b.conn.Close()
	}
	syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	b.cmd.Wait()
	for i := 0; i < 20 && os.RemoveAll(b.profile) != nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

// pageSocket finds the WebSocket address of the browser's page target.
func pageSocket(hostport string) (string, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + hostport + "/json/list")
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, t := range targets {
				if t.Type == "page" && t.WebSocketDebuggerURL != "" {
					return t.WebSocketDebuggerURL, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no page target in chromium: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dial opens the WebSocket: an HTTP/1.1 upgrade, then frames.
func (b *browser) dial(addr string) error {
	u, err := url.Parse(addr)
	if err != nil {
		return err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return err
	}
	var nonce [16]byte
	rand.Read(nonce[:])
	key := base64.StdEncoding.EncodeToString(nonce[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		conn.Close()
		return err
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return fmt.Errorf("websocket upgrade refused: %s", resp.Status)
	}
	b.conn, b.rd = conn, rd
	return nil
}

// writeText sends one masked text frame, as a client must.
func (b *browser) writeText(payload []byte) error {
	hdr := []byte{0x81}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	masked := make([]byte, len(payload))
	for i, c := range payload {
		masked[i] = c ^ mask[i%4]
	}
	_, err := b.conn.Write(append(hdr, masked...))
	return err
}

// readMessage reads one whole (possibly fragmented) message.
func (b *browser) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(b.rd, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var x [2]byte
			if _, err := io.ReadFull(b.rd, x[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(x[:]))
		case 127:
			var x [8]byte
			if _, err := io.ReadFull(b.rd, x[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(x[:])
		}
		if n > 256<<20 {
			return nil, errors.New("websocket frame too large")
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(b.rd, data); err != nil {
			return nil, err
		}
		switch op {
		case 0x8:
			return nil, errors.New("chromium closed the connection")
		case 0x9, 0xA: // ping, pong: Chromium does not send them here
			continue
		}
		msg = append(msg, data...)
		if fin {
			return msg, nil
		}
	}
}

// call sends one DevTools command and waits for its result, skipping the
// events that arrive meanwhile.
func (b *browser) call(method string, params any, result any) error {
	b.next++
	id := b.next
	req, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	b.conn.SetDeadline(time.Now().Add(30 * time.Second))
	if err := b.writeText(req); err != nil {
		return err
	}
	for {
		data, err := b.readMessage()
		if err != nil {
			return err
		}
		var resp struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(data, &resp); err != nil {
			return err
		}
		if resp.ID != id {
			continue
		}
		if resp.Error != nil {
			return fmt.Errorf("%s: %s", method, resp.Error.Message)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(resp.Result, result)
	}
}

// eval evaluates a JavaScript expression in the page (awaiting it if it is
// a promise) and decodes its value into out.
func (b *browser) eval(expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		if e.Exception != nil {
			return fmt.Errorf("javascript: %s", e.Exception.Description)
		}
		return fmt.Errorf("javascript: %s", e.Text)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// waitFor polls a JavaScript condition until it is true.
func (b *browser) waitFor(t *testing.T, cond string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var ok bool
		err := b.eval("!!("+cond+")", &ok)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var errText string
			b.eval(`document.getElementById("error").textContent`, &errText)
			t.Fatalf("timed out waiting for %s (last error %v; page error %q)", cond, err, errText)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// setFile gives the file at path to the file input matching selector, as a
// user picking it would; the page receives its change event.
func (b *browser) setFile(selector, path string) error {
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	if err := b.call("DOM.getDocument", map[string]any{}, &doc); err != nil {
		return err
	}
	var q struct {
		NodeID int `json:"nodeId"`
	}
	if err := b.call("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}, &q); err != nil {
		return err
	}
	if q.NodeID == 0 {
		return fmt.Errorf("no element %s", selector)
	}
	return b.call("DOM.setFileInputFiles", map[string]any{"nodeId": q.NodeID, "files": []string{path}}, nil)
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return strings.TrimSpace(string(b))
}
