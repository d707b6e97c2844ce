package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
)

// DefaultNATSMaxAge is how long the stream keeps messages unless NATSConfig says otherwise.
const DefaultNATSMaxAge = 24 * time.Hour

// NATSConfig configures the bus over NATS JetStream. URL is required.
type NATSConfig struct {
	URL string
	// Stream is the JetStream stream that holds Topic (default StreamFor(Topic)). It is
	// created if missing; one that exists must hold Topic, or NewNATS refuses it.
	Stream string
	// Topic is the subject that relays publish on (default DefaultTopic).
	Topic string
	// MaxAge bounds how long the stream keeps messages (default DefaultNATSMaxAge): the
	// bus is a way to learn sooner, not the archive, which is the event store.
	MaxAge time.Duration
	// Options are added to the NATS connections (credentials, TLS, names...).
	Options []nats.Option
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// NATS is the bus over NATS JetStream, for processes on several machines: its Publisher
// is for a Relay, its Subscriber for Followers.
type NATS struct {
	Publisher  *wmnats.Publisher
	Subscriber message.Subscriber // one JetStream consumer per subscription, delivering in order
}

// NewNATS makes sure the stream exists, then connects a publisher and a subscriber.
//
// Each subscription is an ephemeral consumer that delivers only the messages published
// after it started (a follower reads the past from the store), one at a time, so in
// order. Publishes carry the event ID as the JetStream message ID, so the broker itself
// drops a republished event within its duplicate window.
func NewNATS(ctx context.Context, cfg NATSConfig) (*NATS, error) {
	if cfg.URL == "" {
		return nil, errors.New("bus: NATS needs a URL")
	}
	if cfg.Topic == "" {
		cfg.Topic = DefaultTopic
	}
	if cfg.Stream == "" {
		cfg.Stream = StreamFor(cfg.Topic)
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultNATSMaxAge
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if err := ensureStream(ctx, cfg); err != nil {
		return nil, err
	}

	wlog := watermill.NewSlogLogger(cfg.Logger.With("component", "bus.nats"))
	js := wmnats.JetStreamConfig{
		// The stream is provisioned above, with a name the topic cannot be.
		AutoProvision: false,
		TrackMsgId:    true,
		SubscribeOptions: []nats.SubOpt{
			nats.DeliverNew(),
			nats.AckExplicit(),
		},
	}
	pub, err := wmnats.NewPublisher(wmnats.PublisherConfig{
		URL:         cfg.URL,
		NatsOptions: cfg.Options,
		JetStream:   js,
	}, wlog)
	if err != nil {
		return nil, fmt.Errorf("bus: NATS publisher at %s: %w", cfg.URL, err)
	}
	sub, err := newNATSSubscriber(cfg.URL, cfg.Options, js.SubscribeOptions, 30*time.Second, cfg.Logger.With("component", "bus.nats"))
	if err != nil {
		pub.Close()
		return nil, fmt.Errorf("bus: NATS subscriber at %s: %w", cfg.URL, err)
	}
	return &NATS{Publisher: pub, Subscriber: sub}, nil
}

// Close closes the subscriber and the publisher.
func (n *NATS) Close() error {
	return errors.Join(n.Subscriber.Close(), n.Publisher.Close())
}

// StreamFor is the JetStream stream that holds topic when none is named: the topic in
// capitals, with "_" for each character a stream name may not hold (JetStream names have
// no ".", "*", ">", space or path separator), so that the default topic arbiter.events is
// held by ARBITER_EVENTS and each store's topic by a stream of its own. Topics that differ
// only in those characters ("a.b", "a_b") get the same name: NewNATS then refuses the
// second, whose operator names another stream.
func StreamFor(topic string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			return r
		}
		return '_'
	}, topic)
}

// ensureStream makes sure the stream exists and holds the topic. A stream that holds
// other subjects belongs to another store's bus: a relay bound to it could publish
// nothing (no stream would take its topic) and would retry for ever, so it is refused.
func ensureStream(ctx context.Context, cfg NATSConfig) error {
	nc, err := nats.Connect(cfg.URL, cfg.Options...)
	if err != nil {
		return fmt.Errorf("bus: connecting to NATS at %s: %w", cfg.URL, err)
	}
	defer nc.Close()
	js, err := nc.JetStream(nats.Context(ctx))
	if err != nil {
		return fmt.Errorf("bus: JetStream at %s: %w", cfg.URL, err)
	}
	info, err := js.StreamInfo(cfg.Stream, nats.Context(ctx))
	if err == nil {
		if !slices.ContainsFunc(info.Config.Subjects, func(s string) bool { return subjectCovers(s, cfg.Topic) }) {
			return fmt.Errorf("bus: the JetStream stream %s holds %s, not the topic %s: it belongs to another store's bus; give this one a stream of its own with ?stream=NAME in the bus URL (or use that store's topic if this is the same store)",
				cfg.Stream, strings.Join(info.Config.Subjects, ", "), cfg.Topic)
		}
		return nil
	}
	if !errors.Is(err, nats.ErrStreamNotFound) {
		return fmt.Errorf("bus: looking up JetStream stream %s: %w", cfg.Stream, err)
	}
	_, err = js.AddStream(&nats.StreamConfig{
		Name:      cfg.Stream,
		Subjects:  []string{cfg.Topic},
		Retention: nats.LimitsPolicy,
		MaxAge:    cfg.MaxAge,
		Storage:   nats.FileStorage,
	}, nats.Context(ctx))
	if err != nil {
		return fmt.Errorf("bus: creating JetStream stream %s for %s: %w (if another stream already holds this topic, name it with ?stream=NAME in the bus URL)", cfg.Stream, cfg.Topic, err)
	}
	return nil
}

// subjectCovers reports whether a stream subject (which may hold the wildcards "*", one
// token, and ">", the rest) takes messages published on topic.
func subjectCovers(subject, topic string) bool {
	sub, top := strings.Split(subject, "."), strings.Split(topic, ".")
	for i, tok := range sub {
		switch {
		case tok == ">":
			return len(top) > i
		case i >= len(top):
			return false
		case tok != "*" && tok != top[i]:
			return false
		}
	}
	return len(sub) == len(top)
}
