// Package esdb is Arbiter's event store on EventStoreDB (KurrentDB), through the gRPC
// client github.com/EventStore/EventStore-Client-Go/v4, for deployments that already run
// it or want its replication.
//
// The port asks for more than ESDB gives by itself: global positions 1, 2, 3... without
// a gap, a hash chain across the whole store, a head signed in the same commit as the
// events, and event IDs unique across every stream. ESDB orders $all by byte offsets and
// writes one stream atomically, never two. So every append goes first, whole, to one
// log stream at the expected revision head-1: that single stream is the serialization
// point, the log revision of an event is its position minus one, and the last event of
// each log append carries the signed head. Then the events are written to their own
// ESDB stream (one per Arbiter stream) at the expected revision, with IDs derived from
// Arbiter's, so that any process can finish an append whose writer died between the two
// writes, and a second write of the same events is a no-op in ESDB. An append reaches
// the log only once the one before it is in its streams, so $all, filtered on the
// store's prefix, holds the events in position order from one append to the next.
// Reads of a stream read its ESDB stream; ReadAll and Subscribe read $all through a
// server-side filter on the prefix. docs/esdb.md has the layout, the costs and how the
// conformance suite runs against a cluster.
//
// Its tests run the conformance suite against the server named by ARBITER_ESDB_URL (for
// example esdb://127.0.0.1:2113?tls=false); they skip when it is unset.
package esdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

type config struct {
	signer    eventstore.Signer
	namespace string
	maxBatch  int
	maxBytes  int
}

// Option configures Open.
type Option func(*config)

// WithSigner signs the store's head in every append to the log (see eventstore.Head).
// Every process appending to one store must sign with the same key.
func WithSigner(s eventstore.Signer) Option { return func(c *config) { c.signer = s } }

// WithNamespace names the store's streams "<namespace>.<stream>" and its log
// "<namespace>:log" (default "arbiter"), so that several stores share one database.
// The URL's namespace parameter sets it too.
func WithNamespace(ns string) Option { return func(c *config) { c.namespace = ns } }

// WithMaxBatch bounds the appends written to the log in one ESDB append (default 64).
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = max(n, 1) } }

// WithMaxAppendBytes bounds the payload and metadata bytes of one ESDB append (default
// 960 KiB, under the server's default MaxAppendSize of 1 MiB); a single Arbiter append
// larger than this is still written in one. See docs/esdb.md.
func WithMaxAppendBytes(n int) Option { return func(c *config) { c.maxBytes = max(n, 1) } }

// Store is an eventstore.Store on an EventStoreDB database.
type Store struct {
	client backend
	n      names
	signer eventstore.Signer
	bytes  int
	queue  *groupcommit.Queue

	// mu guards st: the committer holds it for a batch, and readers that need the head
	// hold it while they catch up with the log.
	mu sync.Mutex
	st *state

	closed atomic.Bool
	done   context.Context // ends at Close, and with it every subscription
	stop   context.CancelFunc
}

var _ eventstore.Store = (*Store)(nil)

// Open connects to the database at connection (an ESDB connection string,
// esdb://host:2113?tls=false or esdb+discover://..., with an optional namespace=NAME
// parameter that is Arbiter's), reads the store's log and finishes its last append if
// its writer died before it was in its streams.
func Open(ctx context.Context, connection string, opts ...Option) (*Store, error) {
	rest, ns, err := splitNamespace(connection)
	if err != nil {
		return nil, err
	}
	cfg, err := configure(ns, opts)
	if err != nil {
		return nil, err
	}
	conf, err := kdb.ParseConnectionString(rest)
	if err != nil {
		return nil, fmt.Errorf("esdb: the connection string does not parse: %w", err)
	}
	conf.Logger = logToSlog
	client, err := kdb.NewClient(conf)
	if err != nil {
		return nil, fmt.Errorf("esdb: %w", err)
	}
	return open(ctx, grpc{client}, cfg)
}

// open opens the store of cfg on b.
func open(ctx context.Context, b backend, cfg config) (*Store, error) {
	done, stop := context.WithCancel(context.Background())
	s := &Store{client: b, n: names{cfg.namespace}, signer: cfg.signer, bytes: cfg.maxBytes, st: newState(), done: done, stop: stop}
	s.mu.Lock()
	err := s.catchUp(ctx)
	s.mu.Unlock()
	if err != nil {
		stop()
		b.close()
		return nil, fmt.Errorf("esdb: reading the log %s: %w", s.n.log(), err)
	}
	s.queue = groupcommit.New(s.commit, cfg.maxBatch)
	return s, nil
}

func configure(ns string, opts []Option) (config, error) {
	cfg := config{namespace: "arbiter", maxBatch: 64, maxBytes: 960 << 10}
	if ns != "" {
		cfg.namespace = ns
	}
	for _, o := range opts {
		o(&cfg)
	}
	if !validNamespace.MatchString(cfg.namespace) {
		return cfg, fmt.Errorf("esdb: namespace %q: use 1 to 64 letters, digits or _", cfg.namespace)
	}
	return cfg, nil
}

// splitNamespace takes Arbiter's namespace parameter out of an ESDB connection string,
// whose parser refuses settings it does not know. It cannot use net/url on the whole
// string: a cluster's hosts (a:2113,b:2113) are not a URL's host.
func splitNamespace(connection string) (rest, ns string, err error) {
	base, query, ok := strings.Cut(connection, "?")
	if !ok {
		return connection, "", nil
	}
	var kept []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.EqualFold(k, "namespace") {
			kept = append(kept, kv)
			continue
		}
		if ns, err = url.QueryUnescape(v); err != nil {
			return "", "", fmt.Errorf("esdb: the namespace parameter: %w", err)
		}
	}
	if len(kept) == 0 {
		return base, ns, nil
	}
	return base + "?" + strings.Join(kept, "&"), ns, nil
}

// logToSlog passes the client's warnings and errors to slog, and its chatter (every
// discovery attempt) to slog's debug level.
func logToSlog(level kdb.LogLevel, format string, args ...any) {
	lvl := slog.LevelDebug
	if level == kdb.LogWarn || level == kdb.LogError {
		lvl = slog.LevelWarn
	}
	slog.Log(context.Background(), lvl, "esdb client: "+fmt.Sprintf(format, args...))
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	if err := eventstore.ValidateAppend(stream, expected, events); err != nil {
		return eventstore.AppendResult{}, err
	}
	if s.closed.Load() {
		return eventstore.AppendResult{}, eventstore.ErrClosed
	}
	return s.queue.Submit(ctx, stream, expected, events)
}

// Close implements eventstore.Store: queued appends are written, subscriptions end, the
// connection closes.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.queue.Close()
	s.stop()
	return s.client.close()
}

// closedErr reports a failure that raced with Close as ErrClosed.
func (s *Store) closedErr(err error) error {
	if s.closed.Load() {
		return eventstore.ErrClosed
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("esdb: %w", err)
}
