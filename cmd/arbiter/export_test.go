package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/replay"
	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// getExport fetches /matches/{file} from a real server as the player of token ("" for a
// spectator): the status, the content type and the body.
func (s *server) getExport(t testing.TB, token, file string) (int, string, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.url+"/matches/"+file, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /matches/%s: %v", file, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET /matches/%s: %v", file, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

// startGame creates a match of game and seats white at 0 and black at 1: it is live.
func (s *server) startGame(t testing.TB, gameName, white, black string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, white, `mutation($g:Game!){createMatch(input:{game:$g}){match{id}}}`, map[string]any{"g": gameName}, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{white, black} {
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	return id
}

// runArbiter runs the binary's command; it returns the exit code and stdout with stderr.
func runArbiter(args ...string) (int, string) {
	var out strings.Builder
	code := run(context.Background(), args, &out, &out)
	return code, out.String()
}

// exportOf reads an export's bytes, failing the test on a malformed one.
func exportOf(t testing.TB, body []byte) replay.Export {
	t.Helper()
	x, err := replay.ReadExport(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the export does not read back: %v\n%s", err, body)
	}
	return x
}

// The ndjson export of every game from a real server on a real SQLite file: while the
// match is live a spectator's export hides what a spectator may not see, and still links
// its chain; once the match is over every export is whole, `arbiter verify --file` checks
// it offline against the rules, `arbiter replay --file` shows it, and an edited or a
// dropped line is caught.
func TestNDJSONExportOfEveryGame(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, filepath.Join(dir, "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	for _, g := range []string{"CHESS", "UNFAIR_CHESS", "SOVEREIGN_CHESS", "SOLWARIS", "MAGIC_CHESS"} {
		t.Run(g, func(t *testing.T) {
			id := srv.startGame(t, g, white, black)
			status, ctype, body := srv.getExport(t, "", id+".ndjson")
			if status != http.StatusOK || ctype != "application/x-ndjson; charset=utf-8" {
				t.Fatalf("GET %s.ndjson: %d %s\n%s", id, status, ctype, body)
			}
			live := exportOf(t, body)
			if live.Header.Match != id || live.Header.Game != g || live.Header.Status != "LIVE" || live.Header.Viewer != "spectator" {
				t.Fatalf("live header %+v", live.Header)
			}
			liveFile := filepath.Join(dir, id+"-live.ndjson")
			if err := os.WriteFile(liveFile, body, 0o600); err != nil {
				t.Fatal(err)
			}
			code, out := runArbiter("verify", "--file", liveFile)
			switch {
			case live.Header.Redacted == 0 && code != 0:
				t.Fatalf("a live export that hides nothing does not verify: %s", out)
			case live.Header.Redacted > 0 && (code == 0 || !strings.Contains(out, "redacted:") || strings.Contains(out, "chain:")):
				t.Fatalf("a live export hiding %d events: exit %d, want a redacted problem and no chain problem:\n%s", live.Header.Redacted, code, out)
			}
			if g == "UNFAIR_CHESS" || g == "MAGIC_CHESS" { // the hands dealt are secret
				if live.Header.Redacted == 0 {
					t.Fatalf("a spectator's live export of %s hides nothing:\n%s", g, body)
				}
				// A seated player's export shows its own seat's events and hides the other's.
				_, _, mine := srv.getExport(t, white, id+".ndjson")
				for _, l := range exportOf(t, mine).Lines {
					if hidden := l.Visibility == "seat:1" || l.Visibility == "server"; l.Redacted != hidden {
						t.Errorf("White's live export: version %d of visibility %q has redacted %v", l.Version, l.Visibility, l.Redacted)
					}
				}
				if code, out := runArbiter("replay", "--file", liveFile); code == 0 || !strings.Contains(out, "hidden from this export's viewer") {
					t.Errorf("replay of a redacted export: exit %d\n%s", code, out)
				}
			}

			liveBody := body
			_, _, mine := srv.getExport(t, white, id+".ndjson")
			liveMine := exportOf(t, mine)
			srv.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
			_, _, body = srv.getExport(t, "", id+".ndjson")
			full := exportOf(t, body)
			// The paced replay of the finished match, for a spectator and for White.
			protocol := "graphql-transport-ws"
			if g == "CHESS" {
				protocol = "graphql-ws"
			}
			_, _, mine = srv.getExport(t, white, id+".ndjson")
			hidden := srv.checkReplay(t, protocol, "", id, replayAfter, live, full)
			srv.checkReplay(t, protocol, white, id, replayAfter, liveMine, exportOf(t, mine))
			if (g == "UNFAIR_CHESS" || g == "MAGIC_CHESS") && hidden == 0 {
				t.Errorf("the spectator's replay of %s from version %d hid nothing the live export hid", g, replayAfter+1)
			}
			if full.Header.Status != "FINISHED" || full.Header.Redacted != 0 || len(full.Lines) <= len(live.Lines) {
				t.Fatalf("export after the end: %+v with %d lines (live had %d)", full.Header, len(full.Lines), len(live.Lines))
			}
			// What the live export hid was the event itself, under the same hash.
			for i, l := range live.Lines {
				whole := full.Lines[i]
				if l.Hash != whole.Hash || l.Version != whole.Version {
					t.Fatalf("version %d: live hash %s, final %s", l.Version, l.Hash, whole.Hash)
				}
				if l.Redacted && len(whole.Payload) > 16 && bytes.Contains(liveBody, whole.Payload) {
					t.Fatalf("version %d leaked its payload", l.Version)
				}
				if l.Redacted && (bytes.Equal(l.Payload, whole.Payload) || l.CommandID != "") {
					t.Fatalf("version %d is marked redacted but shows %s (command %q)", l.Version, l.Payload, l.CommandID)
				}
			}
			file := filepath.Join(dir, id+".ndjson")
			if err := os.WriteFile(file, body, 0o600); err != nil {
				t.Fatal(err)
			}
			if code, out := runArbiter("verify", "--file", file); code != 0 || !strings.Contains(out, "ok   "+id+" "+g) || !strings.Contains(out, "FINISHED") {
				t.Fatalf("verify --file of the finished match: exit %d\n%s", code, out)
			}
			if code, out := runArbiter("replay", "--file", file); code != 0 || !strings.Contains(out, "status: FINISHED") || !strings.Contains(out, "resign") {
				t.Fatalf("replay --file: exit %d\n%s", code, out)
			}
			if code, out := runArbiter("verify", "--file", file, "--match", "another"); code == 0 || !strings.Contains(out, "not another") {
				t.Errorf("verify --file with another match's ID: exit %d\n%s", code, out)
			}

			lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
			// An edited actor on version 3: its content no longer hashes to its hash.
			edited := editLine(t, lines, 3, func(l map[string]any) { l["actor"] = "player:mallory" })
			if code, out := runArbiter("verify", "--file", writeTemp(t, dir, edited)); code == 0 || !strings.Contains(out, "version 3: chain:") {
				t.Errorf("an edited line: exit %d\n%s", code, out)
			}
			// A line dropped from the middle.
			dropped := append(append([][]byte{}, lines[:4]...), lines[5:]...)
			if code, out := runArbiter("verify", "--file", writeTemp(t, dir, dropped)); code == 0 || !strings.Contains(out, "version 4: chain:") {
				t.Errorf("a dropped line: exit %d\n%s", code, out)
			}
		})
	}
}

// replayAfter is where the replays of TestNDJSONExportOfEveryGame seek to: past the
// match's creation, before the hands are dealt.
const replayAfter = 2

// checkReplay subscribes over protocol to the replay of the finished match id as the caller
// of token ("" a spectator), at the highest speed from version after on, and checks that
// the server sends each later event as that caller's export line (version, type, hash,
// redaction and data) and then completes. A replay shows each event as it was shown live:
// an event of the caller's live export (taken just before the match ended) as that export
// showed it, hidden where it was hidden; a later one as the final export shows it. It
// returns how many replayed events were hidden.
func (s *server) checkReplay(t *testing.T, protocol, token, id string, after int, live, final replay.Export) (hidden int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, completed := s.subscribeCompleting(t, ctx, protocol, token,
		`subscription($m:ID!,$a:Int){replay(matchId:$m, speed:10000, after:$a){version type hash redacted data}}`,
		map[string]any{"m": id, "a": after})
	n := after
	for raw := range got {
		var d struct {
			Replay struct {
				Version  int64
				Type     string
				Hash     string
				Redacted bool
				Data     json.RawMessage
			}
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if n >= len(final.Lines) {
			t.Fatalf("%s %q: replayed more than the match: %s", protocol, token, raw)
		}
		want := final.Lines[n]
		if int64(n) < live.Header.Version {
			want = live.Lines[n]
		}
		e := d.Replay
		if e.Version != want.Version || e.Type != want.Type || e.Hash != want.Hash || e.Redacted != want.Redacted || !sameJSON(t, e.Data, want.Payload) {
			t.Fatalf("%s %q: replay event %d is %s\nthe export has version %d %s %s redacted %v %s", protocol, token, n-after, raw, want.Version, want.Type, want.Hash, want.Redacted, want.Payload)
		}
		if e.Redacted {
			hidden++
			if whole := final.Lines[n].Payload; len(whole) > 16 && bytes.Contains(raw, whole) {
				t.Fatalf("%s %q: replayed version %d is marked hidden but carries its payload %s", protocol, token, e.Version, whole)
			}
		}
		n++
	}
	if !completed() {
		t.Fatalf("%s %q: the replay ended after %d events without completing (ctx: %v)", protocol, token, n-after, ctx.Err())
	}
	if n != len(final.Lines) || final.Lines[after].Version != int64(after+1) {
		t.Fatalf("%s %q: replayed %d events after version %d, the export has %d", protocol, token, n-after, after, len(final.Lines)-after)
	}
	return hidden
}

// sameJSON reports whether two JSON values are equal as values; an absent one is null.
func sameJSON(t testing.TB, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	for _, p := range []struct {
		raw json.RawMessage
		v   *any
	}{{a, &x}, {b, &y}} {
		if len(p.raw) == 0 {
			continue
		}
		if err := json.Unmarshal(p.raw, p.v); err != nil {
			t.Fatalf("%s: %v", p.raw, err)
		}
	}
	return reflect.DeepEqual(x, y)
}

// editLine returns the lines with the event of version edited by edit.
func editLine(t testing.TB, lines [][]byte, version int, edit func(map[string]any)) [][]byte {
	t.Helper()
	out := append([][]byte{}, lines...)
	var l map[string]any
	if err := json.Unmarshal(out[version], &l); err != nil {
		t.Fatal(err)
	}
	edit(l)
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	out[version] = b
	return out
}

func writeTemp(t testing.TB, dir string, lines [][]byte) string {
	t.Helper()
	f, err := os.CreateTemp(dir, "tampered-*.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(bytes.Join(lines, []byte("\n")), '\n')); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// The PGN export of a real match, read by chess.js unchanged; and what is not a PGN.
func TestPGNExportReadByChessJS(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "Wanda")
	_, black := srv.register(t, "Boris")
	id := srv.newMatch(t, white, black, false)
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	status, ctype, pgn := srv.getExport(t, "", id+".pgn")
	if status != http.StatusOK || ctype != "application/x-chess-pgn; charset=utf-8" {
		t.Fatalf("GET %s.pgn: %d %s\n%s", id, status, ctype, pgn)
	}
	for _, want := range []string{`[White "Wanda"]`, `[Black "Boris"]`, `[Result "0-1"]`, "1. f3 e5 2. g4 Qh4# 0-1"} {
		if !strings.Contains(string(pgn), want) {
			t.Errorf("the PGN lacks %q:\n%s", want, pgn)
		}
	}

	unfair := srv.startGame(t, "UNFAIR_CHESS", white, black)
	for file, want := range map[string]int{
		unfair + ".pgn": http.StatusNotFound, "nosuchmatch.pgn": http.StatusNotFound,
		id + ".txt": http.StatusNotFound, id: http.StatusNotFound,
	} {
		if status, _, body := srv.getExport(t, "", file); status != want || !strings.Contains(string(body), "NOT_FOUND") {
			t.Errorf("GET /matches/%s: %d %s, want %d NOT_FOUND", file, status, body, want)
		}
	}
	if status, _, body := srv.getExport(t, "not-a-token", id+".ndjson"); status != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d %s", status, body)
	}

	node, pkg, err := chessJS(t)
	if err != nil {
		t.Skipf("chess.js is not available here, so the PGN is not read by it: %v", err)
	}
	script := `const {Chess} = require(process.argv[1]);
const pgn = require('fs').readFileSync(0, 'utf8');
const c = new Chess(); c.loadPgn(pgn);
console.log(JSON.stringify({history: c.history(), mate: c.isCheckmate(), headers: c.getHeaders ? c.getHeaders() : c.header()}));`
	cmd := exec.Command(node, "-e", script, pkg)
	cmd.Stdin = bytes.NewReader(pgn)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chess.js refused the PGN: %v\n%s\n%s", err, out, pgn)
	}
	var read struct {
		History []string
		Mate    bool
		Headers map[string]string
	}
	if err := json.Unmarshal(out, &read); err != nil {
		t.Fatalf("node printed %s: %v", out, err)
	}
	if strings.Join(read.History, " ") != "f3 e5 g4 Qh4#" || !read.Mate || read.Headers["Result"] != "0-1" || read.Headers["Site"] != "match "+id {
		t.Errorf("chess.js read %+v from\n%s", read, pgn)
	}
}

// chessJS finds node and the npm package chess.js: under $ARBITER_CHESSJS (a directory
// holding node_modules/chess.js), else installed by npm into the user's cache once.
func chessJS(t testing.TB) (node, pkg string, err error) {
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", err
	}
	dir := os.Getenv("ARBITER_CHESSJS")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", "", err
		}
		dir = filepath.Join(cache, "arbiter-test-chessjs")
	}
	pkg = filepath.Join(dir, "node_modules", "chess.js")
	if _, err := os.Stat(pkg); err == nil {
		return node, pkg, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", "", errors.New("no npm to install chess.js with")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "chess.js@1").CombinedOutput(); err != nil {
		return "", "", errors.New("npm install chess.js: " + err.Error() + ": " + string(out))
	}
	t.Logf("installed chess.js into %s", dir)
	return node, pkg, nil
}

// The replay subscription over a real websocket: a finished match from a version on, each
// event as matchEvents shows it, then complete.
func TestReplaySubscription(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "Wanda")
	_, black := srv.register(t, "Boris")
	id := srv.newMatch(t, white, black, false)
	if got := srv.subscriptionError(t, `subscription($m:ID!){replay(matchId:$m){version}}`, map[string]any{"m": id}); !strings.Contains(got, "BAD_USER_INPUT") {
		t.Errorf("the replay of a live match: %s, want BAD_USER_INPUT", got)
	}
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if r := srv.play(t, []string{white, black}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	for _, speed := range []float64{0, -1, 1e6} {
		if got := srv.subscriptionError(t, `subscription($m:ID!,$s:Float){replay(matchId:$m, speed:$s){version}}`, map[string]any{"m": id, "s": speed}); !strings.Contains(got, "BAD_USER_INPUT") {
			t.Errorf("speed %g: %s, want BAD_USER_INPUT", speed, got)
		}
	}
	_, _, body := srv.getExport(t, "", id+".ndjson")
	x := exportOf(t, body)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const after = 6 // seek past the opening: the first move is version 7
	got := srv.subscribeRaw(t, ctx, "graphql-transport-ws", "",
		`subscription($m:ID!,$a:Int){replay(matchId:$m, speed:1000, after:$a){version type hash}}`, map[string]any{"m": id, "a": after})
	want := x.Lines[after:]
	n := 0
	for raw := range got { // closes when the server completes the replay
		var d struct {
			Replay struct {
				Version int64
				Type    string
				Hash    string
			}
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if n >= len(want) {
			t.Fatalf("replayed more than the match: %+v", d.Replay)
		}
		if w := want[n]; d.Replay.Version != w.Version || d.Replay.Type != w.Type || d.Replay.Hash != w.Hash {
			t.Fatalf("replay event %d: %+v, the export has version %d %s %s", n, d.Replay, w.Version, w.Type, w.Hash)
		}
		n++
	}
	if n != len(want) || want[0].Version != after+1 {
		t.Fatalf("replayed %d events after version %d, want %d", n, after, len(want))
	}
}

// subscriptionError sends a subscription the server must refuse over a real websocket and
// returns the refusal: an error message, or an error result.
func (s *server) subscriptionError(t testing.TB, query string, vars map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	var msg struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := wsjson.Write(ctx, conn, map[string]any{"type": "connection_init"}); err != nil {
		t.Fatal(err)
	}
	if err := wsjson.Read(ctx, conn, &msg); err != nil || msg.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v, %v", msg, err)
	}
	if err := wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}); err != nil {
		t.Fatal(err)
	}
	for {
		if err := wsjson.Read(ctx, conn, &msg); err != nil {
			t.Fatalf("no answer to the subscription: %v", err)
		}
		switch msg.Type {
		case "error": // refused before it ran
			return string(msg.Payload)
		case "next": // refused by its resolver: an error result, then complete
			if bytes.Contains(msg.Payload, []byte(`"errors"`)) {
				return string(msg.Payload)
			}
			t.Fatalf("the subscription was accepted: %s", msg.Payload)
		case "complete":
			t.Fatalf("the subscription was accepted: %s %s", msg.Type, msg.Payload)
		}
	}
}
