package explorer

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// securityHeaders go on every response. The page loads nothing but its own
// script and style and talks only to its own server (Content-Security-
// Policy); no other page may frame it (X-Frame-Options, frame-ancestors),
// read its responses as a script or an image (Cross-Origin-Resource-Policy)
// or have a response sniffed into another type (X-Content-Type-Options).
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Frame-Options":              "DENY",
	"X-Content-Type-Options":       "nosniff",
	"Cross-Origin-Resource-Policy": "same-origin",
	"Referrer-Policy":              "no-referrer",
}

// guard wraps the explorer's handler against the other pages open in the
// user's browser, which can send requests to a server on localhost (a
// "simple" cross-origin POST needs no preflight). It sets securityHeaders
// on every response, and it answers a request to the API only from the
// explorer's own page:
//   - one that a browser marks as coming from another origin, by
//     Sec-Fetch-Site (same-site covers another port of the same host) or
//     by an Origin header naming another host and port, is refused, 403;
//   - a request that changes the session (POST) must carry its body as
//     Content-Type application/json, which a page of another origin can
//     send only after a CORS preflight that the explorer never grants
//     (Jupyter's rule), else 415.
//
// The page itself may be opened from anywhere, by a link or a bookmark:
// it reads nothing and changes nothing.
func guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if why := crossSite(r); why != "" {
				http.Error(w, "mc explore refuses requests from other sites: "+why, http.StatusForbidden)
				return
			}
			if r.Method != http.MethodGet && r.Method != http.MethodHead && !isJSON(r.Header.Get("Content-Type")) {
				http.Error(w, "mc explore takes a request body only as Content-Type: application/json", http.StatusUnsupportedMediaType)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// crossSite says why r comes from a page of another origin, or "" if
// nothing says it does. Sec-Fetch-Site is "none" when the user typed the
// address; a client that is no browser sends neither header.
func crossSite(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return "Sec-Fetch-Site: " + site
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err != nil || !strings.EqualFold(u.Host, r.Host) || (u.Scheme != "http" && u.Scheme != "https") {
		return "Origin: " + origin
	}
	return ""
}

// isJSON says whether a Content-Type names JSON.
func isJSON(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && media == "application/json"
}
