package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/solwaris"
)

// A live match of each game, restored at boot from the read side's snapshot (or, for a
// game that cannot write its state down, folded again from its own events), must be the
// match a server that folded the store from zero serves: every seat's and a spectator's
// view byte for byte, the same next action taken, the same wrong one refused, and a
// clock's deadline kept.

// snapshotMatchQuery is the match as the API serves it to one viewer, with every event
// as that viewer may read it (redacted or not); state is the game's own fragment.
const snapshotMatchQuery = `query($m:ID!){match(id:$m){id game rulesVersion status rated options{key value} version
	seats{seat team player{id name}} turn toAct choices mySeat phase moves pgn drawOfferBy
	result{winner winners draw reason} seedCommitment seed
	clock{control initialMs incrementMs seats{seat remainingMs} running since}
	events(first:1000){version position type schemaVersion at actor visibility data redacted hash prevHash}
	%s}}`

// gameStep is one action a player sends: its token, the mutation and its variables.
type gameStep struct {
	token, query string
	vars         map[string]any
}

// snapshotGame is a game as these tests create, show and play it.
type snapshotGame struct {
	name    string
	create  string // createMatch's input
	players int
	state   string // the game's fields of Match
	// next reads, as the seat to act sees it, the action it takes next.
	next func(t *testing.T, srv *server, tokens []string, id string) gameStep
}

var snapshotGames = []snapshotGame{
	{
		name:    "UnfairChess",
		create:  `{game:UNFAIR_CHESS}`,
		players: 2,
		state: `state{__typename ... on UnfairChessState{board{fen inCheck legalMoves marks{square kind seat}}
			hand{slot playable targets reason card{id}} seats{seat handSize deckSize discardPile{id} played{card{id} count}}}}`,
		next: chessLikeStep,
	},
	{
		name:    "AjedrezMagico",
		create:  `{game:MAGIC_CHESS, mode:CLASSIC}`,
		players: 2,
		state: `state{__typename ... on MagicChessState{phase moves board{fen inCheck legalMoves marks{square kind seat}}
			hand{slot playable targets reason card{id}} seats{seat handSize deckSize discardPile{id}}}}`,
		next: chessLikeStep,
	},
	{
		name:    "MagicDoubles",
		create:  `{game:MAGIC_CHESS, options:[{key:"boards", value:"2"}]}`,
		players: 4,
		state: `boards{board fen whiteInHand blackInHand seats toAct moves clock{seats{seat remainingMs} running}}
			state{__typename ... on MagicChessState{phase moves board{fen inCheck legalMoves}
			hand{slot playable targets reason card{id}} seats{seat handSize deckSize discardPile{id}} signals{seat signal}}}`,
		next: chessLikeStep,
	},
	{
		name:    "Sovereign",
		create:  `{game:SOVEREIGN_CHESS, mode:TWO_PLAYER}`,
		players: 2,
		state: `state{__typename} board{fen legalMoves checked interregnum colours{square colour}
			armies{colour owner controller} marks{square kind} sides{side seat colour}}`,
		next: chessLikeStep,
	},
	{
		name:    "Solwaris",
		create:  `{game:SOLWARIS}`,
		players: 2,
		state: `state{__typename ... on SolwarisState{map phase deadline turn acting purse placementCells
			fighters{id seat team class entity hero hp maxHp ap mp armour cell statuses spells}
			traps{team cell until} auction{designated toBid leader price closed}
			reachable{cell cost} targets{spell cells}}}`,
		next: func(t *testing.T, srv *server, tokens []string, id string) gameStep {
			t.Helper()
			for seat, tok := range tokens {
				var st solwarisState
				srv.must(t, tok, solwarisStateQuery, map[string]any{"m": id}, &st)
				if q, vars := solwarisBot(seat, &st); q != "" {
					vars["m"] = id
					return gameStep{tok, q, vars}
				}
			}
			t.Fatalf("no seat of the Solwaris match %s has an action", id)
			return gameStep{}
		},
	},
}

// chessLikeStep is the next action of a game on a chess board, read from the acting
// seat's own view: Sovereign's opening kept, the planning's "ready", the first card its
// hand may lay (on its first targets) once per turn, or its first legal move that is a
// plain move. A seat of magic doubles plays on its own board, the seat's half.
func chessLikeStep(t *testing.T, srv *server, tokens []string, id string) gameStep {
	t.Helper()
	var v struct {
		Match struct {
			ToAct   []int
			Choices []string
			Phase   *string
			Moves   []string
			Board   *struct{ LegalMoves []string }
			Boards  []struct{ Board int }
			State   struct {
				Phase string
				Board *struct{ LegalMoves []string }
				Hand  []struct {
					Slot     int
					Playable bool
					Targets  [][]string
				}
			}
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){toAct}}`, map[string]any{"m": id}, &v)
	if len(v.Match.ToAct) == 0 {
		t.Fatalf("nobody is to act in %s", id)
	}
	seat := v.Match.ToAct[0]
	tok := tokens[seat]
	srv.must(t, tok, `query($m:ID!){match(id:$m){toAct choices phase moves board{legalMoves} boards{board}
		state{... on MagicChessState{phase board{legalMoves} hand{slot playable targets}}
			... on UnfairChessState{hand{slot playable targets}}}}}`, map[string]any{"m": id}, &v)
	vars := map[string]any{"m": id}
	board := ""
	if len(v.Match.Boards) > 1 {
		vars["b"], board = seat/2, ", board:$b"
	}
	choose := func(o string) gameStep {
		vars["o"] = o
		return gameStep{tok, `mutation($m:ID!,$o:String!){act(matchId:$m, action:{choose:{option:$o}}){version}}`, vars}
	}
	switch {
	case slices.Contains(v.Match.Choices, "keep"):
		return choose("keep")
	case v.Match.State.Phase == "planning":
		return choose("ready")
	}
	// A card every other turn of the seat's, so that both cards and moves are played.
	if len(v.Match.Moves)%4 < 2 && v.Match.State.Phase != "move-after-card" {
		for _, h := range v.Match.State.Hand {
			if h.Playable && len(h.Targets) > 0 {
				vars["s"], vars["t"] = h.Slot, h.Targets[0]
				return gameStep{tok, `mutation($m:ID!,$s:Int,$t:[String!]` + strings.Replace(board, ", board:$b", ",$b:Int", 1) +
					`){playCard(matchId:$m, slot:$s, targets:$t` + board + `){version}}`, vars}
			}
		}
	}
	legal := []string(nil)
	if v.Match.Board != nil {
		legal = v.Match.Board.LegalMoves
	} else if v.Match.State.Board != nil {
		legal = v.Match.State.Board.LegalMoves
	}
	for _, mv := range legal {
		if !strings.ContainsAny(mv, "=@") {
			vars["v"] = mv
			return gameStep{tok, `mutation($m:ID!,$v:String!` + strings.Replace(board, ", board:$b", ",$b:Int", 1) +
				`){playMove(matchId:$m, move:$v` + board + `){version}}`, vars}
		}
	}
	t.Fatalf("seat %d of %s has no plain legal move: %+v", seat, id, v.Match)
	return gameStep{}
}

// restoredPair plays a game's match on a new file with setup, stops the server (which
// writes the snapshot), and boots two servers: one from the snapshot, one from a copy of
// the file folding from zero.
func restoredPair(t *testing.T, g snapshotGame, setup func(srv *server, tokens []string, id string)) (snap, zero *server, tokens []string, id string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	for i := range g.players {
		_, tok := srv.register(t, "player"+string(rune('A'+i)))
		tokens = append(tokens, tok)
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, tokens[0], `mutation{createMatch(input:`+g.create+`){match{id}}}`, nil, &c)
	id = c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	setup(srv, tokens, id)
	srv.stop(t)
	if !strings.Contains(srv.stderr.String(), "wrote the read side's snapshot") {
		t.Fatalf("no snapshot written on stop:\n%s", srv.stderr)
	}
	copied := copyStore(t, filepath.Dir(db)) // the file, its key and head log; not the snapshots
	snap = startServer(t, db)
	if !strings.Contains(snap.stderr.String(), "read the read side's snapshot") {
		t.Fatalf("the boot read no snapshot:\n%s", snap.stderr)
	}
	zero = startServer(t, copied, "--snapshots", "off")
	return snap, zero, tokens, id
}

// wallClock are the fields an event appended after the boot takes from each server's own
// clock or randomness: when it was written (and the hashes that cover it), when a clock
// last started, what is left of it, a turn's deadline, and a hidden draw's salt.
var wallClock = []string{"at", "hash", "prevHash", "since", "remainingMs", "leftMs", "deadline", "salt"}

// sameViews requires every seat's and a spectator's view of the match to be byte for
// byte the same on both servers, but for the wallClock fields when appended is set (each
// server wrote its own events since the boot).
func sameViews(t *testing.T, g snapshotGame, snap, zero *server, tokens []string, id, when string, appended bool) {
	t.Helper()
	q := strings.Replace(snapshotMatchQuery, "%s", g.state, 1)
	for i, tok := range append([]string{""}, tokens...) {
		a := snap.post(t, tok, q, map[string]any{"m": id})
		b := zero.post(t, tok, q, map[string]any{"m": id})
		ja, jb := must(json.Marshal(a)), must(json.Marshal(b))
		if appended {
			ja, jb = withoutWallClock(t, ja), withoutWallClock(t, jb)
		}
		if len(a.Errors) > 0 {
			t.Fatalf("%s, viewer %d: %+v", when, i, a.Errors)
		}
		if string(ja) != string(jb) {
			at := 0
			for at < min(len(ja), len(jb)) && ja[at] == jb[at] {
				at++
			}
			t.Errorf("%s, viewer %d (0 a spectator), differ at byte %d:\nfrom the snapshot: …%s\nfrom zero:         …%s", when, i, at, ja[max(0, at-200):min(len(ja), at+200)], jb[max(0, at-200):min(len(jb), at+200)])
		}
	}
}

// withoutWallClock is the JSON b with every wallClock field removed.
func withoutWallClock(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range wallClock {
				delete(v, k)
			}
			for _, e := range v {
				strip(e)
			}
		case []any:
			for _, e := range v {
				strip(e)
			}
		}
	}
	strip(v)
	return must(json.Marshal(v))
}

// sameAnswer sends step to both servers and requires the same answer.
func sameAnswer(t *testing.T, snap, zero *server, s gameStep) gqlResponse {
	t.Helper()
	a, b := snap.post(t, s.token, s.query, s.vars), zero.post(t, s.token, s.query, s.vars)
	if ja, jb := must(json.Marshal(a)), must(json.Marshal(b)); string(ja) != string(jb) {
		t.Errorf("%s %v:\nfrom the snapshot: %s\nfrom zero:         %s", s.query, s.vars, ja, jb)
	}
	return a
}

func TestEachGamesLiveMatchBootsFromASnapshotAsFromZero(t *testing.T) {
	for _, g := range snapshotGames {
		t.Run(g.name, func(t *testing.T) {
			snap, zero, tokens, id := restoredPair(t, g, func(srv *server, tokens []string, id string) {
				var played []string
				for range 8 {
					s := g.next(t, srv, tokens, id)
					if r := srv.post(t, s.token, s.query, s.vars); len(r.Errors) > 0 {
						t.Fatalf("%s %v: %+v", s.query, s.vars, r.Errors)
					}
					_, name, _ := strings.Cut(s.query, "{")
					name, _, _ = strings.Cut(name, "(")
					played = append(played, name)
				}
				t.Logf("played before the stop: %v", played)
			})
			sameViews(t, g, snap, zero, tokens, id, "at boot", false)
			next := g.next(t, zero, tokens, id)
			// Refused alike: the acting seat's action sent by another seat, and a move that
			// is no move.
			for _, tok := range tokens {
				if tok == next.token {
					continue
				}
				wrong := next
				wrong.token = tok
				if r := sameAnswer(t, snap, zero, wrong); len(r.Errors) == 0 {
					t.Errorf("seat's action sent by another seat was taken: %+v", wrong)
				}
			}
			nonsense := gameStep{next.token, `mutation($m:ID!){playMove(matchId:$m, move:"Zz9"){version}}`, map[string]any{"m": id}}
			if r := sameAnswer(t, snap, zero, nonsense); len(r.Errors) == 0 {
				t.Errorf("the move Zz9 was taken")
			}
			sameViews(t, g, snap, zero, tokens, id, "after the refusals", false)
			if r := sameAnswer(t, snap, zero, next); len(r.Errors) > 0 {
				t.Fatalf("the next action %s %v: %+v", next.query, next.vars, r.Errors)
			}
			sameViews(t, g, snap, zero, tokens, id, "after the next action", true)
		})
	}
}

// A timed match restored from a snapshot ends on time as on the server that folded from
// zero: the same result, the same events. Solwaris has no clock but deadlines of its own:
// its auction, left without a bid, closes at its deadline alike.
//
// Each game waits for its flag or deadline asleep, so the games run in parallel, with the
// package's other such tests (waitsOnTheClock): each has its own servers and files.
func TestAClockDeadlineAfterABootFromASnapshot(t *testing.T) {
	waitsOnTheClock(t)
	for _, g := range snapshotGames {
		t.Run(g.name, func(t *testing.T) {
			waitsOnTheClock(t)
			// 3 s each, no increment; should the match end before the stop (a machine so
			// loaded that a few requests took longer), again with 12 s: the test is of the
			// timer restored, not of this machine's speed.
			for _, clockMs := range []int{3000, 12000} {
				if timedSnapshotBoot(t, g, clockMs) {
					return
				}
				t.Logf("the match ended before the stop with a %d ms control: again with a longer one", clockMs)
			}
			t.Fatal("the match ended before the stop with every control tried")
		})
	}
}

// timedSnapshotBoot is one run of TestAClockDeadlineAfterABootFromASnapshot with a control
// of clockMs each; false, having checked nothing, when the match ended before the stop.
func timedSnapshotBoot(t *testing.T, g snapshotGame, clockMs int) bool {
	t.Helper()
	clock := fmt.Sprintf(`{key:"clock", value:"%g+0"}`, float64(clockMs)/60000)
	ownDeadlines, steps := g.name == "Solwaris", g.players+1 // past a planning, where no clock runs
	if ownDeadlines {
		steps = 2 * g.players // grimoires and start cells: the auction's deadline runs
	}
	wait := time.Duration(clockMs) * time.Millisecond
	switch {
	case ownDeadlines:
		wait = solwaris.BidTime
	case strings.Contains(g.create, "options:["):
		g.create = strings.Replace(g.create, "options:[", "options:["+clock+", ", 1)
	default:
		g.create = strings.Replace(g.create, "}", `, options:[`+clock+`]}`, 1)
	}
	endedEarly := false
	snap, zero, tokens, id := restoredPair(t, g, func(srv *server, tokens []string, id string) {
		for range steps {
			s := g.next(t, srv, tokens, id)
			if r := srv.post(t, s.token, s.query, s.vars); len(r.Errors) > 0 {
				t.Fatalf("%s %v: %+v", s.query, s.vars, r.Errors)
			}
		}
		// The flag must fall after the boot, or the restored timer is not what ends it.
		var d struct {
			Match struct{ Status, Phase string }
		}
		srv.must(t, "", `query($m:ID!){match(id:$m){status phase}}`, map[string]any{"m": id}, &d)
		if ownDeadlines && d.Match.Phase != "auction" {
			t.Fatalf("Solwaris stopped in phase %q, want the auction", d.Match.Phase)
		}
		endedEarly = d.Match.Status != "LIVE"
	})
	if endedEarly {
		return false
	}
	// Both clocks run from the stored events: each server's flag falls at most a
	// whole control after now; the margin is for a loaded machine.
	deadline := time.Now().Add(wait + 20*time.Second)
	for {
		status := map[string]string{}
		for name, srv := range map[string]*server{"from the snapshot": snap, "from zero": zero} {
			var d struct {
				Match struct {
					Status string
					Phase  *string
					Boards []struct{ Clock json.RawMessage }
				}
			}
			srv.must(t, "", `query($m:ID!){match(id:$m){status phase boards{clock{seats{seat remainingMs} running}}}}`, map[string]any{"m": id}, &d)
			if ownDeadlines && d.Match.Phase != nil && *d.Match.Phase == "play" {
				d.Match.Status = "FINISHED" // the auction's end is the deadline awaited
			}
			status[name] = d.Match.Status + " " + string(must(json.Marshal(d.Match.Boards)))
		}
		if strings.HasPrefix(status["from the snapshot"], "FINISHED") && strings.HasPrefix(status["from zero"], "FINISHED") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no end 20 s after a %v deadline: %v", wait, status)
		}
		time.Sleep(20 * time.Millisecond) // polling for the engines' timers
	}
	sameViews(t, g, snap, zero, tokens, id, "after the flag fell", true)
	var d struct {
		Match struct{ Result struct{ Reason string } }
	}
	snap.must(t, "", `query($m:ID!){match(id:$m){result{reason}}}`, map[string]any{"m": id}, &d)
	if !ownDeadlines && d.Match.Result.Reason != "timeout" {
		t.Errorf("ended by %q, want timeout", d.Match.Result.Reason)
	}
	return true
}
