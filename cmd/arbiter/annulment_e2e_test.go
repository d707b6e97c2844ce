package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// annulView is what a player of the annulment's search reads to act.
type annulView struct {
	Match struct {
		Status string
		ToAct  []int
		Boards []struct{ Moves []string }
		State  struct {
			Phase string
			Board struct{ LegalMoves []string }
			Hand  []struct {
				Slot     int
				Playable bool
				Targets  [][]string
				Card     struct{ ID string }
			}
		}
	}
}

const annulQuery = `query($m:ID!){match(id:$m){status toAct boards{moves}
	state{... on MagicChessState{phase board{legalMoves} hand{slot playable targets card{id}}}}}}`

// lastCard is the last card laid that stands in a board's record ("[echo]"), or "".
func lastCard(moves []string) string {
	for i := len(moves) - 1; i >= 0; i-- {
		if strings.HasPrefix(moves[i], "[") && !strings.HasSuffix(moves[i], " annulled") {
			return strings.Fields(strings.Trim(moves[i], "[]"))[0]
		}
	}
	return ""
}

// playForAnAnnulment plays classic doubles matches over GraphQL with the forty cards'
// real deck, the four players steering for Echo on Echo (rule 8's loop): a player who
// holds Echo lays its other cards first and Echo last, so that it draws at once, and when
// the deck is empty the discard, Echo in it, is reshuffled; nobody lays another card on a
// board whose last card is Echo, and whoever holds Echo there lays it. It returns the
// match in which a card was annulled, resigned at once by team 0, or "" after tries
// matches.
func playForAnAnnulment(t *testing.T, srv *server, tokens []string, tries int, rng *rand.Rand) string {
	t.Helper()
	for try := range tries {
		id := doublesMatch(t, srv, tokens, `, {key:"clock", value:"off"}`)
		vars := map[string]any{"m": id}
		seat := 0
		for n := 0; n < 800; n++ {
			var v annulView
			srv.must(t, tokens[seat], annulQuery, vars, &v)
			m := v.Match
			if m.Status == "FINISHED" || len(m.ToAct) == 0 {
				break
			}
			for _, b := range m.Boards {
				if len(b.Moves) > 0 && strings.HasSuffix(b.Moves[len(b.Moves)-1], " annulled") {
					t.Logf("match %d (%s): a card annulled after %d actions: %v", try+1, id, n, b.Moves[len(b.Moves)-3:])
					// Team 0 resigns, both its players: the match is over, its export whole.
					for _, seat := range []int{0, 3} {
						srv.must(t, tokens[seat], `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
					}
					return id
				}
			}
			if !containsInt(m.ToAct, seat) {
				seat = m.ToAct[rng.IntN(len(m.ToAct))]
				continue
			}
			s := m.State
			var r gqlResponse
			if s.Phase == "planning" {
				r = srv.post(t, tokens[seat], `mutation($m:ID!){act(matchId:$m, action:{choose:{option:"ready"}}){match{version}}}`, vars)
			} else {
				frozen := lastCard(m.Boards[seat/2].Moves) == "echo"
				var echo, others []int
				for i, h := range s.Hand {
					switch {
					case !h.Playable:
					case h.Card.ID == "echo":
						echo = append(echo, i)
					default:
						others = append(others, i)
					}
				}
				card := -1
				switch {
				case len(echo) > 0 && (frozen || len(s.Hand) == 1):
					card = echo[0]
				case len(others) > 0 && !frozen:
					card = others[rng.IntN(len(others))]
				case len(s.Board.LegalMoves) == 0 && len(echo)+len(others) > 0:
					card = append(echo, others...)[0]
				}
				if card >= 0 {
					h := s.Hand[card]
					r = srv.post(t, tokens[seat], `mutation($m:ID!,$s:Int,$t:[String!]){playCard(matchId:$m, slot:$s, targets:$t){match{version}}}`,
						map[string]any{"m": id, "s": h.Slot, "t": h.Targets[rng.IntN(len(h.Targets))]})
				} else {
					r = srv.play(t, tokens[seat], id, s.Board.LegalMoves[rng.IntN(len(s.Board.LegalMoves))])
				}
			}
			if len(r.Errors) > 0 {
				t.Fatalf("seat %d: %+v", seat, r.Errors)
			}
			seat = rng.IntN(4)
		}
		if v := (annulView{}); true {
			srv.must(t, tokens[0], annulQuery, vars, &v)
			if v.Match.Status != "FINISHED" {
				srv.must(t, tokens[0], `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
			}
		}
	}
	return ""
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestMakeAnAnnulledMatch writes testdata/magic-annulment: set ARBITER_MAKE_ANNULMENT=1
// to search for one (minutes), else it is skipped.
func TestMakeAnAnnulledMatch(t *testing.T) {
	if os.Getenv("ARBITER_MAKE_ANNULMENT") == "" {
		t.Skip("set ARBITER_MAKE_ANNULMENT=1 to write testdata/magic-annulment")
	}
	rng := rand.New(rand.NewPCG(8, 2026))
	var dir, id string
	for try := 0; id == "" && try < 400; try++ {
		// A server and a store of its own for each match: the one kept holds that match alone.
		dir = t.TempDir()
		srv := startServer(t, filepath.Join(dir, "arbiter.db"))
		var tokens []string
		for _, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
			_, tok := srv.register(t, name)
			tokens = append(tokens, tok)
		}
		id = playForAnAnnulment(t, srv, tokens, 1, rng)
		srv.stop(t)
	}
	if id == "" {
		t.Fatal("no annulment in 400 matches")
	}
	out := filepath.Join("testdata", "magic-annulment")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	copyStoreTo(t, dir, out)
	if err := os.WriteFile(filepath.Join(out, "match-id"), []byte(id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
