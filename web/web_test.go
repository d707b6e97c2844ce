package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// maxGzipBytes is the budget: the client loads in under 200 KB gzipped.
const maxGzipBytes = 200 * 1024

// TestTheClientFitsItsBudget gzips every embedded file as the server sends it and fails
// above 200 KB. `go test ./web -run Budget -v` prints the figure.
func TestTheClientFitsItsBudget(t *testing.T) {
	files := Files()
	n := GzipSize(files)
	raw := 0
	for _, data := range files {
		raw += len(data)
	}
	t.Logf("%d files, %d bytes, %d bytes gzipped (budget %d)", len(files), raw, n, maxGzipBytes)
	if n > maxGzipBytes {
		t.Fatalf("the client is %d bytes gzipped, over its budget of %d", n, maxGzipBytes)
	}
}

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.Host = "127.0.0.1:8080"
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

// TestServedWithTypesPolicyAndCaching: the page and each file it loads (and each module
// those import) are served with their type, the strict policy and their caching: the page
// revalidated, the versioned files kept for good; an unchanged page is a 304, a gzip
// client gets gzip, and an unknown file is a 404.
func TestServedWithTypesPolicyAndCaching(t *testing.T) {
	h := Handler()
	resp := get(t, h, "/")
	body, _ := io.ReadAll(resp.Body)
	page := string(body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("GET / = %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self' ws://127.0.0.1:8080 wss://127.0.0.1:8080", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(page, "<script>") || strings.Contains(page, "style=") {
		t.Errorf("inline code or an unsafe policy: %q\n%s", csp, page)
	}
	if strings.Contains(page, "{{") || strings.Contains(page, "http") {
		t.Fatalf("the page is not filled in, or names another host:\n%s", page)
	}
	if again := get(t, h, "/", "If-None-Match", resp.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Errorf("an unchanged page was sent again: %d", again.StatusCode)
	}

	// Every file is reached from the page, through the imports of the modules.
	version := Version(Files())
	seen := map[string]bool{}
	queue := regexp.MustCompile(`(?:src|href)="(/web/[^"]+)"`).FindAllStringSubmatch(page, -1)
	var todo []string
	for _, m := range queue {
		todo = append(todo, m[1])
	}
	imports := regexp.MustCompile(`from "\./([\w.]+)"`)
	for len(todo) > 0 {
		path := todo[0]
		todo = todo[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		if !strings.HasPrefix(path, Prefix+version+"/") {
			t.Fatalf("%s is not under the version %s", path, version)
		}
		resp := get(t, h, path, "Accept-Encoding", "gzip, deflate")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("GET %s = %d, encoding %q", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(zr)
		want := map[bool]string{true: "text/javascript; charset=utf-8", false: "text/css; charset=utf-8"}[strings.HasSuffix(path, ".js")]
		if got := resp.Header.Get("Content-Type"); got != want || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: type %q, want %q", path, got, want)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: Cache-Control %q", path, cc)
		}
		for _, m := range imports.FindAllStringSubmatch(string(data), -1) {
			todo = append(todo, Prefix+version+"/"+m[1])
		}
	}
	for name := range Files() {
		if name != "index.html" && !seen[Prefix+version+"/"+name] {
			t.Errorf("%s is embedded but nothing loads it", name)
		}
	}
	for _, path := range []string{Prefix + version + "/nothing.js", Prefix + version + "/index.html", Prefix + "nothing"} {
		if resp := get(t, h, path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, resp.StatusCode)
		}
	}
	// An older page's request is served today's file, not kept.
	if resp := get(t, h, Prefix+"0123456789abcdef/app.js"); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("an older version's file: %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

// TestThePolicyNamesOnlyAPlainHost: a Host header that is not a plain host and port is
// not written into the policy.
func TestThePolicyNamesOnlyAPlainHost(t *testing.T) {
	for host, want := range map[string]bool{"example.com": true, "127.0.0.1:8080": true, "[::1]:8080": true, "a.com; script-src *": false, "a b": false, "": false} {
		if got := strings.Contains(policy(host), "ws://"); got != want {
			t.Errorf("policy(%q) = %q", host, policy(host))
		}
	}
}
