package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
)

// A match of magic-2026.3 keeps that version's doubles over the API, on a server that
// hosts those rules (as a server of then did): a signal is stored in the match's stream
// (its version moves; a spectator sees a redacted Signalled), and a player's resignation
// leaves the match going on, the resigned seat still to move on its board. `arbiter
// verify` re-derives the match so, public signal and all. (Under magic-2026.4 a signal
// moves nothing the other team sees and a resignation ends the match:
// TestASignalLeavesNoTraceOutsideItsTeam.)
func TestDoublesOfMagic20263KeepPublicSignalsAndResignations(t *testing.T) {
	old, ok := magicchess.Rules{}.Under("magic-2026.3")
	if !ok {
		t.Fatal("the rules no longer know magic-2026.3")
	}
	reg := game.NewRegistry(old)
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServerIn(t, hostingGames(context.Background(), reg), db)
	tokens, id := doublesPlayers(t, srv, "", true)
	vars := map[string]any{"m": id}
	const move = `mutation($m:ID!,$v:String!,$b:Int){playMove(matchId:$m, move:$v, board:$b){match{version}}}`
	srv.must(t, tokens[0], move, map[string]any{"m": id, "v": "e4", "b": 0}, nil)
	before := srv.versionOf(t, id)
	var sent struct {
		Signal struct{ Match struct{ Version int } }
	}
	srv.must(t, tokens[3], `mutation($m:ID!){signal(matchId:$m, signal:CARD_NEXT){match{version}}}`, vars, &sent)
	if sent.Signal.Match.Version != before+1 {
		t.Fatalf("a signal of magic-2026.3 answers version %d; the match was at %d, and its signals are public", sent.Signal.Match.Version, before)
	}
	var ev struct {
		Match struct {
			RulesVersion string
			Events       []struct {
				Type     string
				Redacted bool
			}
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){rulesVersion events(first:1000){type redacted}}}`, vars, &ev)
	last := ev.Match.Events[len(ev.Match.Events)-1]
	if ev.Match.RulesVersion != "magic-2026.3" || last.Type != "Signalled" || !last.Redacted {
		t.Fatalf("a spectator reads the match of %s ending with %+v; want the signal, redacted", ev.Match.RulesVersion, last)
	}

	// Bob resigns: under magic-2026.3 the match goes on, Bob still to move on board A.
	srv.must(t, tokens[1], `mutation($m:ID!){resign(matchId:$m){version}}`, vars, nil)
	var st struct {
		Match struct {
			Status string
			ToAct  []int
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status toAct}}`, vars, &st)
	if st.Match.Status != "LIVE" || !slices.Contains(st.Match.ToAct, 1) {
		t.Fatalf("after Bob resigned a magic-2026.3 match: %+v; it went on then", st.Match)
	}
	srv.stop(t)
	var out, errOut bytes.Buffer
	if code := run(hostingGames(context.Background(), game.NewRegistry(magicchess.Rules{})), []string{"verify", "--db", db}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "all ok") {
		t.Fatalf("verify of the magic-2026.3 match by today's rules: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

// A player of doubles who stays away forfeits, as a resignation (magic-2026.4): its team
// loses on both boards at once, while its partner is still there and playing.
func TestAnAbsentPlayerOfDoublesLosesForItsTeam(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--claim-after", "100ms", "--forfeit-after", "300ms")
	tokens, id := doublesPlayers(t, srv, "", true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	events := srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0)
	connect(t, srv, tokens[2], id)() // Cid opens the match, then closes his page
	forfeit := await(t, events, "Forfeited")
	if !strings.Contains(string(forfeit.Data), `"seat":2`) {
		t.Fatalf("Forfeited %s", forfeit.Data)
	}
	await(t, events, "Conceded")
	ended := await(t, events, "MatchEnded")
	if !strings.Contains(string(ended.Data), `"winners":[0,3]`) || !strings.Contains(string(ended.Data), `"reason":"resignation"`) {
		t.Fatalf("MatchEnded %s: Cid's forfeit is his team's loss", ended.Data)
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
}
