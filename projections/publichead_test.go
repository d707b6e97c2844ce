package projections

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// The public head moves with public events alone, whatever streams they are of; a hidden
// stream's events leave it as it was, head, hash and time; an event delivered twice is
// folded once.
func TestThePublicHeadIgnoresHiddenEvents(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ev := func(stream string, position int64, hash string) eventstore.Event {
		return eventstore.Event{Stream: stream, Position: position, Hash: hash, Proposed: eventstore.Proposed{Time: at.Add(time.Duration(hash[0]) * time.Minute)}}
	}
	with, without := NewPublicHead(), NewPublicHead()
	feed := func(p *PublicHead, evs ...eventstore.Event) {
		t.Helper()
		for _, e := range evs {
			if err := p.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	feed(with, ev(matchstream.Name("m"), 1, "a"), ev(matchstream.Hidden("m", 0), 2, "s"), ev("player-p", 3, "b"),
		ev(matchstream.Hidden("m", 1), 4, "t"), ev(matchstream.Name("m"), 5, "c"), ev(matchstream.Name("m"), 5, "c"), ev(matchstream.Hidden("m", 0), 6, "u"))
	feed(without, ev(matchstream.Name("m"), 1, "a"), ev("player-p", 2, "b"), ev(matchstream.Name("m"), 3, "c"))
	h, w := with.Head(nil), without.Head(nil)
	if h.Position != 3 || !h.Public || h.Hash == "" || h.Hash != w.Hash || !h.Time.Equal(w.Time) {
		t.Fatalf("the public head with hidden events %+v, without %+v", h, w)
	}
	if !h.Time.Equal(at.Add(time.Duration('c') * time.Minute)) {
		t.Fatalf("the public head is stamped %s, not its last public event's time", h.Time)
	}
}
