package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
)

// natsSubscriber is a Watermill subscriber of a NATS JetStream subject. It replaces
// watermill-nats's: that one (v2.1.3) may send a message on a subscription's output
// channel after closing it, when the message arrives while the subscription ends, and
// the panic, in the NATS client's goroutine, takes the process down. Here a subscription
// ends in order: its callbacks stop waiting, it unsubscribes, it waits for a callback
// still running, and only then closes its channel. Messages are read with watermill-nats's
// own unmarshaler, so they are those of its publisher.
type natsSubscriber struct {
	conn    *nats.Conn
	js      nats.JetStreamContext
	opts    []nats.SubOpt
	ackWait time.Duration
	decode  wmnats.Unmarshaler
	log     *slog.Logger

	mu      sync.Mutex
	closed  bool
	closing chan struct{}
	open    sync.WaitGroup // subscriptions not yet ended
}

var _ message.Subscriber = (*natsSubscriber)(nil)

func newNATSSubscriber(url string, options []nats.Option, subOpts []nats.SubOpt, ackWait time.Duration, log *slog.Logger) (*natsSubscriber, error) {
	conn, err := nats.Connect(url, options...)
	if err != nil {
		return nil, err
	}
	js, err := conn.JetStream()
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &natsSubscriber{
		conn: conn, js: js, opts: subOpts, ackWait: ackWait, decode: &wmnats.NATSMarshaler{},
		log: log, closing: make(chan struct{}),
	}, nil
}

// Subscribe delivers the subject's messages, one at a time, until ctx ends or the
// subscriber closes; a message acked is acked to JetStream, one nacked is redelivered.
func (s *natsSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("bus: the NATS subscriber is closed")
	}
	s.open.Add(1)
	s.mu.Unlock()

	output := make(chan *message.Message)
	done := make(chan struct{})
	var (
		running sync.RWMutex // held for reading by each callback, for writing by the end
		ended   bool
	)
	deliver := func(m *nats.Msg) {
		running.RLock()
		defer running.RUnlock()
		if ended {
			return
		}
		msg, err := s.decode.Unmarshal(m)
		if err != nil {
			s.log.Error("bus: a NATS message cannot be read; dropped", "subject", m.Subject, "err", err)
			_ = m.Term()
			return
		}
		mctx, cancel := context.WithCancel(ctx)
		defer cancel()
		msg.SetContext(mctx)
		select {
		case output <- msg:
		case <-done:
			return
		}
		timeout := time.NewTimer(s.ackWait)
		defer timeout.Stop()
		select {
		case <-msg.Acked():
			if err := m.AckSync(); err != nil {
				s.log.Warn("bus: acking a NATS message failed; it will come again", "err", err)
			}
		case <-msg.Nacked():
			_ = m.Nak()
		case <-timeout.C:
		case <-done:
		}
	}
	sub, err := s.js.Subscribe(topic, deliver, s.opts...)
	if err != nil {
		s.open.Done()
		return nil, fmt.Errorf("bus: subscribing to %s: %w", topic, err)
	}
	go func() {
		defer s.open.Done()
		select {
		case <-ctx.Done():
		case <-s.closing:
		}
		close(done) // a callback waiting to deliver or for an ack gives up
		if err := sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			s.log.Warn("bus: unsubscribing from NATS failed", "err", err)
		}
		running.Lock() // waits for a callback still running
		ended = true
		running.Unlock()
		close(output)
	}()
	return output, nil
}

// Close ends every subscription, then the connection.
func (s *natsSubscriber) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	s.open.Wait()
	s.conn.Close()
	return nil
}
