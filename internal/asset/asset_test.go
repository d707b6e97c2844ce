package asset

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func get(f *File, header ...string) *http.Response {
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	f.Serve(w, r, "no-cache")
	return w.Result()
}

// TestServedPlainGzippedAndRevalidated: a client that takes gzip gets the file gzipped
// under its own ETag, one that refuses it (q=0) or says nothing gets it plain; each gets a
// 304 for its own ETag and the whole file for the other's.
func TestServedPlainGzippedAndRevalidated(t *testing.T) {
	data := []byte("export const x = 1; // a module, long enough to be worth compressing, compressing\n")
	f := New("x.js", data)
	plain := get(f)
	body, _ := io.ReadAll(plain.Body)
	if plain.StatusCode != 200 || string(body) != string(data) || plain.Header.Get("Content-Encoding") != "" ||
		plain.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || plain.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("plain: %d %q %v", plain.StatusCode, body, plain.Header)
	}
	if r := get(f, "Accept-Encoding", "br, gzip;q=0"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip refused with q=0, sent %q", r.Header.Get("Content-Encoding"))
	}
	gz := get(f, "Accept-Encoding", "gzip, deflate")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	if gz.Header.Get("Content-Encoding") != "gzip" || string(unzipped) != string(data) || gz.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("gzipped: %v %q", gz.Header, unzipped)
	}
	if gz.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Fatalf("both encodings are tagged %s", gz.Header.Get("ETag"))
	}
	for _, c := range []struct {
		etag, encoding string
		want           int
	}{
		{plain.Header.Get("ETag"), "", http.StatusNotModified},
		{gz.Header.Get("ETag"), "gzip", http.StatusNotModified},
		{plain.Header.Get("ETag"), "gzip", http.StatusOK},
		{`"another"`, "", http.StatusOK},
	} {
		if r := get(f, "If-None-Match", c.etag, "Accept-Encoding", c.encoding); r.StatusCode != c.want {
			t.Errorf("If-None-Match %s, Accept-Encoding %q: %d, want %d", c.etag, c.encoding, r.StatusCode, c.want)
		}
	}
}
