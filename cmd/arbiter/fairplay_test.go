package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClockOptionsOutOfBoundsAreRefused: the clocks that made seat 0 lose on time at once
// are refused in friendly and rated matches alike, and a joiner sees the clock it joins.
func TestClockOptionsOutOfBoundsAreRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	const create = `mutation($c:String!,$r:Boolean){createMatch(input:{game:CHESS, rated:$r, options:[{key:"clock", value:$c}]}){match{id}}}`
	for _, bad := range []string{"NaN+0", "1e-9+0", "0.000001+0", "Inf+0", "0.01+0", "0x1p-2+0", "601+0", "5+601"} {
		for _, rated := range []bool{false, true} {
			if r := srv.post(t, ann, create, map[string]any{"c": bad, "r": rated}); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "clock") {
				t.Errorf("clock %q (rated %v): %+v", bad, rated, r.Errors)
			}
		}
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS, rated:true, options:[{key:"clock", value:"3+2"}]}){match{id}}}`, nil, &c)
	var j struct {
		JoinMatch struct {
			Match struct{ Options []struct{ Key, Value string } }
		}
	}
	srv.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){match{options{key value}}}}`, map[string]any{"m": c.CreateMatch.Match.ID}, &j)
	if o := j.JoinMatch.Match.Options; len(o) != 1 || o[0].Key != "clock" || o[0].Value != "3+2" {
		t.Fatalf("Bob joined a match whose options read %+v, want clock 3+2", o)
	}
}

// TestAStrangerCannotTakeARematchSeat: a rated match, then its rematch asked by one
// player: a stranger's join is FORBIDDEN, with or without a seat, and the other player
// still gets the seat kept for it.
func TestAStrangerCannotTakeARematchSeat(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, eve := srv.register(t, "Eve")
	id := srv.newMatch(t, ann, bob, true)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	var asked struct {
		Rematch struct{ Match struct{ ID string } }
	}
	srv.must(t, bob, `mutation($m:ID!){rematch(matchId:$m){match{id}}}`, map[string]any{"m": id}, &asked)
	re := asked.Rematch.Match.ID
	for _, q := range []string{`mutation($m:ID!){joinMatch(matchId:$m){seat}}`, `mutation($m:ID!){joinMatch(matchId:$m, seat:1){seat}}`} {
		if r := srv.post(t, eve, q, map[string]any{"m": re}); r.code() != "FORBIDDEN" || !strings.Contains(r.Errors[0].Message, "kept") {
			t.Fatalf("Eve joins the rematch with %s: %+v", q, r.Errors)
		}
	}
	var joined struct{ JoinMatch struct{ Seat int } }
	srv.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": re}, &joined)
	if joined.JoinMatch.Seat != 1 {
		t.Fatalf("Ann joined the rematch at seat %d, want 1 (Black)", joined.JoinMatch.Seat)
	}
}

// TestRatingFarmingChangesNoRating: ten throwaway accounts each lose a rated game to one
// account by resigning at move 0, as the farming attack did: every game is aborted, no
// rating moves, and the file verifies.
func TestRatingFarmingChangesNoRating(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	targetID, target := srv.register(t, "Target")
	for i := range 10 {
		_, throwaway := srv.register(t, fmt.Sprintf("Throwaway%d", i))
		id := srv.newMatch(t, throwaway, target, true)
		var d struct {
			Resign struct {
				Match struct {
					Status string
					Result struct {
						Winners []int
						Reason  string
					}
				}
			}
		}
		srv.must(t, throwaway, `mutation($m:ID!){resign(matchId:$m){match{status result{winners reason}}}}`, map[string]any{"m": id}, &d)
		if m := d.Resign.Match; m.Status != "FINISHED" || m.Result.Reason != "aborted" || len(m.Result.Winners) != 0 {
			t.Fatalf("a rated game resigned at move 0 ended %+v", m)
		}
	}
	var p struct {
		Player struct{ Ratings []struct{ Rating float64 } }
	}
	srv.must(t, "", `query($p:ID!){player(id:$p){ratings{rating}}}`, map[string]any{"p": targetID}, &p)
	if len(p.Player.Ratings) != 0 {
		t.Fatalf("ten aborted games rated the target: %+v", p.Player.Ratings)
	}
	srv.stop(t)
	verifyAll(t, db)
}

// TestRegistrationsAreBoundedPerAddress: past --registrations-per-hour from one address,
// registerPlayer is refused with RATE_LIMITED and the seconds to wait.
func TestRegistrationsAreBoundedPerAddress(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--registrations-per-hour", "3")
	for i := range 3 {
		srv.register(t, fmt.Sprintf("P%d", i))
	}
	r := srv.post(t, "", `mutation{registerPlayer(name:"P3"){token}}`, nil)
	if r.code() != "RATE_LIMITED" || !strings.Contains(r.Errors[0].Message, "3 per 1h") {
		t.Fatalf("a fourth registration: %+v", r.Errors)
	}
	if wait, _ := r.Errors[0].Extensions["retryAfter"].(float64); wait < 1 || wait > 3600 {
		t.Fatalf("retryAfter %v", r.Errors[0].Extensions["retryAfter"])
	}
}

// TestDrawOfferSpamIsRefused: offer, decline, offer again before the opponent moved: the
// second offer is refused and records nothing; after the opponent's move it is allowed.
func TestDrawOfferSpamIsRefused(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	const offer = `mutation($m:ID!){offerDraw(matchId:$m){version}}`
	srv.must(t, ann, offer, map[string]any{"m": id}, nil)
	var d struct{ DeclineDraw struct{ Version int } }
	srv.must(t, bob, `mutation($m:ID!){declineDraw(matchId:$m){version}}`, map[string]any{"m": id}, &d)
	for range 3 {
		if r := srv.post(t, ann, offer, map[string]any{"m": id}); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "once an opponent has moved") {
			t.Fatalf("Ann offers again at once: %+v", r.Errors)
		}
	}
	srv.play(t, ann, id, "e4")
	if r := srv.post(t, ann, offer, map[string]any{"m": id}); r.code() != "CONFLICT" {
		t.Fatalf("Ann offers again after her own move: %+v", r.Errors)
	}
	srv.play(t, bob, id, "e5")
	var v struct{ OfferDraw struct{ Version int } }
	srv.must(t, ann, offer, map[string]any{"m": id}, &v)
	if want := d.DeclineDraw.Version + 3; v.OfferDraw.Version != want {
		t.Fatalf("the offer after Bob's move is version %d, want %d: the refusals recorded something", v.OfferDraw.Version, want)
	}
}

// TestCancelAndLeaveAnOpenMatch: a player leaves an open match's seat, a stranger cannot
// cancel it, its creator does; a live match cannot be cancelled.
func TestCancelAndLeaveAnOpenMatch(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	vars := map[string]any{"m": id}
	srv.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, vars, nil)
	var left struct {
		LeaveMatch struct {
			Match struct {
				Status string
				Seats  []struct{ Player *struct{ Name string } }
			}
		}
	}
	srv.must(t, bob, `mutation($m:ID!){leaveMatch(matchId:$m){match{status seats{player{name}}}}}`, vars, &left)
	if m := left.LeaveMatch.Match; m.Status != "OPEN" || m.Seats[0].Player != nil || m.Seats[1].Player != nil {
		t.Fatalf("after Bob left: %+v", m)
	}
	if r := srv.post(t, bob, `mutation($m:ID!){cancelMatch(matchId:$m){version}}`, vars); r.code() != "FORBIDDEN" {
		t.Fatalf("Bob cancels Ann's match: %+v", r.Errors)
	}
	var done struct {
		CancelMatch struct {
			Match struct {
				Status string
				Result struct{ Reason string }
			}
		}
	}
	srv.must(t, ann, `mutation($m:ID!){cancelMatch(matchId:$m){match{status result{reason}}}}`, vars, &done)
	if m := done.CancelMatch.Match; m.Status != "FINISHED" || m.Result.Reason != "cancelled" {
		t.Fatalf("after Ann cancelled: %+v", m)
	}
	live := srv.newMatch(t, ann, bob, false)
	if r := srv.post(t, ann, `mutation($m:ID!){cancelMatch(matchId:$m){version}}`, map[string]any{"m": live}); r.code() != "CONFLICT" {
		t.Fatalf("Ann cancels a live match: %+v", r.Errors)
	}
	srv.stop(t)
	verifyAll(t, db)
}

// TestAMatchWithoutFirstMovesIsAborted: two players who only use HTTP join and never
// move: the server's timers abort the match at --abort-after, rated or not.
func TestAMatchWithoutFirstMovesIsAborted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--abort-after", "1s")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, true)
	srv.play(t, ann, id, "e4")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", `subscription($m:ID!){matchUpdates(matchId:$m){status result{reason winners}}}`, map[string]any{"m": id})
	var last struct {
		MatchUpdates struct {
			Status string
			Result *struct {
				Reason  string
				Winners []int
			}
		}
	}
	for data := range updates { // the subscription completes once the match is over
		if err := json.Unmarshal(data, &last); err != nil {
			t.Fatal(err)
		}
	}
	if m := last.MatchUpdates; m.Status != "FINISHED" || m.Result == nil || m.Result.Reason != "aborted" || len(m.Result.Winners) != 0 {
		t.Fatalf("the match without Bob's first move ended %+v (within a minute?)", m)
	}
	srv.stop(t)
	verifyAll(t, db)
}

// TestRoyaleWithThreeBots: a player alone tries Royale: three addBot calls fill the other
// seats, each bot seat plays its own turns, and once the player resigns after its first
// move the bots play the match to its end; the file verifies.
func TestRoyaleWithThreeBots(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	id := seatedAlone(t, srv, ann, "game:SOVEREIGN_CHESS, mode:ROYALE")
	for want := 1; want <= 3; want++ {
		var j struct{ AddBot struct{ Seat int } }
		srv.must(t, ann, `mutation($m:ID!){addBot(matchId:$m){seat}}`, map[string]any{"m": id}, &j)
		if j.AddBot.Seat != want {
			t.Fatalf("bot number %d sat at seat %d", want, j.AddBot.Seat)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	updates := srv.subscribeRaw(t, ctx, "graphql-transport-ws", ann, `subscription($m:ID!){matchUpdates(matchId:$m){`+botViewFields+`}}`, map[string]any{"m": id})
	var v botView
	moved, resigned := false, false
	for data := range updates { // the subscription completes once the match is over
		var u struct{ MatchUpdates botView }
		if err := json.Unmarshal(data, &u); err != nil {
			t.Fatal(err)
		}
		v = u.MatchUpdates
		if v.Status != "LIVE" || resigned || len(v.ToAct) != 1 || v.ToAct[0] != 0 {
			continue
		}
		if !moved {
			srv.must(t, ann, `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv){version}}`, map[string]any{"m": id, "mv": v.Board.LegalMoves[0]}, nil)
			moved = true
			continue
		}
		srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
		resigned = true
	}
	if ctx.Err() != nil {
		t.Fatalf("the match did not end within 5 minutes: %+v", v)
	}
	final := readBotView(t, srv, "", id)
	if final.Status != "FINISHED" || !resigned {
		t.Fatalf("the match ended %+v (Ann resigned: %v)", final, resigned)
	}
	if len(final.Moves) < 8 {
		t.Fatalf("only %d moves: each bot seat should have played: %v", len(final.Moves), final.Moves)
	}
	t.Logf("Royale with three bots: %d moves, result %s", len(final.Moves), final.Result.Reason)
	srv.stop(t)
	verifyAll(t, db)
}

// TestReloadsRecordNothing: a player who opens and closes its page ten times in a row
// records no presence event; when it closes for good, SeatLeft comes once, dated from the
// close, at least the grace (5 s) before it was recorded: the waits for a claim and a
// forfeit count from the real departure. It waits for the grace asleep: waitsOnTheClock.
func TestReloadsRecordNothing(t *testing.T) {
	waitsOnTheClock(t)
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--claim-after", "1h", "--forfeit-after", "2h")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	srv.play(t, ann, id, "e4")
	srv.play(t, bob, id, "e5")
	for range 10 {
		connect(t, srv, bob, id)()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", `subscription($m:ID!){matchEvents(matchId:$m){type at data}}`, map[string]any{"m": id})
	for data := range stream {
		var e struct {
			MatchEvents struct {
				Type string
				At   time.Time
				Data struct{ At time.Time }
			}
		}
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		switch ev := e.MatchEvents; ev.Type {
		case "SeatReturned":
			t.Fatalf("a reload recorded %s", ev.Type)
		case "SeatLeft":
			if waited := ev.At.Sub(ev.Data.At); waited < 5*time.Second {
				t.Fatalf("SeatLeft is dated %s, recorded %s later: not from the close", ev.Data.At, waited)
			}
			var d struct {
				Match struct{ Events []struct{ Type string } }
			}
			srv.must(t, "", `query($m:ID!){match(id:$m){events{type}}}`, map[string]any{"m": id}, &d)
			n := 0
			for _, e := range d.Match.Events {
				if e.Type == "SeatLeft" || e.Type == "SeatReturned" {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%d presence events for ten reloads and one departure: %+v", n, d.Match.Events)
			}
			return
		}
	}
	t.Fatal("no SeatLeft within a minute of Bob's last close")
}
