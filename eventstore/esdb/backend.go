package esdb

import (
	"context"
	"errors"
	"fmt"
	"io"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"
)

// backend is what the adapter asks of ESDB: three calls of its client, with the client's
// errors turned into this package's (errWrongRevision; a stream that does not exist reads
// empty). The client is the one backend that ships; the tests also run the adapter on a
// model of ESDB's documented semantics (memesdb_test.go), since no server runs there.
type backend interface {
	// append writes events to stream, atomically, if the stream is at expected; an
	// exact expected revision at which the same event IDs are stored already is the same
	// write, which succeeds and stores nothing. A wrong revision wraps errWrongRevision.
	append(ctx context.Context, stream string, expected kdb.ExpectedRevision, events []kdb.EventData) error
	// read returns up to count events of stream as opts says; none for a stream with none.
	read(ctx context.Context, stream string, opts kdb.ReadStreamOptions, count uint64) ([]*kdb.RecordedEvent, error)
	// subscribeAll opens a catch-up subscription to $all, after from, through filter.
	subscribeAll(ctx context.Context, from kdb.AllPosition, filter *kdb.SubscriptionFilter) (allSubscription, error)
	close() error
}

// allSubscription is a running subscription to $all.
type allSubscription interface {
	// next waits for the next event, or returns why the subscription ended.
	next() (*kdb.RecordedEvent, error)
	close()
}

// errWrongRevision is ESDB's refusal of an append on its expected revision.
var errWrongRevision = errors.New("esdb: wrong expected revision")

// grpc is the backend on the client.
type grpc struct{ c *kdb.Client }

func (g grpc) append(ctx context.Context, stream string, expected kdb.ExpectedRevision, events []kdb.EventData) error {
	_, err := g.c.AppendToStream(ctx, stream, kdb.AppendToStreamOptions{ExpectedRevision: expected}, events...)
	if isCode(err, kdb.ErrorCodeWrongExpectedVersion) {
		return fmt.Errorf("%w: %w", errWrongRevision, err)
	}
	return err
}

func (g grpc) read(ctx context.Context, stream string, opts kdb.ReadStreamOptions, count uint64) ([]*kdb.RecordedEvent, error) {
	rs, err := g.c.ReadStream(ctx, stream, opts, count)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []*kdb.RecordedEvent
	for {
		ev, err := rs.Recv()
		switch {
		case errors.Is(err, io.EOF):
			return out, nil
		case notFound(err):
			return nil, nil
		case err != nil:
			return nil, err
		}
		out = append(out, ev.OriginalEvent())
	}
}

func (g grpc) subscribeAll(ctx context.Context, from kdb.AllPosition, filter *kdb.SubscriptionFilter) (allSubscription, error) {
	sub, err := g.c.SubscribeToAll(ctx, kdb.SubscribeToAllOptions{From: from, Filter: filter})
	if err != nil {
		return nil, err
	}
	return grpcSubscription{sub}, nil
}

func (g grpc) close() error { return g.c.Close() }

type grpcSubscription struct{ s *kdb.Subscription }

func (g grpcSubscription) next() (*kdb.RecordedEvent, error) {
	for {
		ev := g.s.Recv()
		switch {
		case ev.SubscriptionDropped != nil:
			return nil, ev.SubscriptionDropped.Error
		case ev.EventAppeared != nil:
			return ev.EventAppeared.OriginalEvent(), nil
		}
		// A checkpoint, caught up, fell behind: nothing to deliver.
	}
}

func (g grpcSubscription) close() { _ = g.s.Close() }
