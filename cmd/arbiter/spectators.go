package main

// `arbiter bench spectators`: a crowd of websocket spectators on live chess matches, and
// what it costs the players and the server (issue 11).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/internal/cputime"
	"github.com/arbiter-games/arbiter/metrics"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// runSpectators is `arbiter bench spectators (--url URL | --serve) [--spectators 1000]
// [--matches 1] [--moves 50] [--rate 5] [--subscription events|updates|both]`.
func runSpectators(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench spectators", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "a running server to load, e.g. http://127.0.0.1:8080 (its /metrics gives the memory figures; start it with --ws-per-address above the spectators, who all connect from this host)")
	serveOwn := fs.Bool("serve", false, "start a server of this binary as a child process, on a new SQLite file in the temporary directory, and load it")
	spectators := fs.Int("spectators", 1000, "websocket subscribers per match, each on its own connection")
	matches := fs.Int("matches", 1, "live chess matches played at once, all by the same two players, each with its own spectators")
	moves := fs.Int("moves", 50, "moves (plies) played in each match")
	rate := fs.Float64("rate", 5, "moves per second in each match (a player waits for its move's answer before the next)")
	kinds := fs.String("subscription", "both", "what the spectators subscribe to: events (matchEvents), updates (matchUpdates), or both (one round of each, one after the other, on new matches)")
	seed := fs.Uint64("seed", 1, "match i plays the pseudo-random legal game of seed+i")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	var rounds []string
	switch *kinds {
	case "events", "updates":
		rounds = []string{*kinds}
	case "both":
		rounds = []string{"events", "updates"}
	default:
		return fmt.Errorf("--subscription is events, updates or both, not %q", *kinds)
	}
	if *spectators < 0 || *matches < 1 || *moves < 1 || *rate <= 0 {
		return fmt.Errorf("--spectators must be 0 or more, --matches and --moves 1 or more, --rate above 0 (got %d, %d, %d, %g)", *spectators, *matches, *moves, *rate)
	}
	if (*url == "") == !*serveOwn {
		return errors.New("pass either --url of a running server (arbiter serve) or --serve to start one")
	}
	conns := *spectators * *matches
	// Each websocket is a file descriptor; a server started here inherits the raised limit.
	limit, err := raiseFileLimit()
	if err != nil {
		return fmt.Errorf("raising the open-file limit: %w", err)
	}
	if limit > 0 && uint64(conns)+256 > limit {
		return fmt.Errorf("%d spectators need as many open files, and this process may open %d (the hard limit): raise it (ulimit -Hn as root, LimitNOFILE in systemd) or open fewer --spectators or --matches", conns, limit)
	}
	cfg := spectatorConfig{URL: *url, Spectators: *spectators, Matches: *matches, Moves: *moves, Rate: *rate, Seed: *seed, Progress: stderr}
	fmt.Fprintf(stdout, "spectators: %d match(es) x %d spectators, %d moves at %g/s per match\n", cfg.Matches, cfg.Spectators, cfg.Moves, cfg.Rate)
	for _, kind := range rounds {
		cfg.Kind = kind
		res, err := spectatorRound(ctx, cfg, *serveOwn, stdout, stderr)
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		if res.Faults() > 0 {
			return fmt.Errorf("%s: subscribers saw %d gaps, %d duplicates, %d out of order and %d missing: a bug of the server's subscriptions", kind, res.Gaps, res.Duplicates, res.Reordered, res.Missing)
		}
	}
	if *url != "" && len(rounds) > 1 {
		fmt.Fprintln(stdout, "\n(on one server, the second round's memory figures include what the first left behind: --serve starts a new server for each)")
	}
	return nil
}

// spectatorRound runs and prints one round; with serveOwn, on a server of its own, so
// that the memory a round measures is not what an earlier round left behind.
func spectatorRound(ctx context.Context, cfg spectatorConfig, serveOwn bool, stdout, stderr io.Writer) (res spectatorResult, err error) {
	if serveOwn {
		srv, serr := startChildServer(ctx)
		if serr != nil {
			return res, serr
		}
		cfg.URL, cfg.ServerCPU, cfg.ServerLog = srv.url, srv.cpu, srv.log
		fmt.Fprintf(stderr, "started arbiter serve (pid %d) on %s; its log is %s\n", srv.cmd.Process.Pid, srv.url, srv.log)
		// The server's files go once it has stopped, unless the round failed: then its log tells why.
		defer func() {
			srv.stop()
			if err == nil {
				_ = os.RemoveAll(srv.dir)
			}
		}()
	}
	res, err = benchSpectators(ctx, cfg)
	if err == nil {
		fmt.Fprintf(stdout, "\nserver %s\n", cfg.URL)
		res.print(stdout)
	}
	return res, err
}

// spectatorConfig is one round: one kind of subscription.
type spectatorConfig struct {
	URL                        string
	Kind                       string // "events" or "updates"
	Spectators, Matches, Moves int
	Rate                       float64 // moves/s in each match
	Seed                       uint64
	Progress                   io.Writer            // a line a second on stderr; nil for none
	ServerCPU                  func() time.Duration // the server's CPU time so far, when it is a child
	ServerLog                  string               // the child server's log, where it times each request
}

// percentiles summarise durations.
type percentiles struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

func percentilesOf(d []time.Duration) percentiles {
	if len(d) == 0 {
		return percentiles{}
	}
	slices.Sort(d)
	at := func(p int) time.Duration { return d[min(len(d)*p/100, len(d)-1)] }
	return percentiles{N: len(d), P50: at(50), P90: at(90), P99: at(99), Max: d[len(d)-1]}
}

func (p percentiles) String() string {
	r := func(d time.Duration) time.Duration {
		if d < time.Millisecond {
			return d.Round(time.Microsecond)
		}
		return d.Round(100 * time.Microsecond)
	}
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s  (%d)", r(p.P50), r(p.P90), r(p.P99), r(p.Max), p.N)
}

// spectatorResult is what a round measured.
type spectatorResult struct {
	Kind        string
	Connections int
	Opened      time.Duration // to open every connection and see its subscription answer
	// The server's gauges before the connections opened and once all were answered.
	Before, After serverFigures
	Delivery      percentiles // from a move's playMove answer to its receipt, per subscriber
	PlayMove      percentiles // the players' round trips while the spectators watch
	// The same requests as the server timed them (its log, when it is a child): the
	// round trip less this process's own delays, which its spectators' goroutines cause.
	PlayMoveServer percentiles
	Expected       int // deliveries due: every move to every subscriber
	Delivered      int // of those, received
	BeforeAck      int // received before the player had its answer (counted as 0)
	Merged         int // updates: moves that came within a later update, not on their own
	Gaps           int // events: versions skipped
	Duplicates     int
	Reordered      int
	Missing        int // deliveries never received within the wait
	Ended          int // subscriptions the server ended
	Resumed        int // subscriptions dropped as too slow and subscribed again after the version the server said
	EndedBy        string
	Elapsed        time.Duration // the moves
	Paced          time.Duration // when the last move was due: a longer Elapsed means the server held the players back
	ServerCPU      time.Duration // during the moves, when the server is a child
	ClientCPU      time.Duration // during the moves, this process
	ClientRSS      float64       // this process's resident memory with every connection open; 0 unknown
}

// Faults counts what must never happen: a lost, repeated or reordered delivery.
func (r spectatorResult) Faults() int { return r.Gaps + r.Duplicates + r.Reordered + r.Missing }

func (r spectatorResult) print(w io.Writer) {
	name := map[string]string{"events": "matchEvents", "updates": "matchUpdates"}[r.Kind]
	fmt.Fprintf(w, "\n%s: %d connections opened and answered in %s\n", name, r.Connections, r.Opened.Round(time.Millisecond))
	if r.Before.RSS >= 0 && r.After.RSS >= 0 && r.Connections > 0 {
		fmt.Fprintf(w, "  server memory: RSS %s -> %s, %.1f KB per connection; Go heap %s -> %s, %.1f KB per connection\n",
			mb(r.Before.RSS), mb(r.After.RSS), (r.After.RSS-r.Before.RSS)/float64(r.Connections)/1000,
			mb(r.Before.Heap), mb(r.After.Heap), (r.After.Heap-r.Before.Heap)/float64(r.Connections)/1000)
	} else if r.Connections > 0 {
		fmt.Fprintf(w, "  server memory: unknown (its /metrics has no arbiter_process_resident_bytes: an older server, or not Linux)\n")
	}
	fmt.Fprintf(w, "  delivery, playMove answer -> receipt: %s\n", r.Delivery)
	fmt.Fprintf(w, "  playMove round trip:                 %s\n", r.PlayMove)
	if r.PlayMoveServer.N > 0 {
		fmt.Fprintf(w, "  playMove in the server (its log):    %s\n", r.PlayMoveServer)
	}
	fmt.Fprintf(w, "  received %d of %d deliveries (%d before the player's answer, counted as 0)", r.Delivered, r.Expected, r.BeforeAck)
	if r.Kind == "updates" {
		fmt.Fprintf(w, "; %d moves came merged into a later update", r.Merged)
	}
	fmt.Fprintf(w, "\n  gaps %d, duplicates %d, out of order %d, missing %d\n", r.Gaps, r.Duplicates, r.Reordered, r.Missing)
	if r.Resumed > 0 {
		fmt.Fprintf(w, "  %d subscriptions were dropped as too slow (SLOW_CONSUMER) and subscribed again from resumeAfter\n", r.Resumed)
	}
	if r.Ended > 0 {
		fmt.Fprintf(w, "  the server ended %d subscriptions, e.g.: %s\n", r.Ended, r.EndedBy)
	}
	fmt.Fprintf(w, "  moves took %s (the last was due at %s); CPU during them: this client %s", r.Elapsed.Round(time.Millisecond), r.Paced.Round(time.Millisecond), r.ClientCPU.Round(time.Millisecond))
	if r.ServerCPU > 0 {
		fmt.Fprintf(w, ", the server %s", r.ServerCPU.Round(10*time.Millisecond))
	}
	if r.ClientRSS > 0 {
		fmt.Fprintf(w, "; this client's RSS %s", mb(r.ClientRSS))
	}
	fmt.Fprintln(w)
}

func mb(b float64) string { return fmt.Sprintf("%.1f MB", b/1e6) }

// liveMatch is a match being played in a round.
type liveMatch struct {
	id       string
	tokens   [2]string // white, black
	version  int       // after both joined
	moves    []string
	acks     []ack // per move played
	watchers []*spectator
}

// ack is a played move: the version it made and when its answer came (since the epoch).
type ack struct {
	version int32
	at      int64
}

// benchSpectators runs one round: new matches, their spectators, the moves, the report.
func benchSpectators(ctx context.Context, cfg spectatorConfig) (spectatorResult, error) {
	res := spectatorResult{Kind: cfg.Kind, Connections: cfg.Matches * cfg.Spectators}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	api := newAPIClient(cfg.URL, 2*cfg.Matches+64)
	defer api.http.CloseIdleConnections()

	// One pair of players sits in every match of the round: a server allows few
	// registrations an hour from one address, and a player may play many matches at once.
	var tokens [2]string
	for seat, name := range []string{"bench-white", "bench-black"} {
		var r struct{ RegisterPlayer struct{ Token string } }
		if err := api.do(ctx, "", `mutation($n:String!){registerPlayer(name:$n){token}}`, map[string]any{"n": name}, &r); err != nil {
			return res, fmt.Errorf("registering the players: %w (a server limits registrations per address and hour: --registrations-per-hour of arbiter serve)", err)
		}
		tokens[seat] = r.RegisterPlayer.Token
	}
	ms := make([]*liveMatch, cfg.Matches)
	if err := inParallel(ctx, cfg.Matches, 16, func(i int) (err error) {
		ms[i], err = newLiveMatch(ctx, api, tokens, cfg.Seed+uint64(i), cfg.Moves)
		return err
	}); err != nil {
		return res, fmt.Errorf("setting up the matches: %w", err)
	}
	fmt.Fprintf(progress, "%s: %d live matches set up; opening %d connections\n", cfg.Kind, cfg.Matches, res.Connections)

	var err error
	if res.Before, err = api.figures(ctx); err != nil {
		return res, fmt.Errorf("reading %s/metrics: %w", cfg.URL, err)
	}
	epoch := time.Now()
	var (
		delivered atomic.Int64
		opened    atomic.Int64
		readers   sync.WaitGroup
	)
	defer func() {
		// Closing ends every reader; their receipts are read only after this.
		for _, m := range ms {
			for _, s := range m.watchers {
				if s != nil {
					s.conn.CloseNow()
				}
			}
		}
		readers.Wait()
	}()
	stopTicker := everySecond(progress, func(el time.Duration) string {
		return fmt.Sprintf("%s: %5.1fs  %d/%d connections open, %d answered", cfg.Kind, el.Seconds(), opened.Load(), res.Connections, delivered.Load())
	})
	for _, m := range ms {
		m.watchers = make([]*spectator, cfg.Spectators)
	}
	err = inParallel(ctx, res.Connections, 64, func(i int) error {
		m := ms[i/cfg.Spectators]
		// From the version before the last: the last event comes at once and tells that
		// the subscription runs (matchUpdates sends the match at once anyway).
		s, err := openSpectator(ctx, cfg.URL, cfg.Kind, m.id, m.version-1, cfg.Moves)
		if err != nil {
			return err
		}
		m.watchers[i%cfg.Spectators] = s
		readers.Go(func() { s.read(epoch, &delivered) })
		opened.Add(1)
		return nil
	})
	if err != nil {
		stopTicker()
		hint := ""
		if websocket.CloseStatus(err) == websocket.StatusTryAgainLater {
			hint = " (every spectator connects from this host without a token: start the server with --ws-per-address above the connections, or use --serve)"
		}
		return res, fmt.Errorf("opening the spectators' connections (%d open): %w%s", opened.Load(), err, hint)
	}
	// Every subscription has answered once before the first move, so that none misses it.
	var gone *spectator
	err = waitFor(ctx, 2*time.Minute, func() bool {
		answered := 0
		for _, m := range ms {
			for _, s := range m.watchers {
				if s.last.Load() > 0 {
					answered++
				} else if s.ended.Load() {
					gone = s
					return true
				}
			}
		}
		return answered == res.Connections
	})
	res.Opened = time.Since(epoch)
	stopTicker()
	if gone != nil {
		return res, fmt.Errorf("a subscription ended before its first answer: %v", gone.err)
	}
	if err != nil {
		return res, fmt.Errorf("%d of %d subscriptions answered within 2 minutes: is the server overloaded? see its log", delivered.Load(), res.Connections)
	}
	if res.After, err = api.figures(ctx); err != nil {
		return res, fmt.Errorf("reading %s/metrics: %w", cfg.URL, err)
	}
	res.ClientRSS, _ = metrics.Resident()

	var played atomic.Int64
	fmt.Fprintf(progress, "%s: all %d subscriptions answered in %s; playing %d moves in each of %d matches\n", cfg.Kind, res.Connections, res.Opened.Round(time.Millisecond), cfg.Moves, cfg.Matches)
	start, cpu0 := time.Now(), cputime.Used()
	var srv0 time.Duration
	if cfg.ServerCPU != nil {
		srv0 = cfg.ServerCPU()
	}
	stopTicker = everySecond(progress, func(el time.Duration) string {
		return fmt.Sprintf("%s: %5.1fs  %d/%d moves played, %d messages received", cfg.Kind, el.Seconds(), played.Load(), cfg.Moves*cfg.Matches, delivered.Load())
	})
	rtts := make([][]time.Duration, cfg.Matches)
	interval := time.Duration(float64(time.Second) / cfg.Rate)
	res.Paced = interval * time.Duration(cfg.Moves-1)
	err = inParallel(ctx, cfg.Matches, cfg.Matches, func(i int) error {
		m := ms[i]
		// The matches' moves are spread over the interval, not all at one instant.
		offset := interval * time.Duration(i) / time.Duration(cfg.Matches)
		for k, mv := range m.moves {
			time.Sleep(time.Until(start.Add(offset + interval*time.Duration(k))))
			t0 := time.Now()
			var r struct{ PlayMove struct{ Version int32 } }
			if err := api.do(ctx, m.tokens[k%2], `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv){version}}`,
				map[string]any{"m": m.id, "mv": mv}, &r); err != nil {
				return fmt.Errorf("move %d (%s) of match %s: %w", k+1, mv, m.id, err)
			}
			now := time.Now()
			rtts[i] = append(rtts[i], now.Sub(t0))
			m.acks = append(m.acks, ack{version: r.PlayMove.Version, at: now.Sub(epoch).Nanoseconds()})
			played.Add(1)
		}
		return nil
	})
	res.Elapsed, res.ClientCPU = time.Since(start), cputime.Used()-cpu0
	if cfg.ServerLog != "" {
		res.PlayMoveServer = percentilesOf(postDurations(cfg.ServerLog, start))
	}
	if cfg.ServerCPU != nil {
		res.ServerCPU = cfg.ServerCPU() - srv0
	}
	if err != nil {
		stopTicker()
		return res, err
	}
	// Wait until every spectator has its match's last version (or its subscription ended).
	err = waitFor(ctx, time.Minute, func() bool {
		for _, m := range ms {
			final := m.acks[len(m.acks)-1].version
			for _, s := range m.watchers {
				if s.last.Load() < final && !s.ended.Load() {
					return false
				}
			}
		}
		return true
	})
	stopTicker()
	if errors.Is(err, context.Canceled) {
		return res, err
	}
	// A timeout is a finding, not a failure: what never came is counted as missing.
	for _, m := range ms {
		for _, s := range m.watchers {
			s.conn.CloseNow()
		}
	}
	readers.Wait()
	var delays []time.Duration
	for _, m := range ms {
		for _, s := range m.watchers {
			res.Resumed += s.resumed
			if s.err != nil {
				res.Ended++
				res.EndedBy = s.err.Error()
			}
			delays = res.tally(m, s, delays)
		}
	}
	res.Delivery = percentilesOf(delays)
	res.PlayMove = percentilesOf(slices.Concat(rtts...))
	return res, nil
}

// tally checks one subscriber's receipts against its match's moves and appends the
// delivery delay of each move to delays.
func (r *spectatorResult) tally(m *liveMatch, s *spectator, delays []time.Duration) []time.Duration {
	// The first receipt is the subscription's answer, before any move.
	got := s.receipts
	if len(got) > 0 {
		got = got[1:]
	}
	prev := int32(m.version)
	for _, g := range got {
		switch {
		case g.version == prev:
			r.Duplicates++
		case g.version < prev:
			r.Reordered++
		case g.version > prev+1 && r.Kind == "events":
			r.Gaps += int(g.version - prev - 1)
		}
		prev = max(prev, g.version)
	}
	// Each move is delivered by the first receipt at or past its version; matchEvents
	// delivers every version, matchUpdates may merge several moves into one update.
	j := 0
	for _, a := range m.acks {
		r.Expected++
		for j < len(got) && got[j].version < a.version {
			j++
		}
		if j == len(got) {
			r.Missing++
			continue
		}
		r.Delivered++
		if got[j].version != a.version {
			r.Merged++
		}
		d := time.Duration(got[j].at - a.at)
		if d < 0 {
			r.BeforeAck++
			d = 0
		}
		delays = append(delays, d)
	}
	return delays
}

// newLiveMatch creates a chess match and seats the players of tokens, white and black.
func newLiveMatch(ctx context.Context, api *apiClient, tokens [2]string, seed uint64, plies int) (*liveMatch, error) {
	m := &liveMatch{moves: playout.Moves(seed, plies), tokens: tokens}
	if len(m.moves) < plies {
		return nil, fmt.Errorf("the game of seed %d ends after %d moves, before %d: pass another --seed", seed, len(m.moves), plies)
	}
	m.acks = make([]ack, 0, plies)
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	if err := api.do(ctx, m.tokens[0], `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil, &c); err != nil {
		return nil, err
	}
	m.id = c.CreateMatch.Match.ID
	for seat, tok := range m.tokens {
		var j struct {
			JoinMatch struct{ Match struct{ Version int } }
		}
		if err := api.do(ctx, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){match{version}}}`, map[string]any{"m": m.id, "s": seat}, &j); err != nil {
			return nil, err
		}
		m.version = j.JoinMatch.Match.Version
	}
	return m, nil
}

// inParallel runs f(0..n-1) on at most width goroutines and returns the first error;
// after one, the calls not yet started are skipped.
func inParallel(ctx context.Context, n, width int, f func(i int) error) error {
	var (
		next     atomic.Int64
		failed   atomic.Bool
		first    error
		firstMu  sync.Mutex
		children sync.WaitGroup
	)
	for range min(width, n) {
		children.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = f(i)
				}
				if err != nil {
					firstMu.Lock()
					if first == nil {
						first = err
					}
					firstMu.Unlock()
					failed.Store(true)
				}
			}
		})
	}
	children.Wait()
	return first
}

// waitFor checks done every 50 ms until it holds, ctx ends, or limit passes.
func waitFor(ctx context.Context, limit time.Duration, done func() bool) error {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for !done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return context.DeadlineExceeded
		case <-t.C:
		}
	}
	return nil
}

// everySecond writes line(elapsed) every second until the returned stop is called.
func everySecond(w io.Writer, line func(time.Duration) string) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				fmt.Fprintln(w, strings.TrimSpace(line(time.Since(start))))
			}
		}
	}()
	return func() { close(quit); <-done }
}
