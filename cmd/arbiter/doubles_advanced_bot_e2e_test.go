package main

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The house bot holds two seats of an advanced doubles match, one on each board and one
// in each team (seat 1, across from Ann and Bob's partner; seat 3, across from Bob and
// Ann's partner), and the match is played to its end over GraphQL: Ann and Bob act from
// their own views (advancedDoublesTurn), the bot through its runner. The windows of every
// board show as they must (checkWindows) whoever holds them; the bot answers windows
// opened for it (a pass or a reaction, in its answer time), moves on both boards, and
// opens windows that Ann and Bob answer. The file verifies.
func TestHouseBotsPlayAdvancedDoubles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	tokens := []string{ann, "bot", bob, "bot"}
	id := doublesMatch(t, srv, tokens, `, {key:"mode", value:"ADVANCED"}, {key:"clock", value:"0.5+0"}, {key:"reaction", value:"2"}`)
	vars := map[string]any{"m": id}
	rng := rand.New(rand.NewPCG(14, 4))
	counts := map[string]int{}
	var v advancedDoublesView
	for deadline := time.Now().Add(4 * time.Minute); ; {
		srv.must(t, "", advancedDoublesQuery, vars, &v)
		m := v.Match
		if m.Status == "FINISHED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match has not ended in four minutes: %+v", m.Boards)
		}
		v.checkWindows(t)
		var players []int // the seats to act that Ann or Bob hold
		for _, seat := range m.ToAct {
			if tokens[seat] != "bot" {
				players = append(players, seat)
			}
		}
		if len(players) == 0 {
			time.Sleep(5 * time.Millisecond) // the bot's turn, a reading time, or a flag about to fall
			continue
		}
		seat := players[rng.IntN(len(players))]
		srv.advancedDoublesTurn(t, tokens[seat], id, seat, rng, counts)
	}
	res := v.Match.Result
	if len(res.Winners) != 0 && !slices.Equal(res.Winners, []int{0, 3}) && !slices.Equal(res.Winners, []int{1, 2}) {
		t.Fatalf("winners %v: a team, or none", res.Winners)
	}
	srv.stop(t)
	// What each seat did, from the file: the events name the table's seats.
	type did struct{ moved, opened, answered, lapsed, reacted int }
	seats := make([]did, 4)
	for _, ev := range storedEvents(t, db) {
		if ev.Stream != "match-"+id {
			continue
		}
		var e struct {
			Seat     int
			TimedOut bool
		}
		if err := json.Unmarshal(ev.Payload, &e); err != nil || e.Seat < 0 || e.Seat > 3 {
			continue // not a seat's event
		}
		d := &seats[e.Seat]
		switch ev.Type {
		case "MovePlayed": // a move or a drop
			d.moved++
		case "ReactionWindowOpened":
			d.opened++
		case "ReactionPassed":
			if e.TimedOut {
				d.lapsed++
			} else {
				d.answered++
			}
		case "ReactionPlayed":
			d.answered++
			d.reacted++
		}
	}
	t.Logf("ended by %s, winners %v; Ann and Bob's actions %v; by seat %+v", res.Reason, res.Winners, counts, seats)
	switch bot, them := []did{seats[1], seats[3]}, []did{seats[0], seats[2]}; {
	case bot[0].moved == 0 || bot[1].moved == 0:
		t.Fatalf("the bot has not moved on both boards: %+v", seats)
	case bot[0].opened+bot[1].opened == 0 || bot[0].answered+bot[1].answered == 0:
		t.Fatalf("no window of the bot's answered in its answer time: %+v", seats)
	case them[0].opened+them[1].opened == 0 || counts["pass"]+counts["react"] == 0:
		t.Fatalf("no window that the bot opened answered by Ann or Bob: %+v, %v", seats, counts)
	}
	verifyAll(t, db)
}
