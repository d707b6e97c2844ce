// Package web serves the browser client: a lobby, the boards of every game, watching and
// replaying, written as plain ES modules with no framework and no build step. Its files
// (static/) are embedded in the binary, so `arbiter serve` alone serves it with no network.
//
// The page is at "/", its files under Prefix + a version + "/": the version is a hash of
// every file, so a file's URL changes whenever any file does and the browser may keep it
// forever (immutable), while the page itself is revalidated at each load. Every answer
// carries a strict Content-Security-Policy: the page runs its own scripts and talks to its
// own host, nothing else.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/arbiter-games/arbiter/internal/asset"
)

// Prefix is where the client's files are served, under a version.
const Prefix = "/web/"

//go:embed static
var static embed.FS

// Files lists the embedded files by name (index.html, app.js...).
func Files() map[string][]byte {
	out := map[string][]byte{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := static.ReadFile(p)
		out[strings.TrimPrefix(p, "static/")] = data
		return err
	})
	if err != nil {
		panic("web: " + err.Error()) // the embedded files are part of the build
	}
	return out
}

// GzipSize is the size of every file gzipped one by one at the best compression, as the
// server sends them: what a browser downloads to load the client.
func GzipSize(files map[string][]byte) int {
	n := 0
	for _, data := range files {
		n += len(asset.Gzip(data))
	}
	return n
}

// Version is the hash every asset URL carries.
func Version(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		h.Write([]byte(name + "\x00"))
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// hostPattern is a Host header that may be written into the policy as it is.
var hostPattern = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

// policy is the page's Content-Security-Policy: its own scripts, styles and images,
// requests and websockets to its own host only, no plugins, no framing, no inline code.
// The websocket origins are named as well as 'self', for browsers that do not count
// ws: as 'self'.
func policy(host string) string {
	connect := "'self'"
	if hostPattern.MatchString(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src " + connect + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// Handler serves the page at "/" and the files under Prefix: mount it on both.
func Handler() http.Handler {
	files := Files()
	version := Version(files)
	served := map[string]*asset.File{}
	for name, data := range files {
		if name == "index.html" {
			// The page names its files under the version.
			data = bytes.ReplaceAll(data, []byte("{{ASSETS}}"), []byte(Prefix+version+"/"))
		}
		served[name] = asset.New(name, data)
	}
	page := served["index.html"]
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// Revalidated at each load (a 304 when unchanged), so that a new server's page,
		// naming its new version, is seen at once.
		send(w, r, page, "no-cache")
	})
	mux.HandleFunc("GET "+Prefix+"{version}/{name}", func(w http.ResponseWriter, r *http.Request) {
		f := served[r.PathValue("name")]
		if f == nil || r.PathValue("name") == "index.html" {
			http.NotFound(w, r)
			return
		}
		if r.PathValue("version") != version {
			// A page of an older server asks for its files: today's are served, not kept.
			send(w, r, f, "no-cache")
			return
		}
		send(w, r, f, "public, max-age=31536000, immutable")
	})
	return mux
}

// send writes one file with the page's policy, by asset.File.Serve.
func send(w http.ResponseWriter, r *http.Request, f *asset.File, cache string) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", policy(r.Host))
	f.Serve(w, r, cache)
}
