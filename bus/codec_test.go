package bus_test

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	e := eventstore.Event{
		Proposed: eventstore.Proposed{
			ID: "ev-1", Type: "MovePlayed", SchemaVersion: 2, Payload: []byte(`{"from":"e2","to":"e4"}`),
			CommandID: "cmd-1", Actor: "seat:0", Visibility: visibility.Seat(0),
			Time: time.Date(2026, 5, 1, 12, 0, 0, 123456789, time.UTC),
		},
		Stream: "match-1", Version: 3, Position: 42, PrevHash: "ab", Hash: "cd",
	}
	m, err := bus.Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	if m.UUID != e.ID || m.Metadata.Get(bus.MetaPosition) != "42" ||
		m.Metadata.Get(bus.MetaStream) != "match-1" || m.Metadata.Get(bus.MetaType) != "MovePlayed" {
		t.Fatalf("message %q with metadata %v", m.UUID, m.Metadata)
	}
	got, err := bus.Decode(m)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != e.ID || got.Position != e.Position || got.Stream != e.Stream || got.Version != e.Version ||
		got.Hash != e.Hash || got.PrevHash != e.PrevHash || string(got.Payload) != string(e.Payload) ||
		got.Visibility != e.Visibility || !got.Time.Equal(e.Time) || got.CommandID != e.CommandID {
		t.Fatalf("decoded %+v, encoded %+v", got, e)
	}

	m.Metadata.Set(bus.MetaPosition, "41")
	if _, err := bus.Decode(m); err == nil {
		t.Fatal("a message whose metadata contradicts its payload was decoded")
	}
}
