package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/bot"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// The house bot over the real API: a player seats it with addBot and plays against it to
// the end, the bot answering every turn by itself; the file verifies.

// botView is the match as the human player reads it at each turn.
type botView struct {
	Status  string
	Version int
	ToAct   []int
	Phase   *string
	Moves   []string
	Board   *struct{ LegalMoves []string }
	Hand    []struct {
		Slot     int
		Playable bool
		Targets  [][]string
	}
	Seats []struct {
		Player *struct{ ID, Name string }
	}
	Result *struct{ Reason string }
	Events []struct{ Type, Actor string }
}

const botViewFields = `status version toAct phase moves board{legalMoves} hand{slot playable targets} seats{player{id name}} result{reason}`

// readBotView reads the match as a player (or a spectator) sees it.
func readBotView(t *testing.T, srv *server, token, id string) botView {
	t.Helper()
	var d struct{ Match botView }
	srv.must(t, token, `query($m:ID!){match(id:$m){`+botViewFields+` events(first:1000){type actor}}}`, map[string]any{"m": id}, &d)
	return d.Match
}

// seatedAlone creates a friendly match from input (createMatch's fields) and seats the
// player at seat 0.
func seatedAlone(t *testing.T, srv *server, token, input string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, token, `mutation{createMatch(input:{`+input+`}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	srv.must(t, token, `mutation($m:ID!){joinMatch(matchId:$m, seat:0){seat}}`, map[string]any{"m": id}, nil)
	return id
}

// tableForBot seats the player at seat 0 of a new friendly match of game (and mode),
// and the bot at the first free seat, and returns the match.
func tableForBot(t *testing.T, srv *server, token, game, mode string) string {
	t.Helper()
	input := "game:" + game
	if mode != "" {
		input += ", mode:" + mode
	}
	id := seatedAlone(t, srv, token, input)
	var j struct {
		AddBot struct {
			Seat  int
			Match struct {
				Status string
				MySeat *int
				Seats  []struct{ Player *struct{ ID, Name string } }
			}
		}
	}
	srv.must(t, token, `mutation($m:ID!){addBot(matchId:$m, commandId:"bot-please"){seat match{status mySeat seats{player{id name}}}}}`, map[string]any{"m": id}, &j)
	a := j.AddBot
	if a.Seat != 1 || a.Match.Status != "LIVE" || a.Match.MySeat == nil || *a.Match.MySeat != 0 {
		t.Fatalf("addBot answered %+v", a)
	}
	if p := a.Match.Seats[1].Player; p == nil || p.ID != "bot" || p.Name != "Arbiter bot" {
		t.Fatalf("seat 1 holds %+v, not the bot", p)
	}
	return id
}

// duel plays a human's side against the bot from the human's matchUpdates: at each of its
// turns a random legal action (a move, or now and then a playable card; the opening
// choice at random), until the match ends or the human has acted turns times, when it
// resigns. What it waits for is what the state says: after each action it reads the match
// the action left, and waits for the bot only when the turn is no longer the human's (a
// card that adds to the move leaves the turn with the human, who then owes the move). It
// returns how many times the human acted, how many times the bot answered (the turn went
// to the bot and came back, or the match ended), and the match at the end.
func duel(t *testing.T, srv *server, token, id string, seat, turns int, seed uint64) (acted, answered int, end botView) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", token, `subscription($m:ID!){matchUpdates(matchId:$m){`+botViewFields+`}}`, map[string]any{"m": id})
	rng := rand.New(rand.NewPCG(seed, 11))
	v := readBotView(t, srv, token, id)
	for {
		waited := false
		for v.Status != "FINISHED" && !slices.Contains(v.ToAct, seat) {
			waited = true
			select {
			case data, ok := <-updates:
				if !ok {
					t.Fatalf("matchUpdates ended with the match at version %d", v.Version)
				}
				var u struct{ MatchUpdates botView }
				if err := json.Unmarshal(data, &u); err != nil {
					t.Fatal(err)
				}
				if u.MatchUpdates.Version > v.Version { // older updates are stale
					v = u.MatchUpdates
				}
			case <-ctx.Done():
				t.Fatalf("waited for the bot; the match is at %+v", v)
			}
		}
		if waited && acted > 0 {
			answered++
		}
		if v.Status == "FINISHED" {
			return acted, answered, readBotView(t, srv, token, id)
		}
		action, vars := humanTurn(t, v, rng)
		if acted == turns {
			action, vars = "resign(matchId:$m)", map[string]any{}
		}
		var r struct{ Action struct{ Match botView } }
		decl := "$m:ID!"
		for name, typ := range map[string]string{"mv": "String!", "s": "Int", "t": "[String!]"} {
			if _, ok := vars[name]; ok {
				decl += ",$" + name + ":" + typ
			}
		}
		vars["m"] = id
		srv.must(t, token, `mutation(`+decl+`){action:`+action+`{match{`+botViewFields+`}}}`, vars, &r)
		acted++
		v = r.Action.Match
	}
}

// humanTurn picks the human's action: the mutation's field and its variables ($m aside).
// It plays a playable card one time in three even when it has a move, so that cards that
// add to the move (the turn stays with the player) come up in every duel.
func humanTurn(t *testing.T, v botView, rng *rand.Rand) (string, map[string]any) {
	t.Helper()
	if v.Phase != nil && *v.Phase == "opening-choice" {
		return []string{"acceptOpening(matchId:$m)", "refuseOpening(matchId:$m)"}[rng.IntN(2)], map[string]any{}
	}
	var playable []int
	for i, h := range v.Hand {
		if h.Playable {
			playable = append(playable, i)
		}
	}
	legal := v.Board.LegalMoves
	if len(playable) > 0 && (len(legal) == 0 || rng.IntN(3) == 0) {
		h := v.Hand[playable[rng.IntN(len(playable))]]
		return "playCard(matchId:$m, slot:$s, targets:$t)", map[string]any{"s": h.Slot, "t": h.Targets[rng.IntN(len(h.Targets))]}
	}
	if len(legal) > 0 {
		return "playMove(matchId:$m, move:$mv)", map[string]any{"mv": legal[rng.IntN(len(legal))]}
	}
	t.Fatalf("the human must act without a legal move or a playable card: %+v", v)
	return "", nil
}

// botActions counts the match's events that the bot caused, by type.
func botActions(v botView) map[string]int {
	out := map[string]int{}
	for _, ev := range v.Events {
		if ev.Actor == "player:bot" {
			out[ev.Type]++
		}
	}
	return out
}

func verifyAll(t *testing.T, db string) {
	t.Helper()
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}

func TestBotPlaysUnfairChessToTheEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	id := tableForBot(t, srv, ann, "UNFAIR_CHESS", "")
	acted, answered, end := duel(t, srv, ann, id, 0, 40, 2026)
	bot := botActions(end)
	t.Logf("Ann acted %d times, the bot answered %d times (%v): %s", acted, answered, bot, end.Result.Reason)
	if end.Status != "FINISHED" || answered == 0 || bot["MovePlayed"]+bot["CardPlayed"] < answered {
		t.Fatalf("Ann acted %d times, the bot answered %d times with %v; the match is %s", acted, answered, bot, end.Status)
	}
	var p struct {
		Player struct {
			ID, Name string
			Ratings  []struct{ Rating float64 }
		}
	}
	srv.must(t, "", `{player(id:"bot"){id name ratings{rating}}}`, nil, &p)
	if p.Player.ID != "bot" || p.Player.Name != "Arbiter bot" || len(p.Player.Ratings) != 0 {
		t.Fatalf("the bot as a player: %+v", p.Player)
	}
	srv.stop(t)
	verifyAll(t, db)
}

func TestBotAnswersTheSovereignOpening(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	// The seed draws who plays White's first move. The bot plays it when drawn; Ann's
	// first move gives the bot the choice, which is what this test is after.
	botFirst := 0
	for try := 0; ; try++ {
		if try == 24 {
			t.Fatalf("the seed never drew Ann to play first in %d matches", try)
		}
		id := tableForBot(t, srv, ann, "SOVEREIGN_CHESS", "TWO_PLAYER")
		v := readBotView(t, srv, ann, id)
		for deadline := time.Now().Add(30 * time.Second); !slices.Equal(v.ToAct, []int{0}); v = readBotView(t, srv, ann, id) {
			if time.Now().After(deadline) {
				t.Fatalf("the bot never played White's first move: %+v", v)
			}
			time.Sleep(5 * time.Millisecond)
		}
		if *v.Phase == "opening-choice" { // the bot moved first; Ann is to choose
			if len(v.Moves) != 1 || botActions(v)["MovePlayed"] != 1 {
				t.Fatalf("before Ann's choice: moves %v, events by the bot %v", v.Moves, botActions(v))
			}
			botFirst++
			srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
			continue
		}
		acted, answered, end := duel(t, srv, ann, id, 0, 12, uint64(try))
		bot := botActions(end)
		t.Logf("after %d matches where the bot moved first: Ann acted %d times, the bot answered %d times (%v)", botFirst, acted, answered, bot)
		if bot["OpeningChosen"] != 1 || answered == 0 || bot["MovePlayed"]+bot["OpeningChosen"] < answered || end.Status != "FINISHED" {
			t.Fatalf("Ann acted %d times, the bot answered %d times with %v; the match is %s", acted, answered, bot, end.Status)
		}
		break
	}
	srv.stop(t)
	verifyAll(t, db)
}

func TestAddBotRefusals(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, eve := srv.register(t, "Eve")
	rated := seatedAlone(t, srv, ann, "game:UNFAIR_CHESS, rated:true")
	royale := seatedAlone(t, srv, ann, "game:SOVEREIGN_CHESS, mode:ROYALE")
	live := tableForBot(t, srv, ann, "CHESS", "")

	const add = `mutation($m:ID!,$s:Int,$c:ID){addBot(matchId:$m, seat:$s, commandId:$c){seat match{version}}}`
	refused := func(name, token, match string, seat any, code, reason string) {
		t.Helper()
		before := readBotView(t, srv, "", match).Version
		r := srv.post(t, token, add, map[string]any{"m": match, "s": seat})
		if r.code() != code || !strings.Contains(r.Errors[0].Message, reason) {
			t.Errorf("%s: %+v, want %s (%q)", name, r.Errors, code, reason)
		}
		if after := readBotView(t, srv, "", match).Version; after != before {
			t.Errorf("%s: the match went from version %d to %d", name, before, after)
		}
	}
	refused("a rated match", ann, rated, nil, "BAD_USER_INPUT", "bot games never count for ratings")
	refused("no token", "", royale, nil, "UNAUTHENTICATED", "")
	refused("not in the match", eve, royale, nil, "FORBIDDEN", "only a player seated")
	refused("a started match", ann, live, nil, "CONFLICT", "has started")
	refused("a seat taken", ann, royale, 0, "CONFLICT", "seat 0 is taken")
	refused("no such seat", ann, royale, 4, "BAD_USER_INPUT", "seat 4 does not exist")
	if r := srv.post(t, ann, add, map[string]any{"m": "nope"}); r.code() != "NOT_FOUND" {
		t.Errorf("an unknown match: %+v", r.Errors)
	}

	var first, retry struct {
		AddBot struct {
			Seat  int
			Match struct{ Version int }
		}
	}
	srv.must(t, ann, add, map[string]any{"m": royale, "s": 2, "c": "seat-the-bot"}, &first)
	srv.must(t, ann, add, map[string]any{"m": royale, "s": 2, "c": "seat-the-bot"}, &retry)
	if first.AddBot.Seat != 2 || retry != first {
		t.Fatalf("addBot at seat 2, then its retry: %+v, %+v", first, retry)
	}
	refused("the same seat twice", ann, royale, 2, "CONFLICT", "seat 2 is taken")

	// Nobody authenticates as the bot.
	if r := srv.post(t, "bot.00", `{me{id}}`, nil); r.code() != "UNAUTHENTICATED" {
		t.Fatalf("a token for the bot: %+v", r)
	}
}

// The bot's turn comes while no server runs (the match was set up on the file directly):
// the server that boots on the file finds the match where the bot is to act and plays.
func TestBotPlaysItsTurnAfterABoot(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	ctx := context.Background()
	store, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Store: store, Games: games()})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: "CHESS", By: "ann"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	black := 1
	if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: "ann", Name: "Ann", Seat: &black}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Add(ctx, e, ack.MatchID, "ann", nil, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	srv := startServer(t, db)
	v := readBotView(t, srv, "", ack.MatchID)
	for deadline := time.Now().Add(30 * time.Second); len(v.Moves) == 0; v = readBotView(t, srv, "", ack.MatchID) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot never played White's first move after the boot: %+v", v)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(v.Moves) != 1 || !slices.Equal(v.ToAct, []int{1}) || botActions(v)["MovePlayed"] != 1 {
		t.Fatalf("after the boot: moves %v, to act %v, by the bot %v", v.Moves, v.ToAct, botActions(v))
	}
}
