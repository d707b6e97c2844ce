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

// A hidden stream's name holds its match and team, and is never read as a match's own
// stream: every reader that routes "match-" streams passes it by.
func TestHiddenNames(t *testing.T) {
	s := Hidden("ab-c", 1)
	if s != "hidden-1-ab-c" {
		t.Fatalf("Hidden = %q", s)
	}
	if id, team, ok := HiddenOf(s); !ok || id != "ab-c" || team != 1 {
		t.Fatalf("HiddenOf(%q) = %q, %d, %v", s, id, team, ok)
	}
	if _, ok := MatchID(s); ok {
		t.Fatalf("%q reads as a match's own stream", s)
	}
	for _, bad := range []string{"hidden-x-ab", "hidden-01-ab", "hidden-1-", "hidden--1-ab", "match-ab"} {
		if _, _, ok := HiddenOf(bad); ok {
			t.Fatalf("HiddenOf(%q) accepted", bad)
		}
	}
	if id, ok := Of(s); !ok || id != "ab-c" {
		t.Fatalf("Of(%q) = %q, %v", s, id, ok)
	}
}

// A covert event is folded only when it was decided on the version of the match's own
// stream that the fold stands at: one that lost a race to a public event is void. Every
// stream must be read in order.
func TestCursorFoldsCovertEventsOnTheirBasis(t *testing.T) {
	ev := func(stream string, version int64, basis int64) eventstore.Event {
		payload := []byte(`{"a":1}`)
		if basis >= 0 {
			var err error
			if payload, err = WithBasis(payload, basis); err != nil {
				t.Fatal(err)
			}
		}
		return eventstore.Event{Stream: stream, Version: version, Proposed: eventstore.Proposed{Payload: payload}}
	}
	if b, ok := BasisOf(ev("x", 1, 7).Payload); !ok || b != 7 {
		t.Fatalf("BasisOf = %d, %v", b, ok)
	}
	if p, err := WithBasis([]byte(`{}`), 3); err != nil || string(p) != `{"basis":3}` {
		t.Fatalf("WithBasis({}) = %s, %v", p, err)
	}
	var c Cursor
	steps := []struct {
		ev   eventstore.Event
		fold bool
	}{
		{ev(Name("m"), 1, -1), true},
		{ev(Name("m"), 2, -1), true},
		{ev(Hidden("m", 0), 1, 2), true},  // decided on version 2: live
		{ev(Name("m"), 3, -1), true},      // another node's public event
		{ev(Hidden("m", 0), 2, 2), false}, // decided on version 2, stored after 3: void
		{ev(Hidden("m", 1), 1, 3), true},  // the other team's stream counts apart
	}
	for i, s := range steps {
		fold, err := c.Next("m", s.ev)
		if err != nil || fold != s.fold {
			t.Fatalf("step %d (%s v%d): fold %v, %v; want %v", i, s.ev.Stream, s.ev.Version, fold, err, s.fold)
		}
	}
	if c.Version != 3 || c.HiddenVersion(0) != 2 || c.HiddenVersion(1) != 1 {
		t.Fatalf("cursor %+v", c)
	}
	for _, bad := range []eventstore.Event{ev(Name("m"), 5, -1), ev(Hidden("m", 0), 4, 3), ev(Hidden("m", 1), 2, -1), ev("player-p", 1, -1)} {
		if _, err := c.Next("m", bad); err == nil {
			t.Fatalf("%s v%d accepted after %+v", bad.Stream, bad.Version, c)
		}
	}
}
