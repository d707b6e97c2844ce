package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// clockView is a match's clock and the events it is made of, as the API shows them.
type clockView struct {
	Status string
	Clock  *struct {
		Control                string
		InitialMs, IncrementMs int
		Seats                  []struct{ Seat, RemainingMs int }
		Running                *int
		Since                  *time.Time
	}
	Board  struct{ LegalMoves []string }
	Events []struct {
		Type string
		Data json.RawMessage
	}
}

func readClock(t *testing.T, srv *server, id string) clockView {
	t.Helper()
	var d struct{ Match clockView }
	srv.must(t, "", `query($m:ID!){match(id:$m){status clock{control initialMs incrementMs seats{seat remainingMs} running since} board{legalMoves} events(first:1000){type data}}}`, map[string]any{"m": id}, &d)
	return d.Match
}

// stamp is the clock fields of the match's last event of type typ.
func stamp(t *testing.T, v clockView, typ string) (at time.Time, leftMs int) {
	t.Helper()
	for i := len(v.Events) - 1; i >= 0; i-- {
		if v.Events[i].Type == typ {
			var p struct {
				At     time.Time
				LeftMs int
			}
			if err := json.Unmarshal(v.Events[i].Data, &p); err != nil {
				t.Fatal(err)
			}
			return p.At, p.LeftMs
		}
	}
	t.Fatalf("no %s among %d events", typ, len(v.Events))
	return
}

// Match.clock is the clock as of the last event, the same as the events' stamps give it:
// the control, each seat's time left, whose clock runs and since when; none once the match
// is over; null in a match without a clock.
func TestMatchShowsTheClock(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	for _, game := range []string{"CHESS", "UNFAIR_CHESS", "SOVEREIGN_CHESS"} {
		t.Run(game, func(t *testing.T) {
			var c struct {
				CreateMatch struct{ Match struct{ ID string } }
			}
			srv.must(t, ann, `mutation{createMatch(input:{game:`+game+`, options:[{key:"clock", value:"5+3"}]}){match{id}}}`, nil, &c)
			id := c.CreateMatch.Match.ID
			if v := readClock(t, srv, id); v.Clock != nil {
				t.Fatalf("an open match shows a clock: %+v", v.Clock)
			}
			for seat, tok := range []string{ann, bob} {
				srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
			}
			v := readClock(t, srv, id)
			start, _ := stamp(t, v, "GameStarted")
			k := v.Clock
			if k == nil || k.Control != "5+3" || k.InitialMs != 300_000 || k.IncrementMs != 3000 || len(k.Seats) != 2 ||
				k.Seats[0].RemainingMs != 300_000 || k.Seats[1].RemainingMs != 300_000 || k.Running == nil || k.Since == nil || !k.Since.Equal(start) {
				t.Fatalf("at the start (%s): %+v", start, k)
			}
			first := *k.Running // Sovereign Chess draws the seat that plays first
			var turn struct{ Match struct{ Turn int } }
			tokens := []string{ann, bob}
			if r := srv.play(t, tokens[first], id, v.Board.LegalMoves[0]); len(r.Errors) > 0 {
				t.Fatal(r.Errors)
			}
			v = readClock(t, srv, id)
			at, left := stamp(t, v, "MovePlayed")
			k = v.Clock
			if want := int((5*time.Minute - at.Sub(start) + 3*time.Second).Milliseconds()); left != want {
				t.Fatalf("the move's stamp says %d ms left, the clock gives %d", left, want)
			}
			srv.must(t, "", `query($m:ID!){match(id:$m){turn}}`, map[string]any{"m": id}, &turn)
			if k.Seats[first].RemainingMs != left || k.Seats[1-first].RemainingMs != 300_000 || k.Running == nil || *k.Running != turn.Match.Turn || !k.Since.Equal(at) {
				t.Fatalf("after the first move at %s (%d ms left): %+v", at, left, k)
			}
			srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
			v = readClock(t, srv, id)
			if k := v.Clock; v.Status != "FINISHED" || k == nil || k.Running != nil || k.Since != nil || k.Seats[first].RemainingMs != left {
				t.Fatalf("after a resignation: %s %+v", v.Status, k)
			}
		})
	}
	untimed := srv.newMatch(t, ann, bob, false)
	if v := readClock(t, srv, untimed); v.Clock != nil {
		t.Fatalf("a match without a clock shows %+v", v.Clock)
	}
}
