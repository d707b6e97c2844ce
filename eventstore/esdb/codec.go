package esdb

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// This file holds what needs no server: the names of the ESDB streams, the event IDs, the
// envelope in an event's metadata, the mapping of versions to revisions and of the
// client's errors to the port's. See docs/esdb.md for the layout as a whole.

// validNamespace keeps a namespace free of the separators the stream names use, so that
// one namespace's prefix is never the prefix of another's ("arbiter." and "arbiter2.").
var validNamespace = regexp.MustCompile(`^[A-Za-z0-9_]{1,64}$`)

// names derives the ESDB stream names of one store, whose namespace is ns.
type names struct{ ns string }

// data is the ESDB stream that holds Arbiter's stream: "<ns>.<stream>". Every data
// stream, and nothing else, starts with prefix().
func (n names) data(stream string) string { return n.prefix() + stream }

// prefix is the server-side filter on $all that selects the store's data streams.
func (n names) prefix() string { return n.ns + "." }

// log is the store's log stream, "<ns>:log": every event once more, in global order, at
// revision position-1. It is outside prefix(), so $all filtered on the prefix sees each
// event once.
func (n names) log() string { return n.ns + ":log" }

// arbiterStream returns the Arbiter stream an ESDB data stream holds.
func (n names) arbiterStream(esdbStream string) (string, bool) {
	s, ok := strings.CutPrefix(esdbStream, n.prefix())
	return s, ok && s != ""
}

// filter is the server-side filter of the subscriptions on $all.
func (n names) filter() *kdb.SubscriptionFilter {
	return &kdb.SubscriptionFilter{Type: kdb.StreamFilterType, Prefixes: []string{n.prefix()}}
}

// idSpace is the UUID namespace of Arbiter's event IDs (a version 4 UUID drawn once).
var idSpace = uuid.MustParse("6f1c1c52-3b0e-4d55-9a52-7e4b8a1f0d63")

// dataID is the ESDB event ID of the data copy of the event whose Arbiter ID is id: a
// name-based UUID (version 5), the same for every attempt of an append, so that ESDB
// recognises a retried write of a stream's events as the same write.
func dataID(id string) uuid.UUID { return uuid.NewSHA1(idSpace, []byte("data\x00"+id)) }

// logID is the ESDB event ID of the event's copy in the log stream; it differs from
// dataID so that the two copies are never taken for one another.
func logID(id string) uuid.UUID { return uuid.NewSHA1(idSpace, []byte("log\x00"+id)) }

// envelopeFormat names the layout of envelope; a store written with another is refused.
const envelopeFormat = 1

// envelope is an event's metadata: every field of the stored event but its type (the
// ESDB event type) and its payload (the ESDB data, byte for byte).
type envelope struct {
	Format        int       `json:"arbiter"`
	Stream        string    `json:"stream"`
	Version       int64     `json:"version"`
	Position      int64     `json:"position"`
	ID            string    `json:"id"`
	SchemaVersion int       `json:"schemaVersion"`
	CommandID     string    `json:"commandId,omitempty"`
	Actor         string    `json:"actor,omitempty"`
	Visibility    string    `json:"visibility"`
	TimeNS        int64     `json:"timeNs"`
	PrevHash      string    `json:"prevHash,omitempty"`
	Hash          string    `json:"hash"`
	GlobalHash    string    `json:"globalHash"`
	Head          *headMark `json:"head,omitempty"`
}

// headMark is set on the last event of each log append: the head the store signed in that
// append (its position and hash are the event's own). It also marks where one append of
// the log ends, which rolling an interrupted append forward needs.
type headMark struct {
	TimeNS    int64  `json:"timeNs"`
	Signature []byte `json:"signature,omitempty"`
}

// encode returns e as an ESDB event: of the log stream when inLog, else of its data
// stream. head, if not nil, is the signed head of the append e ends (log copies only).
func encode(e eventstore.Event, inLog bool, head *eventstore.Head) kdb.EventData {
	env := envelope{
		Format: envelopeFormat, Stream: e.Stream, Version: e.Version, Position: e.Position, ID: e.ID,
		SchemaVersion: e.SchemaVersion, CommandID: e.CommandID, Actor: e.Actor,
		Visibility: e.Visibility.String(), TimeNS: e.Time.UnixNano(),
		PrevHash: e.PrevHash, Hash: e.Hash, GlobalHash: e.GlobalHash,
	}
	if head != nil {
		env.Head = &headMark{TimeNS: head.Time.UnixNano(), Signature: head.Signature}
	}
	meta, err := json.Marshal(env)
	if err != nil {
		panic(fmt.Sprintf("esdb: encoding an envelope: %v", err)) // strings and integers only
	}
	id := dataID(e.ID)
	if inLog {
		id = logID(e.ID)
	}
	return kdb.EventData{EventID: id, EventType: e.Type, ContentType: kdb.ContentTypeJson, Data: e.Payload, Metadata: meta}
}

// errCorrupt marks an ESDB event that is not what this adapter writes where it was read.
var errCorrupt = errors.New("esdb: an event of the store does not decode")

// decode reads back an event encode wrote, checking that it sits where it belongs: in
// the log at revision position-1, or in its own data stream at revision version-1, with
// the event ID derived from its Arbiter ID. It returns the signed head the event ends,
// or nil.
func decode(n names, rec *kdb.RecordedEvent) (eventstore.Event, *eventstore.Head, error) {
	bad := func(format string, args ...any) (eventstore.Event, *eventstore.Head, error) {
		return eventstore.Event{}, nil, fmt.Errorf("%w: %s revision %d: %s", errCorrupt, rec.StreamID, rec.EventNumber, fmt.Sprintf(format, args...))
	}
	var env envelope
	if err := json.Unmarshal(rec.UserMetadata, &env); err != nil {
		return bad("metadata: %v", err)
	}
	if env.Format != envelopeFormat {
		return bad("envelope format %d, this build reads %d", env.Format, envelopeFormat)
	}
	vis, err := visibility.Parse(env.Visibility)
	if err != nil {
		return bad("%v", err)
	}
	inLog := rec.StreamID == n.log()
	switch stream, ok := n.arbiterStream(rec.StreamID); {
	case inLog && rec.EventNumber != uint64(env.Position-1):
		return bad("the log holds position %d at revision %d", env.Position, rec.EventNumber)
	case inLog && rec.EventID != logID(env.ID):
		return bad("event ID %s is not derived from %q", rec.EventID, env.ID)
	case inLog:
	case !ok || stream != env.Stream:
		return bad("an event of stream %q", env.Stream)
	case rec.EventNumber != uint64(env.Version-1):
		return bad("version %d at revision %d", env.Version, rec.EventNumber)
	case rec.EventID != dataID(env.ID):
		return bad("event ID %s is not derived from %q", rec.EventID, env.ID)
	case env.Head != nil:
		return bad("a head mark outside the log")
	}
	e := eventstore.Event{
		Proposed: eventstore.Proposed{
			ID: env.ID, Type: rec.EventType, SchemaVersion: env.SchemaVersion, Payload: rec.Data,
			CommandID: env.CommandID, Actor: env.Actor, Visibility: vis, Time: time.Unix(0, env.TimeNS).UTC(),
		},
		Stream: env.Stream, Version: env.Version, Position: env.Position,
		PrevHash: env.PrevHash, Hash: env.Hash, GlobalHash: env.GlobalHash,
	}
	if e.Payload == nil {
		e.Payload = []byte{}
	}
	if env.Head == nil {
		return e, nil, nil
	}
	return e, &eventstore.Head{Position: e.Position, Hash: e.GlobalHash, Time: time.Unix(0, env.Head.TimeNS).UTC(), Signature: env.Head.Signature}, nil
}

// expectedRevision is the ESDB expected revision of a stream whose last event has
// version last: revisions count from 0, versions from 1, and an empty stream is NoStream.
func expectedRevision(last int64) kdb.ExpectedRevision {
	if last == 0 {
		return kdb.NoStream{}
	}
	return kdb.Revision(uint64(last - 1))
}

// revisionFrom is where a read of the events after version (or position) after starts.
func revisionFrom(after int64) kdb.StreamPosition { return kdb.Revision(uint64(after)) }

// code returns the client's error code of err, and false for an error that is not the
// client's.
func code(err error) (kdb.ErrorCode, bool) {
	var e *kdb.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}

func isCode(err error, c kdb.ErrorCode) bool {
	got, ok := code(err)
	return ok && got == c
}

// notFound reports a read of a stream that has no event yet.
func notFound(err error) bool { return isCode(err, kdb.ErrorCodeResourceNotFound) }

// wrongVersion reports an append that ESDB refused on its expected revision.
func wrongVersion(err error) bool { return errors.Is(err, errWrongRevision) }

// currentRevision matches the client's words for a refused expected revision (v4.2.0:
// "wrong expected version: expecting '%s' but got '%s'").
var currentRevision = regexp.MustCompile(`but got '([^']*)'`)

// conflict turns ESDB's refusal of a write to stream that expected version expected into
// the port's *VersionConflict, with the stream's actual version when the client says it
// (the revision of its last event + 1; 0 for no stream), else -1.
func conflict(err error, stream string, expected int64) *eventstore.VersionConflict {
	actual := int64(-1)
	if m := currentRevision.FindStringSubmatch(err.Error()); m != nil {
		if m[1] == "no_stream" {
			actual = 0
		} else if r, perr := strconv.ParseUint(m[1], 10, 63); perr == nil {
			actual = int64(r) + 1
		}
	}
	return &eventstore.VersionConflict{Stream: stream, Expected: expected, Actual: actual}
}

// transient reports a failure that a retry may cure: a leader change, a node restarting,
// a deadline. A subscription is opened again after one.
func transient(err error) bool {
	c, ok := code(err)
	if !ok {
		// A dropped subscription reports the gRPC status as it came.
		switch status.Code(err) {
		case codes.Unavailable, codes.Aborted, codes.DeadlineExceeded:
			return true
		}
		return false
	}
	switch c {
	case kdb.ErrorCodeNotLeader, kdb.ErrorUnavailable, kdb.ErrorAborted, kdb.ErrorCodeDeadlineExceeded, kdb.ErrorCodeConnectionClosed:
		return true
	}
	return false
}
