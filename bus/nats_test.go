package bus_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"

	"github.com/arbiter-games/arbiter/bus"
)

// natsURL returns the NATS server the JetStream tests run against. Without one they are
// skipped, except in CI, where a missing server is a failure to set it up.
func natsURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("ARBITER_NATS_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("ARBITER_NATS_URL is not set: CI must run these tests against a NATS server with JetStream")
		}
		t.Skip("ARBITER_NATS_URL is not set: no NATS server to test against")
	}
	return url
}

func TestNATSJetStreamBus(t *testing.T) {
	nb, cfg := natsBus(t, "BUS")
	store := newStore(t)
	head := appendEvents(t, store, "match-0", 5) // before anything runs: only in the store

	recs := []*recorder{newRecorder(0), newRecorder(3)}
	counting := &countingSubscriber{next: nb.Subscriber}
	var followers []*bus.Follower
	for i, rec := range recs {
		f, err := bus.NewFollower(bus.FollowerConfig{
			Store: store, Subscriber: counting, Handler: rec.handle, Topic: cfg.Topic,
			After: []int64{0, 3}[i], IdleCheck: testIdleCheck, Logger: testLogger(t),
		})
		if err != nil {
			t.Fatal(err)
		}
		run(t, fmt.Sprintf("follower %d", i), f.Run)
		followers = append(followers, f)
	}
	relayAt := func(after int64) (*bus.Relay, func()) {
		r, err := bus.NewRelay(bus.RelayConfig{Source: store, Publisher: nb.Publisher, Topic: cfg.Topic, After: after, Logger: testLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		return r, run(t, "relay", r.Run)
	}

	relay, stopRelay := relayAt(head) // as at boot: from the head
	head = appendConcurrently(t, store, 8, 20)
	waitAll := func(head int64) {
		t.Helper()
		for i, f := range followers {
			if err := f.WaitFor(waitCtx(t), head); err != nil {
				t.Fatalf("follower %d: %v", i, err)
			}
		}
	}
	waitAll(head)
	eventually(t, "the relay to publish everything", func() bool { return relay.Position() == head })

	// A relay restarted from the beginning publishes everything again: JetStream drops
	// what is still in its duplicate window, the followers drop the rest.
	stopRelay()
	again, _ := relayAt(0)
	head = appendEvents(t, store, "match-1", 10)
	eventually(t, "the restarted relay to publish everything", func() bool { return again.Position() == head })
	waitAll(head)

	for i, rec := range recs {
		checkReceived(t, store, rec, []int64{0, 3}[i])
	}
	if counting.n.Load() == 0 {
		t.Fatal("no message came through JetStream: the followers lived on the store alone")
	}
	t.Logf("%d messages came through JetStream for %d events", counting.n.Load(), 2*head)
}

// natsBus connects a bus on a stream and topic of its own, so that runs never see each
// other's messages; the stream is deleted when the test ends.
func natsBus(t *testing.T, name string) (*bus.NATS, bus.NATSConfig) {
	t.Helper()
	url := natsURL(t)
	suffix := time.Now().UnixNano()
	cfg := bus.NATSConfig{
		URL:    url,
		Stream: fmt.Sprintf("ARBITER_TEST_%s_%d", name, suffix),
		Topic:  fmt.Sprintf("arbiter.test.%s.%d", strings.ToLower(name), suffix),
		MaxAge: time.Hour,
		Logger: testLogger(t),
	}
	nb, err := bus.NewNATS(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		nb.Close()
		if nc, err := nats.Connect(url); err == nil {
			if js, err := nc.JetStream(); err == nil {
				js.DeleteStream(cfg.Stream)
			}
			nc.Close()
		}
	})
	return nb, cfg
}

// deleteStreams removes the named JetStream streams when the test ends.
func deleteStreams(t *testing.T, url string, names ...string) {
	t.Cleanup(func() {
		if nc, err := nats.Connect(url); err == nil {
			if js, err := nc.JetStream(); err == nil {
				for _, n := range names {
					_ = js.DeleteStream(n)
				}
			}
			nc.Close()
		}
	})
}

// TestNATSStreamFollowsTheTopic: two stores' buses with topics of their own and no stream
// named each get a stream of their own, derived from the topic, and both publish. (The
// second used to bind to the first's stream and publish nothing, retrying for ever.)
func TestNATSStreamFollowsTheTopic(t *testing.T) {
	url := natsURL(t)
	suffix := time.Now().UnixNano()
	topics := []string{fmt.Sprintf("arbiter.test.one.%d", suffix), fmt.Sprintf("arbiter.test.two-%d", suffix)}
	deleteStreams(t, url, bus.StreamFor(topics[0]), bus.StreamFor(topics[1]))
	if got, want := bus.StreamFor(topics[1]), fmt.Sprintf("ARBITER_TEST_TWO-%d", suffix); got != want {
		t.Errorf("StreamFor(%q) = %q, want %q", topics[1], got, want)
	}
	if got := bus.StreamFor(bus.DefaultTopic); got != "ARBITER_EVENTS" {
		t.Errorf("the default topic's stream is %q: servers that ran before would lose theirs", got)
	}
	for _, topic := range topics {
		nb, err := bus.NewNATS(t.Context(), bus.NATSConfig{URL: url, Topic: topic, MaxAge: time.Hour, Logger: testLogger(t)})
		if err != nil {
			t.Fatalf("topic %s: %v", topic, err)
		}
		err = nb.Publisher.Publish(topic, message.NewMessage(fmt.Sprint(suffix, topic), []byte("{}")))
		nb.Close()
		if err != nil {
			t.Errorf("publishing on %s: %v", topic, err)
		}
	}
}

// TestNATSRefusesAStreamOfAnotherTopic: a stream that exists but does not hold the topic
// (named with stream=, or derived from a topic that differs only in a dot) is refused
// with a reason that says what to do.
func TestNATSRefusesAStreamOfAnotherTopic(t *testing.T) {
	url := natsURL(t)
	suffix := time.Now().UnixNano()
	taken := fmt.Sprintf("arbiter.test.taken.%d", suffix)
	first, err := bus.NewNATS(t.Context(), bus.NATSConfig{URL: url, Topic: taken, MaxAge: time.Hour, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	deleteStreams(t, url, bus.StreamFor(taken))
	for name, cfg := range map[string]bus.NATSConfig{
		"stream= of another store": {URL: url, Topic: fmt.Sprintf("arbiter.test.mine.%d", suffix), Stream: bus.StreamFor(taken)},
		"a look-alike topic":       {URL: url, Topic: fmt.Sprintf("arbiter.test_taken.%d", suffix)},
	} {
		cfg.Logger = testLogger(t)
		nb, err := bus.NewNATS(t.Context(), cfg)
		if err == nil {
			nb.Close()
			t.Errorf("%s: the stream %s of %s was accepted for %s", name, bus.StreamFor(taken), taken, cfg.Topic)
			continue
		}
		for _, want := range []string{bus.StreamFor(taken), "holds " + taken, "not the topic " + cfg.Topic, "?stream=NAME"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the refusal lacks %q: %v", name, want, err)
			}
		}
	}
}
