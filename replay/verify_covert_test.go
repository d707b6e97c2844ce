package replay

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// A forged log (an export is a file anyone can write) whose first event is a hidden
// team's, void since no public event came before it, is reported, not a crash of verify.
func TestAVoidCovertEventFirstIsReportedNotAPanic(t *testing.T) {
	id := "m1"
	evs := []eventstore.Event{
		{Proposed: eventstore.Proposed{ID: "h1", Type: "TrapLaid", SchemaVersion: 1, Payload: []byte(`{"basis":0}`)}, Stream: matchstream.Hidden(id, 0), Version: 1, Position: 1},
		{Proposed: eventstore.Proposed{ID: "p1", Type: "MatchCreated", SchemaVersion: 1, Payload: []byte(`{}`)}, Stream: matchstream.Name(id), Version: 1, Position: 2},
		{Proposed: eventstore.Proposed{ID: "p2", Type: "SeatTaken", SchemaVersion: 1, Payload: []byte(`{}`)}, Stream: matchstream.Name(id), Version: 2, Position: 3},
	}
	r := VerifyEvents(game.NewRegistry(classic.Rules{}), matchstream.Name(id), evs)
	if r.OK() {
		t.Fatalf("a forged log verified: %+v", r)
	}
}
