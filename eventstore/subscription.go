package eventstore

// Subscription is a running catch-up-then-live subscription. Read Events until it is
// closed, then Err tells why it stopped (nil after the context ended).
type Subscription struct {
	events <-chan Event
	err    func() error
}

// NewSubscription is for adapters: events is closed when the subscription stops, and err
// reports why once it is closed.
func NewSubscription(events <-chan Event, err func() error) *Subscription {
	return &Subscription{events: events, err: err}
}

// Events delivers the events in global order.
func (s *Subscription) Events() <-chan Event { return s.events }

// Err tells why the subscription stopped; call it after Events is closed.
func (s *Subscription) Err() error { return s.err() }
