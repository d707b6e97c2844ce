// Package bus carries committed events from the event store to the readers of one or
// many processes over Watermill, without ever becoming a second source of truth: a Relay
// publishes the store's global stream on one topic; a Follower hands it to its handler in
// global order, exactly once each, dropping duplicates and reading from the store whatever
// the bus lost, delayed or reordered (a lost message costs latency, never data); a Hub
// fans one Follower out to many in-process consumers.
package bus

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/arbiter-games/arbiter/eventstore"
)

// DefaultTopic is the topic that relays publish on and followers consume when their
// configuration names none.
const DefaultTopic = "arbiter.events"

// Metadata keys of a message that carries an event. They repeat fields of the payload so
// that brokers, logs and filters can see them without decoding it.
const (
	MetaPosition = "position"
	MetaStream   = "stream"
	MetaType     = "type"
)

// Encode is the one wire encoding of an event: the message's UUID is the event ID (so a
// broker that deduplicates by message ID, like JetStream, sees a re-publish as the same
// message), the payload is the JSON of the event, and the metadata repeats its position,
// stream and type.
func Encode(e eventstore.Event) (*message.Message, error) {
	payload, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("bus: encoding event %q at position %d: %w", e.ID, e.Position, err)
	}
	m := message.NewMessage(e.ID, payload)
	m.Metadata.Set(MetaPosition, strconv.FormatInt(e.Position, 10))
	m.Metadata.Set(MetaStream, e.Stream)
	m.Metadata.Set(MetaType, e.Type)
	return m, nil
}

// Decode is the inverse of Encode. It rejects a message whose metadata contradicts its
// payload, because a follower orders and deduplicates by position and must not be misled.
func Decode(m *message.Message) (eventstore.Event, error) {
	var e eventstore.Event
	if err := json.Unmarshal(m.Payload, &e); err != nil {
		return eventstore.Event{}, fmt.Errorf("bus: decoding message %q: %w", m.UUID, err)
	}
	if e.Position < 1 {
		return eventstore.Event{}, fmt.Errorf("bus: message %q carries an event without a position", m.UUID)
	}
	if p := m.Metadata.Get(MetaPosition); p != "" && p != strconv.FormatInt(e.Position, 10) {
		return eventstore.Event{}, fmt.Errorf("bus: message %q: metadata position %s, payload position %d", m.UUID, p, e.Position)
	}
	if m.UUID != "" && m.UUID != e.ID {
		return eventstore.Event{}, fmt.Errorf("bus: message %q carries event %q", m.UUID, e.ID)
	}
	return e, nil
}
