package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/wallet"
)

// challengeGrants lists the refs (day:challenge) of the daily challenges paid in db, by
// player.
func challengeGrants(t *testing.T, db string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, ev := range storedEvents(t, db) {
		player, ok := strings.CutPrefix(ev.Stream, "wallet-")
		var g wallet.CoinsGranted
		if !ok || ev.Type != "CoinsGranted" || json.Unmarshal(ev.Payload, &g) != nil || g.Reason != daily.ReasonChallenge {
			continue
		}
		out[player] = append(out[player], g.Ref)
	}
	return out
}

// What a match's end is owed besides its stakes, done by the settlement process, across
// a kill -9 between the end and the doing: a rated UnfairChess game that completes one of
// Ann's daily challenges, and a rated Solwaris duel whose winner draws a Cristal
// légendaire. The node runs without the settlement process and is killed with SIGKILL
// after both ends; nothing was paid nor drawn, though Ann read her wallet. Restarted
// twice, the store holds each challenge done paid once and each draw recorded once, and
// verify re-derives them.
func TestMatchEndDuesAreDoneOnceAcrossKillNine(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, proc := startProcess(t, db, "--settle=false", "--registrations-per-hour", "0")
	bobID, bob := srv.register(t, "Bob")
	var annID, ann string
	for i := 0; ann == ""; i++ { // about one player in four has one: the loop ends, bounded
		if i == 60 {
			t.Fatal("no player among 60 drew a challenge won by one rated game: is Pick still uniform?")
		}
		id, tok := srv.register(t, "Ann")
		for _, c := range daily.Pick(time.Now().UTC().Format(time.DateOnly), id) {
			if c.ID == "unfair-win-1" || c.ID == "unfair-win-quick" || c.ID == "unfair-win-rated" {
				annID, ann = id, tok
			}
		}
	}
	tokens := []string{ann, bob}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, rated:true}){match{id}}}`, nil, &c)
	game := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": game, "s": seat}, nil)
	}
	srv.must(t, ann, `mutation($m:ID!){playMove(matchId:$m, move:"e2e4"){version}}`, map[string]any{"m": game}, nil)
	srv.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"e7e5"){version}}`, map[string]any{"m": game}, nil)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": game}, nil)

	// The duel: rated, played to its 4th turn, then Bob abandons (from turn 4 the one
	// who stays keeps every reward: a ranked victory and its draw).
	srv.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, rated:true}){match{id}}}`, nil, &c)
	duel := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": duel, "s": seat}, nil)
	}
	if _, _, over := srv.playSolwarisUntil(t, duel, tokens, 4); !over {
		srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": duel}, nil)
	}
	// Both ends are stored; Ann reads her wallet; nothing is paid nor drawn.
	if w := srv.wallet(t, ann); len(withoutChallenges(w).Entries) != len(w.Entries) {
		t.Fatalf("a challenge paid by a node without the settlement process: %+v", w.Entries)
	}
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	if n := lootDraws(t, db); n != 0 || len(challengeGrants(t, db)) != 0 {
		t.Fatalf("before the restart: %d draws, challenges paid %v", n, challengeGrants(t, db))
	}
	draws := lootSeats(t, db, duel)
	if draws != 1 {
		t.Fatalf("the rated duel's winner draws once: %d draws due", draws)
	}

	// done is how many of a player's challenges of today the matches completed.
	done := func(s *server, tok string) int {
		var d struct {
			Me struct{ DailyChallenges []struct{ Done bool } }
		}
		s.must(t, tok, `{me{dailyChallenges{done}}}`, nil, &d)
		n := 0
		for _, c := range d.Me.DailyChallenges {
			if c.Done {
				n++
			}
		}
		return n
	}
	for restart := range 2 {
		s := startServer(t, db)
		want := map[string]int{annID: done(s, ann), bobID: done(s, bob)}
		if want[annID] == 0 {
			t.Fatalf("restart %d: Ann's challenge is not done", restart)
		}
		deadline := time.Now().Add(20 * time.Second)
		for { // the restarted process pays and draws: a reason to end
			paid := challengeGrants(t, db)
			if lootDraws(t, db) == draws && len(paid[annID]) == want[annID] && len(paid[bobID]) == want[bobID] {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("restart %d: %d draws (want %d), challenges paid %v (want %v)", restart, lootDraws(t, db), draws, paid, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
		s.stop(t)
		paid := challengeGrants(t, db)
		for player, refs := range paid {
			if len(refs) != want[player] || len(slices.Compact(slices.Sorted(slices.Values(refs)))) != len(refs) {
				t.Fatalf("restart %d: %s was paid %v, want %d challenges once each", restart, player, refs, want[player])
			}
		}
		if n := lootDraws(t, db); n != draws {
			t.Fatalf("restart %d: %d draws after the stop, want %d", restart, n, draws)
		}
	}
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") || !strings.Contains(out, "1 loot draw(s) re-derived") {
		t.Fatalf("verify:\n%s", out)
	}
}
