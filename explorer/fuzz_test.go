package explorer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzHandlers sends arbitrary requests to the explorer's HTTP API: no
// request, however malformed, gets a 500 (which the recoverer would turn a
// panic into), and every error is answered 4xx.
func FuzzHandlers(f *testing.F) {
	for _, seed := range []struct{ method, target, body string }{
		{"GET", "/api/session", ""},
		{"GET", "/api/state?id=0", ""},
		{"GET", "/api/state?id=zzz", ""},
		{"GET", "/api/state?id=-1", ""},
		{"GET", "/api/state", ""},
		{"GET", "/api/initials?q=p0.id%3D3&offset=0&limit=10", ""},
		{"GET", "/api/initials?offset=99999999999999999999", ""},
		{"GET", "/api/initial?index=0", ""},
		{"GET", "/api/initial?index=1", ""},
		{"POST", "/api/trace", "{}"},
		{"POST", "/api/trace", "not json"},
		{"POST", "/api/trace", string(traceFileOf(f, literal, "election-complete"))},
		{"GET", "/", ""},
		{"GET", "/app.js", ""},
	} {
		f.Add(seed.method, seed.target, seed.body)
	}
	srv := New(build(f, literal))
	h := srv.Handler()
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if method != "GET" && method != "POST" {
			method = "GET"
		}
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t") {
			t.Skip()
		}
		req, err := http.NewRequest(method, "http://localhost"+target, strings.NewReader(body))
		if err != nil {
			t.Skip()
		}
		req.Header.Set("Content-Type", "application/json") // as the page sends it
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s (body %q): %d %s", method, target, body, w.Code, w.Body)
		}
	})
}
