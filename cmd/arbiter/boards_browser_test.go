package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestBrowserBoardsOfTheGames: an UnfairChess match against the bot shows Ann her four
// cards, the playable ones lit; choosing one shows its legal first targets as red squares
// (or buttons for a hand's slots), exactly the API's, and clicking a whole choice plays it; a spectator's page shows each
// hand's size and no card. A Sovereign Chess match shows 256 squares with the API's
// coloured squares and the twelve armies, and offers its first action.
func TestBrowserBoardsOfTheGames(t *testing.T) {
	srv, b, ann := browserPlayer(t, "Ann")
	id := ann.createFromLobby("UNFAIR_CHESS", "", true)
	ann.wait("Ann's four cards", `document.querySelectorAll(".hand .card").length === 4 && document.querySelector("section[data-status=LIVE]")`)

	var d struct {
		Match struct {
			Version int
			State   struct {
				Hand []struct {
					Slot     int
					Card     struct{ ID string }
					Playable bool
					Targets  [][]string
				}
			}
		}
	}
	srv.must(t, ann.token(), `query($m: ID!) { match(id: $m) { version state { ... on UnfairChessState { hand { slot card { id } playable targets } } } } }`, map[string]any{"m": id}, &d)
	lit := ann.eval(`Array.from(document.querySelectorAll(".hand .card.playable"), (c) => c.dataset.slot).join(" ")`)
	// Which cards the deal gives is chance: the first playable one may aim at squares (red
	// squares on the board), at slots of a hand (buttons beside the cards) or at nothing (a
	// click plays it), and a hand may hold no playable card at all. Each case is checked
	// against the API; none is skipped.
	var playable []string
	slot, choice := -1, []string(nil)
	for _, c := range d.Match.State.Hand {
		if !c.Playable {
			continue
		}
		playable = append(playable, fmt.Sprint(c.Slot))
		if slot >= 0 {
			continue
		}
		if len(c.Targets) == 0 {
			t.Fatalf("the API says the card in slot %d is playable with no choice of targets", c.Slot)
		}
		slot, choice = c.Slot, c.Targets[0]
		firsts := map[string]bool{}
		for _, ts := range c.Targets {
			if len(ts) > 0 {
				firsts[ts[0]] = true
			}
		}
		var want []string
		for sq := range firsts {
			want = append(want, sq)
		}
		sort.Strings(want)
		t.Logf("Ann plays %s (slot %d), first targets %v", c.Card.ID, slot, want)
		ann.click("the playable card", fmt.Sprintf(`.hand .card.playable[data-slot="%d"]`, slot))
		switch {
		case len(choice) == 0: // the click played it
		case onBoard(want[0]):
			ann.wait(fmt.Sprintf("the red squares %v", want), `Array.from(document.querySelectorAll(".sq.target"), (s) => s.dataset.square).sort().join(" ") === `+jsString(strings.Join(want, " ")))
		default:
			ann.wait(fmt.Sprintf("the target buttons %v", want), `Array.from(document.querySelectorAll(".picker button"), (b) => b.dataset.target).sort().join(" ") === `+jsString(strings.Join(want, " ")))
		}
	}
	if lit != strings.Join(playable, " ") {
		t.Fatalf("the page lights the cards in slots %q, the API says %q are playable", lit, playable)
	}
	if slot >= 0 {
		for _, t := range choice {
			if onBoard(t) {
				ann.click("the target "+t, `.sq.target[data-square="`+t+`"]`)
			} else {
				ann.click("the target "+t, `.picker button[data-target="`+t+`"]`)
			}
		}
		ann.wait("the card played", fmt.Sprintf(`Number(document.querySelector("section.match").dataset.version) > %d`, d.Match.Version))
		if s := ann.eval(`document.querySelector(".status").textContent`); s != "" {
			t.Fatalf("playing the card in slot %d on %v: %s", slot, choice, s)
		}
	} else {
		t.Logf("no playable card in Ann's first hand: %+v", d.Match.State.Hand)
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

	// Ajedrez Mágico: ten cards, none playable in the planning, which Ann ends with the
	// rules' choice "ready"; then she moves.
	ann.createFromLobbyAgain("MAGIC_CHESS")
	ann.wait("ten cards and the choice ready", `document.querySelectorAll(".hand .card").length === 10 && !document.querySelector(".hand .card.playable") && document.querySelector("[data-choice=ready]")`)
	ann.click("ready", `[data-choice=ready]`)
	ann.has("Ann's first move", `.sq.movable`)
}

// TestBrowserSolwarisArena: Ada creates a Solwaris duel in the lobby and Bob joins it; both
// pages draw the arena's cells; each chooses a class, then each is shown its start cells
// lit, exactly the API's, and takes one by clicking it, and the duel moves on.
func TestBrowserSolwarisArena(t *testing.T) {
	srv, _, ada, bob, id := browserDuel(t, "SOLWARIS")
	var d struct {
		Match struct {
			State struct {
				Width, Height  int
				PlacementCells []string
			}
		}
	}
	query := `query($m: ID!) { match(id: $m) { state { ... on SolwarisState { width height placementCells } } } }`
	for _, p := range []*tab{ada, bob} {
		p.has("the class to choose", `[data-action=chooseGrimoire]`)
		srv.must(t, "", query, map[string]any{"m": id}, &d)
		p.wait("the arena", fmt.Sprintf(`document.querySelectorAll(".arena .cell").length === %d`, d.Match.State.Width*d.Match.State.Height))
	}
	for _, p := range []*tab{ada, bob} {
		p.click("Choose this class", `[data-action=chooseGrimoire]`)
	}
	for _, p := range []*tab{ada, bob} {
		p.has("the start cells lit", `.cell.dest`)
		srv.must(t, p.token(), query, map[string]any{"m": id}, &d)
		want := append([]string(nil), d.Match.State.PlacementCells...)
		sort.Strings(want)
		if len(want) == 0 {
			t.Fatalf("%s has no start cell to take", p.name)
		}
		p.wait(fmt.Sprintf("the start cells %v lit", want), `Array.from(document.querySelectorAll(".cell.dest"), (c) => c.dataset.cell).sort().join(" ") === `+jsString(strings.Join(want, " ")))
		p.click("a start cell", `.cell.dest[data-cell="`+want[0]+`"]`)
	}
	for _, p := range []*tab{ada, bob} {
		p.wait("the duel past its placement", `["auction", "play"].includes(document.querySelector("[data-phase]")?.dataset.phase)`)
	}
}

// createFromLobbyAgain goes back to the lobby and plays the bot at another game.
func (p *tab) createFromLobbyAgain(game string) string {
	p.b.t.Helper()
	p.eval(`location.hash = "#/"`)
	p.has("the lobby", `section.lobby`)
	return p.createFromLobby(game, "", true)
}

// onBoard says whether a card's target names a square (as "e4" or Sovereign's "p16"),
// not a slot of a hand.
func onBoard(target string) bool { return squareName.MatchString(target) }

var squareName = regexp.MustCompile(`^[a-p][0-9]{1,2}$`)
