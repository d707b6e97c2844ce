package projections

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
)

// These tests are part of the security boundary: a game's state as each viewer sees it.

// twoSeats is a live two-seat match: ann holds seat 0, bob seat 1.
func twoSeats(gs game.State) match.State {
	return match.State{
		Status: match.Live, GameState: gs, Plan: game.Plan{Seats: 2, Teams: []int{0, 1}},
		Seats: []match.Seat{{PlayerID: "ann"}, {PlayerID: "bob"}},
	}
}

// unfairDealt is an UnfairChess game with the given side to move, each hand holding cards
// the other's does not.
func unfairDealt(toMove string) unfair.State {
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + toMove + " KQkq - 0 1"
	gs := (unfair.Rules{}).Evolve(nil, unfair.GameStarted{FEN: fen}).(unfair.State)
	gs.Sides[0].Hand = [unfair.HandSize]string{"shield", "wall"}
	gs.Sides[0].Deck = []string{"truce", "spy"}
	gs.Sides[1].Hand = [unfair.HandSize]string{"poison", "sleep", "frost", "purge"}
	gs.Sides[1].Deck = []string{"teleport"}
	return gs
}

// shown is everything a view shows: its fields as the API may read them, and its plays.
func shown(t *testing.T, v game.View) string {
	t.Helper()
	fields, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	plays, err := json.Marshal(v.Plays())
	if err != nil {
		t.Fatal(err)
	}
	return string(fields) + string(plays)
}

func TestUnfairViewKeepsEachHandToItsSeat(t *testing.T) {
	hands := map[string][]string{"ann": {"shield", "wall"}, "bob": {"poison", "sleep", "frost", "purge"}}
	for _, toMove := range []string{"w", "b"} {
		gs := unfairDealt(toMove)
		st := twoSeats(gs)
		mover := map[string]string{"w": "ann", "b": "bob"}[toMove]
		for _, who := range []string{"ann", "bob", ""} {
			v := ViewerOf(st, who).View(unfair.Rules{}, gs)
			uv, ok := v.(*unfair.View)
			if !ok {
				t.Fatalf("%q's view is a %T", who, v)
			}
			text := shown(t, v)
			for owner, cards := range hands {
				for _, c := range cards {
					if owner != who && strings.Contains(text, `"`+c+`"`) {
						t.Errorf("%s to move: %q's view shows %s's card %s: %s", toMove, who, owner, c, text)
					}
				}
			}
			var held []string
			for _, h := range uv.Hand {
				held = append(held, h.Card)
			}
			if !slices.Equal(held, hands[who]) {
				t.Errorf("%s to move: %q's view holds the hand %v, want %v", toMove, who, held, hands[who])
			}
			if len(uv.Cards) != 2 || uv.Cards[0].HandSize != 2 || uv.Cards[1].HandSize != 4 || uv.Cards[1].DeckSize != 1 {
				t.Errorf("%s to move: %q's view of the piles: %+v", toMove, who, uv.Cards)
			}
			plays := v.Plays()
			if who != mover {
				if len(plays) != 0 {
					t.Errorf("%s to move: %q, not to move, is offered %+v", toMove, who, plays)
				}
				continue
			}
			seat := st.SeatOf(who)
			cardPlays := 0
			for _, p := range plays {
				if p.Seat != seat {
					t.Errorf("%q is offered a play of seat %d: %+v", who, p.Seat, p)
				}
				if pc, ok := p.Do.(cards.PlayCard); ok {
					cardPlays++
					if !slices.Contains(hands[who], pc.Card) {
						t.Errorf("%q is offered a card it does not hold: %+v", who, pc)
					}
				}
			}
			if len(plays) <= 20 || cardPlays == 0 {
				t.Errorf("%s to move: %q is offered %d plays, %d of them cards: want its 20 moves and its cards", toMove, who, len(plays), cardPlays)
			}
		}
		st.Status = match.Finished
		if plays := ViewerOf(st, mover).View(unfair.Rules{}, gs).Plays(); len(plays) != 0 {
			t.Errorf("the match is over and %q is offered %d plays", mover, len(plays))
		}
	}
}

func TestPlaysOnlyForTheViewersOwnSeats(t *testing.T) {
	chess := (classic.Rules{}).Evolve(nil, classic.GameStarted{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})
	plan, err := (sovereignchess.Rules{}).Plan(game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := (sovereignchess.Rules{}).Setup(game.Setup{Plan: plan, Seed: make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	var sov game.State
	for _, e := range evs {
		sov = (sovereignchess.Rules{}).Evolve(sov, e.Event)
	}
	for _, c := range []struct {
		rules game.Rules
		gs    game.State
	}{{classic.Rules{}, chess}, {sovereignchess.Rules{}, sov}} {
		st := twoSeats(c.gs)
		toAct := c.rules.Status(c.gs).ToAct
		if len(toAct) != 1 {
			t.Fatalf("%s: seats to act %v", c.rules.Info().ID, toAct)
		}
		for _, who := range []string{"ann", "bob", ""} {
			v := ViewerOf(st, who).View(c.rules, c.gs)
			if b, ok := v.(game.BoardView); !ok || len(b.ShownBoard().LegalMoves) == 0 {
				t.Fatalf("%s: %q's view %T shows no board with legal moves", c.rules.Info().ID, who, v)
			}
			plays := v.Plays()
			mine := st.SeatOf(who) == toAct[0]
			if mine != (len(plays) > 0) {
				t.Errorf("%s: %q, seat %d, with seat %d to act, is offered %d plays", c.rules.Info().ID, who, st.SeatOf(who), toAct[0], len(plays))
			}
			for _, p := range plays {
				if p.Seat != toAct[0] || p.Kind != game.KindMove {
					t.Errorf("%s: %q is offered %+v", c.rules.Info().ID, who, p)
				}
			}
		}
	}
}

// spyRules records the viewpoint a game is asked to show its state to.
type spyRules struct {
	game.Rules
	got *game.Viewpoint
}

type spyView struct{}

func (spyView) Plays() []game.Play { return nil }

func (r spyRules) View(_ game.State, p game.Viewpoint) game.View {
	*r.got = p
	return spyView{}
}

// A game learns exactly the seats and teams its viewer holds, and whether the match is
// over: what a 2v2 game with team secrets (Solwaris's traps) needs to hide them.
func TestAGameIsToldWhoLooks(t *testing.T) {
	var got game.Viewpoint
	rules := spyRules{got: &got}
	cases := []struct {
		status match.Status
		who    string
		want   game.Viewpoint
	}{
		{match.Live, "cid", game.Viewpoint{Seats: []int{2}, Teams: []int{0}}},
		{match.Live, "dee", game.Viewpoint{Seats: []int{3}, Teams: []int{1}}},
		{match.Live, "", game.Viewpoint{}},
		{match.Finished, "", game.Viewpoint{Over: true}},
		{match.Finished, "bob", game.Viewpoint{Seats: []int{1}, Teams: []int{1}, Over: true}},
	}
	for _, c := range cases {
		ViewerOf(fourSeats(c.status), c.who).View(rules, struct{}{})
		if !slices.Equal(got.Seats, c.want.Seats) || !slices.Equal(got.Teams, c.want.Teams) || got.Over != c.want.Over {
			t.Errorf("%s, %q: the game is told %+v, want %+v", c.status, c.who, got, c.want)
		}
	}
	if v := ViewerOf(fourSeats(match.Live), "ann").View(rules, nil); v != nil {
		t.Errorf("a match not set up shows %T", v)
	}
	if v := ViewerOf(fourSeats(match.Live), "ann").View(cardRules{}, struct{}{}); v != nil {
		t.Errorf("a game that shows nothing shows %T", v)
	}
}
