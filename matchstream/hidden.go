package matchstream

// A match of a game whose rules are game.Covering keeps, beside its own stream, a hidden
// stream per team for its covert events (game.Covert: a trap laid, and the cast that laid
// it). The match's own stream (Name) is public: its versions, its hash chain, the receipts
// and exports built on it count and chain nothing hidden, so the other team and the
// spectators cannot tell that a hidden action happened, nor when. The match is the fold of
// all its streams in the store's global order; this file is where that order is read.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// hiddenPrefix starts every hidden stream's name. It is not Name's prefix, so that every
// reader that routes a match's public events by their stream's name ("match-") passes
// hidden events by: only what reads them on purpose sees them.
const hiddenPrefix = "hidden-"

// Hidden is the stream of team's covert events in match id: "hidden-<team>-<id>".
func Hidden(id string, team int) string { return hiddenPrefix + strconv.Itoa(team) + "-" + id }

// HiddenOf returns the match and the team of a hidden stream, and false for any other.
func HiddenOf(stream string) (id string, team int, ok bool) {
	rest, ok := strings.CutPrefix(stream, hiddenPrefix)
	if !ok {
		return "", 0, false
	}
	n, id, ok := strings.Cut(rest, "-")
	if !ok || id == "" {
		return "", 0, false
	}
	team, err := strconv.Atoi(n)
	if err != nil || team < 0 || strconv.Itoa(team) != n {
		return "", 0, false
	}
	return id, team, true
}

// Public reports whether the events of stream may be counted by anyone: every stream's
// but a hidden one's, or one named like it (their content is another matter, for
// projections/redact.go).
func Public(stream string) bool { return !strings.HasPrefix(stream, hiddenPrefix) }

// Of returns the match of any of its streams, its public one or a hidden one.
func Of(stream string) (string, bool) {
	if id, ok := MatchID(stream); ok {
		return id, true
	}
	id, _, ok := HiddenOf(stream)
	return id, ok
}

// StreamOf returns the stream of match id that an event with visibility vis is stored in:
// a covert event (game.Covert) in its team's hidden stream, any other in the match's own
// stream. The engine appends by it and verify checks by it. A covert event that is not a
// team's has no stream: its secret would be no one's.
func StreamOf(id string, e game.Event, vis visibility.Visibility) (string, error) {
	if !game.IsCovert(e) {
		return Name(id), nil
	}
	team, ok := vis.Team()
	if !ok {
		return "", fmt.Errorf("the covert %s has visibility %q, not a team's", e.EventType(), vis)
	}
	return Hidden(id, team), nil
}

// Covering reports whether a match of rules and plan keeps hidden streams.
func Covering(rules game.Rules, plan game.Plan) bool {
	c, ok := rules.(game.Covering)
	return ok && c.Covering(plan)
}

// Teams returns the teams of a match's plan, each once, in order: the teams that may
// have a hidden stream.
func Teams(st match.State) []int {
	teams := slices.Clone(st.Plan.Teams)
	slices.Sort(teams)
	return slices.Compact(teams)
}

// Streams returns every stream of the match in state st: its own, then its teams' hidden
// ones when its rules keep them.
func Streams(id string, rules game.Rules, st match.State) []string {
	out := []string{Name(id)}
	if rules != nil && Covering(rules, st.Plan) {
		for _, t := range Teams(st) {
			out = append(out, Hidden(id, t))
		}
	}
	return out
}

// basisField is the field the engine adds to a covert event's payload: the version of the
// match's public stream the event was decided on.
const basisField = "basis"

// WithBasis adds the public version a covert event was decided on to its payload (a JSON
// object). A reader folds the event only if the public stream was still at that version
// when it was stored (see Cursor.Next): a covert event that lost a race to a public one,
// appended by another node in between, was decided on a state that no longer was, and is
// void. The engine sees it lost, and decides the command again.
func WithBasis(payload []byte, version int64) ([]byte, error) {
	if len(payload) < 2 || payload[0] != '{' || payload[len(payload)-1] != '}' {
		return nil, fmt.Errorf("matchstream: a covert event's payload is not a JSON object")
	}
	field := `"` + basisField + `":` + strconv.FormatInt(version, 10)
	if len(bytes.TrimSpace(payload[1:len(payload)-1])) > 0 {
		field = "," + field
	}
	out := make([]byte, 0, len(payload)+len(field))
	out = append(out, payload[:len(payload)-1]...)
	out = append(out, field...)
	return append(out, '}'), nil
}

// BasisOf reads the public version a covert event was decided on; false when its payload
// has none.
func BasisOf(payload []byte) (int64, bool) {
	var b struct {
		Basis *int64 `json:"basis"`
	}
	if json.Unmarshal(payload, &b) != nil || b.Basis == nil {
		return 0, false
	}
	return *b.Basis, true
}

// Cursor is where a fold of a match stands in each of its streams.
type Cursor struct {
	Version int64   // the last version folded of the match's own stream
	Hidden  []int64 // by team: the last version read of its hidden stream; shared, never changed in place
}

// HiddenVersion returns the last version read of team's hidden stream.
func (c Cursor) HiddenVersion(team int) int64 {
	if team < len(c.Hidden) {
		return c.Hidden[team]
	}
	return 0
}

// Next checks that ev, an event of the match id, comes next in its stream, moves the
// cursor past it, and says whether the match folds it: every event of the match's own
// stream, and a hidden one decided on the public version the cursor stands at; a hidden
// event decided on an earlier version lost a race (see WithBasis) and is void. An event
// out of order in its stream is an *match.Unreplayable.
func (c *Cursor) Next(id string, ev eventstore.Event) (bool, error) {
	fail := func(format string, args ...any) (bool, error) {
		return false, &match.Unreplayable{Match: id, Version: ev.Version, Err: fmt.Errorf(format, args...)}
	}
	if _, ok := MatchID(ev.Stream); ok {
		if ev.Version != c.Version+1 {
			return fail("stream %s jumps from version %d to %d", ev.Stream, c.Version, ev.Version)
		}
		c.Version = ev.Version
		return true, nil
	}
	_, team, ok := HiddenOf(ev.Stream)
	if !ok {
		return fail("stream %s is not one of the match's", ev.Stream)
	}
	if last := c.HiddenVersion(team); ev.Version != last+1 {
		return fail("stream %s jumps from version %d to %d", ev.Stream, last, ev.Version)
	}
	hidden := slices.Clone(c.Hidden)
	for len(hidden) <= team {
		hidden = append(hidden, 0)
	}
	hidden[team] = ev.Version
	c.Hidden = hidden
	basis, ok := BasisOf(ev.Payload)
	if !ok {
		return fail("%s version %d records no basis", ev.Stream, ev.Version)
	}
	return basis == c.Version && c.Version > 0, nil
}

// Reader is what Read needs of a store.
type Reader interface {
	ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error)
	HeadPosition(ctx context.Context) (int64, error)
}

// Read returns the events of the match's streams after cursor c, in global order: its own
// stream and the hidden streams of teams, at most page events read from each (page <= 0:
// all). Streams are read one by one, so each read is cut where every stream is known
// complete: at the store's head read first (every event at or before it is stored, since
// appends are chained in global order), and before the end of any page that came back
// full. more says a further Read may find events beyond the cut.
func Read(ctx context.Context, r Reader, id string, teams []int, c Cursor, page int) (evs []eventstore.Event, more bool, err error) {
	head, err := r.HeadPosition(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("matchstream: reading the store's head: %w", err)
	}
	cut := head
	read := func(stream string, after int64) error {
		got, err := r.ReadStream(ctx, stream, after, page)
		if err != nil {
			return fmt.Errorf("matchstream: reading %s: %w", stream, err)
		}
		if page > 0 && len(got) == page {
			cut, more = min(cut, got[len(got)-1].Position), true
		}
		evs = append(evs, got...)
		return nil
	}
	if err := read(Name(id), c.Version); err != nil {
		return nil, false, err
	}
	for _, t := range teams {
		if err := read(Hidden(id, t), c.HiddenVersion(t)); err != nil {
			return nil, false, err
		}
	}
	slices.SortFunc(evs, func(a, b eventstore.Event) int { return cmp.Compare(a.Position, b.Position) })
	n, _ := slices.BinarySearchFunc(evs, cut+1, func(e eventstore.Event, p int64) int { return cmp.Compare(e.Position, p) })
	return evs[:n], more || n < len(evs), nil
}

// ReadAll returns every event of match id: its own stream's and, when the rules its first
// event pins keep them, its teams' hidden streams', in global order, read page events of
// each stream at a time (see Read; page <= 0: all at once). A first event that does not
// fold (a game this binary does not host, a damaged store) leaves the hidden streams
// unread: the match's audit reports it. An unknown match has no event.
func ReadAll(ctx context.Context, r Reader, games *game.Registry, id string, page int) ([]eventstore.Event, error) {
	first, err := r.ReadStream(ctx, Name(id), 0, 1)
	if err != nil {
		return nil, fmt.Errorf("matchstream: reading %s: %w", Name(id), err)
	}
	if len(first) == 0 {
		return nil, nil
	}
	var teams []int
	if rules, st, err := (match.Folder{Games: games}).Apply(id, nil, match.State{}, 0, Record(first[0])); err == nil && Covering(rules, st.Plan) {
		teams = Teams(st)
	}
	var (
		all []eventstore.Event
		c   Cursor
	)
	for {
		evs, more, err := Read(ctx, r, id, teams, c, page)
		if err != nil {
			return nil, err
		}
		all = append(all, evs...)
		for _, ev := range evs {
			c.past(ev)
		}
		if !more {
			return all, nil
		}
	}
}

// past moves c past ev, an event of one of the match's streams, without checking that it
// comes next: for a reader that leaves the checks to whoever folds or audits the events.
func (c *Cursor) past(ev eventstore.Event) {
	if _, ok := MatchID(ev.Stream); ok {
		c.Version = ev.Version
		return
	}
	if _, team, ok := HiddenOf(ev.Stream); ok {
		hidden := slices.Clone(c.Hidden)
		for len(hidden) <= team {
			hidden = append(hidden, 0)
		}
		hidden[team] = ev.Version
		c.Hidden = hidden
	}
}
