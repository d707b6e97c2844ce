package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserDoublesBoardsAndSignals: Ann and Dee (a team) play Ajedrez Mágico's doubles in
// their pages against Bob and Cid over the API, and Eve watches. Every page shows both
// boards, the seat's own first (board A first to Eve), each with its seats' clocks as the
// API runs them, the pieces each side holds in hand and the cards face up, updated live:
// Ann's capture on board A puts a piece in Dee's hand on board B, which Dee drops by
// clicking it then a square. Dee's signal reaches Ann's page, Ann's (sent with the
// keyboard) Dee's; Eve's page shows no signal and no way to send one.
func TestBrowserDoublesBoardsAndSignals(t *testing.T) {
	srv, b, ann := browserPlayer(t, "Ann")
	dee := b.open("dee", "/")
	dee.signUp("Dee")
	_, bob := srv.register(t, "Bob")
	_, cid := srv.register(t, "Cid")
	tokens := []string{ann.token(), bob, cid, dee.token()}
	id := doublesMatch(t, srv, tokens, `, {key:"clock", value:"5+0"}`)
	vars := map[string]any{"m": id}
	for _, p := range []*tab{ann, dee} {
		p.eval(`location.hash = "#/match/` + id + `"`)
	}
	eve := b.open("eve", "/#/watch/"+id)
	pages := []*tab{ann, dee, eve}

	// The own board first: Ann's is A, Dee's B; Eve, a spectator, sees A first.
	for _, c := range []struct {
		p     *tab
		first string
	}{{ann, "0"}, {dee, "1"}, {eve, "0"}} {
		got := c.p.wait("both boards", `document.querySelectorAll(".table-board").length === 2 && document.querySelectorAll(".table-board .board .sq").length === 128 &&
			Array.from(document.querySelectorAll(".table-board"), (s) => s.dataset.board).join(" ")`)
		if want := c.first + " " + map[string]string{"0": "1", "1": "0"}[c.first]; got != want {
			t.Fatalf("%s shows the boards in the order %q, want %q", c.p.name, got, want)
		}
	}
	for _, p := range []*tab{ann, dee} {
		p.click("ready", `[data-choice=ready]`)
	}
	for _, tok := range []string{bob, cid} {
		srv.must(t, tok, `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, vars, nil)
	}

	ann.move("e2", "e4")
	ann.wait("Ann's move played", `document.querySelector(".table-board[data-board='0']").dataset.last === "e4"`)
	srv.must(t, cid, `mutation($m:ID!){playMove(matchId:$m, move:"d2d4"){match{version}}}`, vars, nil)
	srv.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"d7d5"){match{version}}}`, vars, nil)
	ann.move("e4", "d5") // takes Bob's pawn: Dee, Ann's partner, holds it on board B
	ann.wait("Ann's capture played", `document.querySelector(".table-board[data-board='0']").dataset.last === "exd5"`)
	table := tableAsShown(t, srv, vars)
	if !strings.Contains(table.held, "P") {
		t.Fatalf("after Ann's capture nobody holds a pawn: %+v", table)
	}
	for _, p := range pages {
		p.wait("the boards as the API has them: "+table.shown, tableShown+` === `+jsString(table.shown))
	}

	// Dee drops the pawn: the hand's piece, then one of the squares the board offers.
	dee.click("the pawn in Dee's hand", `.table-board[data-board="1"] [data-drop=P]`)
	sq := dee.wait("a square to drop on", `document.querySelector(".table-board[data-board='1'] .sq.dest")?.dataset.square`)
	dee.click("the square "+sq, `.sq.dest[data-square="`+sq+`"]`)
	dee.wait("Dee's drop played", `/@`+sq+`[+#]?$/.test(document.querySelector(".table-board[data-board='1']").dataset.last)`)
	table = tableAsShown(t, srv, vars)
	if !strings.HasSuffix(strings.TrimRight(table.shown, "+#"), "@"+sq) {
		t.Fatalf("Dee's drop on %s is not board B's last play: %s", sq, table.shown)
	}
	for _, p := range pages {
		p.wait("the boards as the API has them: "+table.shown, tableShown+` === `+jsString(table.shown))
	}

	// Signals: Dee's reaches Ann; Ann's, sent from the keyboard, reaches Dee.
	dee.click("Dee's signal", `[data-signal=SAVE_READY]`)
	ann.wait("Dee's signal on Ann's page", `/Dee: I hold a mate save/.test(document.querySelector(".signals li[data-seat='3'][data-signal-sent=SAVE_READY]")?.textContent)`)
	ann.eval(`document.querySelector("[data-signal=CARD_NEXT]").focus()`)
	if err := chromedp.Do(ann.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	dee.wait("Ann's signal on Dee's page", `/Ann: I will lay a card/.test(document.querySelector(".signals li[data-seat='0'][data-signal-sent=CARD_NEXT]")?.textContent)`)
	// Bob moves after the signals: once Eve's page shows his move, it has had all a
	// spectator is sent of what came before, and it shows no signal.
	srv.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"g8f6"){match{version}}}`, vars, nil)
	eve.wait("Bob's move on Eve's page", `document.querySelector(".table-board[data-board='0']").dataset.last === "Nf6"`)
	if got := eve.eval(`document.querySelectorAll(".signals li, [data-signal]").length + " " + /mate save|lay a card/.test(document.body.textContent)`); got != "0 false" {
		t.Fatalf("the spectator's page shows signals: %s", got)
	}
	if n := eve.eval(`document.querySelectorAll(".hand .card").length`); n != "0" {
		t.Fatalf("the spectator's page shows %s cards", n)
	}
}

// tableShown is how a page shows the table, in the form tableAsShown writes the API's: for
// each board in order A, B: its pieces' squares, who holds what in hand, the running clock's
// seat, the marks, and its last play.
const tableShown = `[0, 1].map((i) => {
	const s = document.querySelector(".table-board[data-board='" + i + "']");
	const pieces = Array.from(s.querySelectorAll(".sq.piece"), (q) => q.getAttribute("aria-label").split(", ").slice(0, 2).join(", ")).sort().join(";");
	const held = Array.from(s.querySelectorAll(".pocket"), (p) => p.dataset.colour + ":" + p.dataset.held).join(",");
	const running = s.querySelector(".time.running")?.closest("li").dataset.seat ?? "-";
	const marks = Array.from(s.querySelectorAll(".sq .mark"), (m) => m.closest(".sq").dataset.square).sort().join(",");
	return [pieces, held, running, marks, s.dataset.last].join(" | ");
}).join(" || ")`

type shownTable struct{ shown, held string }

// tableAsShown reads both boards from the API and writes them as tableShown reads a page.
func tableAsShown(t *testing.T, srv *server, vars map[string]any) shownTable {
	t.Helper()
	var d struct {
		Match struct {
			Boards []struct {
				Fen                      string
				WhiteInHand, BlackInHand string
				Moves                    []string
				Clock                    struct{ Running *int }
				Marks                    []struct{ Square string }
			}
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){boards{fen whiteInHand blackInHand moves clock{running} marks{square}}}}`, vars, &d)
	var out shownTable
	var boards []string
	for _, b := range d.Match.Boards {
		running, last := "-", ""
		if b.Clock.Running != nil {
			running = fmt.Sprint(*b.Clock.Running)
		}
		if len(b.Moves) > 0 {
			last = b.Moves[len(b.Moves)-1]
		}
		var marks []string
		for _, m := range b.Marks {
			marks = append(marks, m.Square)
		}
		sort.Strings(marks)
		out.held += b.WhiteInHand + b.BlackInHand
		boards = append(boards, strings.Join([]string{strings.Join(fenLabels(strings.Split(b.Fen, "[")[0]+" w"), ";"),
			"white:" + b.WhiteInHand + ",black:" + b.BlackInHand, running, strings.Join(marks, ","), last}, " | "))
	}
	out.shown = strings.Join(boards, " || ")
	return out
}

// TestFirefoxWatchesDoubles: in headless Firefox a spectator's page of a doubles match
// shows both boards, A first, no signals, and a move played on board B by the API.
func TestFirefoxWatchesDoubles(t *testing.T) {
	firefox(t)
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens, id := doublesPlayers(t, srv, "", true)
	vars := map[string]any{"m": id}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ff := startFirefox(t, ctx)
	ff.call("browsingContext.navigate", map[string]any{"context": ff.context, "url": srv.url + "/#/watch/" + id, "wait": "complete"})
	order := ff.wait("both boards", `document.querySelectorAll(".table-board .board .sq").length === 128 && Array.from(document.querySelectorAll(".table-board"), (s) => s.dataset.board).join(" ")`)
	if order != "0 1" {
		t.Fatalf("the spectator's boards are in the order %q", order)
	}
	srv.must(t, tokens[2], `mutation($m:ID!){playMove(matchId:$m, move:"g1f3"){match{version}}}`, vars, nil)
	ff.wait("Cid's move on board B", `document.querySelector(".table-board[data-board='1']").dataset.last === "Nf3" && document.querySelector(".table-board[data-board='1'] [data-square=f3]").getAttribute("aria-label") === "f3, white knight"`)
	if got := ff.wait("the page's signals", `String(document.querySelectorAll(".signals li, [data-signal]").length)`); got != "0" {
		t.Fatalf("the spectator's page shows %s signals", got)
	}
}

// TestBrowserDoublesAgainstTheBot: Ann chooses doubles in the lobby's form and plays the
// bot, which takes the three other seats; her page shows her board first, and, once she
// has ended her planning, the bot's first move on board B, live.
func TestBrowserDoublesAgainstTheBot(t *testing.T) {
	_, _, ann := browserPlayer(t, "Ann")
	ann.wait("Ajedrez Mágico's doubles in the form", `(() => { const s = document.querySelector("form.create select[name=game]"); if (!s?.querySelector("option[value=MAGIC_CHESS]")) return false;
		s.value = "MAGIC_CHESS"; s.dispatchEvent(new Event("change")); const b = document.querySelector("form.create select[name=boards]"); if (b.hidden) return false; b.value = "2"; return true; })()`)
	ann.click("Play the bot", `form.create [data-action=bot]`)
	ann.wait("four seats taken, two boards, Ann's first", `document.querySelectorAll("ul.seats li").length >= 4 && !/free seat/.test(document.querySelector("section.match").textContent) &&
		Array.from(document.querySelectorAll(".table-board"), (s) => s.dataset.board).join(" ") === "0 1"`)
	ann.click("ready", `[data-choice=ready]`)
	ann.wait("the bot's first move on board B", `document.querySelector(".table-board[data-board='1']").dataset.last !== ""`)
}
