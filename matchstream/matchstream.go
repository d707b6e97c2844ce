// Package matchstream is where a match meets the event store: the name of its stream,
// and its stored events as the match's fold and audit read them (match.Stored). The
// engine, the projections and replay share it, so that none of them needs another to
// read a match.
package matchstream

import (
	"strings"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
)

const prefix = "match-"

// Name is the stream of the match id.
func Name(id string) string { return prefix + id }

// MatchID returns the match ID of a match stream, and false for any other stream.
func MatchID(stream string) (string, bool) { return strings.CutPrefix(stream, prefix) }

// Record is a stored event of a match as the match reads it.
func Record(ev eventstore.Event) match.Stored {
	return match.Stored{Stream: ev.Stream, Version: ev.Version, Type: ev.Type, Schema: ev.SchemaVersion,
		Payload: ev.Payload, Visibility: ev.Visibility, Time: ev.Time}
}
