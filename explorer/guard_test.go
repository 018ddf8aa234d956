package explorer

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ringcheck/mc/model"
)

// request sends method path to srv with the headers given ("Origin",
// "Sec-Fetch-Site", "Content-Type") and returns the response, body read.
func request(t *testing.T, srv *httptest.Server, method, path string, body []byte, headers map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(resp.Body)
	return resp, out.String()
}

func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	srv := httptest.NewServer(LocalOnly(New(build(t, literal)).Handler()))
	defer srv.Close()
	for _, c := range []struct {
		method, path, contentType string
		code                      int
	}{
		{"GET", "/", "", http.StatusOK},
		{"GET", "/app.js", "", http.StatusOK},
		{"GET", "/style.css", "", http.StatusOK},
		{"GET", "/api/session", "", http.StatusOK},
		{"GET", "/api/state?id=nosuch", "", http.StatusNotFound},
		{"GET", "/nosuchfile", "", http.StatusNotFound},
		{"POST", "/api/trace", "text/plain", http.StatusUnsupportedMediaType},
	} {
		resp, _ := request(t, srv, c.method, c.path, nil, map[string]string{"Content-Type": c.contentType})
		if resp.StatusCode != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.code)
		}
		for name, want := range map[string]string{
			"X-Frame-Options":              "DENY",
			"X-Content-Type-Options":       "nosniff",
			"Cross-Origin-Resource-Policy": "same-origin",
			"Content-Security-Policy":      securityHeaders["Content-Security-Policy"],
		} {
			if got := resp.Header.Get(name); got != want {
				t.Errorf("%s %s: %s: %q, want %q", c.method, c.path, name, got, want)
			}
		}
	}
	for _, directive := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(securityHeaders["Content-Security-Policy"], directive) {
			t.Errorf("the Content-Security-Policy lacks %s", directive)
		}
	}
}

// A page of another origin can send a POST to the explorer without a
// preflight (text/plain, no-cors); the explorer refuses it, and every
// request a browser marks as coming from another site, and its session
// stays as it was. The same upload from the explorer's own page loads.
func TestCrossSiteRequestsAreRefused(t *testing.T) {
	srv := httptest.NewServer(LocalOnly(New(build(t, model.Params{N: 4, IDs: []int{3, 1, 4, 2}})).Handler()))
	defer srv.Close()
	var before sessionJSON
	get(t, srv.URL+"/api/session", &before)
	trace := traceFileOf(t, literal, "election-complete")
	json := "application/json"
	for _, c := range []struct {
		name    string
		method  string
		path    string
		headers map[string]string
		code    int
	}{
		{"text/plain, the simple request", "POST", "/api/trace", map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		{"no content type", "POST", "/api/trace", map[string]string{}, http.StatusUnsupportedMediaType},
		{"a form", "POST", "/api/trace", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{"another host", "POST", "/api/trace", map[string]string{"Content-Type": json, "Origin": "http://attacker.example"}, http.StatusForbidden},
		{"another port", "POST", "/api/trace", map[string]string{"Content-Type": json, "Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"an opaque origin", "POST", "/api/trace", map[string]string{"Content-Type": json, "Origin": "null"}, http.StatusForbidden},
		{"same-site", "POST", "/api/trace", map[string]string{"Content-Type": json, "Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"cross-site", "POST", "/api/trace", map[string]string{"Content-Type": json, "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"a cross-site read", "GET", "/api/session", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"a cross-site state", "GET", "/api/state?id=" + before.Initial, map[string]string{"Origin": "http://attacker.example"}, http.StatusForbidden},
	} {
		resp, msg := request(t, srv, c.method, c.path, trace, c.headers)
		if resp.StatusCode != c.code || msg == "" {
			t.Errorf("%s: %d %q, want %d with a message", c.name, resp.StatusCode, msg, c.code)
		}
		var now sessionJSON
		get(t, srv.URL+"/api/session", &now)
		if now.Gen != before.Gen || now.Trace != nil {
			t.Fatalf("%s changed the session: generation %d → %d, trace %v", c.name, before.Gen, now.Gen, now.Trace != nil)
		}
	}
	// The page itself may be opened from a link on another site.
	if resp, _ := request(t, srv, "GET", "/", nil, map[string]string{"Sec-Fetch-Site": "cross-site"}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET / from a link elsewhere: %d", resp.StatusCode)
	}
	// What the explorer's page sends loads.
	own := map[string]string{"Content-Type": json, "Origin": srv.URL, "Sec-Fetch-Site": "same-origin"}
	if resp, msg := request(t, srv, "POST", "/api/trace", trace, own); resp.StatusCode != http.StatusOK {
		t.Fatalf("the page's own upload: %d %s", resp.StatusCode, msg)
	}
	var after sessionJSON
	get(t, srv.URL+"/api/session", &after)
	if after.Gen != before.Gen+1 || after.Trace == nil {
		t.Fatalf("the page's own upload did not load: %+v", after)
	}
}

func TestUploadsAreBoundedInSize(t *testing.T) {
	srv := httptest.NewServer(New(build(t, literal)).Handler())
	defer srv.Close()
	huge := append([]byte(`{"format": "mc-trace", "mc_version": "`), bytes.Repeat([]byte("a"), maxTraceBytes)...)
	if code, msg := post(t, srv.URL+"/api/trace", huge, nil); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("an upload of %d bytes: %d %s, want 413", len(huge), code, msg)
	}
}

// Trace uploads, the one request whose work grows with what the client
// sends, are loaded one at a time; one that waits too long is answered
// 503, and once the turn is free an upload loads.
func TestUploadsAreLoadedOneAtATime(t *testing.T) {
	s := New(build(t, literal))
	s.wait = 50 * time.Millisecond
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	trace := traceFileOf(t, literal, "election-complete")
	s.heavy <- struct{}{} // another upload is being loaded
	resp, msg := request(t, srv, "POST", "/api/trace", trace, map[string]string{"Content-Type": "application/json"})
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(msg, "busy") {
		t.Fatalf("an upload while another loads: %d %q, Retry-After %q", resp.StatusCode, msg, resp.Header.Get("Retry-After"))
	}
	<-s.heavy
	if code, msg := post(t, srv.URL+"/api/trace", trace, nil); code != http.StatusOK {
		t.Fatalf("an upload once the turn is free: %d %s", code, msg)
	}
	if len(s.heavy) != 0 {
		t.Fatal("the upload did not give its turn back")
	}
}
