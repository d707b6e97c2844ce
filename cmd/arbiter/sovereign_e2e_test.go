package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// Sovereign Chess over the real API: two-player and Royale matches created with a mode,
// the opening chosen, moves and defections sent through their mutations by seeded random
// bots that read the legal moves from the board, and the file verified at the end.

type sovereignView struct {
	Match struct {
		Status  string
		ToAct   []int
		Choices []string
		Phase   *string
		Version int
		Moves   []string
		Board   *struct {
			Fen         string
			LegalMoves  []string
			Checked     []int
			Interregnum []int
			Colours     []struct{ Square, Colour string }
			Armies      []struct {
				Colour            string
				Owner, Controller *int
			}
			Marks []struct{ Square, Kind string }
			Sides []struct {
				Side, Seat int
				Colour     *string
			}
		}
		Result *struct {
			Winners []int
			Reason  string
		}
	}
}

const sovereignQuery = `query($m:ID!){match(id:$m){status toAct choices phase version moves
  board{fen legalMoves checked interregnum colours{square colour} armies{colour owner controller} marks{square kind} sides{side seat colour}}
  result{winners reason}}}`

func TestSovereignChessOverGraphQL(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		seats int
	}{{"TWO_PLAYER", 2}, {"ROYALE", 4}} {
		t.Run(tc.mode, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "arbiter.db")
			srv := startServer(t, db)
			tokens := make([]string, tc.seats)
			for i := range tokens {
				_, tokens[i] = srv.register(t, "player"+string(rune('A'+i)))
			}
			var c struct {
				CreateMatch struct{ Match struct{ ID string } }
			}
			srv.must(t, tokens[0], `mutation($mode:Mode){createMatch(input:{game:SOVEREIGN_CHESS, mode:$mode}){match{id}}}`, map[string]any{"mode": tc.mode}, &c)
			id := c.CreateMatch.Match.ID
			for seat, tok := range tokens {
				srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
			}

			var v sovereignView
			srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
			b := v.Match.Board
			if v.Match.Status != "LIVE" || b == nil || len(b.Armies) != 12 || len(b.Colours) != 24 || len(b.LegalMoves) == 0 {
				t.Fatalf("a new %s match: %+v", tc.mode, v.Match)
			}
			owners := 0
			for _, a := range b.Armies {
				if a.Owner != nil {
					owners++
				}
			}
			if owners != tc.seats {
				t.Fatalf("%d armies have an owner, want one per seat (%d)", owners, tc.seats)
			}

			rng := rand.New(rand.NewPCG(5, uint64(tc.seats)))
			choices, defections, moves := 0, 0, 0
			for step := 0; step < 120 && v.Match.Status == "LIVE"; step++ {
				seat := v.Match.ToAct[0]
				phase := ""
				if v.Match.Phase != nil {
					phase = *v.Match.Phase
				}
				var r gqlResponse
				switch {
				case phase == "opening-choice":
					if strings.Join(v.Match.Choices, " ") != "keep refuse" {
						t.Fatalf("the opening offers %v", v.Match.Choices)
					}
					op := []string{"acceptOpening", "refuseOpening"}[rng.IntN(2)]
					r = srv.post(t, tokens[seat], `mutation($m:ID!){`+op+`(matchId:$m){version}}`, map[string]any{"m": id})
					choices++
				default:
					legal := v.Match.Board.LegalMoves
					if len(legal) == 0 {
						t.Fatalf("seat %d must act in a live match without a legal move: %+v", seat, v.Match)
					}
					mv := legal[rng.IntN(len(legal))]
					if d, ok := defectionIn(legal, rng); ok && rng.IntN(4) == 0 {
						mv = d
					}
					if rest, ok := strings.CutPrefix(mv, "="); ok {
						r = srv.post(t, tokens[seat], `mutation($m:ID!,$c:String!,$k:String){defect(matchId:$m, colour:$c, kingMove:$k){version}}`,
							map[string]any{"m": id, "c": rest[:1], "k": rest[1:]})
						defections++
					} else {
						r = srv.play(t, tokens[seat], id, mv)
						moves++
					}
					if len(r.Errors) > 0 {
						t.Fatalf("seat %d playing %s, listed as legal in %s: %+v", seat, mv, v.Match.Board.Fen, r.Errors)
					}
				}
				if len(r.Errors) > 0 {
					t.Fatalf("seat %d in phase %q: %+v", seat, phase, r.Errors)
				}
				srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
				checkSides(t, v, tc.seats)
			}
			if tc.seats == 2 && choices != 1 {
				t.Fatalf("the opening was chosen %d times, want once", choices)
			}
			if defections == 0 {
				t.Logf("no defection was legal in this game")
			}
			// The match ends by resignations: the last side standing wins.
			for seat := 0; v.Match.Status == "LIVE" && seat < tc.seats-1; seat++ {
				srv.must(t, tokens[seat], `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
				srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
			}
			if v.Match.Status != "FINISHED" || v.Match.Result == nil {
				t.Fatalf("after resignations: %+v", v.Match)
			}
			t.Logf("%s: %d moves, %d defections, then %+v", tc.mode, moves, defections, *v.Match.Result)
			if len(v.Match.Moves) < moves+defections {
				t.Fatalf("%d moves recorded, %d played", len(v.Match.Moves), moves+defections)
			}
			srv.stop(t)
			if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasPrefix(last, "1 matches") {
				t.Fatalf("verify:\n%s", out)
			}
		})
	}
}

// defectionIn returns a defection among the legal moves, if there is one.
func defectionIn(legal []string, rng *rand.Rand) (string, bool) {
	var ds []string
	for _, m := range legal {
		if strings.HasPrefix(m, "=") {
			ds = append(ds, m)
		}
	}
	if len(ds) == 0 {
		return "", false
	}
	return ds[rng.IntN(len(ds))], true
}

// TestSovereignMateOverGraphQL: from a position, the opening kept, Black's army defects to
// navy through the defect mutation, and White mates the navy king.
func TestSovereignMateOverGraphQL(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, a := srv.register(t, "Ann")
	_, b := srv.register(t, "Bob")
	tokens := []string{a, b}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	// White: king i1, queen e13, rook b10; Black: king a16, pawn l12 (a navy square).
	board, err := sovereign.BoardNotation("wki1 wqe13 wrb10 bka16 bpl12")
	if err != nil {
		t.Fatal(err)
	}
	position := board + " 1 w b - 0"
	srv.must(t, a, `mutation($p:String!){createMatch(input:{game:SOVEREIGN_CHESS, mode:TWO_PLAYER, options:[{key:"position", value:$p}]}){match{id}}}`,
		map[string]any{"p": position}, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", `subscription($m:ID!){matchUpdates(matchId:$m){version status toAct result{reason}}}`, map[string]any{"m": id})
	var v sovereignView
	srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
	first := v.Match.ToAct[0]
	chooser := 1 - first
	steps := []struct {
		seat  int
		query string
		vars  map[string]any
	}{
		{first, `mutation($m:ID!){playMove(matchId:$m, move:"i1h1"){version}}`, nil},
		{chooser, `mutation($m:ID!){acceptOpening(matchId:$m){version}}`, nil},
		{first, `mutation($m:ID!,$c:String!){defect(matchId:$m, colour:$c){version}}`, map[string]any{"c": "Navy"}},
		{chooser, `mutation($m:ID!){playMove(matchId:$m, move:"e13a13"){version}}`, nil},
	}
	for i, s := range steps {
		vars := map[string]any{"m": id}
		for k, x := range s.vars {
			vars[k] = x
		}
		if r := srv.post(t, tokens[1-s.seat], s.query, vars); r.code() != "NOT_YOUR_TURN" {
			t.Fatalf("step %d sent by the other seat: %+v", i, r.Errors)
		}
		srv.must(t, tokens[s.seat], s.query, vars, nil)
	}
	srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
	if v.Match.Status != "FINISHED" || v.Match.Result == nil || v.Match.Result.Reason != "checkmate" ||
		len(v.Match.Result.Winners) != 1 || v.Match.Result.Winners[0] != chooser {
		t.Fatalf("after the mate: %+v", v.Match)
	}
	if got := strings.Join(v.Match.Moves, " "); !strings.Contains(got, "=n") {
		t.Fatalf("the defection is not in the moves: %s", got)
	}
	// The spectator's live view came in order and completed on the final state.
	var last struct {
		MatchUpdates struct {
			Version int
			Status  string
			Result  *struct{ Reason string }
		}
	}
	n, prev := 0, 0
	for data := range updates {
		if err := json.Unmarshal(data, &last); err != nil {
			t.Fatal(err)
		}
		if last.MatchUpdates.Version <= prev {
			t.Fatalf("update %d has version %d after %d", n, last.MatchUpdates.Version, prev)
		}
		prev = last.MatchUpdates.Version
		n++
	}
	if u := last.MatchUpdates; u.Status != "FINISHED" || u.Result == nil || u.Result.Reason != "checkmate" || u.Version != v.Match.Version {
		t.Fatalf("the last of %d updates: %+v, the match is at version %d", n, u, v.Match.Version)
	}
}

// checkSides checks the board's sides against the rest of the match: one per seat,
// numbered as the position string's turn field numbers them (the side to move is the seat
// to act), each owning the army whose owner is its seat.
func checkSides(t *testing.T, v sovereignView, seats int) {
	t.Helper()
	b := v.Match.Board
	fields := strings.Fields(b.Fen)
	seen := map[int]bool{}
	for i, s := range b.Sides {
		if s.Side != i+1 || s.Seat < 0 || s.Seat >= seats || seen[s.Seat] {
			t.Fatalf("sides %+v", b.Sides)
		}
		seen[s.Seat] = true
		if s.Colour == nil {
			continue
		}
		for _, a := range b.Armies {
			if a.Colour == *s.Colour && (a.Owner == nil || *a.Owner != s.Seat) {
				t.Fatalf("side %d (seat %d) owns %s, whose army's owner is %v", s.Side, s.Seat, *s.Colour, a.Owner)
			}
		}
	}
	if len(b.Sides) != seats {
		t.Fatalf("%d sides for %d seats: %+v", len(b.Sides), seats, b.Sides)
	}
	if v.Match.Status == "LIVE" {
		turn, err := strconv.Atoi(fields[1])
		if err != nil || turn < 1 || turn > seats || len(v.Match.ToAct) != 1 || b.Sides[turn-1].Seat != v.Match.ToAct[0] {
			t.Fatalf("the position %q has side %s to move, the sides are %+v and seat %v is to act", b.Fen, fields[1], b.Sides, v.Match.ToAct)
		}
	}
}

// After the opening choice, the position string's side 1 may be seat 1: the chooser
// keeps White's first move when it sits at seat 1, and refuses it when the first mover
// does. Board.sides says so, and the armies' owners are seats.
func TestSovereignSidesAreNotSeats(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	tokens := make([]string, 2)
	for i := range tokens {
		_, tokens[i] = srv.register(t, "player"+string(rune('A'+i)))
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, tokens[0], `mutation{createMatch(input:{game:SOVEREIGN_CHESS, mode:TWO_PLAYER}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	var v sovereignView
	srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
	first := v.Match.ToAct[0]
	if r := srv.play(t, tokens[first], id, v.Match.Board.LegalMoves[0]); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	choice := "refuseOpening" // the first mover, seat 1, keeps White
	if first == 0 {
		choice = "acceptOpening" // the chooser, seat 1, takes White
	}
	srv.must(t, tokens[1-first], `mutation($m:ID!){`+choice+`(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	srv.must(t, "", sovereignQuery, map[string]any{"m": id}, &v)
	checkSides(t, v, 2)
	s := v.Match.Board.Sides
	if s[0].Seat != 1 || s[1].Seat != 0 || strings.Fields(v.Match.Board.Fen)[1] != "2" || v.Match.ToAct[0] != 0 {
		t.Fatalf("after seat %d moved first and seat %d chose %s: sides %+v, position %q, to act %v", first, 1-first, choice, s, v.Match.Board.Fen, v.Match.ToAct)
	}
}
