package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph"
)

// brokenDisk is the real store with a switch: while on, every append is written and then
// answered with a database error (the commit landed, its answer did not), and every read
// of a stream fails before anything is written.
type brokenDisk struct {
	eventstore.Store
	on atomic.Bool
}

var errSQL = errors.New(`sqlite: INSERT INTO events (id, stream) VALUES (?, ?): disk I/O error (SQLITE_IOERR) in /var/lib/arbiter/arbiter.db`)

func (b *brokenDisk) Append(ctx context.Context, stream string, expected int64, events ...eventstore.Proposed) (eventstore.AppendResult, error) {
	res, err := b.Store.Append(ctx, stream, expected, events...)
	if b.on.Load() && err == nil {
		return res, errSQL
	}
	return res, err
}

func (b *brokenDisk) ReadStream(ctx context.Context, stream string, after int64, limit int) ([]eventstore.Event, error) {
	if b.on.Load() {
		return nil, errSQL
	}
	return b.Store.ReadStream(ctx, stream, after, limit)
}

// startBroken runs the server's app on a real SQLite store behind brokenDisk, served over
// real HTTP, with its log kept.
func startBroken(t *testing.T) (*server, *brokenDisk, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sqlite, err := openStore(ctx, filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlite.Close() })
	disk := &brokenDisk{Store: sqlite}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	a, err := startApp(ctx, disk, appConfig{limits: graph.Limits{Log: log}}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.stop)
	ts := httptest.NewServer(a.handler())
	t.Cleanup(ts.Close)
	return &server{url: ts.URL}, disk, logs
}

// failed checks an answer to a request the broken store failed: the code, a message with
// an error ID and nothing of the database, and one error line in the log under that ID.
func failed(t *testing.T, r gqlResponse, code string, logs *syncBuffer) {
	t.Helper()
	if r.code() != code {
		t.Fatalf("answered %+v, want %s", r.Errors, code)
	}
	msg := r.Errors[0].Message
	id, _ := r.Errors[0].Extensions["errorId"].(string)
	if id == "" || !strings.Contains(msg, "error ID "+id) {
		t.Fatalf("the message %q and extensions %v do not name one error ID", msg, r.Errors[0].Extensions)
	}
	for _, leak := range []string{"sqlite", "INSERT", "SQLITE_IOERR", "/var/lib", "disk"} {
		if strings.Contains(msg, leak) {
			t.Fatalf("the client is told %q: %q", leak, msg)
		}
	}
	line := regexp.MustCompile(`(?m)^.*errorId=` + id + `.*$`).FindString(logs.String())
	if !strings.Contains(line, "level=ERROR") || !strings.Contains(line, "code="+code) || !strings.Contains(line, "SQLITE_IOERR") {
		t.Fatalf("no error line with the cause under errorId=%s:\n%s", id, logs)
	}
}

// TestFailuresTellWhetherToRetry: with the disk failing, a move whose append was written
// is UNKNOWN_OUTCOME and, sent again with its commandId, is answered as a duplicate, played
// once; a creation whose read failed is UNAVAILABLE and nothing is created; a registration
// sent again with its commandId returns the same player and token. No answer shows the
// database's message; each is logged at error level under the ID the client got.
func TestFailuresTellWhetherToRetry(t *testing.T) {
	srv, disk, logs := startBroken(t)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)

	const move = `mutation($m:ID!){playMove(matchId:$m, move:"e4", commandId:"w-1"){version duplicate}}`
	disk.on.Store(true)
	failed(t, srv.post(t, white, move, map[string]any{"m": id}), "UNKNOWN_OUTCOME", logs)
	disk.on.Store(false)
	var again struct {
		PlayMove struct {
			Version   int
			Duplicate bool
		}
	}
	srv.must(t, white, move, map[string]any{"m": id}, &again)
	if !again.PlayMove.Duplicate {
		t.Fatalf("e4 sent again after UNKNOWN_OUTCOME: %+v, want the first outcome", again.PlayMove)
	}
	var m struct {
		Match struct {
			Version int
			Moves   []string
		}
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){version moves}}`, map[string]any{"m": id}, &m)
	if len(m.Match.Moves) != 1 || m.Match.Version != again.PlayMove.Version {
		t.Fatalf("after e4 and its retry: %+v, answered version %d", m.Match, again.PlayMove.Version)
	}

	// An export is a request too: its failure is told by its code and an error ID alone
	// (it told the database's message).
	disk.on.Store(true)
	status, body := rawRequest(t, http.MethodGet, srv.url+"/matches/"+id+".ndjson", "", "")
	disk.on.Store(false)
	var export gqlResponse
	if err := json.Unmarshal([]byte(body), &export); err != nil || status != http.StatusInternalServerError {
		t.Fatalf("the export with the disk failing: %d %s", status, body)
	}
	failed(t, export, "INTERNAL", logs)

	const create = `mutation{createMatch(input:{game:CHESS, commandId:"table-1"}){match{id version}}}`
	disk.on.Store(true)
	failed(t, srv.post(t, white, create, nil), "UNAVAILABLE", logs)
	disk.on.Store(false)
	var c struct {
		CreateMatch struct {
			Match struct {
				ID      string
				Version int
			}
		}
	}
	srv.must(t, white, create, nil, &c)
	var events struct {
		Match struct{ Events []struct{ Type string } }
	}
	srv.must(t, "", `query($m:ID!){match(id:$m){events{type}}}`, map[string]any{"m": c.CreateMatch.Match.ID}, &events)
	if n := len(events.Match.Events); n == 0 || events.Match.Events[0].Type != "MatchCreated" || strings.Count(eventTypes(events.Match.Events), "MatchCreated") != 1 {
		t.Fatalf("the creation sent again after UNAVAILABLE made %v", events.Match.Events)
	}

	const register = `mutation($k:ID){registerPlayer(name:"Ada", commandId:$k){player{id} token}}`
	key := map[string]any{"k": "2c9f6d1e-5b8a-4f3c-9e7d-0a1b2c3d4e5f"}
	disk.on.Store(true)
	failed(t, srv.post(t, "", register, key), "UNKNOWN_OUTCOME", logs)
	disk.on.Store(false)
	type reg struct {
		RegisterPlayer struct {
			Player struct{ ID string }
			Token  string
		}
	}
	var first, second reg
	srv.must(t, "", register, key, &first)
	srv.must(t, "", register, key, &second)
	if first != second || first.RegisterPlayer.Token == "" {
		t.Fatalf("a registration sent again: %+v, then %+v", first, second)
	}
	var me struct{ Me struct{ ID string } }
	srv.must(t, first.RegisterPlayer.Token, `{me{id}}`, nil, &me)
	if me.Me.ID != first.RegisterPlayer.Player.ID {
		t.Fatalf("the token is %s's, want %s", me.Me.ID, first.RegisterPlayer.Player.ID)
	}
	if r := srv.post(t, "", `mutation($k:ID){registerPlayer(name:"Bob", commandId:$k){token}}`, key); r.code() != "CONFLICT" {
		t.Fatalf("another name under the same commandId: %+v, want CONFLICT", r.Errors)
	}
}

func eventTypes(evs []struct{ Type string }) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.Type + " ")
	}
	return b.String()
}

// TestWebsocketInitFailureIsHidden: a websocket's token checked while the store fails is
// answered without the database's message, under an error ID the log holds. (The legacy
// graphql-ws protocol carries the error in connection_error; graphql-transport-ws only
// closes the socket.)
func TestWebsocketInitFailureIsHidden(t *testing.T) {
	srv, disk, logs := startBroken(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.url, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	disk.on.Store(true) // the token's player is read from the store, which fails
	token := "unknownplayer0001." + strings.Repeat("ab", 32)
	if err := wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + token}}); err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Type    string
		Payload struct{ Message string }
	}
	if err := wsjson.Read(ctx, conn, &msg); err != nil || msg.Type != "connection_error" {
		t.Fatalf("connection_init with a failing store answered %+v, %v", msg, err)
	}
	id := regexp.MustCompile(`error ID ([0-9a-f]+)`).FindStringSubmatch(msg.Payload.Message)
	if id == nil || !strings.HasPrefix(msg.Payload.Message, "UNAVAILABLE: ") || strings.Contains(msg.Payload.Message, "SQLITE") || strings.Contains(msg.Payload.Message, "sqlite") {
		t.Fatalf("connection_error %q: want UNAVAILABLE, an error ID, nothing of the database", msg.Payload.Message)
	}
	if line := regexp.MustCompile(`(?m)^.*errorId=` + id[1] + `.*$`).FindString(logs.String()); !strings.Contains(line, "level=ERROR") || !strings.Contains(line, "SQLITE_IOERR") {
		t.Fatalf("no error line with the cause under errorId=%s:\n%s", id[1], logs)
	}
}
