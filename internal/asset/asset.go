// Package asset serves files built into the binary over HTTP, the one way every such file
// is served (the web client's, GraphiQL's): with its type, a strong ETag taken from its
// bytes, gzipped for a client that accepts it (its own ETag then, as each encoding is its
// own representation), and the caching its handler chooses. Conditional requests and
// ranges are answered by http.ServeContent, so an unchanged file costs a 304.
package asset

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// File is one file ready to send: its bytes, type and ETag, and its bytes gzipped, made
// at the first request that takes them (a server that never serves GraphiQL's megabytes
// never compresses them, and a server starts without waiting for it).
type File struct {
	plain []byte
	ctype string
	etag  string
	gz    func() []byte
}

// New prepares the file named name (its extension gives its type) holding data.
func New(name string, data []byte) *File {
	sum := sha256.Sum256(data)
	return &File{plain: data, ctype: Type(name), etag: `"` + hex.EncodeToString(sum[:16]) + `"`,
		gz: sync.OnceValue(func() []byte { return Gzip(data) })}
}

// Serve writes the file with its headers and cacheControl (the Cache-Control its handler
// chooses), gzipped for a client that takes it, or a 304 to a client that holds it. Headers
// set on w before the call (a Content-Security-Policy) are kept.
func (f *File) Serve(w http.ResponseWriter, r *http.Request, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", cacheControl)
	h.Set("Vary", "Accept-Encoding")
	h.Set("X-Content-Type-Options", "nosniff")
	body, etag := f.plain, f.etag
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body, etag = f.gz(), strings.TrimSuffix(f.etag, `"`)+`-gz"`
	}
	h.Set("ETag", etag)
	// ServeContent answers If-None-Match from the ETag, and ranges; the type is set, so it
	// sniffs nothing.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// Gzip is data gzipped at the best compression, as Serve sends it.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // a valid level: no error
	_, _ = w.Write(data)                                  // a bytes.Buffer does not fail
	_ = w.Close()
	return b.Bytes()
}

// acceptsGzip says whether the request's Accept-Encoding takes gzip (not refused by q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(coding) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// Type is the Content-Type of a file by its extension; text that is not a page, a script,
// a stylesheet or an image (a licence) is plain text.
func Type(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "text/plain; charset=utf-8"
}
