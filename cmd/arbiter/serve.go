package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/headlog"
	"github.com/arbiter-games/arbiter/graph"
	"github.com/arbiter-games/arbiter/projections/singlewriter"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/serverkey"
	snapfile "github.com/arbiter-games/arbiter/snapshot"
)

func init() {
	register("serve", "run the server: the web client at /, the API at /graphql, GraphiQL at /graphiql/", serve)
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	db := fs.String("db", "", "event store: a file, a postgres:// URL or an esdb:// connection string (default $ARBITER_DB, else "+defaultDB+")")
	busURL := fs.String("bus", os.Getenv("ARBITER_BUS"), "event bus: gochannel (in-process, the default) or a nats:// URL (default $ARBITER_BUS)")
	claimAfter := fs.Duration("claim-after", time.Duration(match.DefaultAbandon.ClaimAfterMs)*time.Millisecond, "how long a player who left a live match may be away before an opponent may claim the win (for matches created from now on)")
	rate := fs.Float64("rate", 0, "requests per second allowed to each caller (a player, or an address without a valid token, an IPv6 one by its /64) at /graphql, each websocket operation counting as one; 0 for no limit")
	burst := fs.Int("burst", 0, "requests a caller may make at once above --rate (default: the rate)")
	archiveAfter := offDuration(defaultArchiveAfter)
	fs.Var(&archiveAfter, "archive-after", "how long a finished match keeps its board in the server's memory; after that it is read from the store when asked (off: kept for good)")
	keys := addKeyFlags(fs)
	forfeitAfter := fs.Duration("forfeit-after", time.Duration(match.DefaultAbandon.ForfeitAfterMs)*time.Millisecond, "how long a player who left a live match may be away before it forfeits")
	abortAfter := fs.Duration("abort-after", time.Duration(match.DefaultAbandon.FirstMovesMs)*time.Millisecond, "how long after its start a live match waits for every seat's first move before it is aborted, with no result and no rating change (0: never; for matches created from now on)")
	registrations := fs.Int("registrations-per-hour", 20, "players registerPlayer may create from one address (an IPv6 /64) in any hour; beyond, RATE_LIMITED with a retry-after (0: no limit)")
	botForfeitAfter := fs.Duration("bot-forfeit-after", time.Duration(match.DefaultAbandon.BotForfeitAfterMs)*time.Millisecond, "how long a player who left a live match against the bot alone may be away before it forfeits (for matches created from now on)")
	wsPerPlayer := fs.Int("ws-per-player", 8, "websockets one player may hold open at once on this node (each with up to 100 subscriptions); the next is refused with close code 1013")
	wsPerAddress := fs.Int("ws-per-address", 32, "websockets without a token one address (an IPv6 /64) may hold open at once on this node, and apart from them websockets awaiting their connection_init; behind a proxy every client has the proxy's address")
	allowOrigin := fs.String("allow-origin", "", "browser origins allowed to call the API from other sites, comma-separated (https://app.example.com,https://other.example); * for any; default none but the server's own")
	readTimeout := fs.Duration("read-timeout", 30*time.Second, "how long a client may take to send a whole request")
	writeTimeout := fs.Duration("write-timeout", 60*time.Second, "how long a request may take from its headers to the end of its answer (websockets have their own limits)")
	idleTimeout := fs.Duration("idle-timeout", 2*time.Minute, "how long an idle keep-alive connection stays open")
	logFormat := fs.String("log-format", "text", "the log's format on stderr: text or json")
	lease := fs.Duration("writer-lease", singlewriter.DefaultLease, "with a postgres:// store: how long the lease of the node writing the shared ratings table lasts after each renewal; a node takes over from a holder that hung once it expires")
	renew := fs.Duration("writer-renew", singlewriter.DefaultRenew, "with a postgres:// store: how often the node writing the shared ratings table renews its lease, and how often the other nodes look for it; under half of --writer-lease")
	snaps := addSnapshotFlags(fs, true)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (the boot, the serving, the stop) to this file (go tool pprof reads it); bench boot passes it after --")
	settle := fs.Bool("settle", true, "run the settlement process, which pays out and releases the coins held for matches; any node may run it, and a node without it leaves the payouts to the others or to its next start")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *readTimeout <= 0 || *writeTimeout <= 0 || *idleTimeout <= 0 {
		return fmt.Errorf("--read-timeout, --write-timeout and --idle-timeout must be above 0 (got %s, %s and %s)", *readTimeout, *writeTimeout, *idleTimeout)
	}
	log, err := newLogger(*logFormat, stderr)
	if err != nil {
		return err
	}
	if *rate < 0 || *burst < 0 {
		return fmt.Errorf("--rate and --burst must be 0 or more (got %g and %d)", *rate, *burst)
	}
	if *wsPerPlayer < 1 || *wsPerPlayer > maxWebsocketCap || *wsPerAddress < 1 || *wsPerAddress > maxWebsocketCap {
		return fmt.Errorf("--ws-per-player and --ws-per-address must be from 1 to %d (got %d and %d)", maxWebsocketCap, *wsPerPlayer, *wsPerAddress)
	}
	if *claimAfter <= 0 || *forfeitAfter < *claimAfter {
		return fmt.Errorf("--claim-after must be above 0 and --forfeit-after at least as long (got %s and %s)", *claimAfter, *forfeitAfter)
	}
	if *botForfeitAfter <= 0 {
		return fmt.Errorf("--bot-forfeit-after must be above 0 (got %s)", *botForfeitAfter)
	}
	if *abortAfter < 0 || *registrations < 0 {
		return fmt.Errorf("--abort-after and --registrations-per-hour must be 0 or more (got %s and %d)", *abortAfter, *registrations)
	}
	if *snaps.every < 0 || *snaps.interval < 0 {
		return fmt.Errorf("--snapshot-every and --snapshot-interval must be 0 (only on a graceful stop) or more (got %d and %s)", *snaps.every, *snaps.interval)
	}
	if *lease <= 0 || *renew <= 0 || 2**renew >= *lease {
		return fmt.Errorf("--writer-renew must be above 0 and under half of --writer-lease, so that one renewal may be missed (got %s and %s)", *renew, *lease)
	}
	abandon := &match.Abandon{ClaimAfterMs: claimAfter.Milliseconds(), ForfeitAfterMs: forfeitAfter.Milliseconds(), BotForfeitAfterMs: botForfeitAfter.Milliseconds(), FirstMovesMs: abortAfter.Milliseconds()}
	stopProfile, err := startCPUProfile("--cpuprofile", *cpuProfile)
	if err != nil {
		return err
	}
	defer func() {
		if err := stopProfile(); err != nil {
			log.Error("the CPU profile was not written", "err", err)
		}
	}()
	// The log package's lines (gqlgen's, a library's) go through the same log.
	slog.SetDefault(log)

	// Listen first: a taken port is reported before the store (or its key) is opened or created.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w (choose another with --addr)", *addr, err)
	}
	defer ln.Close()
	if err := checkDB(dbPath(*db)); err != nil {
		return err
	}
	holder := nodeHolder(fmt.Sprintf("arbiter serve of %s on http://%s/", describeStore(dbPath(*db)), ln.Addr()))
	if !isServer(dbPath(*db)) {
		// An SQLite file has one server, whatever the snapshots (a second would append
		// beside it and write the same head log): taken first, so that a refused serve
		// writes nothing, and released last, once the store is closed.
		lock, err := lockStore(dbPath(*db), holder)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	snapshots := snapshotDir(*snaps.dir, dbPath(*db))
	if snapshots != "" {
		// The node's own files have one writer at a time (not a second serve, nor `arbiter
		// snapshot`): taken before the store is opened, so that a refused serve writes nothing.
		lock, err := lockNode(snapshots, holder,
			"each server needs a directory of snapshots of its own: stop that server, or give this one another --snapshots")
		if err != nil {
			return err
		}
		defer lock.Release() // after a.stop, deferred below, has written the last snapshot
		// A server killed while it wrote a snapshot left its temporary file, which the
		// next write would remove: a boot with the lock is the directory's one writer too.
		removed, err := snapfile.RemoveTemporary(snapshots)
		if err != nil {
			return err
		}
		if len(removed) > 0 {
			log.Info("removed the temporary files of snapshots a killed server did not finish", "removed", removed)
		}
	}
	keyFile, logFile, _ := keys.paths(dbPath(*db))
	key, created, err := signingKey(keyFile)
	if err != nil {
		return err
	}
	if created {
		log.Info("created the server key: keep it apart from the store and back it up; without it the store's signed heads cannot be checked", "key", keyFile, "fingerprint", serverkey.Fingerprint(key.Public()))
	}
	logged, _, err := loggedHeads(logFile, false)
	if err != nil {
		return err
	}
	store, err := openSigned(ctx, dbPath(*db), key)
	if err != nil {
		return whatToDo(err)
	}
	defer store.Close()
	if err := eventstore.CheckHead(ctx, store); err != nil {
		return whatToDo(fmt.Errorf("the event store %s cannot take writes: %w", describeStore(dbPath(*db)), err))
	}
	if err := replay.CheckSignedHead(ctx, store, key.Public(), logged); err != nil {
		return fmt.Errorf("refusing to serve the store: %w", err)
	}
	// The head log: every second, the head the store signed, outside the store. It stops
	// after the server (deferred before a.stop, so it runs after) and logs the last head.
	keepCtx, stopKeeping := context.WithCancel(context.WithoutCancel(ctx))
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		said := "" // a failure that lasts (a full disk) is logged once, not every second
		err := headlog.Keep(keepCtx, store, logFile, time.Second, func(err error) {
			if err.Error() != said {
				said = err.Error()
				log.Error("the head log missed a head: until it is written again, a rollback of the store will not be seen by verify", "log", logFile, "err", err)
			}
		})
		if err != nil {
			log.Error("the head log stopped: a rollback of the store will not be seen by verify", "log", logFile, "err", err)
		}
	}()
	defer func() { stopKeeping(); <-kept }()
	limits := graph.Limits{RatePerSecond: *rate, RateBurst: *burst, RegistrationsPerHour: *registrations, AllowOrigins: splitList(*allowOrigin), Log: log,
		WebsocketsPerPlayer: *wsPerPlayer, WebsocketsPerAddress: *wsPerAddress}
	a, err := startApp(ctx, store, appConfig{busURL: *busURL, abandon: abandon, archiveAfter: time.Duration(archiveAfter), limits: limits, noSettle: !*settle, sharedDB: sharedDB(dbPath(*db)), lease: *lease, renew: *renew, key: key,
		snapshots: snapshots, snapshotEvery: *snaps.every, snapshotInterval: *snaps.interval}, log)
	if err != nil {
		return whatToDo(err)
	}
	defer a.stop()

	srv := &http.Server{
		Handler:           accessLog(log, a.handler()),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       *readTimeout,
		WriteTimeout:      *writeTimeout,
		IdleTimeout:       *idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	// The first line names the URL to open: the web client (tests read it to find the port).
	fmt.Fprintf(stdout, "Arbiter is serving %s on http://%[2]s/ (open it in a browser to play; GraphQL at http://%[2]s/graphql, GraphiQL at http://%[2]s/graphiql/)\n", describeStore(dbPath(*db)), ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// maxWebsocketCap bounds --ws-per-player and --ws-per-address: a million sockets is more
// than a node's file descriptors, and a refusal's reason names the cap in the 123 bytes of
// a close frame.
const maxWebsocketCap = 1_000_000

// whatToDo adds to the error of a damaged store what an operator can do about it.
func whatToDo(err error) error {
	if errors.Is(err, eventstore.ErrDamaged) {
		return fmt.Errorf("%w; restore the store from a backup, or run `arbiter verify` with the same --db to see what is damaged", err)
	}
	return err
}

// describeStore names a store for a log line without its credentials.
func describeStore(path string) string {
	u, err := url.Parse(path)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return path
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// sharedDB is the database of the read models that one node of a cluster writes for all:
// the store's own PostgreSQL database; none for another store.
func sharedDB(path string) string {
	if isPostgres(path) {
		return path
	}
	return ""
}

// offDuration is a duration flag that also takes "off", held as a negative duration (a
// negative one is off too).
type offDuration time.Duration

func (d *offDuration) String() string {
	if *d < 0 {
		return "off"
	}
	return time.Duration(*d).String()
}

func (d *offDuration) Set(s string) error {
	if s == "off" {
		*d = -1
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("a duration or off: %w", err)
	}
	*d = offDuration(v)
	return nil
}
