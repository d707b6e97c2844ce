package matchstream

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Stream names are stored: a match's stream is "match-" and its ID, for ever.
func TestNames(t *testing.T) {
	if Name("abc") != "match-abc" {
		t.Fatalf("the stream of match abc is %q", Name("abc"))
	}
	if id, ok := MatchID(Name("abc")); !ok || id != "abc" {
		t.Fatalf("MatchID(%q) = %q, %v", Name("abc"), id, ok)
	}
	if _, ok := MatchID("player-abc"); ok {
		t.Fatal("a player's stream is read as a match's")
	}
}

func TestRecordKeepsWhatTheMatchReads(t *testing.T) {
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	ev := eventstore.Event{Proposed: eventstore.Proposed{ID: "e", Type: "CardDrawn", SchemaVersion: 2, Payload: []byte(`{"seat":1}`),
		CommandID: "c", Actor: "player:p", Visibility: visibility.Seat(1), Time: at}, Stream: "match-m", Version: 7, Position: 40, Hash: "h"}
	got := Record(ev)
	want := match.Stored{Stream: "match-m", Version: 7, Type: "CardDrawn", Schema: 2, Payload: ev.Payload, Visibility: visibility.Seat(1), Time: at}
	if got.Stream != want.Stream || got.Version != want.Version || got.Type != want.Type || got.Schema != want.Schema ||
		string(got.Payload) != string(want.Payload) || got.Visibility != want.Visibility || !got.Time.Equal(want.Time) {
		t.Fatalf("Record = %+v, want %+v", got, want)
	}
}
