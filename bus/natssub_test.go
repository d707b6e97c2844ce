package bus_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
)

// Subscriptions that end while messages keep arriving end in order: their channel
// closes, nothing is sent on it afterwards, and the process lives on. (watermill-nats's
// own subscriber could send on the closed channel here and panic the process.)
func TestNATSSubscriptionsEndWhileMessagesArrive(t *testing.T) {
	nb, cfg := natsBus(t, "END")
	suffix := time.Now().UnixNano() // message IDs of this run
	flood, stop := context.WithCancel(t.Context())
	defer stop()
	go func() {
		for i := 0; flood.Err() == nil; i++ {
			_ = nb.Publisher.Publish(cfg.Topic, message.NewMessage(fmt.Sprintf("m-%d-%d", suffix, i), []byte("{}")))
		}
	}()
	received := 0
	for round := range 100 {
		ctx, cancel := context.WithCancel(t.Context())
		ch, err := nb.Subscriber.Subscribe(ctx, cfg.Topic)
		if err != nil {
			t.Fatal(err)
		}
		for range round % 2 { // take one or none, acking it, then end mid-flow
			select {
			case msg := <-ch:
				msg.Ack()
				received++
			case <-time.After(10 * time.Second):
				t.Fatalf("round %d: no message within 10 s", round)
			}
		}
		cancel()
		deadline := time.After(10 * time.Second)
	drain:
		for {
			select {
			case msg, ok := <-ch:
				if !ok {
					break drain
				}
				msg.Nack()
			case <-deadline:
				t.Fatalf("round %d: the subscription's channel never closed", round)
			}
		}
	}
	if received == 0 {
		t.Fatal("no message was received")
	}
}
