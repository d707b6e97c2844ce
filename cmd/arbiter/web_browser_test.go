package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The web client's browser tests: a real server on a free port with a real SQLite file,
// headless Chromium driving the pages as a person would (clicking pieces and buttons),
// every wait ended by a condition of the page's DOM or by the test's deadline.

// createFromLobby creates a match of a game from the lobby's form, as the page's player,
// with a clock ("" for none): bot says whether the house bot takes the other seats. It
// returns the match's ID.
func (p *tab) createFromLobby(game, clock string, bot bool) string {
	p.b.t.Helper()
	p.wait("the game "+game+" in the form", `(() => { const s = document.querySelector("form.create select[name=game]"); if (!s || !s.querySelector("option[value=`+game+`]")) return false; s.value = "`+game+`"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.eval(`document.querySelector("form.create select[name=clock]").value = ` + jsString(clock))
	p.click("the create button", map[bool]string{true: `form.create [data-action=bot]`, false: `form.create [data-action=create]`}[bot])
	p.wait("the new match's page", `/^#\/match\//.test(location.hash)`)
	return p.matchID()
}

// token is the token the page keeps for its player.
func (p *tab) token() string {
	p.b.t.Helper()
	return p.eval(`JSON.parse(localStorage.getItem("arbiter.player")).token`)
}

// browserPlayer starts a server on a new SQLite file and a browser, and opens the lobby in a page
// whose guest player signs up with name.
func browserPlayer(t *testing.T, name string) (*server, *browser, *tab) {
	t.Helper()
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	b := newBrowser(t, srv.url, 2*time.Minute)
	p := b.open(strings.ToLower(name), "/")
	p.signUp(name)
	return srv, b, p
}

// browserDuel is browserPlayer's with a match of game that Ada creates in her lobby and Bob, in a page
// of his own, joins from his.
func browserDuel(t *testing.T, game string) (srv *server, b *browser, ada, bob *tab, id string) {
	t.Helper()
	srv, b, ada = browserPlayer(t, "Ada")
	id = ada.createFromLobby(game, "", false)
	ada.has("the open match's page", `section[data-status=OPEN]`)
	bob = b.open("bob", "/")
	bob.signUp("Bob")
	bob.click("Join in the lobby's open list", `table[data-list=open] tr[data-match-id="`+id+`"] [data-action=join]`)
	bob.wait("Bob's match page", `location.hash === "#/match/`+id+`"`)
	return srv, b, ada, bob, id
}

// TestBrowserChessMatchWatchedAndReplayed: Ada creates a chess match in the lobby, Bob joins
// it from his, Eve watches it from a third page with no player; they play the fool's
// mate by clicking squares, and after every move the opponent's page and Eve's show it.
// Every page shows Bob's win; Eve, a spectator, has no controls. Eve then opens the
// replay: its events are the API's, with their hashes; stepping through shows each
// position, the last the final one; played at 100 times the recorded pace it reaches the
// end by itself.
func TestBrowserChessMatchWatchedAndReplayed(t *testing.T) {
	srv, b, ada, bob, id := browserDuel(t, "CHESS")
	eve := b.open("eve", "/#/watch/"+id)
	for _, p := range []*tab{ada, bob, eve} {
		p.has("the live match", `section[data-status=LIVE]`)
	}
	if got := eve.eval(`document.querySelector("section.match h1").textContent`); !strings.Contains(got, "watching") {
		t.Fatalf("Eve's page is titled %q, not as a spectator's", got)
	}

	type ply struct {
		who      *tab
		from, to string
		san      string
	}
	var played []string
	for i, m := range []ply{{ada, "f2", "f3", "f3"}, {bob, "e7", "e5", "e5"}, {ada, "g2", "g4", "g4"}, {bob, "d8", "h4", "Qh4#"}} {
		m.who.move(m.from, m.to)
		played = append(played, m.san)
		for _, p := range []*tab{ada, bob, eve} {
			p.movesShown(played...)
		}
		if i == 1 {
			// Ada offers a draw: Bob is asked, Eve sees the offer; Bob declines.
			ada.click("Offer a draw", `[data-action=offerDraw]`)
			eve.wait("the offer shown to the spectator", `/offers a draw/.test(document.querySelector("ul.seats li[data-seat='0']").textContent)`)
			bob.click("Decline", `[data-action=declineDraw]`)
			for _, p := range []*tab{ada, bob, eve} {
				p.wait("the offer withdrawn", `!/offers a draw/.test(document.querySelector("ul.seats").textContent) && !document.querySelector("[data-action=acceptDraw]")`)
			}
		}
	}
	for _, p := range []*tab{ada, bob, eve} {
		p.has("the finished match", `section[data-status=FINISHED]`)
		if got := p.wait("the result", `document.querySelector(".result").textContent`); got != "Bob won (checkmate)" {
			t.Fatalf("%s shows the result %q", p.name, got)
		}
	}
	if n := eve.eval(`document.querySelectorAll(".controls button").length`); n != "0" {
		t.Fatalf("the spectator's page offers %s controls", n)
	}
	bob.has("the rematch button", `[data-action=rematch]`)

	// The replay, from Eve's page.
	var api struct {
		Match struct {
			State struct {
				Board struct{ Fen string }
			}
			Events []struct {
				Version int
				Type    string
				Hash    string
				Data    json.RawMessage
			}
		}
	}
	srv.must(t, "", `query($m: ID!) { match(id: $m) { state { ... on ChessState { board { fen } } } events { version type hash data } } }`, map[string]any{"m": id}, &api)
	events := api.Match.Events
	eve.click("the replay link", `[data-link=replay]`)
	eve.wait("the replay's events", fmt.Sprintf(`document.querySelectorAll("ol.events li").length === %d && document.querySelector("section.replay")?.dataset.step === "0"`, len(events)))
	var want []string
	for _, e := range events {
		want = append(want, e.Hash)
	}
	if got := eve.eval(`Array.from(document.querySelectorAll("ol.events code"), (c) => c.title).join(" ")`); got != strings.Join(want, " ") {
		t.Fatalf("the replay lists the hashes\n%s\nthe API has\n%s", got, strings.Join(want, " "))
	}
	// Step by step: each MovePlayed shows the position it recorded.
	for i, e := range events {
		eve.click("the next step", `[data-action=next]`)
		eve.wait(fmt.Sprintf("step %d", i+1), fmt.Sprintf(`document.querySelector("section.replay").dataset.step === "%d"`, i+1))
		if e.Type != "MovePlayed" {
			continue
		}
		var d struct{ Fen string }
		_ = json.Unmarshal(e.Data, &d)
		if got := eve.eval(`document.querySelector("section.replay").dataset.position`); got != d.Fen {
			t.Fatalf("at step %d (%s) the replay shows %q, the event recorded %q", i+1, e.Type, got, d.Fen)
		}
	}
	if got := eve.eval(`document.querySelector("section.replay").dataset.position`); got != api.Match.State.Board.Fen {
		t.Fatalf("the last step shows %q, the match ended at %q", got, api.Match.State.Board.Fen)
	}
	if n := eve.eval(`document.querySelectorAll(".board .sq .glyph").length`); n != "32" {
		t.Fatalf("the final position shows %s pieces, want 32", n)
	}
	// At the recorded pace, a hundred times faster, from the start to the end.
	eve.click("the first step", `[data-action=first]`)
	eve.wait("step 0", `document.querySelector("section.replay").dataset.step === "0"`)
	eve.eval(`document.querySelector("select[name=speed]").value = "100"`)
	eve.click("Play", `[data-action=play]`)
	eve.wait("the replay played to its end", fmt.Sprintf(`document.querySelector("section.replay").dataset.step === "%d" && document.querySelector("[data-action=play]").textContent === "Play"`, len(events)))
}

// TestBrowserPlaysTheBot: Ann signs up and plays the bot from the lobby, clicking then
// dragging her pieces; her moves are answered
// and a second page, watching, sees them; she resigns, asks for a rematch, seats the bot
// again and now plays Black (the board turned), the bot moving first.
func TestBrowserPlaysTheBot(t *testing.T) {
	_, b, ann := browserPlayer(t, "Ann")
	id := ann.createFromLobby("CHESS", "3+2", true)
	ann.has("the live match", `section[data-status=LIVE]`)
	// A 3+2 clock: Ann's runs first, counted down from 3:00 by the page.
	ann.wait("Ann's clock running", `/^[0-3]:\d\d$/.test(document.querySelector("ul.seats li[data-seat='0'] .time.running")?.textContent) && /^3:00$/.test(document.querySelector("ul.seats li[data-seat='1'] .time").textContent)`)
	if got := ann.eval(`document.querySelector(".board .sq").dataset.square`); got != "a8" {
		t.Fatalf("White's board starts at %s, want a8 at the top left", got)
	}
	ann.move("e2", "e4")
	ann.wait("the bot's answer", `document.querySelectorAll("ol.moves li").length === 2`)
	watch := b.open("watch", "/#/watch/"+id)
	watch.wait("the watcher's moves", `document.querySelectorAll("ol.moves li").length === 2`)
	ann.drag("d2", "d4") // dragged with the mouse, this one
	ann.wait("the bot's second answer", `document.querySelectorAll("ol.moves li").length === 4`)
	watch.wait("the watcher sees every move", `document.querySelectorAll("ol.moves li").length === 4`)
	moves := ann.eval(`Array.from(document.querySelectorAll("ol.moves li"), (li) => li.textContent).join(" ")`)
	watch.movesShown(strings.Fields(moves)...)

	ann.click("Resign", `[data-action=resign]`)
	for _, p := range []*tab{ann, watch} {
		if got := p.wait("the result", `document.querySelector(".result").textContent`); !strings.HasPrefix(got, "Arbiter bot won") {
			t.Fatalf("%s shows the result %q", p.name, got)
		}
	}
	ann.click("Rematch", `[data-action=rematch]`)
	ann.wait("the rematch's page", `location.hash !== "#/match/`+id+`" && document.querySelector("section[data-status=OPEN]")`)
	ann.click("Add the bot", `[data-action=addBot]`)
	ann.has("the rematch live", `section[data-status=LIVE]`)
	ann.wait("the bot's first move as White", `document.querySelectorAll("ol.moves li").length === 1`)
	if got := ann.eval(`document.querySelector(".board .sq").dataset.square`); got != "h1" {
		t.Fatalf("Black's board starts at %s, want h1 at the top left", got)
	}
	ann.has("Ann's pieces to move", `.sq.movable`)
}

// TestBrowserWatchesItsOwnBotGame is the newcomer's path: Nia signs up in the lobby and
// plays the bot at chess, and in another tab of the same browser (her player there too)
// opens the lobby, finds the match in its live list and watches it. Every move, hers and
// the bot's, appears on the watch page while the game is live; at the end the watch page
// shows the API's moves and position, and the result once she resigns.
func TestBrowserWatchesItsOwnBotGame(t *testing.T) {
	srv, _, nia := browserPlayer(t, "Nia")
	id := nia.createFromLobby("CHESS", "", true)
	nia.has("the live match", `section[data-status=LIVE]`)

	watch := nia.another("nia-watching", "/")
	me := nia.eval(`JSON.parse(localStorage.getItem("arbiter.player")).id`)
	watch.has("Nia's player in her other tab", `#who [data-player="`+me+`"]`)
	watch.click("Watch, in the lobby's live list", `table[data-list=live] tr[data-match-id="`+id+`"] [data-action=watch]`)
	watch.wait("the watch page", `location.hash === "#/watch/`+id+`" && document.querySelector("section[data-status=LIVE]")`)
	if got := watch.eval(`document.querySelector("section.match h1").textContent`); !strings.Contains(got, "watching") {
		t.Fatalf("the watch page is titled %q, not as a spectator's", got)
	}

	const movesList = `Array.from(document.querySelectorAll("ol.moves li"), (li) => li.textContent).join(" ")`
	for i := 0; i < 4; i++ {
		// Nia plays the first move her board offers: its first piece that may move, to that
		// piece's first square.
		nia.click("a piece that may move", `.sq.movable`)
		nia.click("a square it may go to", `.sq.dest`)
		nia.wait("her move and the bot's answer", fmt.Sprintf(`document.querySelectorAll("ol.moves li").length === %d || document.querySelector("section[data-status=FINISHED]")`, 2*i+2))
		played := strings.Fields(nia.eval(movesList))
		if len(played) < 2*i+2 {
			break // the bot mated her
		}
		// Live: the watcher has both moves before the game goes on.
		watch.movesShown(played...)
		if nia.eval(`!!document.querySelector("section[data-status=FINISHED]")`) == "true" {
			break
		}
	}
	if nia.eval(`!!document.querySelector("section[data-status=LIVE]")`) == "true" {
		nia.click("Resign", `[data-action=resign]`)
	}
	for _, p := range []*tab{nia, watch} {
		p.has("the finished match", `section[data-status=FINISHED]`)
	}
	result := nia.wait("Nia's result", `document.querySelector(".result").textContent`)
	if got := watch.wait("the watcher's result", `document.querySelector(".result").textContent`); got != result || !strings.HasPrefix(got, "Arbiter bot won") {
		t.Fatalf("the watcher shows the result %q, Nia %q", got, result)
	}
	if n := watch.eval(`document.querySelectorAll(".controls button").length`); n != "0" {
		t.Fatalf("the watch page offers %s controls", n)
	}

	// The watch page's moves and pieces are the API's.
	var api struct {
		Match struct {
			Moves []string
			State struct {
				Board struct{ Fen string }
			}
		}
	}
	srv.must(t, "", `query($m: ID!) { match(id: $m) { moves state { ... on ChessState { board { fen } } } } }`, map[string]any{"m": id}, &api)
	if len(api.Match.Moves) < 2 {
		t.Fatalf("the API lists the moves %q", api.Match.Moves)
	}
	watch.movesShown(api.Match.Moves...)
	got := watch.eval(`Array.from(document.querySelectorAll(".board .sq.piece"), (b) => b.getAttribute("aria-label")).sort().join("; ")`)
	if want := strings.Join(fenLabels(api.Match.State.Board.Fen), "; "); got != want {
		t.Fatalf("the watch page shows the pieces\n%s\nthe API's position %s has\n%s", got, api.Match.State.Board.Fen, want)
	}
}

// fenLabels names each piece of a FEN's placement as the board labels its square
// ("e1, white king"), sorted.
func fenLabels(fen string) []string {
	names := map[rune]string{'k': "king", 'q': "queen", 'r': "rook", 'b': "bishop", 'n': "knight", 'p': "pawn"}
	var out []string
	for i, row := range strings.Split(strings.Fields(fen)[0], "/") {
		f := 0
		for _, c := range row {
			if c >= '1' && c <= '9' {
				f += int(c - '0')
				continue
			}
			colour := "black"
			if unicode.IsUpper(c) {
				colour = "white"
			}
			out = append(out, fmt.Sprintf("%c%d, %s %s", 'a'+f, 8-i, colour, names[unicode.ToLower(c)]))
			f++
		}
	}
	sort.Strings(out)
	return out
}
