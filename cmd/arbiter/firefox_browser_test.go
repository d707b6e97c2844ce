package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// firefox finds a Firefox to drive.
func firefox(t *testing.T) string {
	t.Helper()
	return lookBrowser(t, "firefox-esr", "firefox", "firefox-esr")
}

// bidi is a WebDriver BiDi session with a headless Firefox: the W3C protocol Firefox
// speaks, over a websocket. It keeps the page's errors (log.entryAdded).
type bidi struct {
	t       *testing.T
	ctx     context.Context
	ws      *websocket.Conn
	context string // the browsing context (tab) driven
	next    int
	mu      sync.Mutex
	waiting map[int]chan json.RawMessage
	errors  []string
}

// startFirefox starts Firefox headless with a profile of its own and opens a session.
func startFirefox(t *testing.T, ctx context.Context) *bidi {
	exe := firefox(t)
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, exe, "--headless", "--no-remote", "--profile", t.TempDir(), "--remote-debugging-port", "0")
	cmd.Env = append(os.Environ(), "HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Firefox (%s): %v", exe, err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	listening := regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)
	sc := bufio.NewScanner(stderr)
	var url string
	var said []string
	for url == "" && sc.Scan() {
		said = append(said, sc.Text())
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("Firefox named no WebDriver BiDi address: %q", said)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	ws, _, err := websocket.Dial(ctx, url+"/session", nil)
	if err != nil {
		t.Fatalf("connecting to Firefox at %s: %v", url, err)
	}
	ws.SetReadLimit(16 << 20)
	b := &bidi{t: t, ctx: ctx, ws: ws, waiting: map[int]chan json.RawMessage{}}
	go b.read()
	b.call("session.new", map[string]any{"capabilities": map[string]any{}})
	b.call("session.subscribe", map[string]any{"events": []string{"log.entryAdded"}})
	var tree struct{ Contexts []struct{ Context string } }
	_ = json.Unmarshal(b.call("browsingContext.getTree", map[string]any{}), &tree)
	if len(tree.Contexts) == 0 {
		t.Fatal("Firefox has no tab")
	}
	b.context = tree.Contexts[0].Context
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.errors) > 0 {
			t.Errorf("Firefox: the page reported errors: %q", b.errors)
		}
	})
	return b
}

// read hands each answer to its caller and keeps the page's errors.
func (b *bidi) read() {
	for {
		_, data, err := b.ws.Read(b.ctx)
		if err != nil {
			return
		}
		var m struct {
			ID     int    `json:"id"`
			Type   string `json:"type"`
			Method string `json:"method"`
			Params struct {
				Level string `json:"level"`
				Text  string `json:"text"`
			} `json:"params"`
		}
		_ = json.Unmarshal(data, &m)
		b.mu.Lock()
		if m.Type == "event" && m.Method == "log.entryAdded" && m.Params.Level == "error" {
			b.errors = append(b.errors, m.Params.Text)
		}
		if ch := b.waiting[m.ID]; ch != nil && m.Type != "event" {
			delete(b.waiting, m.ID)
			ch <- data
		}
		b.mu.Unlock()
	}
}

// call sends a command and returns its result, failing the test on an error.
func (b *bidi) call(method string, params any) json.RawMessage {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan json.RawMessage, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := b.ws.Write(b.ctx, websocket.MessageText, msg); err != nil {
		b.t.Fatalf("Firefox: %s: %v", method, err)
	}
	select {
	case data := <-ch:
		var r struct {
			Type    string          `json:"type"`
			Result  json.RawMessage `json:"result"`
			Error   string          `json:"error"`
			Message string          `json:"message"`
		}
		_ = json.Unmarshal(data, &r)
		if r.Type == "error" {
			b.t.Fatalf("Firefox: %s: %s: %s", method, r.Error, r.Message)
		}
		return r.Result
	case <-b.ctx.Done():
		b.t.Fatalf("Firefox: %s: %v", method, b.ctx.Err())
		return nil
	}
}

// wait resolves once the JavaScript expression is truthy, checked again at each change of
// the page's DOM (a MutationObserver, never a timer), and returns its value as a string.
func (b *bidi) wait(what, expr string) string {
	b.t.Helper()
	script := `new Promise((resolve) => {
		const check = () => { const v = (` + expr + `); if (v) { obs.disconnect(); resolve(String(v)); } };
		const obs = new MutationObserver(check);
		obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
		check();
	})`
	var r struct {
		Type             string `json:"type"`
		Result           struct{ Value any }
		ExceptionDetails struct{ Text string }
	}
	_ = json.Unmarshal(b.call("script.evaluate", map[string]any{"expression": script, "target": map[string]any{"context": b.context}, "awaitPromise": true}), &r)
	if r.Type == "exception" {
		b.t.Fatalf("Firefox: waiting for %s: %s", what, r.ExceptionDetails.Text)
	}
	return fmt.Sprint(r.Result.Value)
}

// TestFirefoxPlaysTheBotAndWatches: in headless Firefox, through WebDriver BiDi, a guest
// signs up, plays the bot from the lobby by clicking squares and sees its answer; the watch
// page of the match, a spectator's, shows the same moves live.
func TestFirefoxPlaysTheBotAndWatches(t *testing.T) {
	firefox(t)
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ff := startFirefox(t, ctx)
	ff.call("browsingContext.navigate", map[string]any{"context": ff.context, "url": srv.url + "/", "wait": "complete"})
	act := func(what, selector, then string) {
		t.Helper()
		ff.wait(what, `(() => { const el = document.querySelector(`+jsString(selector)+`); if (!el || el.disabled) return false; `+then+` el.click(); return true; })()`)
	}
	ff.wait("the sign-up form", `(() => { const f = document.querySelector("form.signup"); if (!f) return false; f.elements.name.value = "Fox"; f.requestSubmit(); return true; })()`)
	ff.wait("the player's name", `document.querySelector("#who [data-player]")`)
	act("Play the bot at chess", `form.create select[name=game] option[value=CHESS]`, `el.parentElement.value = "CHESS";`)
	act("Play the bot", `form.create [data-action=bot]`, "")
	act("the pawn on e2", `.sq.movable[data-square="e2"]`, "")
	act("the square e4", `.sq.dest[data-square="e4"]`, "")
	moves := ff.wait("the bot's answer", `document.querySelectorAll("ol.moves li").length === 2 && Array.from(document.querySelectorAll("ol.moves li"), (li) => li.textContent).join(" ")`)
	if !strings.HasPrefix(moves, "e4 ") {
		t.Fatalf("the moves shown are %q", moves)
	}
	ff.wait("the watch page", `(() => { location.hash = location.hash.replace("#/match/", "#/watch/"); return true; })()`)
	title := ff.wait("the moves, watched", `document.querySelector("h1").textContent.includes("watching") && Array.from(document.querySelectorAll("ol.moves li"), (li) => li.textContent).join(" ") === `+jsString(moves)+` && document.querySelector("h1").textContent`)
	if n := ff.wait("the pieces", `String(document.querySelectorAll(".board .glyph").length)`); n != "32" {
		t.Fatalf("the watch page %q shows %s pieces", title, n)
	}
}
