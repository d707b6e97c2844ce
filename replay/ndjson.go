package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// ExportFormat names the match export of docs/exports.md, in its header line. A reader
// refuses any other: a change of the line's fields is a new name.
const ExportFormat = "arbiter.match.ndjson/v1"

// CheckRedacted is the Problem of an export that hides events from its viewer: their
// hashes link the chain, but their content, and the rules, cannot be checked.
const CheckRedacted = "redacted"

// maxExportLine bounds one line of an export as it is read (an event's payload is far
// smaller; a longer line is damage, not an event).
const maxExportLine = 16 << 20

// ExportHeader is the first line of an export: what it holds and for whom.
type ExportHeader struct {
	Format       string    `json:"format"`
	Match        string    `json:"match"`
	Game         string    `json:"game"`
	RulesVersion string    `json:"rulesVersion"`
	Status       string    `json:"status"`   // the match's status as exported
	Version      int64     `json:"version"`  // the last version the export holds
	Viewer       string    `json:"viewer"`   // "player:<id>" or "spectator"
	Redacted     int       `json:"redacted"` // how many of its events are hidden from the viewer
	ExportedAt   time.Time `json:"exportedAt"`
}

// ExportLine is one event of an export: the fields its hash covers, the hash of the event
// before it and its own. A redacted line has no payload and no command ID (or the game's
// public shadow of the payload, under the shadow's type): its hash is the stored event's.
type ExportLine struct {
	Stream        string          `json:"stream"`
	Version       int64           `json:"version"`
	ID            string          `json:"id"`
	Type          string          `json:"type"`
	SchemaVersion int             `json:"schemaVersion"`
	Payload       json.RawMessage `json:"payload,omitempty"`
	// PayloadBase64 holds a payload whose bytes are not compact JSON (never written by
	// Arbiter's own encoder), so that the bytes the hash covers survive the line's encoding.
	PayloadBase64 []byte    `json:"payloadBase64,omitempty"`
	CommandID     string    `json:"commandId"`
	Actor         string    `json:"actor"`
	Visibility    string    `json:"visibility"`
	Time          time.Time `json:"time"` // RFC 3339 with nanoseconds, UTC: the hash covers its Unix nanoseconds
	PrevHash      string    `json:"prevHash"`
	Hash          string    `json:"hash"`
	Redacted      bool      `json:"redacted,omitempty"`
}

// Export is a match export as read back.
type Export struct {
	Header ExportHeader
	Lines  []ExportLine
}

// LineOf returns the export line of an event as a viewer was shown it (projections'
// Viewer.Event): it copies the event whole and redacts nothing itself, so a hidden event's
// payload (a shadow, or nil) and dropped command ID must already be so in ev.
func LineOf(ev eventstore.Event, redacted bool) ExportLine {
	l := ExportLine{
		Stream: ev.Stream, Version: ev.Version, ID: ev.ID, Type: ev.Type, SchemaVersion: ev.SchemaVersion,
		CommandID: ev.CommandID, Actor: ev.Actor, Visibility: ev.Visibility.String(), Time: ev.Time.UTC(),
		PrevHash: ev.PrevHash, Hash: ev.Hash, Redacted: redacted,
	}
	if len(ev.Payload) > 0 {
		var compact bytes.Buffer
		if json.Compact(&compact, ev.Payload) == nil && bytes.Equal(compact.Bytes(), ev.Payload) {
			l.Payload = ev.Payload
		} else {
			l.PayloadBase64 = ev.Payload
		}
	}
	return l
}

// Event returns the stored event a line stands for (its position is not exported: it
// differs from one store to another and no hash covers it).
func (l ExportLine) Event() (eventstore.Event, error) {
	vis, err := visibility.Parse(l.Visibility)
	if err != nil {
		return eventstore.Event{}, err
	}
	payload := []byte(l.Payload)
	if l.PayloadBase64 != nil {
		payload = l.PayloadBase64
	}
	return eventstore.Event{
		Proposed: eventstore.Proposed{
			ID: l.ID, Type: l.Type, SchemaVersion: l.SchemaVersion, Payload: payload,
			CommandID: l.CommandID, Actor: l.Actor, Visibility: vis, Time: l.Time,
		},
		Stream: l.Stream, Version: l.Version, PrevHash: l.PrevHash, Hash: l.Hash,
	}, nil
}

// WriteExport writes an export: its header, then one line per event, in version order.
func WriteExport(w io.Writer, h ExportHeader, lines []ExportLine) error {
	h.Format = ExportFormat
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // a payload's bytes go out as they were stored
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// ReadExport reads an export. A line that is not one of the format's is an error naming
// the line; the chain and the rules are VerifyExport's.
func ReadExport(r io.Reader) (Export, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxExportLine)
	var (
		exp Export
		n   int
	)
	for sc.Scan() {
		n++
		raw := sc.Bytes()
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if n == 1 {
			if err := dec.Decode(&exp.Header); err != nil {
				return Export{}, fmt.Errorf("line 1 is not the export's header: %w", err)
			}
			if exp.Header.Format != ExportFormat {
				return Export{}, fmt.Errorf("line 1: format %q, this build reads %q", exp.Header.Format, ExportFormat)
			}
			continue
		}
		var l ExportLine
		if err := dec.Decode(&l); err != nil {
			return Export{}, fmt.Errorf("line %d is not an event of the export: %w", n, err)
		}
		exp.Lines = append(exp.Lines, l)
	}
	if err := sc.Err(); err != nil {
		return Export{}, fmt.Errorf("reading the export at line %d: %w", n+1, err)
	}
	if n == 0 {
		return Export{}, errors.New("the export is empty: no header line")
	}
	return exp, nil
}

// Events returns the export's events, refusing an export that hides some: a fold or an
// audit needs every event whole. It is how `arbiter replay --file` reads a file.
func (x Export) Events() ([]eventstore.Event, error) {
	out := make([]eventstore.Event, 0, len(x.Lines))
	for _, l := range x.Lines {
		if l.Redacted {
			return nil, game.Reject(game.BadInput, "version %d of match %s is hidden from this export's viewer (%s): export it again once the match is over", l.Version, x.Header.Match, x.Header.Viewer)
		}
		ev, err := l.Event()
		if err != nil {
			return nil, fmt.Errorf("version %d: %w", l.Version, err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// VerifyExport checks an export offline, as Verify checks a stream in a store: the hash
// chain from version 1, the versions, and the match under its rules.
//
// An export taken by a player or a spectator while the match is live hides the events it
// may not see. Their lines keep the stored hash and the hash before them, so the chain
// still links line to line: every visible event's hash is recomputed over the hash of
// the hidden one before it, which therefore cannot be changed without breaking the next
// visible line. But a hidden event's own content cannot be recomputed, nor the match
// refolded through its rules: such an export reports a CheckRedacted problem (it does not
// verify) after the checks it could make. Exported once the match is over, it hides
// nothing and verifies whole.
func VerifyExport(games *game.Registry, x Export) Report {
	return verifyExport(games, x, false)
}

// verifyExport is VerifyExport, and with fair the match's fairness too.
func verifyExport(games *game.Registry, x Export, fair bool) Report {
	stream := matchstream.Name(x.Header.Match)
	r := Report{Stream: stream, MatchID: x.Header.Match, Game: x.Header.Game, Events: len(x.Lines)}
	for _, l := range x.Lines {
		if l.Stream == stream {
			r.Version = l.Version
		}
	}
	if r.Version != x.Header.Version {
		r.add(0, CheckVersion, "the header says the export ends at version %d, its last line of %s is version %d", x.Header.Version, stream, r.Version)
	}
	evs := make([]eventstore.Event, len(x.Lines))
	var hidden []int64
	for i, l := range x.Lines {
		ev, err := l.Event()
		if err != nil {
			r.add(l.Version, CheckDecode, "%v", err)
			return r
		}
		if id, ok := matchstream.Of(ev.Stream); !ok || id != x.Header.Match {
			r.add(l.Version, CheckChain, "the line belongs to stream %q, not to the header's match %q", ev.Stream, x.Header.Match)
			return r
		}
		evs[i] = ev
		if l.Redacted {
			hidden = append(hidden, l.Version)
		}
	}
	if len(hidden) == 0 {
		full := verifyEvents(games, stream, evs, fair)
		full.Problems = append(r.Problems, full.Problems...)
		return full
	}
	linked(&r, x.Lines, evs)
	r.add(0, CheckRedacted, "%d event(s) are hidden from the export's viewer (%s), first at version %d: their hashes link the chain but their content and the match's rules cannot be checked; export the match again once it is over", len(hidden), x.Header.Viewer, hidden[0])
	return r
}

// linked checks the chains of an export with hidden events, each stream's apart (the
// match's own, and the hidden streams it holds): versions from 1, each line's PrevHash the
// hash of the line of its stream before, and each visible event's hash recomputed.
func linked(r *Report, lines []ExportLine, evs []eventstore.Event) {
	var streams []string
	for _, ev := range evs {
		if !slices.Contains(streams, ev.Stream) {
			streams = append(streams, ev.Stream)
		}
	}
	for _, s := range streams {
		var (
			own      []eventstore.Event
			redacted []bool
		)
		for i, ev := range evs {
			if ev.Stream == s {
				own, redacted = append(own, ev), append(redacted, lines[i].Redacted)
			}
		}
		where := ""
		if s != r.Stream {
			where = s + ": "
		}
		err := eventstore.VerifyLinks(own, func(i int) bool { return redacted[i] })
		var ce *eventstore.ChainError
		switch {
		case errors.As(err, &ce) && ce.Misnumbered:
			r.add(ce.Version, CheckVersion, "%s%s: the export has a gap or a duplicate", where, ce.Reason)
		case errors.As(err, &ce):
			r.add(ce.Version, CheckChain, "%s%s", where, ce.Reason)
		case err != nil:
			r.add(0, CheckChain, "%s%v", where, err)
		}
	}
}
