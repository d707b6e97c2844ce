package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserLeaderboard: the header's link opens the leaderboard; its choice of keys is
// the API's (every hosted game, and Solwaris's one per class); under CHESS it lists the
// players as leaderboard(key, first) ranks them, with their figures, and a rated result
// played meanwhile appears on the open page by itself. Another key, chosen with the
// keyboard's arrow, is named in the address and shows its own (empty) board.
func TestBrowserLeaderboard(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	b := newBrowser(t, srv.url, 2*time.Minute)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, cid := srv.register(t, "Cid")
	srv.foolsMate(t, ann, bob)

	p := b.open("board", "/")
	p.click("the header's Leaderboard link", `header a[href="#/leaderboard"]`)
	var keys struct {
		Games           []struct{ ID string }
		SolwarisClasses []struct{ ID string }
	}
	srv.must(t, "", `{ games { id } solwarisClasses { id } }`, nil, &keys)
	var want []string
	for _, g := range keys.Games {
		want = append(want, g.ID)
	}
	for _, c := range keys.SolwarisClasses {
		want = append(want, "SOLWARIS/"+c.ID)
	}
	p.wait(fmt.Sprintf("the keys %v", want), `Array.from(document.querySelectorAll("select[name=key] option"), (o) => o.value).join(" ") === `+jsString(strings.Join(want, " ")))
	p.wait("CHESS chosen", `(() => { const s = document.querySelector("select[name=key]"); if (s.value !== "CHESS") { s.value = "CHESS"; s.dispatchEvent(new Event("change")); } return document.querySelector("section.leaderboard")?.dataset.key === "CHESS"; })()`)
	rows := `Array.from(document.querySelectorAll("table.leaderboard tbody tr"), (r) => Array.from(r.cells, (c) => c.textContent).join(" ")).join("; ")`
	p.wait("the API's leaderboard: "+leaderboardRows(t, srv, "CHESS"), rows+` === `+jsString(leaderboardRows(t, srv, "CHESS")))

	// A rated result while the page is open: Cid beats Bob, then Ann.
	srv.foolsMate(t, bob, cid)
	srv.foolsMate(t, ann, cid)
	now := leaderboardRows(t, srv, "CHESS")
	if strings.Count(now, ";") != 2 {
		t.Fatalf("the API's leaderboard has not three players: %s", now)
	}
	p.wait("the new leaderboard: "+now, rows+` === `+jsString(now))

	// The next key, chosen from the keyboard on the focused list.
	p.eval(`document.querySelector("select[name=key]").focus()`)
	p.press(kb.ArrowDown)
	next := p.wait("another key shown, as the address names it", `(() => { const k = document.querySelector("section.leaderboard")?.dataset.key; return k && k !== "CHESS" && location.hash === "#/leaderboard/" + encodeURIComponent(k) && k; })()`)
	if want := leaderboardRows(t, srv, next); want != "" {
		p.wait("its board: "+want, rows+` === `+jsString(want))
	} else {
		p.wait("its board, empty", `document.querySelector("table.leaderboard tbody").textContent === "No rated result under this key yet."`)
	}
}

// press types a key (kb.ArrowDown...) into the page's focused element, as a person does.
func (p *tab) press(key string) {
	p.b.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(key)); err != nil {
		p.b.t.Fatalf("%s: pressing %q: %v", p.name, key, err)
	}
}

// foolsMate plays a rated chess match between white and black that black wins by the
// fool's mate, and returns it.
func (s *server) foolsMate(t *testing.T, white, black string) string {
	t.Helper()
	id := s.newMatch(t, white, black, true)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := s.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	return id
}

// leaderboardRows writes the API's leaderboard under key as the page's table reads: rank,
// name, rating, games, wins, losses, draws; rows joined by "; ".
func leaderboardRows(t *testing.T, srv *server, key string) string {
	t.Helper()
	var d struct {
		Leaderboard []struct {
			Player struct{ Name string }
			Rating struct{ Rating, Games, Wins, Losses, Draws int }
		}
	}
	srv.must(t, "", `query($k:String!){leaderboard(key:$k, first:50){player{name} rating{rating games wins losses draws}}}`, map[string]any{"k": key}, &d)
	var rows []string
	for i, s := range d.Leaderboard {
		r := s.Rating
		rows = append(rows, fmt.Sprintf("%d %s %d %d %d %d %d", i+1, s.Player.Name, r.Rating, r.Games, r.Wins, r.Losses, r.Draws))
	}
	return strings.Join(rows, "; ")
}

// TestFirefoxLeaderboard: in headless Firefox, the leaderboard named in the address shows
// the API's ranking under CHESS after a rated result.
func TestFirefoxLeaderboard(t *testing.T) {
	firefox(t)
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	srv.foolsMate(t, ann, bob)
	want := leaderboardRows(t, srv, "CHESS")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ff := startFirefox(t, ctx)
	ff.call("browsingContext.navigate", map[string]any{"context": ff.context, "url": srv.url + "/#/leaderboard/CHESS", "wait": "complete"})
	ff.wait("the API's leaderboard: "+want, `Array.from(document.querySelectorAll("table.leaderboard tbody tr"), (r) => Array.from(r.cells, (c) => c.textContent).join(" ")).join("; ") === `+jsString(want))
}
