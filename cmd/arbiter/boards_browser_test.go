package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestBrowserBoardsOfTheGames: an UnfairChess match against the bot shows Ann her four
// cards, the playable ones lit; choosing one shows its legal first targets as red squares,
// exactly the API's, and clicking a whole choice plays it; a spectator's page shows each
// hand's size and no card. A Sovereign Chess match shows 256 squares with the API's
// coloured squares and the twelve armies, and offers its first action.
func TestBrowserBoardsOfTheGames(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	b := newBrowser(t, srv.url, 2*time.Minute)
	ann := b.open("ann", "/")
	ann.signUp("Ann")
	id := ann.createFromLobby("UNFAIR_CHESS", true)
	ann.wait("Ann's four cards", `document.querySelectorAll(".hand .card").length === 4 && document.querySelector("section[data-status=LIVE]")`)

	var d struct {
		Match struct {
			Version int
			State   struct {
				Hand []struct {
					Slot     int
					Playable bool
					Targets  [][]string
				}
			}
		}
	}
	srv.must(t, ann.token(), `query($m: ID!) { match(id: $m) { version state { ... on UnfairChessState { hand { slot playable targets } } } } }`, map[string]any{"m": id}, &d)
	lit := ann.eval(`Array.from(document.querySelectorAll(".hand .card.playable"), (c) => c.dataset.slot).join(" ")`)
	var playable []string
	slot, choice := -1, []string(nil)
	for _, c := range d.Match.State.Hand {
		if !c.Playable {
			continue
		}
		playable = append(playable, fmt.Sprint(c.Slot))
		if slot < 0 && len(c.Targets) > 0 && len(c.Targets[0]) > 0 {
			slot, choice = c.Slot, c.Targets[0]
			firsts := map[string]bool{}
			for _, ts := range c.Targets {
				firsts[ts[0]] = true
			}
			var want []string
			for sq := range firsts {
				want = append(want, sq)
			}
			sort.Strings(want)
			ann.click("the playable card", fmt.Sprintf(`.hand .card.playable[data-slot="%d"]`, slot))
			ann.wait(fmt.Sprintf("the red squares %v", want), `Array.from(document.querySelectorAll(".sq.target"), (s) => s.dataset.square).sort().join(" ") === `+jsString(strings.Join(want, " ")))
		}
	}
	if lit != strings.Join(playable, " ") {
		t.Fatalf("the page lights the cards in slots %q, the API says %q are playable", lit, playable)
	}
	if slot < 0 {
		t.Fatalf("no playable card with targets in Ann's first hand: %+v", d.Match.State.Hand)
	}
	for _, sq := range choice {
		ann.click("the target "+sq, `.sq.target[data-square="`+sq+`"]`)
	}
	ann.wait("the card played", fmt.Sprintf(`Number(document.querySelector("section.match").dataset.version) > %d`, d.Match.Version))
	if s := ann.eval(`document.querySelector(".status").textContent`); s != "" {
		t.Fatalf("playing the card in slot %d on %v: %s", slot, choice, s)
	}

	eve := b.open("eve", "/#/watch/"+id)
	eve.wait("each hand's size", `document.querySelectorAll(".hand-sizes li").length === 2 && /in hand/.test(document.querySelector(".hand-sizes").textContent)`)
	if n := eve.eval(`document.querySelectorAll(".hand .card").length`); n != "0" {
		t.Fatalf("a spectator is shown %s cards", n)
	}

	sov := ann.createFromLobbyAgain("SOVEREIGN_CHESS")
	var s struct {
		Match struct {
			State struct {
				Board struct {
					Colours []struct{ Square, Colour string }
				}
			}
		}
	}
	srv.must(t, "", `query($m: ID!) { match(id: $m) { state { ... on SovereignChessState { board { colours { square colour } } } } } }`, map[string]any{"m": sov}, &s)
	ann.wait("the 16x16 board", `document.querySelectorAll(".board.size-16 .sq").length === 256 && document.querySelectorAll("table.armies tr[data-army]").length === 12`)
	for _, c := range s.Match.State.Board.Colours {
		if got := ann.eval(`document.querySelector('[data-square="` + c.Square + `"]').className`); !strings.Contains(got, "tint-"+c.Colour) {
			t.Fatalf("%s is drawn %q, the API colours it %s", c.Square, got, c.Colour)
		}
	}
	ann.wait("Ann's first action: a move or the opening's choice", `document.querySelector(".sq.movable") || document.querySelector("[data-choice]")`)
}

// createFromLobbyAgain goes back to the lobby and plays the bot at another game.
func (p *tab) createFromLobbyAgain(game string) string {
	p.b.t.Helper()
	p.eval(`location.hash = "#/"`)
	p.has("the lobby", `section.lobby`)
	return p.createFromLobby(game, true)
}
