package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// Disputes over a real server: a staked rated UnfairChess match disputed by its loser and
// voided by a reviewer granted from the command line on the same store, another changed
// to a draw; ratings and wallets follow, survive a restart and a rebuild, and verify
// checks every correction of coins (and catches a forged one).

// figures is what a ruling moves: each player's ratings and balance.
type figures struct {
	Ratings map[string]string
	Balance map[string]int
}

// ratingsOf is a player's ratings as the API shows them, one line per key.
func (s *server) ratingsOf(t *testing.T, id string) string {
	t.Helper()
	var d struct {
		Player struct {
			Ratings []struct {
				Key                        string
				RatingExact                float64
				Games, Wins, Losses, Draws int
			}
		}
	}
	s.must(t, "", `query($p:ID!){player(id:$p){ratings{key ratingExact games wins losses draws}}}`, map[string]any{"p": id}, &d)
	b, _ := json.Marshal(d.Player.Ratings)
	return string(b)
}

// playedTo plays e4 e5 in a staked rated UnfairChess match between ann and bob and lets
// bob resign: ann wins once both have moved (an earlier end would be an abort).
func (s *server) resignedStaked(t *testing.T, ann, bob string, stake int) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation($s:Int!){createMatch(input:{game:UNFAIR_CHESS, rated:true, stake:$s}){match{id}}}`, map[string]any{"s": stake}, &c)
	id := c.CreateMatch.Match.ID
	s.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m, seat:0){seat}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m, seat:1){seat}}`, map[string]any{"m": id}, nil)
	s.must(t, ann, `mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"e5"){version}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	return id
}

const disputeFields = `id matchId openedBy seat reason status cites{version type} statements{by text}
  ruling{ruling reviewer note before{winners draw void reason} after{winners draw void reason}} result{winners draw void}`

type disputeData struct {
	ID, MatchID, OpenedBy, Reason, Status string
	Seat                                  int
	Cites                                 []struct {
		Version int
		Type    *string
	}
	Statements []struct{ By, Text string }
	Ruling     *struct {
		Ruling, Reviewer string
		Note             *string
		Before, After    struct {
			Winners    []int
			Draw, Void bool
		}
	}
	Result struct {
		Winners    []int
		Draw, Void bool
	}
}

func (s *server) openDispute(t *testing.T, token, matchID, reason string) disputeData {
	t.Helper()
	var d struct{ OpenDispute struct{ Dispute disputeData } }
	s.must(t, token, `mutation($m:ID!,$r:String!){openDispute(matchId:$m, reason:$r){dispute{`+disputeFields+`}}}`, map[string]any{"m": matchID, "r": reason}, &d)
	return d.OpenDispute.Dispute
}

func (s *server) rule(t *testing.T, token, id, ruling string, note string) disputeData {
	t.Helper()
	var d struct{ RuleDispute struct{ Dispute disputeData } }
	s.must(t, token, `mutation($d:ID!,$r:Ruling!,$n:String){ruleDispute(id:$d, ruling:$r, note:$n){dispute{`+disputeFields+`}}}`, map[string]any{"d": id, "r": ruling, "n": note}, &d)
	return d.RuleDispute.Dispute
}

// grantReviewer gives a player the reviewer role from the command line, on the store a
// server may be running on.
func grantReviewer(t *testing.T, db, id string) {
	t.Helper()
	var out strings.Builder
	if code := run(context.Background(), []string{"grant-reviewer", "--db", db, id}, &out, &out); code != 0 || !strings.Contains(out.String(), "is a reviewer now") {
		t.Fatalf("grant-reviewer (exit %d): %s", code, out.String())
	}
}

// wantCode fails unless the request is refused with code.
func (s *server) wantCode(t *testing.T, token, code, query string, vars map[string]any) {
	t.Helper()
	if r := s.post(t, token, query, vars); r.code() != code {
		t.Fatalf("%s: %+v (data %s), want %s", query, r.Errors, r.Data, code)
	}
}

func TestADisputeVoidsAStakedRatedMatchAndAnotherBecomesADraw(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s := startServer(t, db)
	annID, ann := s.register(t, "Ann")
	bobID, bob := s.register(t, "Bob")
	revID, rev := s.register(t, "Rev")
	_, eve := s.register(t, "Eve")
	players := map[string]string{annID: ann, bobID: bob}
	figuresNow := func(srv *server) figures {
		f := figures{Ratings: map[string]string{}, Balance: map[string]int{}}
		for id, tok := range players {
			f.Ratings[id] = srv.ratingsOf(t, id)
			f.Balance[id] = srv.wallet(t, tok).Balance
		}
		return f
	}
	before := figuresNow(s)

	// A live match cannot be disputed yet.
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS}){match{id}}}`, nil, &c)
	s.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": c.CreateMatch.Match.ID}, nil)
	s.wantCode(t, ann, "CONFLICT", `mutation($m:ID!){openDispute(matchId:$m, reason:"too soon"){dispute{id}}}`, map[string]any{"m": c.CreateMatch.Match.ID})

	m1 := s.resignedStaked(t, ann, bob, 200)
	s.settledTo(t, ann, 1200)
	s.settledTo(t, bob, 800)
	afterMatch := s.ratingsOf(t, annID)
	if afterMatch == before.Ratings[annID] {
		t.Fatalf("the rated match moved no rating: %s", afterMatch)
	}

	// Typed refusals: not a player, empty or long reason, a second open dispute.
	s.wantCode(t, eve, "FORBIDDEN", `mutation($m:ID!){openDispute(matchId:$m, reason:"I saw it"){dispute{id}}}`, map[string]any{"m": m1})
	s.wantCode(t, bob, "BAD_USER_INPUT", `mutation($m:ID!){openDispute(matchId:$m, reason:" "){dispute{id}}}`, map[string]any{"m": m1})
	s.wantCode(t, bob, "BAD_USER_INPUT", `mutation($m:ID!,$r:String!){openDispute(matchId:$m, reason:$r){dispute{id}}}`, map[string]any{"m": m1, "r": strings.Repeat("x", 2001)})
	d1 := s.openDispute(t, bob, m1, "my connection dropped and I resigned by mistake")
	if d1.Status != "OPEN" || d1.OpenedBy != bobID || d1.Seat != 1 || len(d1.Cites) == 0 {
		t.Fatalf("the dispute: %+v", d1)
	}
	if last := d1.Cites[len(d1.Cites)-1]; last.Type == nil || *last.Type != "MatchEnded" {
		t.Fatalf("the dispute does not cite the match's end: %+v", d1.Cites)
	}
	s.wantCode(t, bob, "CONFLICT", `mutation($m:ID!){openDispute(matchId:$m, reason:"again"){dispute{id}}}`, map[string]any{"m": m1})
	s.must(t, ann, `mutation($d:ID!){addStatement(disputeId:$d, text:"he resigned twice before", cite:[3]){dispute{id}}}`, map[string]any{"d": d1.ID}, nil)
	s.wantCode(t, eve, "FORBIDDEN", `mutation($d:ID!){addStatement(disputeId:$d, text:"me too"){dispute{id}}}`, map[string]any{"d": d1.ID})

	// Before the role is granted, Rev is no reviewer.
	s.wantCode(t, rev, "FORBIDDEN", `{disputes{id}}`, nil)
	s.wantCode(t, rev, "FORBIDDEN", `mutation($d:ID!){ruleDispute(id:$d, ruling:VOID){dispute{id}}}`, map[string]any{"d": d1.ID})
	grantReviewer(t, db, revID)
	var q struct{ Disputes []disputeData }
	s.must(t, rev, `{disputes{`+disputeFields+`}}`, nil, &q)
	if len(q.Disputes) != 1 || q.Disputes[0].ID != d1.ID || len(q.Disputes[0].Statements) != 1 {
		t.Fatalf("the queue: %+v", q.Disputes)
	}
	// Nobody else reads the queue, the review view, or someone else's disputes.
	s.wantCode(t, eve, "FORBIDDEN", `{disputes{id}}`, nil)
	s.wantCode(t, eve, "FORBIDDEN", `query($d:ID!){dispute(id:$d){id}}`, map[string]any{"d": d1.ID})
	s.wantCode(t, eve, "FORBIDDEN", `query($m:ID!){reviewMatch(id:$m){id}}`, map[string]any{"m": m1})
	s.wantCode(t, ann, "FORBIDDEN", `query($m:ID!){reviewMatch(id:$m){id}}`, map[string]any{"m": m1})
	s.wantCode(t, eve, "FORBIDDEN", `query($p:ID!){player(id:$p){disputes{id}}}`, map[string]any{"p": bobID})
	s.wantCode(t, rev, "BAD_USER_INPUT", `mutation($d:ID!){ruleDispute(id:$d, ruling:WIN){dispute{id}}}`, map[string]any{"d": d1.ID})

	r1 := s.rule(t, rev, d1.ID, "VOID", "the disconnection is in the log")
	if r1.Status != "RULED" || r1.Ruling == nil || r1.Ruling.Ruling != "VOID" || !r1.Ruling.After.Void || !r1.Result.Void {
		t.Fatalf("the void ruling: %+v", r1)
	}
	s.wantCode(t, rev, "CONFLICT", `mutation($d:ID!){ruleDispute(id:$d, ruling:UPHOLD){dispute{id}}}`, map[string]any{"d": d1.ID})
	// Both stakes back, the ratings as before the match.
	s.settledTo(t, ann, 1000)
	s.settledTo(t, bob, 1000)
	if now := figuresNow(s); now.Ratings[annID] != before.Ratings[annID] || now.Ratings[bobID] != before.Ratings[bobID] {
		t.Fatalf("ratings after the void: %v, before the match: %v", now.Ratings, before.Ratings)
	}
	w := s.wallet(t, bob)
	if e := w.Entries[len(w.Entries)-1]; e.Reason != "voided" || e.Amount != 200 || e.MatchID == nil || *e.MatchID != m1 {
		t.Fatalf("Bob's refund: %+v", w.Entries)
	}

	// A second match, changed to a draw: no stake moves in a draw, both ratings rated as one.
	m2 := s.resignedStaked(t, ann, bob, 100)
	s.settledTo(t, ann, 1100)
	s.settledTo(t, bob, 900)
	d2 := s.openDispute(t, bob, m2, "he offered a draw, I accepted, then the server said I resigned")
	r2 := s.rule(t, rev, d2.ID, "DRAW", "")
	if !r2.Result.Draw || r2.Ruling.Before.Winners[0] != 0 {
		t.Fatalf("the draw ruling: %+v", r2)
	}
	s.settledTo(t, ann, 1000)
	s.settledTo(t, bob, 1000)
	var drawn struct {
		Player struct {
			Ratings []struct {
				RatingExact  float64
				Games, Draws int
			}
		}
	}
	s.must(t, "", `query($p:ID!){player(id:$p){ratings{ratingExact games draws}}}`, map[string]any{"p": annID}, &drawn)
	if r := drawn.Player.Ratings; len(r) != 1 || r[0].Games != 1 || r[0].Draws != 1 || r[0].RatingExact != 1400 {
		t.Fatalf("Ann's rating after a draw between equals (the voided match counting for nothing): %+v", r)
	}
	var mine struct {
		Me struct{ Disputes []disputeData }
	}
	s.must(t, bob, `{me{disputes{`+disputeFields+`}}}`, nil, &mine)
	if len(mine.Me.Disputes) != 2 || mine.Me.Disputes[0].Ruling.Ruling != "VOID" || mine.Me.Disputes[1].Ruling.Ruling != "DRAW" {
		t.Fatalf("Bob's disputes: %+v", mine.Me.Disputes)
	}
	ruled := figuresNow(s)
	s.stop(t)

	// A rebuild from zero agrees with the live feed, a restart shows the same figures, and
	// verify checks the corrections.
	var rebuilt strings.Builder
	if code := run(context.Background(), []string{"rebuild", "--db", db}, &rebuilt, &rebuilt); code != 0 || !strings.Contains(rebuilt.String(), "digests equal") {
		t.Fatalf("rebuild (exit %d): %s", code, rebuilt.String())
	}
	s = startServer(t, db)
	if again := figuresNow(s); !equalFigures(again, ruled) {
		t.Fatalf("after a restart: %+v, before it: %+v", again, ruled)
	}
	s.stop(t)
	var verified strings.Builder
	if code := run(context.Background(), []string{"verify", "--db", db}, &verified, &verified); code != 0 || !strings.Contains(verified.String(), "2 ruling(s) on disputed matches, their coins checked") || !strings.Contains(verified.String(), "0 step(s) pending") {
		t.Fatalf("verify (exit %d): %s", code, verified.String())
	}

	// A refund no ruling calls for, signed with the server's key, is caught.
	forgeEvent(t, db, wallet.Stream(revID), wallet.CorrectionID(d1.ID, revID), wallet.RulingCorrected{Player: revID, Match: m1, Dispute: d1.ID, Amount: 200, Reason: "voided"})
	stdout, _ := fails(t, "verify", "--db", db)
	if !strings.Contains(stdout, "FAIL wallets") || !strings.Contains(stdout, "which no ruling that changed a result calls for") {
		t.Fatalf("verify did not catch the forged refund:\n%s", stdout)
	}
}

func equalFigures(a, b figures) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// forgeEvent appends e to stream as the server would, signed with its key: what a bug, or
// someone holding the key, could write.
func forgeEvent(t *testing.T, db, stream, id string, e game.Event) {
	t.Helper()
	key, err := serverkey.Load(keyPath("", db))
	if err != nil {
		t.Fatal(err)
	}
	store, err := openSigned(context.Background(), db, key)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	payload, err := game.Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Append(context.Background(), stream, eventstore.Any, eventstore.Proposed{
		ID: id, Type: e.EventType(), SchemaVersion: 1, Payload: payload, CommandID: "wallet", Actor: "system",
		Visibility: visibility.Server, Time: time.Now().UTC().Truncate(time.Microsecond),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A reviewer sees a match's hidden events only once it is over: a live match's, as a
// spectator does; and the review view is a reviewer's alone.
func TestAReviewerSeesHiddenEventsOnlyOnceTheMatchIsOver(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s := startServer(t, db)
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	revID, rev := s.register(t, "Rev")
	grantReviewer(t, db, revID)
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	s.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m, seat:0){seat}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m, seat:1){seat}}`, map[string]any{"m": id}, nil)
	s.must(t, ann, `mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, map[string]any{"m": id}, nil)

	type events struct {
		Version  int
		Type     string
		Redacted bool
		Data     json.RawMessage
	}
	read := func(token, field string) []events {
		var d map[string]struct{ Events []events }
		s.must(t, token, `query($m:ID!){m: `+field+`(id:$m){events{version type redacted data}}}`, map[string]any{"m": id}, &d)
		return d["m"].Events
	}
	spectator, reviewer := read("", "match"), read(rev, "reviewMatch")
	hidden := 0
	for _, e := range spectator {
		if e.Redacted {
			hidden++
		}
	}
	x, _ := json.Marshal(spectator)
	y, _ := json.Marshal(reviewer)
	if hidden == 0 || string(x) != string(y) {
		t.Fatalf("a live match: the reviewer sees %s\nthe spectator %s (%d hidden)", y, x, hidden)
	}
	s.wantCode(t, ann, "FORBIDDEN", `query($m:ID!){reviewMatch(id:$m){id}}`, map[string]any{"m": id})

	s.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	for _, e := range read(rev, "reviewMatch") {
		if e.Redacted {
			t.Fatalf("the finished match: the reviewer sees event %d (%s) redacted", e.Version, e.Type)
		}
	}
}

// A void ruled on a node that does not settle, killed with SIGKILL before any coin moved,
// then restarted twice with the settlement process: the match is settled, then each
// wallet corrected once.
func TestAVoidRefundsOnceAcrossKillNine(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s, proc := startProcess(t, db, "--settle=false")
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	revID, rev := s.register(t, "Rev")
	grantReviewer(t, db, revID)
	id := s.resignedStaked(t, ann, bob, 300)
	d := s.openDispute(t, bob, id, "disconnected")
	s.rule(t, rev, d.ID, "VOID", "")
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	for restart := range 2 {
		srv := startServer(t, db)
		for _, tok := range []string{ann, bob} {
			w := srv.settledTo(t, tok, 1000)
			if n := len(w.Entries); n != 4 || w.Entries[3].Reason != "voided" {
				t.Fatalf("restart %d: want grant, hold, settlement, correction: %+v", restart, w.Entries)
			}
		}
		srv.stop(t)
	}
	var verified strings.Builder
	if code := run(context.Background(), []string{"verify", "--db", db}, &verified, &verified); code != 0 || !strings.Contains(verified.String(), "1 ruling(s)") {
		t.Fatalf("verify (exit %d): %s", code, verified.String())
	}
}
