package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// lookBrowser finds the first of names on PATH: under CI=true its absence fails the test
// (.ci/run installs Debian's package pkg), elsewhere it skips with the reason.
//
// Under the race detector every browser test skips: what they check is the web client,
// run by the browser, another process the detector does not watch, and the server they
// drive is the API that the other tests of this package drive under it (websockets,
// subscriptions, the hubs). They run in every `go test ./...`; running them again under
// -race, each with its own browser, was the largest share of .ci/run's race step (README, "CI").
func lookBrowser(t *testing.T, pkg string, names ...string) string {
	t.Helper()
	if raceDetector {
		t.Skip("the browser runs the web client in another process, which the race detector does not watch: run without -race")
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("none of %q on PATH under CI=true: apt-get install %s (.ci/run does it when missing)", names, pkg)
	}
	t.Skipf("none of %q on PATH (apt-get install %s): the pages are not checked in this browser", names, pkg)
	return ""
}

// chromium finds a Chromium to drive.
func chromium(t *testing.T) string {
	t.Helper()
	return lookBrowser(t, "chromium", "chromium", "chromium-browser", "google-chrome")
}

// headless is how every browser test starts Chromium: headless, in a profile of its own,
// reaching nothing but loopback (a proxy that refuses every connection: loopback is never
// proxied).
func headless(t *testing.T, exe string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Tabs in the background keep their timers and animation frames running: the
		// pages of one test play against each other at once.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.ProxyServer("127.0.0.1:1"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	}
}

// browser is one headless Chromium for a test. Each page it opens is a tab in a browser
// context of its own (its own localStorage: its own player). On failure every page's
// screenshot is saved in the test's artifact directory (kept with go test -artifacts,
// else a temporary directory) and its errors logged.
type browser struct {
	t        *testing.T
	ctx      context.Context
	url      string
	deadline time.Time // of every wait
	mu       sync.Mutex
	pages    []*tab
}

// tab is one page of a browser test.
type tab struct {
	b      *browser
	name   string
	ctx    context.Context
	mu     sync.Mutex
	errors []string // exceptions thrown and console errors
}

// newBrowser starts Chromium for a test against the server at url. within bounds every
// wait of the test: each ends by its condition or at that deadline. The browser itself
// lives a minute longer, to take the screenshots of a test that failed by it.
func newBrowser(t *testing.T, url string, within time.Duration) *browser {
	exe := chromium(t)
	deadline := time.Now().Add(within)
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(time.Minute))
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, headless(t, exe)...)
	t.Cleanup(cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium (%s): %v", exe, err)
	}
	b := &browser{t: t, ctx: ctx, url: url, deadline: deadline}
	t.Cleanup(b.report) // before the contexts end: cleanups run last first
	return b
}

// open opens a page of the server (path: "/", "/#/watch/ID") in a new browser context.
func (b *browser) open(name, path string) *tab {
	b.t.Helper()
	ctx, _ := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	return b.start(ctx, name, path)
}

// another opens a page of the server in a new tab of p's browser context: the same
// person's other tab, sharing p's localStorage (its player).
func (p *tab) another(name, path string) *tab {
	p.b.t.Helper()
	ctx, _ := chromedp.NewContext(p.ctx) // no target of its own yet: a new tab, in p's browser context
	return p.b.start(ctx, name, path)
}

// start records the tab of ctx, listens to its errors and opens path in it.
func (b *browser) start(ctx context.Context, name, path string) *tab {
	b.t.Helper()
	p := &tab{b: b, name: name, ctx: ctx}
	b.mu.Lock()
	b.pages = append(b.pages, p)
	b.mu.Unlock()
	err := chromedp.Listen(ctx, func(ev any) {
		var text string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			text = ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				text += " " + ev.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				return
			}
			for _, a := range ev.Args {
				text += " " + string(a.Value) + a.Description
			}
		default:
			return
		}
		p.mu.Lock()
		p.errors = append(p.errors, text)
		p.mu.Unlock()
	})
	if err == nil {
		_, err = chromedp.Call(ctx, runtime.Enable, cdp.Empty{})
	}
	if err == nil {
		// Every violation of the page's Content-Security-Policy is kept, to fail the test.
		_, err = chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__violations = []; document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));`,
		})
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Navigate(b.url+path))
	}
	if err != nil {
		b.t.Fatalf("%s: opening %s: %v", name, path, err)
	}
	return p
}

// report logs each page's errors and saves its screenshot when the test failed, and fails
// it when a page threw, logged an error or broke its policy.
func (b *browser) report() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.pages {
		violations, _ := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](`window.__violations || []`))
		p.mu.Lock()
		errs := append(p.errors, violations...)
		p.mu.Unlock()
		if len(errs) > 0 {
			b.t.Errorf("%s: the page reported errors: %q", p.name, errs)
		}
		if !b.t.Failed() {
			continue
		}
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		cancel()
		if err != nil {
			b.t.Logf("%s: no screenshot: %v", p.name, err)
			continue
		}
		path := filepath.Join(b.t.ArtifactDir(), p.name+".png")
		if err := os.WriteFile(path, png, 0o644); err == nil {
			b.t.Logf("%s: screenshot %s", p.name, path)
		}
	}
}

// wait waits until the JavaScript expression is truthy, re-checked at each change of the
// page's DOM (never on a timer), and returns its value as a string. It fails the test at
// the browser's deadline, saying what it waited for.
func (p *tab) wait(what, expr string) string {
	p.b.t.Helper()
	ctx, cancel := context.WithDeadline(p.ctx, p.b.deadline)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Poll[any](expr, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(0)))
	if err != nil {
		p.b.t.Fatalf("%s: waiting for %s: %v", p.name, what, err)
	}
	return fmt.Sprint(v)
}

// has waits for an element.
func (p *tab) has(what, selector string) {
	p.b.t.Helper()
	p.wait(what, `document.querySelector(`+jsString(selector)+`)`)
}

// clicks numbers every click of the tests: see click.
var clicks atomic.Int64

// click waits for an enabled element and clicks it in the same turn of the page's loop,
// so that a list redrawn meanwhile cannot take it away between finding and clicking. It
// clicks once: the wait's MutationObserver may run the expression again, on the click's
// own changes, before it has seen it succeed (a second click would undo a selection), so
// the page remembers the number of the click done.
func (p *tab) click(what, selector string) {
	p.b.t.Helper()
	n := clicks.Add(1)
	p.wait(what, fmt.Sprintf(`(() => { if (window.__clicked === %d) return true; const el = document.querySelector(%s); if (!el || el.disabled) return false; el.click(); window.__clicked = %d; return true; })()`, n, jsString(selector), n))
}

// eval runs JavaScript in the page and returns its value as a string.
func (p *tab) eval(expr string) string {
	p.b.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		p.b.t.Fatalf("%s: %s: %v", p.name, expr, err)
	}
	return fmt.Sprint(v)
}

// signUp registers the page's player as a guest with the form at the top of the page.
func (p *tab) signUp(name string) {
	p.b.t.Helper()
	p.wait("the sign-up form", `(() => { const f = document.querySelector("form.signup"); if (!f) return false; f.elements.name.value = `+jsString(name)+`; f.requestSubmit(); return true; })()`)
	p.has("the player's name in the header", `#who [data-player]`)
}

// move plays a move by clicking its piece, then its destination, once the board offers it.
func (p *tab) move(from, to string) {
	p.b.t.Helper()
	p.click("the piece on "+from, `.sq.movable[data-square="`+from+`"]`)
	p.click("the square "+to, `.sq.dest[data-square="`+to+`"]`)
}

// drag plays a move with the mouse as a person drags a piece: pressed on its square,
// moved and released on the destination, through Chromium's input events.
func (p *tab) drag(from, to string) {
	p.b.t.Helper()
	p.has("the piece on "+from, `.sq.movable[data-square="`+from+`"]`)
	center := func(sq string) (x, y float64) {
		r := p.eval(`(() => { const r = document.querySelector('[data-square="` + sq + `"]').getBoundingClientRect(); return (r.x + r.width / 2) + " " + (r.y + r.height / 2); })()`)
		if _, err := fmt.Sscan(r, &x, &y); err != nil {
			p.b.t.Fatalf("%s: where is %s: %q", p.name, sq, r)
		}
		return x, y
	}
	x0, y0 := center(from)
	x1, y1 := center(to)
	err := chromedp.Do(p.ctx,
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x1, y1, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	if err != nil {
		p.b.t.Fatalf("%s: dragging %s to %s: %v", p.name, from, to, err)
	}
}

// matchID is the ID of the match the page shows.
func (p *tab) matchID() string {
	p.b.t.Helper()
	return p.wait("a match page", `document.querySelector("section[data-match-id]")?.dataset.matchId`)
}

// movesShown waits until the page's moves list holds exactly want.
func (p *tab) movesShown(want ...string) {
	p.b.t.Helper()
	p.wait(fmt.Sprintf("the moves %q", want), `Array.from(document.querySelectorAll("ol.moves li"), (li) => li.textContent).join(" ") === `+jsString(strings.Join(want, " ")))
}
