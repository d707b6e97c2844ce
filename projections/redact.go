package projections

// This file is the one place where Arbiter decides what a viewer may see. Every query,
// subscription and export that shows events or a game's state to a client, and the bot,
// goes through Viewer.CanSee and Viewer.Event (events), Viewer.View (the game's state as
// the viewer may see it) or Viewer.Export; its tests are the security boundary.

import (
	"encoding/json"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Viewer is who is looking at one match: a seated player, a spectator, or a reviewer of
// disputes (Reviewing).
type Viewer struct {
	Seats    []int // the seats the viewer holds in this match
	Teams    []int // the teams of those seats
	Finished bool  // the match is over: its secrets are revealed
	// Reviewer is a reviewer of disputes looking at a finished match: every event is shown
	// whole, from the first, where a stream shows others each event as it was shown live.
	// A reviewer sees a live match as a spectator does.
	Reviewer bool
}

// Reviewing returns the viewer as a reviewer of disputes: for a finished match, every
// event and every hidden fact; for a match not over, nothing more than a spectator sees
// (the viewer as it is, never a seat's).
func (v Viewer) Reviewing() Viewer {
	if !v.Finished {
		return v
	}
	return Viewer{Finished: true, Reviewer: true}
}

// ViewerOf returns the viewer a player (or a spectator, playerID "") is in a match.
func ViewerOf(st match.State, playerID string) Viewer {
	v := Viewer{Finished: st.Status == match.Finished}
	if playerID == "" {
		return v
	}
	for i, s := range st.Seats {
		if s.PlayerID == playerID {
			v.Seats = append(v.Seats, i)
			if i < len(st.Plan.Teams) {
				v.Teams = append(v.Teams, st.Plan.Teams[i])
			}
		}
	}
	return v
}

// AsOf returns the viewer as it was when the event of the given version was recorded,
// in a match that ended at version endedAt (0: not yet). A stream of events shows each
// one as it was shown live, so a subscriber reading them after the end, or lagging
// across it, receives exactly what a live one did: the secrets of a finished match are
// revealed by its state (hands, seed) and by the events after its end, not by rewriting
// the stream. Without this, what a subscriber saw depended on when it read.
func (v Viewer) AsOf(endedAt, version int64) Viewer {
	v.Finished = endedAt > 0 && (version >= endedAt || v.Reviewer)
	return v
}

// Seated reports whether the viewer holds seat n.
func (v Viewer) Seated(n int) bool {
	for _, s := range v.Seats {
		if s == n {
			return true
		}
	}
	return false
}

// CanSee decides whether the viewer may see an event of the given visibility. Once a match
// is over every secret of it is revealed, for replays and dispute review.
func (v Viewer) CanSee(vis visibility.Visibility) bool {
	if vis.IsPublic() || v.Finished {
		return true
	}
	if n, ok := vis.Seat(); ok {
		return v.Seated(n)
	}
	if n, ok := vis.Team(); ok {
		return slices.Contains(v.Teams, n)
	}
	return false // the server's alone
}

// Shown is an event as one viewer may see it.
type Shown struct {
	eventstore.Event
	// Redacted is true when the viewer may not see the event: Payload then holds only its
	// public shadow (or nothing), never its content.
	Redacted bool
}

// Event returns ev as the viewer may see it. Its position is its version, its place in
// its own stream: never the store's global one (see below). A hidden event keeps its
// envelope (version, time, hash) so that the viewer sees that something happened and can
// follow the stream's versions; its payload is replaced by the game's public shadow of it, or
// removed, and its type by the shadow's (game.Shadowed), which is the event's own unless
// the game hides even what kind of secret happened. Hashes are safe to show: the engine salts every non-public payload, so a
// hash cannot be brute-forced back to a hidden card.
func (v Viewer) Event(rules game.Rules, ev eventstore.Event) Shown {
	// The store's global position counts every stream, other matches' and the hidden
	// ones (matchstream.Hidden) too: between two events of a match its gaps would tell
	// how many events came elsewhere, a covering match's secrets among them. So every
	// match, in every game, shows instead the event's place in its own stream, its
	// version, which counts the match's public events alone; and never the global hash.
	ev.Position, ev.GlobalHash = ev.Version, ""
	if v.CanSee(ev.Visibility) {
		return Shown{Event: ev}
	}
	shown := Shown{Event: ev, Redacted: true}
	shown.Payload, shown.CommandID = nil, ""
	if rules == nil {
		return shown
	}
	d, err := match.Decode(rules, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return shown
	}
	if sh, ok := d.(game.Shadowed); ok {
		shadow := sh.Shadow()
		if p, err := json.Marshal(shadow); err == nil {
			// A shadow of another type stands in the event's place, under its own type.
			shown.Payload, shown.Type = p, shadow.EventType()
		}
	}
	return shown
}

// View returns a game's state as the viewer may see it, in the game's own view type (see
// game.Viewed), or nil for a game that shows none or a match not yet set up. It is the
// one way the API and the bot read a game's state: the game leaves out what the viewer
// may not see, and lists legal plays for the viewer's own seats alone.
func (v Viewer) View(rules game.Rules, st game.State) game.View {
	g, ok := rules.(game.Viewed)
	if !ok || st == nil {
		return nil
	}
	return g.View(st, game.Viewpoint{Seats: v.Seats, Teams: v.Teams, Over: v.Finished})
}

// Export writes the match in its game's interchange format (game.Exporter), ok false for
// a game without one or a match not yet set up. An export holds only what is public until
// the match is over (the Exporter's contract), so it reads the same for every viewer; the
// API asks for it here, where it asks for every other reading of a game's state.
func (v Viewer) Export(rules game.Rules, st game.State, r game.Record) (string, bool, error) {
	ex, ok := rules.(game.Exporter)
	if !ok || st == nil {
		return "", false, nil
	}
	text, err := ex.Export(st, r)
	return text, err == nil, err
}
