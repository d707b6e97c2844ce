package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserGetsEveryBuiltInFileAlike: the files built into the binary, the web client's
// and GraphiQL's, are served one way (internal/asset): each script and stylesheet reaches
// Chromium gzipped, and on a reload GraphiQL's (whose names carry no version) each cost a
// 304, the client's (versioned, kept for good) nothing at all.
func TestBrowserGetsEveryBuiltInFileAlike(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	b := newBrowser(t, srv.url, 2*time.Minute)
	// files lists the page's own scripts and stylesheets as Resource Timing measured them:
	// name, bytes on the wire (headers included), body as sent and body decoded.
	const files = `performance.getEntriesByType("resource").filter((e) => /\/(web|graphiql)\/.*\.(js|css)$/.test(e.name))
		.map((e) => ({ name: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize }))`
	type entry struct {
		Name                       string
		Transfer, Encoded, Decoded int
	}
	for _, c := range []struct {
		path, ready string
		versioned   bool
		want        int // files the page loads
	}{
		{"/", "section.lobby", true, 0},
		{"/graphiql/", ".graphiql-container", false, 4},
	} {
		p := b.open("page"+filepath.Base(c.path), c.path)
		p.wait("the page drawn", `!!document.querySelector(`+jsString(c.ready)+`)`)
		loaded, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]entry](files))
		if err != nil {
			t.Fatal(err)
		}
		if len(loaded) == 0 || c.want > 0 && len(loaded) != c.want {
			t.Fatalf("%s loaded %+v", c.path, loaded)
		}
		for _, e := range loaded {
			if e.Encoded == 0 || e.Encoded >= e.Decoded {
				t.Errorf("%s: %s came as %d bytes for %d: not gzipped", c.path, e.Name, e.Encoded, e.Decoded)
			}
		}
		if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		p.wait("the page drawn again", `!!document.querySelector(`+jsString(c.ready)+`)`)
		again, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]entry](files))
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(loaded) {
			t.Fatalf("%s loaded %+v, then on a reload %+v", c.path, loaded, again)
		}
		for _, e := range again {
			// Kept, nothing crosses the wire; revalidated, a 304 brings headers and no body.
			kept, revalidated := e.Transfer == 0, e.Transfer > 0 && e.Encoded == 0
			if c.versioned && !kept || !c.versioned && !revalidated {
				t.Errorf("%s reloaded: %s cost %d bytes on the wire, %d of body (versioned: %v)", c.path, e.Name, e.Transfer, e.Encoded, c.versioned)
			}
		}
	}
}
