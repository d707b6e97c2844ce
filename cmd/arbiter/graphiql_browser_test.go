package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestGraphiQLWorksOffline opens /graphiql/ in a real headless Chromium that may reach nothing but
// the test server, waits for GraphiQL's editor, runs a query with its run button and
// checks that the result pane shows what the API answers. A page that loads anything from
// another host (a CDN) never gets its editor, and the request is named in the failure.
func TestGraphiQLWorksOffline(t *testing.T) {
	exe := chromium(t)
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))

	// Every wait below ends by its condition or by this deadline, generous for a loaded
	// two-core machine starting a browser.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, headless(t, exe)...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()

	var mu sync.Mutex
	var blocked, exceptions []string
	// A page that asks another host for a file cannot work offline: the first such
	// request ends the waits for the page at once.
	wait, offline := context.WithCancel(ctx)
	defer offline()
	// Requests to the test server go on; any other is refused and remembered. (Events
	// delivers from its own goroutine, so answering the browser from the loop is safe.)
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			if strings.HasPrefix(ev.Request.URL, srv.url+"/") {
				_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				continue
			}
			mu.Lock()
			blocked = append(blocked, ev.Request.URL)
			mu.Unlock()
			offline()
			_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		}
	}()
	if err := chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventExceptionThrown); ok && ev.ExceptionDetails != nil {
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			mu.Lock()
			exceptions = append(exceptions, text)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("starting Chromium (%s): %v", exe, err)
	}
	defer func() {
		if !t.Failed() {
			return
		}
		mu.Lock()
		t.Logf("requests refused: %q; page exceptions: %q", blocked, exceptions)
		mu.Unlock()
		shot, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		png, err := chromedp.Run(shot, chromedp.FullScreenshot(100))
		if err != nil {
			t.Logf("no screenshot: %v", err)
			return
		}
		path := filepath.Join(t.TempDir(), "graphiql.png")
		if err := os.WriteFile(path, png, 0o644); err == nil {
			t.Logf("screenshot: %s", path)
		}
	}()

	const query = "{ games { id name rulesVersion } }"
	editor := `document.querySelector(".graphiql-query-editor .CodeMirror")`
	err := chromedp.Do(ctx,
		func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}})
			return chromedp.Void{}, err
		},
		func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{})
			return chromedp.Void{}, err
		},
		chromedp.Navigate(srv.url+"/graphiql/"),
	)
	if err == nil {
		err = chromedp.Do(wait, chromedp.WaitVisible(chromedp.CSS(".graphiql-query-editor .CodeMirror")))
	}
	if err != nil {
		t.Fatalf("GraphiQL's editor did not render at %s/graphiql/: %v", srv.url, err)
	}
	// The schema loads by introspection: the documentation explorer (the sidebar's first
	// button) lists the root types once it has, or shows why it could not.
	if err := chromedp.Do(wait, chromedp.Click(chromedp.CSS(".graphiql-sidebar button"))); err != nil {
		t.Fatalf("opening the documentation explorer: %v", err)
	}
	docs, err := chromedp.Run(wait, chromedp.Poll[string](`(() => {
		const d = document.querySelector(".graphiql-doc-explorer");
		const text = d ? d.innerText : "";
		return text.includes("Root Types") || /error/i.test(text) ? text : false;
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
	if err != nil || !strings.Contains(docs, "Root Types") || !strings.Contains(docs, "Query") {
		t.Fatalf("the documentation explorer shows no schema (%v):\n%s", err, docs)
	}
	if _, err := chromedp.Run(wait, chromedp.Evaluate[bool](`(`+editor+`.CodeMirror.setValue(`+jsString(query)+`), true)`)); err != nil {
		t.Fatalf("typing the query: %v", err)
	}
	if err := chromedp.Do(wait, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
		t.Fatalf("clicking the run button: %v", err)
	}
	// The result pane holds JSON with data (or errors) once the answer is in; the poll
	// ends then, or at the test's deadline.
	pane, err := chromedp.Run(wait, chromedp.Poll[string](`(() => {
		const cm = document.querySelector(".graphiql-response .CodeMirror");
		const text = cm ? cm.CodeMirror.getValue() : "";
		return text.includes('"data"') || text.includes('"errors"') ? text : false;
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
	if err != nil {
		t.Fatalf("the result pane never showed an answer: %v", err)
	}

	var shown struct {
		Data   json.RawMessage `json:"data"`
		Errors []any           `json:"errors"`
	}
	if err := json.Unmarshal([]byte(pane), &shown); err != nil || len(shown.Errors) > 0 {
		t.Fatalf("the result pane shows %q (%v)", pane, err)
	}
	want := srv.post(t, "", query, nil)
	var a, b bytes.Buffer
	_ = json.Compact(&a, shown.Data)
	_ = json.Compact(&b, want.Data)
	if a.String() != b.String() || !strings.Contains(a.String(), `"CHESS"`) {
		t.Fatalf("the result pane shows %s, the API answers %s", a.String(), b.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(blocked) > 0 {
		t.Fatalf("the page asked for files from other hosts: %q", blocked)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
