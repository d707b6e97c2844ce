package bus_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// The wiring of one process: a relay from the store's head, one follower from the
// process's checkpoint feeding a hub, and read-your-writes with WaitFor.
func Example() {
	store := memstore.New()
	defer store.Close()
	pubsub := bus.NewGoChannel(nil)
	defer pubsub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // first: stop the relay and the follower, then close what they use

	head, err := store.HeadPosition(ctx)
	if err != nil {
		log.Fatal(err)
	}
	relay, err := bus.NewRelay(bus.RelayConfig{Source: store, Publisher: pubsub, After: head})
	if err != nil {
		log.Fatal(err)
	}
	const checkpoint = 0 // where this process's readers are
	hub := bus.NewHub(checkpoint)
	if _, err := hub.Add("printer", func(_ context.Context, e eventstore.Event) error {
		fmt.Println(e.Position, e.Stream, e.Type)
		return nil
	}); err != nil {
		log.Fatal(err)
	}
	follower, err := bus.NewFollower(bus.FollowerConfig{
		Store: store, Subscriber: pubsub, Handler: hub.Handle, After: checkpoint,
	})
	if err != nil {
		log.Fatal(err)
	}
	go relay.Run(ctx)
	go follower.Run(ctx)

	res, err := store.Append(ctx, "match-1", eventstore.NoStream,
		eventstore.Proposed{ID: "ev-1", Type: "MatchCreated", SchemaVersion: 1, Payload: []byte(`{}`), Actor: "system"},
		eventstore.Proposed{ID: "ev-2", Type: "MovePlayed", SchemaVersion: 1, Payload: []byte(`{}`), Actor: "seat:0"},
	)
	if err != nil {
		log.Fatal(err)
	}
	waitCtx, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	if err := follower.WaitFor(waitCtx, res.LastPosition); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1 match-1 MatchCreated
	// 2 match-1 MovePlayed
}
