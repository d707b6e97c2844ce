package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/arbiter-games/arbiter/bot"
	"github.com/arbiter-games/arbiter/bus"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/esdb"
	"github.com/arbiter-games/arbiter/eventstore/headlog"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/graph"
	"github.com/arbiter-games/arbiter/metrics"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/projections/singlewriter"
	"github.com/arbiter-games/arbiter/serverkey"
	"github.com/arbiter-games/arbiter/settlement"
)

// games is every game this binary hosts: the one place a game is plugged in.
func games() *game.Registry {
	return game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
}

// hostedKey is the context key of hostingGames.
type hostedKey struct{}

// hostingGames is ctx for a server run in a test that hosts reg instead of games(): a
// variant of a game (say, one with a test's own data) played through the real server.
// Nothing but a test sets it, so what the binary serves is games() alone.
func hostingGames(ctx context.Context, reg *game.Registry) context.Context {
	return context.WithValue(ctx, hostedKey{}, reg)
}

// twinKey is the context key of twinOf.
type twinKey struct{}

// twin is what makes two servers in a test twins: one clock and one stream of random
// bytes each, which the test sets alike, so that the same requests make the same IDs,
// seeds, tokens, salts and times.
type twin struct {
	now    func() time.Time
	random io.Reader
}

// twinOf is ctx for a server run in a test whose engine reads now and random instead of
// the system's clock and crypto/rand: two such servers fed the same requests store the
// same bytes, which is how a test shows that a hidden action leaves no trace outside its
// team (nothing but a test sets it).
func twinOf(ctx context.Context, now func() time.Time, random io.Reader) context.Context {
	return context.WithValue(ctx, twinKey{}, twin{now: now, random: random})
}

// hostedGames is the games a server run with ctx hosts.
func hostedGames(ctx context.Context) *game.Registry {
	if reg, ok := ctx.Value(hostedKey{}).(*game.Registry); ok {
		return reg
	}
	return games()
}

// defaultDB is the embedded store's file when neither --db nor ARBITER_DB says otherwise.
const defaultDB = "./arbiter.db"

// dbPath resolves the --db flag against ARBITER_DB and the default.
func dbPath(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if env := os.Getenv("ARBITER_DB"); env != "" {
		return env
	}
	return defaultDB
}

// isPostgres reports whether a store's path is a PostgreSQL URL.
func isPostgres(path string) bool {
	return strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://")
}

// isESDB reports whether a store's path is an EventStoreDB (KurrentDB) connection string.
func isESDB(path string) bool {
	return strings.HasPrefix(path, "esdb://") || strings.HasPrefix(path, "esdb+discover://")
}

// isServer reports whether a store's path names a database server; any other is an SQLite
// file.
func isServer(path string) bool { return isPostgres(path) || isESDB(path) }

// checkDB refuses a --db that is a URL of another kind than a server's: taken for a file
// name, it would fail late, in SQLite's words, after the server key was created for it.
func checkDB(path string) error {
	if strings.Contains(path, "://") && !isServer(path) {
		return fmt.Errorf("--db %s: the event store is an SQLite file path or a postgres:// (postgresql://) URL, or an esdb:// (esdb+discover://) connection string", describeStore(path))
	}
	return nil
}

// openStore opens the event store with the server key of its default place (created if
// there is none yet), as serve does without --key.
func openStore(ctx context.Context, path string) (eventstore.Store, error) {
	if err := checkDB(path); err != nil {
		return nil, err
	}
	key, _, err := signingKey(keyPath("", path))
	if err != nil {
		return nil, err
	}
	return openSigned(ctx, path, key)
}

// openSigned opens the event store, which signs its head with signer at every commit (nil
// for a store that is only read): a PostgreSQL database for a postgres:// URL, an
// EventStoreDB database for an esdb:// connection string, else an SQLite file, which
// opts tune (sqlite.WithoutMigration for a tool that only reads).
func openSigned(ctx context.Context, path string, signer eventstore.Signer, opts ...sqlite.Option) (eventstore.Store, error) {
	if err := checkDB(path); err != nil {
		return nil, err
	}
	if isESDB(path) {
		// ?namespace=NAME keeps several stores in one database; the adapter takes it out.
		s, err := esdb.Open(ctx, path, esdb.WithSigner(signer))
		if err != nil {
			return nil, fmt.Errorf("opening the EventStoreDB event store %s: %w", describeStore(path), err)
		}
		return s, nil
	}
	if isPostgres(path) {
		url, schema, err := splitSchema(path)
		if err != nil {
			return nil, err
		}
		opts := []postgres.Option{postgres.WithSigner(signer)}
		if schema != "" {
			opts = append(opts, postgres.WithSchema(schema))
		}
		s, err := postgres.Open(ctx, url, opts...)
		if err != nil {
			return nil, fmt.Errorf("opening the PostgreSQL event store: %w", err)
		}
		return s, nil
	}
	s, err := sqlite.Open(ctx, path, append([]sqlite.Option{sqlite.WithSigner(signer)}, opts...)...)
	if nm := (*sqlite.NotMigratedError)(nil); errors.As(err, &nm) {
		return nil, fmt.Errorf("the event store %s: %w; this command only reads a store and left the file as it is. "+
			"To migrate it, stop the server that uses it, back the file up (sqlite3 %s \".backup %s\") and run `arbiter serve --db %s`, "+
			"which migrates it as it opens it (docs/operations.md, \"Upgrading a file of an older schema version\"); the build that wrote it reads it as it is",
			path, nm, path, backupName(path, nm.Version), path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the event store %s: %w", path, err)
	}
	return s, nil
}

// backupName is where the message of an unmigrated file suggests its backup: beside it,
// named for the schema version it keeps.
func backupName(path string, version int64) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + "-v" + strconv.FormatInt(version, 10) + filepath.Ext(path)
}

// splitSchema takes ?schema=NAME, which keeps several stores in one database, out of a
// PostgreSQL URL: pgx must not see it. schema is "" when the URL names none.
func splitSchema(path string) (url, schema string, err error) {
	u, err := neturl.Parse(path)
	if err != nil {
		return "", "", fmt.Errorf("the PostgreSQL URL does not parse: %w", err)
	}
	q := u.Query()
	schema = q.Get("schema")
	q.Del("schema")
	u.RawQuery = q.Encode()
	return u.String(), schema, nil
}

// sharedRatings is the writer of the ratings table that the nodes of a cluster on the
// PostgreSQL store at cfg.sharedDB share (projections/singlewriter): one node writes it
// at a time, in the schema "<the store's schema>_read" (arbiter_read by default).
func sharedRatings(cfg appConfig, store eventstore.Store, reg *game.Registry, log *slog.Logger) (*singlewriter.Writer, error) {
	url, schema, err := splitSchema(cfg.sharedDB)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	return singlewriter.New(singlewriter.Config{
		URL: url, Schema: cmp.Or(schema, "arbiter") + "_read", Store: store, Logger: log,
		Node: fmt.Sprintf("%s/%d", host, os.Getpid()), Lease: cfg.lease, Renew: cfg.renew,
		New: func() singlewriter.Model {
			m := singlewriter.NewRatings(reg)
			if cfg.archiveAfter >= 0 { // as the node's own ratings (readSide)
				m.ArchiveRecords(cfg.archiveAfter, store)
			}
			return m
		},
	})
}

// app is a running Arbiter: the store, the engine, the read side fed over the bus, and
// the API's resolver.
type app struct {
	store    eventstore.Store
	engine   *engine.Engine
	matches  *projections.Matches
	ratings  *projections.Ratings
	cards    *projections.CardsPlayed
	economy  *projections.Economy
	choices  *projections.Choices
	disputes *projections.Disputes
	public   *projections.PublicHead // what /signed-head signs
	key      *serverkey.Key          // signs it; nil signs none
	settle   *settlement.Process
	metrics  *metrics.Registry
	limits   graph.Limits
	follower *bus.Follower
	relay    *bus.Relay
	resolver *graph.Resolver
	wg       sync.WaitGroup
	cancel   context.CancelFunc
	closeBus func() error
	// archive is the lobby's index of archived matches (projections.ArchiveFile), nil
	// when nothing is archived (--archive-after off).
	archive *projections.ArchiveFile
	// lastSnapshot writes the snapshot of a graceful stop; nil for none.
	lastSnapshot func()
	// snapshotAt is the matches' position in the last snapshot read or written, -1 for none,
	// and snapshotArchived how many matches it had archived: a stop with nothing applied or
	// archived since writes none.
	snapshotAt, snapshotArchived atomic.Int64
}

// noteSnapshot records what the snapshot just read or written holds: the matches' position
// at and archived archived matches.
func (a *app) noteSnapshot(at int64, archived int) {
	a.snapshotAt.Store(at)
	a.snapshotArchived.Store(int64(archived))
}

// snapshotStale reports whether the read models moved on since the last snapshot: events
// applied, or matches archived by the clock (which applies no event). A snapshot that
// misses the archived matches would have the next boot cut the archive index back to its
// rows and archive them all again.
func (a *app) snapshotStale() bool {
	_, archived := a.matches.Count()
	return a.matches.Checkpoint() != a.snapshotAt.Load() || int64(archived) != a.snapshotArchived.Load()
}

// defaultArchiveAfter is serve's --archive-after.
const defaultArchiveAfter = 10 * time.Minute

// appConfig is what serve's flags choose.
type appConfig struct {
	busURL       string         // "" or gochannel: in-process; nats://...: NATS JetStream
	abandon      *match.Abandon // the rule for players who leave; nil for the default
	archiveAfter time.Duration  // how long a finished match keeps its board in memory
	limits       graph.Limits   // what one request, and one caller, may cost
	noSettle     bool           // this node leaves the settlement process to others (--settle=false)
	// sharedDB is the PostgreSQL store's URL, whose database also holds the read models
	// that one node of the cluster writes for all (the ratings table); "" for none.
	sharedDB string
	// lease and renew are the shared ratings writer's lease and renewal period
	// (singlewriter.Config); 0 for the defaults.
	lease, renew time.Duration
	key          *serverkey.Key // the server's key, which signs receipts; nil signs none
	// snapshots is the directory of the read side's snapshots ("" for none): the boot reads
	// the newest that fits, and the server writes one every snapshotEvery events or
	// snapshotInterval (0: neither), and when it stops.
	snapshots        string
	snapshotEvery    int64
	snapshotInterval time.Duration
}

// startApp wires everything on a store: it rebuilds the read side from the store, then
// keeps it fed by a relay (store -> Watermill) and a follower (Watermill -> projections
// and subscription hub) that heals any gap from the store.
func startApp(ctx context.Context, store eventstore.Store, cfg appConfig, log *slog.Logger) (*app, error) {
	reg := hostedGames(ctx)
	figures := metrics.New()
	tw, _ := ctx.Value(twinKey{}).(twin)
	a := &app{
		store:   store,
		metrics: figures,
		limits:  cfg.limits,
		engine:  engine.New(engine.Config{Store: store, Games: reg, Logger: log, Abandon: cfg.abandon, Observer: figures, Now: tw.now, Random: tw.random}),
	}
	if cfg.archiveAfter >= 0 {
		f, err := openArchiveFile(ctx, cfg.snapshots, log)
		if err != nil {
			return nil, err
		}
		a.archive = f
	}
	ok := false
	defer func() {
		if !ok && a.archive != nil {
			a.archive.Close()
		}
	}()
	a.readSide(reg, cfg, log)
	a.key = cfg.key
	if err := a.restoreSnapshot(ctx, reg, cfg, log); err != nil {
		return nil, err
	}
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the store's head: %w", err)
	}
	from := lowestCheckpoint(asProjections(a.stored())) // the snapshot's, or 0
	log.Info("rebuilding the read side", "events", head-from, "after", from, "head", head)
	start := time.Now()
	restore := lessGC()
	err = projections.Rebuild(ctx, store, nil, a.matches, a.cards, a.economy, a.choices, a.disputes, a.public, a.settle) // from the snapshot's positions, if any
	restore()
	if err != nil {
		return nil, err
	}
	log.Info("rebuilt the read side", "events", head-from, "took", time.Since(start).Round(time.Millisecond))
	hub := graph.NewHub()
	timers := a.engine.NewTimers()
	bots := bot.NewRunner(a.engine, log) // plays the house bot's turns
	live, err := a.matches.List(ctx, projections.Filter{Status: match.Live})
	if err != nil {
		return nil, err
	}
	for _, v := range live {
		timers.Track(v.ID, v.State.Deadline(v.Rules))
		bots.Track(v.ID, v.Rules, v.State)
	}
	checkpoint := a.matches.Checkpoint()
	eb, err := openBus(ctx, cfg.busURL, log)
	if err != nil {
		return nil, err
	}
	a.closeBus = eb.close
	relay, err := bus.NewRelay(bus.RelayConfig{Source: store, Publisher: eb.pub, Topic: eb.topic, After: checkpoint, Logger: log})
	if err != nil {
		return nil, err
	}
	a.relay = relay
	a.follower, err = bus.NewFollower(bus.FollowerConfig{
		Store: store, Subscriber: eb.sub, Topic: eb.topic, After: checkpoint, Logger: log,
		Handler: func(ctx context.Context, ev eventstore.Event) error {
			if err := a.matches.Apply(ev); err != nil {
				return err
			}
			if err := a.cards.Apply(ev); err != nil {
				return err
			}
			if err := a.economy.Apply(ev); err != nil {
				return err
			}
			if err := a.choices.Apply(ev); err != nil {
				return err
			}
			if err := a.disputes.Apply(ev); err != nil {
				return err
			}
			if err := a.public.Apply(ev); err != nil {
				return err
			}
			if err := a.settle.Apply(ev); err != nil {
				return err
			}
			if id, ok := strings.CutPrefix(ev.Stream, "match-"); ok {
				// An event's match is in memory, unless it ended with this event and was
				// archived at once (--archive-after 0): then it is read back.
				v, err := a.matches.Get(ctx, id)
				if err != nil {
					return err
				}
				if v != nil {
					timers.Track(id, v.State.Deadline(v.Rules))
					bots.Track(id, v.Rules, v.State)
				}
			}
			return hub.Apply(ctx, ev)
		},
	})
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.cancel = cancel
	runs := map[string]func(context.Context) error{"relay": relay.Run, "follower": a.follower.Run, "timers": timers.Run, "bot": bots.Run, "archiver": a.matches.RunArchiver, "settlement": a.settle.Run}
	if cfg.noSettle {
		delete(runs, "settlement")
	}
	if cfg.snapshots != "" {
		runs["snapshots"] = a.runSnapshots(cfg, log)
		a.lastSnapshot = func() {
			if a.snapshotStale() {
				a.writeSnapshot(context.WithoutCancel(ctx), cfg.snapshots, log, nil)
			}
		}
	}
	if cfg.sharedDB != "" {
		w, err := sharedRatings(cfg, store, reg, log)
		if err != nil {
			return nil, err
		}
		runs["ratings writer"] = w.Run
	}
	for name, run := range runs {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := run(runCtx); err != nil && runCtx.Err() == nil {
				log.Error("stopped", "component", name, "err", err)
			}
		}()
	}
	a.gauges(hub)
	presence := graph.NewPresence(ctx, log)
	if cfg.abandon != nil { // a short claim wait (tests) gets a shorter grace
		presence.Grace = min(graph.DefaultGrace, time.Duration(cfg.abandon.ClaimAfterMs)*time.Millisecond/4)
	}
	a.resolver = &graph.Resolver{Engine: a.engine, Lobby: a.matches, Elo: a.ratings, Cards: a.cards, Economy: a.economy, Choices: a.choices, DisputeBook: a.disputes, ReadPos: a.follower, Hub: hub, Presence: presence, Key: cfg.key}
	ok = true
	return a, nil
}

// lessGC lets the heap grow to five times its live size (GOGC=400), rather than twice,
// until restore is called, unless the garbage collector was set off. A rebuild allocates
// fast and keeps little: collected four times less often, it took about a fifth less CPU
// per event for about twice the peak memory (docs/benchmarks.md, issue 18). Rebuilds at
// once (tests start several servers in one process) share the setting until the last ends.
func lessGC() (restore func()) {
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcRebuilds == 0 {
		gcWas = debug.SetGCPercent(-1)
		debug.SetGCPercent(max(gcWas, 4*gcWas)) // a negative percent (off) stays off
	}
	gcRebuilds++
	var once sync.Once
	return func() {
		once.Do(func() {
			gcMu.Lock()
			defer gcMu.Unlock()
			if gcRebuilds--; gcRebuilds == 0 {
				debug.SetGCPercent(gcWas)
			}
		})
	}
}

var (
	gcMu       sync.Mutex
	gcRebuilds int // rebuilds under way with lessGC
	gcWas      int // the GC percent before the first of them
)

// stop ends the background work; the caller closes the store.
func (a *app) stop() {
	a.cancel()
	a.wg.Wait()
	a.resolver.Close() // nothing feeds the live subscriptions any more
	if a.lastSnapshot != nil {
		a.lastSnapshot() // the models are still: nothing feeds them any more
	}
	if a.archive != nil {
		_ = a.archive.Close()
	}
	_ = a.closeBus()
}

// openBus returns the bus: Watermill's in-process GoChannel by default, or NATS JetStream
// when url is a nats:// URL (for several server processes sharing one store).
func openBus(ctx context.Context, rawURL string, log *slog.Logger) (eventBus, error) {
	if rawURL == "" || rawURL == "gochannel" {
		g := bus.NewGoChannel(nil)
		return eventBus{g, g, bus.DefaultTopic, g.Close}, nil
	}
	u, err := neturl.Parse(rawURL)
	if err != nil || u.Scheme != "nats" {
		return eventBus{}, fmt.Errorf("--bus %q: use gochannel (the default) or a nats:// URL", rawURL)
	}
	// One store, one topic: servers of another store must not share it, or their
	// followers would see positions that are not theirs. ?topic= and ?stream= choose them.
	q := u.Query()
	cfg := bus.NATSConfig{Stream: q.Get("stream"), Topic: q.Get("topic"), Logger: log}
	if cfg.Topic == "" {
		cfg.Topic = bus.DefaultTopic
	}
	u.RawQuery = ""
	cfg.URL = u.String()
	n, err := bus.NewNATS(ctx, cfg)
	if err != nil {
		return eventBus{}, fmt.Errorf("connecting to the NATS bus %s: %w", cfg.URL, err)
	}
	return eventBus{n.Publisher, n.Subscriber, cfg.Topic, n.Close}, nil
}

// eventBus is the Watermill side of the wiring.
type eventBus struct {
	pub   message.Publisher
	sub   message.Subscriber
	topic string
	close func() error
}

// gauges registers the figures read at each scrape of /metrics.
func (a *app) gauges(hub *graph.Hub) {
	a.metrics.Gauge("arbiter_matches", "Matches the read side holds, by status.", func() []metrics.Sample {
		by, _ := a.matches.Count()
		var out []metrics.Sample
		for _, st := range []match.Status{match.Open, match.Live, match.Finished} {
			out = append(out, metrics.Sample{Labels: []string{"status", string(st)}, Value: float64(by[st])})
		}
		return out
	})
	a.metrics.Gauge("arbiter_matches_archived", "Finished matches whose board was dropped from memory (--archive-after).", metrics.One(func() float64 {
		_, n := a.matches.Count()
		return float64(n)
	}))
	a.metrics.Gauge("arbiter_matches_quarantined", "Matches set aside because their stored events do not replay (see the log, and arbiter verify).", metrics.One(func() float64 {
		return float64(len(a.matches.SetAside()))
	}))
	a.metrics.Gauge("arbiter_read_lag_events", "Events committed to the store that the read side has not applied yet.", metrics.One(func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		head, err := a.store.HeadPosition(ctx)
		if err != nil {
			return math.NaN()
		}
		return float64(max(0, head-a.follower.Position()))
	}))
	a.metrics.Gauge("arbiter_subscriptions", "Subscriptions open on this node.", metrics.One(func() float64 { return float64(hub.Watching()) }))
	a.metrics.Gauge("arbiter_websockets", "Websockets open on this node, by what they count against: awaiting_init and anonymous (their address), player.", func() []metrics.Sample {
		awaiting, anonymous, players := a.resolver.Websockets()
		return []metrics.Sample{
			{Labels: []string{"counted", "awaiting_init"}, Value: float64(awaiting)},
			{Labels: []string{"counted", "anonymous"}, Value: float64(anonymous)},
			{Labels: []string{"counted", "player"}, Value: float64(players)},
		}
	})
	a.metrics.Gauge("arbiter_engine_cached_matches", "Match states the engine holds in memory.", metrics.One(func() float64 { return float64(a.engine.Cached()) }))
}

// handler serves the API (graph.Handler: GraphiQL, /graphql, /healthz), /readyz and
// /metrics.
func (a *app) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", a.metrics)
	mux.HandleFunc("/readyz", a.ready)
	mux.HandleFunc("/signed-head", a.signedHead)
	mux.Handle("/", graph.Handler(a.resolver, a.limits))
	return mux
}

// signedHead answers /signed-head with the head of the store's public chain that the read
// side has reached, signed with the server key, as a line of the head log: whoever
// appends it to a file of their own, away from the server, keeps a head log that `arbiter
// verify --head-log` checks. It is not the store's own head, whose position counts the
// events of hidden streams too (a team's secrets): a spectator polling it could count them.
// A mutation is answered once the read side applied its events, so the head served then
// covers them.
func (a *app) signedHead(w http.ResponseWriter, r *http.Request) {
	var signer eventstore.Signer
	if a.key != nil {
		signer = a.key
	}
	line, err := headlog.Line(a.public.Head(signer))
	if err != nil {
		http.Error(w, "the signed head cannot be read: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(line)
}

// ready answers /readyz: 200 while the store can take the next append (eventstore.CheckHead,
// a few reads) and the relay publishes, else 503 with the reason. /healthz only says that
// the process serves.
func (a *app) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := eventstore.CheckHead(ctx, a.store); err != nil {
		http.Error(w, "not ready: the event store cannot take writes: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	if err := a.relay.Err(); err != nil {
		http.Error(w, "not ready: the event bus does not publish: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}
