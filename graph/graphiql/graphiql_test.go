package graphiql

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestAssetsMatchTheManifest: every embedded file is in the MANIFEST with its SHA-256,
// and every file the MANIFEST lists is embedded, so a vendored file changed by hand, or
// a MANIFEST not rewritten by scripts/vendor-graphiql.sh, fails CI. No network needed.
func TestAssetsMatchTheManifest(t *testing.T) {
	manifest, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, a := range manifest {
		listed[a.Name] = true
		data, err := assets.ReadFile("assets/" + a.Name)
		if err != nil {
			t.Errorf("MANIFEST lists %s (%s %s), which is not embedded: run scripts/vendor-graphiql.sh", a.Name, a.Package, a.Source)
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != a.SHA256 {
			t.Errorf("%s: sha256 %x, MANIFEST says %s (%s %s): the file was changed outside scripts/vendor-graphiql.sh", a.Name, sum, a.SHA256, a.Package, a.Source)
		}
		if !regexp.MustCompile(`^[a-z-]+@\d+\.\d+\.\d+$`).MatchString(a.Package) {
			t.Errorf("%s: package %q is not pinned to an exact version", a.Name, a.Package)
		}
	}
	entries, err := fs.ReadDir(assets, "assets")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "MANIFEST" && !listed[e.Name()] {
			t.Errorf("assets/%s is embedded but not in the MANIFEST", e.Name())
		}
	}
}

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

// TestPageLoadsOnlyItsOwnAssets: the page names no other host, and each script and
// stylesheet it loads is served, with its type.
func TestPageLoadsOnlyItsOwnAssets(t *testing.T) {
	h := Handler("/graphql")
	resp := get(t, h, Prefix)
	body, _ := io.ReadAll(resp.Body)
	page := string(body)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET "+Prefix+" = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if strings.Contains(page, "//cdn") || strings.Contains(page, "https://") || strings.Contains(page, "http://") {
		t.Fatalf("the page names another host:\n%s", page)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) != 4 {
		t.Fatalf("the page loads %d files, want the stylesheet and three scripts: %q", len(refs), refs)
	}
	for _, ref := range refs {
		resp := get(t, h, ref[1])
		data, _ := io.ReadAll(resp.Body)
		want := "text/javascript"
		if strings.HasSuffix(ref[1], ".css") {
			want = "text/css"
		}
		if resp.StatusCode != http.StatusOK || len(data) == 0 || !strings.HasPrefix(resp.Header.Get("Content-Type"), want) {
			t.Errorf("GET %s = %d, %d bytes, %s", ref[1], resp.StatusCode, len(data), resp.Header.Get("Content-Type"))
		}
		// A browser that has it already gets a 304.
		if again := get(t, h, ref[1], "If-None-Match", resp.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag = %d, want 304", ref[1], again.StatusCode)
		}
	}
	for _, path := range []string{Prefix + "nothing.js", Prefix + "MANIFEST"} {
		if resp := get(t, h, path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, resp.StatusCode)
		}
	}
}
