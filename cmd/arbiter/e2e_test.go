package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/nats-io/nats.go"
)

// server is a real `arbiter serve` on a free port, run in-process through run().
type server struct {
	url    string // http://127.0.0.1:port
	db     string // the --db it serves
	cancel context.CancelFunc
	done   chan int
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var servingLine = regexp.MustCompile(`on (http://[0-9.:]+)/ `)

func startServer(t testing.TB, db string, extra ...string) *server {
	t.Helper()
	return startServerIn(t, context.Background(), db, extra...)
}

// startServerIn is startServer with the server's context: hostingGames in it hosts a
// test's own games.
func startServerIn(t testing.TB, ctx context.Context, db string, extra ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	s := &server{db: db, cancel: cancel, done: make(chan int, 1), stderr: &syncBuffer{}}
	go func() {
		code := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...), pw, s.stderr)
		pw.Close()
		s.done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("the server printed no URL: %v\nstderr: %s", err, s.stderr)
	}
	go io.Copy(io.Discard, pr)
	m := servingLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("unexpected first line %q", line)
	}
	s.url = m[1]
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *server) stop(t testing.TB) {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case code := <-s.done:
		if code != 0 {
			t.Errorf("serve exited with %d: %s", code, s.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop")
	}
}

// gqlResponse is a GraphQL response.
type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// post sends a GraphQL request over HTTP POST.
func (s *server) post(t testing.TB, token, query string, vars map[string]any) gqlResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /graphql: %v", err)
	}
	defer resp.Body.Close()
	var out gqlResponse
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST /graphql answered %d %q: %v", resp.StatusCode, raw, err)
	}
	return out
}

// must sends a request that must succeed and decodes its data into v.
func (s *server) must(t testing.TB, token, query string, vars map[string]any, v any) {
	t.Helper()
	r := s.post(t, token, query, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("%s\nfailed: %+v", query, r.Errors)
	}
	if v != nil {
		if err := json.Unmarshal(r.Data, v); err != nil {
			t.Fatalf("decoding %s: %v", r.Data, err)
		}
	}
}

func (s *server) register(t testing.TB, name string) (id, token string) {
	t.Helper()
	var d struct {
		RegisterPlayer struct {
			Player struct{ ID string }
			Token  string
		}
	}
	s.must(t, "", `mutation($n:String!){registerPlayer(name:$n){player{id} token}}`, map[string]any{"n": name}, &d)
	return d.RegisterPlayer.Player.ID, d.RegisterPlayer.Token
}

// newMatch creates a chess match and seats white and black.
func (s *server) newMatch(t testing.TB, white, black string, rated bool) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, white, `mutation($r:Boolean){createMatch(input:{game:CHESS, rated:$r}){match{id}}}`, map[string]any{"r": rated}, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{white, black} {
		var j struct{ JoinMatch struct{ Seat int } }
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, &j)
		if j.JoinMatch.Seat != seat {
			t.Fatalf("joined seat %d, asked %d", j.JoinMatch.Seat, seat)
		}
	}
	return id
}

func (s *server) play(t testing.TB, token, matchID, move string) gqlResponse {
	t.Helper()
	return s.post(t, token, `mutation($m:ID!,$mv:String!){playMove(matchId:$m, move:$mv){version match{status}}}`, map[string]any{"m": matchID, "mv": move})
}

// wsEvent is one matchEvents payload.
type wsEvent struct {
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	Data       json.RawMessage `json:"data"`
	Hash       string          `json:"hash"`
	Redacted   bool            `json:"redacted"`
	Visibility string          `json:"visibility"`
}

// subscribe opens a real websocket, speaks protocol ("graphql-transport-ws" or the legacy
// "graphql-ws"), and sends every matchEvents event it receives on the returned channel.
func (s *server) subscribe(t testing.TB, ctx context.Context, protocol, token, matchID string, after int) <-chan wsEvent {
	t.Helper()
	raw := s.subscribeRaw(t, ctx, protocol, token,
		`subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version type data hash redacted visibility}}`,
		map[string]any{"m": matchID, "a": after})
	out := make(chan wsEvent, 256)
	go func() {
		defer close(out)
		for data := range raw {
			var p struct {
				MatchEvents wsEvent `json:"matchEvents"`
			}
			if err := json.Unmarshal(data, &p); err != nil {
				t.Errorf("subscription data %s: %v", data, err)
				return
			}
			out <- p.MatchEvents
		}
	}()
	return out
}

// subscribeRaw runs any subscription over a real websocket in protocol and sends the
// data of each result; the channel closes when the server completes the subscription.
func (s *server) subscribeRaw(t testing.TB, ctx context.Context, protocol, token, query string, vars map[string]any) <-chan json.RawMessage {
	t.Helper()
	out, _ := s.subscribeCompleting(t, ctx, protocol, token, query, vars)
	return out
}

// subscribeCompleting is subscribeRaw that also tells, once the channel is closed, whether
// the server completed the subscription (rather than the connection or ctx ending it).
func (s *server) subscribeCompleting(t testing.TB, ctx context.Context, protocol, token, query string, vars map[string]any) (<-chan json.RawMessage, func() bool) {
	t.Helper()
	ws := "ws" + strings.TrimPrefix(s.url, "http") + "/graphql"
	conn, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{Subprotocols: []string{protocol}})
	if err != nil {
		t.Fatalf("dialing %s: %v", ws, err)
	}
	if conn.Subprotocol() != protocol {
		t.Fatalf("server chose subprotocol %q, asked %q", conn.Subprotocol(), protocol)
	}
	init := map[string]any{"type": "connection_init"}
	if token != "" {
		init["payload"] = map[string]any{"Authorization": "Bearer " + token}
	}
	if err := wsjson.Write(ctx, conn, init); err != nil {
		t.Fatal(err)
	}
	var ack struct{ Type string }
	if err := wsjson.Read(ctx, conn, &ack); err != nil || ack.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v, %v", ack, err)
	}
	start := "subscribe"
	if protocol == "graphql-ws" {
		start = "start"
	}
	err = wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": start, "payload": map[string]any{"query": query, "variables": vars}})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan json.RawMessage, 256)
	completed := false // written before out is closed, read after
	go func() {
		defer close(out)
		defer conn.CloseNow()
		for {
			var msg struct {
				Type    string          `json:"type"`
				Payload json.RawMessage `json:"payload"`
			}
			if err := wsjson.Read(ctx, conn, &msg); err != nil {
				return
			}
			switch msg.Type {
			case "next", "data":
				var p struct {
					Data   json.RawMessage `json:"data"`
					Errors json.RawMessage `json:"errors"`
				}
				if err := json.Unmarshal(msg.Payload, &p); err != nil || len(p.Errors) > 0 {
					t.Errorf("subscription payload %s: %v", msg.Payload, err)
					return
				}
				out <- p.Data
			case "ka", "ping", "pong":
				if msg.Type == "ping" {
					_ = wsjson.Write(ctx, conn, map[string]any{"type": "pong"})
				}
			case "error", "complete":
				if msg.Type == "error" {
					t.Errorf("subscription error: %s", msg.Payload)
				}
				completed = msg.Type == "complete"
				return
			}
		}
	}()
	return out, func() bool { return completed }
}

// TestEndToEnd plays a rated game to checkmate over HTTP with two players, follows it
// with spectators over real websockets in both protocols, restarts the server on the same
// file, and finds every event and the same final state.
func TestEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "Wilhelm Steinitz")
	_, black := srv.register(t, "Johannes Zukertort")
	matchID := srv.newMatch(t, white, black, true)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spectator := srv.subscribe(t, ctx, "graphql-transport-ws", "", matchID, 0)
	legacy := srv.subscribe(t, ctx, "graphql-ws", "", matchID, 3)

	// The Scholar's mate, in UCI and SAN mixed.
	moves := []string{"e2e4", "e5", "Bc4", "Nc6", "d1h5", "Nf6", "Qxf7#"}
	for i, mv := range moves {
		tok := white
		if i%2 == 1 {
			tok = black
		}
		if r := srv.play(t, tok, matchID, mv); len(r.Errors) > 0 {
			t.Fatalf("move %d %s: %+v", i+1, mv, r.Errors)
		}
	}

	type final struct {
		Match struct {
			Status  string
			Version int
			Moves   []string
			Board   struct{ FEN string }
			Result  struct {
				Winner *int
				Reason string
			}
			Seed   *string
			PGN    string
			Events []wsEvent
		}
		Player struct {
			Ratings []struct {
				Key    string
				Rating float64
				Games  int
			}
		}
	}
	const q = `query($m:ID!,$p:ID!){match(id:$m){status version moves board{fen} result{winner reason} seed pgn events{version type data hash redacted}} player(id:$p){ratings{key rating games}}}`
	whiteID := strings.SplitN(white, ".", 2)[0]
	var before final
	srv.must(t, "", q, map[string]any{"m": matchID, "p": whiteID}, &before)
	m := before.Match
	if m.Status != "FINISHED" || m.Result.Winner == nil || *m.Result.Winner != 0 || m.Result.Reason != "checkmate" {
		t.Fatalf("after Qxf7#: %+v", m)
	}
	if got := strings.Join(m.Moves, " "); got != "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#" {
		t.Fatalf("moves in SAN: %s", got)
	}
	if m.Board.FEN != "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4" {
		t.Fatalf("final FEN %s", m.Board.FEN)
	}
	if !strings.Contains(m.PGN, `[White "Wilhelm Steinitz"]`) || !strings.Contains(m.PGN, "4. Qxf7# 1-0") {
		t.Fatalf("the PGN export:\n%s", m.PGN)
	}
	if m.Seed == nil {
		t.Fatalf("the seed is not revealed at the end")
	}
	if len(before.Player.Ratings) != 1 || before.Player.Ratings[0].Rating != 1420 || before.Player.Ratings[0].Key != "CHESS" {
		t.Fatalf("the winner of a first rated game goes from 1400 to 1420 (K=40): %+v", before.Player.Ratings)
	}

	// The spectators saw every event, in order, the seed hidden until the end.
	for name, ch := range map[string]<-chan wsEvent{"graphql-transport-ws": spectator, "graphql-ws": legacy} {
		from := 1
		if name == "graphql-ws" {
			from = 4
		}
		for v := from; v <= m.Version; v++ {
			select {
			case ev := <-ch:
				if ev.Version != v {
					t.Fatalf("%s: got version %d, want %d", name, ev.Version, v)
				}
				want := m.Events[v-1]
				if ev.Type != want.Type || ev.Hash != want.Hash {
					t.Fatalf("%s: version %d is %s %s, the store has %s %s", name, v, ev.Type, ev.Hash, want.Type, want.Hash)
				}
				if ev.Type == "SeedDrawn" && (!ev.Redacted || string(ev.Data) != "null") {
					t.Fatalf("%s: a spectator received the secret seed during the match: %s", name, ev.Data)
				}
			case <-ctx.Done():
				t.Fatalf("%s: waited for version %d: %v", name, v, ctx.Err())
			}
		}
	}

	// Restart on the same file: every event and the same final state are there.
	srv.stop(t)
	srv = startServer(t, db)
	var after final
	srv.must(t, "", q, map[string]any{"m": matchID, "p": whiteID}, &after)
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	if !bytes.Equal(b1, b2) {
		t.Fatalf("after a restart the match differs:\nbefore %s\nafter  %s", b1, b2)
	}
	if len(after.Match.Events) != m.Version {
		t.Fatalf("%d events after restart, want %d", len(after.Match.Events), m.Version)
	}
	// A late spectator replays the finished match as a live one saw it: a stream shows each
	// event as of its version, so the seed is hidden in SeedDrawn and revealed by the
	// SeedRevealed after the end (the events query, read after the end, shows it all).
	late := srv.subscribe(t, ctx, "graphql-transport-ws", "", matchID, 0)
	seed, err := hex.DecodeString(*after.Match.Seed)
	if err != nil {
		t.Fatalf("the finished match's seed %q: %v", *after.Match.Seed, err)
	}
	revealed := false
	for v := 1; v <= m.Version; v++ {
		ev := <-late
		if ev.Version != v || ev.Redacted != (ev.Type == "SeedDrawn") {
			t.Fatalf("late spectator: version %d (%s) redacted=%v", ev.Version, ev.Type, ev.Redacted)
		}
		revealed = revealed || ev.Type == "SeedRevealed" && strings.Contains(string(ev.Data), base64.StdEncoding.EncodeToString(seed))
	}
	if !revealed {
		t.Fatalf("late spectator: no SeedRevealed carrying the seed %s", *after.Match.Seed)
	}
}

// TestClockRunsOutWithoutAMove: nobody moves in a timed game, and the server's timers end
// it on time at the deadline.
func TestClockRunsOutWithoutAMove(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, white, `mutation{createMatch(input:{game:CHESS, options:[{key:"clock", value:"0.02+0"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{white, black} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ev := range srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0) {
		if ev.Type == "FlagFell" {
			break
		}
	}
	var d struct {
		Match struct {
			Status string
			Result struct {
				Winner *int
				Reason string
			}
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status result{winner reason}}}`, map[string]any{"m": id}, &d)
	if d.Match.Status != "FINISHED" || d.Match.Result.Reason != "timeout" || d.Match.Result.Winner == nil || *d.Match.Result.Winner != 1 {
		t.Fatalf("White never moved in a 1.2 s game: %+v", d.Match)
	}
	// The flag fell at White's deadline, 1.2 s after its clock started, whenever the
	// server's timer found it: the event says so, White's clock reads 0, and the PGN
	// ends on time.
	var f struct {
		Match struct {
			Events []struct {
				Type string
				At   time.Time
				Data struct{ At time.Time }
			}
			Clock struct {
				Seats   []struct{ Seat, RemainingMs int }
				Running *int
			}
			Pgn string
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){events{type at data} clock{seats{seat remainingMs} running} pgn}}`, map[string]any{"m": id}, &f)
	var started, fell, found time.Time
	for _, ev := range f.Match.Events {
		switch ev.Type {
		case "GameStarted":
			started = ev.Data.At
		case "FlagFell":
			fell, found = ev.Data.At, ev.At
		}
	}
	if started.IsZero() || !fell.Equal(started.Add(1200*time.Millisecond)) || found.Before(fell) {
		t.Fatalf("White's clock started at %v, its flag fell at %v (recorded at %v): want the deadline %v", started, fell, found, started.Add(1200*time.Millisecond))
	}
	if k := f.Match.Clock; k.Running != nil || len(k.Seats) != 2 || k.Seats[0].RemainingMs != 0 || k.Seats[1].RemainingMs != 1200 {
		t.Fatalf("the clock after White's flag: %+v", k)
	}
	if !strings.Contains(f.Match.Pgn, `[Termination "time forfeit"]`) || !strings.Contains(f.Match.Pgn, `[Result "0-1"]`) {
		t.Fatalf("the PGN after White's flag:\n%s", f.Match.Pgn)
	}
}

// TestOverNATS plays a game with the bus on NATS JetStream: the read side and a spectator
// are fed through the broker.
func TestOverNATS(t *testing.T) {
	natsURL := os.Getenv("ARBITER_NATS_URL")
	if natsURL == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("ARBITER_NATS_URL is not set: CI must run this test against NATS with JetStream")
		}
		t.Skip("ARBITER_NATS_URL is not set")
	}
	topic := fmt.Sprintf("arbiter.test.%d", time.Now().UnixNano())
	stream := "ARBITER_TEST_" + strings.ReplaceAll(topic, ".", "_")
	t.Cleanup(func() { // the broker outlives the test: leave nothing behind
		if nc, err := nats.Connect(natsURL); err == nil {
			if js, err := nc.JetStream(); err == nil {
				_ = js.DeleteStream(stream)
			}
			nc.Close()
		}
	})
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--bus", natsURL+"?topic="+topic+"&stream="+stream)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	events := srv.subscribe(t, ctx, "graphql-transport-ws", "", id, 0)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	var d struct {
		Match struct {
			Status  string
			Version int
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){status version}}`, map[string]any{"m": id}, &d)
	if d.Match.Status != "FINISHED" {
		t.Fatalf("after Qh4#: %+v", d.Match)
	}
	n := 0
	for ev := range events {
		n++
		if ev.Version != n {
			t.Fatalf("version %d, want %d", ev.Version, n)
		}
	}
	if n != d.Match.Version {
		t.Fatalf("the spectator saw %d of %d events", n, d.Match.Version)
	}
}
