package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/matchstream"
)

// The twins: two servers that store the same bytes for the same requests (one seeded
// stream of random bytes each, alike, one frozen clock, one server key), so that a test
// plays the same match on both, request for request, except for a hidden action on the
// first, and shows that whoever may not see it reads the same bytes from both: the
// hidden action leaves no trace outside its team. Solwaris's traps and Ajedrez Mágico's
// team signals are shown so.

// twinRandom is seeded random bytes that goroutines may share: one stream per size of
// read, so that the server's background work (a hold's ID drawn by the settlement process
// while the engine salts an event) draws the same bytes on both twins whichever comes
// first.
type twinRandom struct {
	mu     sync.Mutex
	bySize map[int]*rand.ChaCha8
}

func (l *twinRandom) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.bySize[len(p)]
	if r == nil {
		r = rand.NewChaCha8([32]byte{'t', 'w', 'i', 'n', byte(len(p))})
		l.bySize[len(p)] = r
	}
	return r.Read(p)
}

var _ io.Reader = (*twinRandom)(nil)

// twins are the two servers and the match played on both. srv[0] is where the hidden
// action happens.
type twins struct {
	t      *testing.T
	ctx    context.Context
	srv    [2]*server
	reg    *game.Registry
	dir    string
	key    string // the server key both use
	fields string // the game's fields of Match every query and update asks (its state, all of it)
	secret string // what happens on srv[0] alone, for the failures: "the trap"
	id     string
	vars   map[string]any
	n      int // commands sent
	// watchers are who may not see the secret: each reads the twins alike.
	watchers []twinWatcher
	subs     map[string][2]<-chan json.RawMessage
}

// twinWatcher is a reader of the match who may not see the secret; token "" for a
// spectator.
type twinWatcher struct {
	name, token string
}

// startTwins starts two twin servers hosting reg, each on a store of its own.
func startTwins(t *testing.T, ctx context.Context, reg *game.Registry, fields, secret string) *twins {
	t.Helper()
	tw := &twins{t: t, ctx: ctx, reg: reg, dir: t.TempDir(), fields: fields, secret: secret, subs: map[string][2]<-chan json.RawMessage{}}
	tw.key = filepath.Join(tw.dir, "server.key")
	frozen := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i := range tw.srv {
		random := &twinRandom{bySize: map[int]*rand.ChaCha8{}}
		tctx := twinOf(hostingGames(context.Background(), reg), func() time.Time { return frozen }, random)
		// One key, but a head log each: the heads of two stores that differ (the secret)
		// logged in one file would tell verify that the store was rewritten.
		tw.srv[i] = startServerIn(t, tctx, filepath.Join(tw.dir, fmt.Sprintf("twin%d.db", i)), "--key", tw.key, "--head-log", tw.headLog(i))
	}
	return tw
}

// headLog is the head log of twin i.
func (tw *twins) headLog(i int) string { return filepath.Join(tw.dir, fmt.Sprintf("twin%d.heads", i)) }

// register registers the players on both twins, which must give each the same ID and
// token, and returns their tokens.
func (tw *twins) register(names ...string) []string {
	tw.t.Helper()
	var tokens []string
	for _, name := range names {
		var ids, toks [2]string
		for i, srv := range tw.srv {
			ids[i], toks[i] = srv.register(tw.t, name)
		}
		if ids[0] != ids[1] || toks[0] != toks[1] {
			tw.t.Fatalf("the twins registered %s as %v, %v: they are no twins", name, ids, toks)
		}
		tokens = append(tokens, toks[0])
	}
	return tokens
}

// each sends the same request to both twins, checks that they answer alike, and decodes
// the answer into v (unless nil).
func (tw *twins) each(tok, query string, vars map[string]any, v any) {
	tw.t.Helper()
	var answers [2]json.RawMessage
	for i, srv := range tw.srv {
		srv.must(tw.t, tok, query, vars, &answers[i])
	}
	if !bytes.Equal(answers[0], answers[1]) {
		tw.t.Fatalf("the twins answer %s differently:\n%s\n%s", query, answers[0], answers[1])
	}
	if v != nil {
		if err := json.Unmarshal(answers[0], v); err != nil {
			tw.t.Fatal(err)
		}
	}
}

// create creates the match on both with tok's createMatch mutation (which must select
// match{id}).
func (tw *twins) create(tok, mutation string) {
	tw.t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	tw.each(tok, mutation, nil, &c)
	tw.id = c.CreateMatch.Match.ID
	tw.vars = map[string]any{"m": tw.id}
}

// cmd sends a command to both twins, with $m the match and $k a command ID of its own,
// and the variables extra.
func (tw *twins) cmd(tok, mutation string, extra map[string]any) {
	tw.t.Helper()
	tw.n++
	v := map[string]any{"m": tw.id, "k": fmt.Sprintf("cmd-%d", tw.n)}
	for k, x := range extra {
		v[k] = x
	}
	tw.each(tok, mutation, v, nil)
}

// on sends a command to one twin alone (the secret), with $m the match and the variables
// extra, and decodes its answer into v.
func (tw *twins) on(i int, tok, mutation string, extra map[string]any, v any) {
	tw.t.Helper()
	vars := map[string]any{"m": tw.id}
	for k, x := range extra {
		vars[k] = x
	}
	tw.srv[i].must(tw.t, tok, mutation, vars, v)
}

// version is the match's public version, alike on both.
func (tw *twins) version(tok string) int {
	tw.t.Helper()
	var v struct{ Match struct{ Version int } }
	tw.each(tok, `query($m:ID!){match(id:$m){version}}`, tw.vars, &v)
	return v.Match.Version
}

// twinEnd is how a match ended.
type twinEnd struct {
	Version int
	Status  string
	Result  struct {
		Winners []int
		Reason  string
	}
}

// resign has tok resign on both twins, and returns the match's last version before it
// and how the match ended, as reader reads it on both.
func (tw *twins) resign(tok, reader string) (live int, end twinEnd) {
	tw.t.Helper()
	live = tw.version(reader)
	tw.cmd(tok, `mutation($m:ID!,$k:ID){resign(matchId:$m, commandId:$k){version}}`, nil)
	var e struct{ Match twinEnd }
	tw.each(reader, `query($m:ID!){match(id:$m){version status result{winners reason}}}`, tw.vars, &e)
	return live, e.Match
}

// The queries and subscriptions every watcher reads, every field asked.
func (tw *twins) matchQuery() string {
	return `query($m:ID!){match(id:$m){id game rulesVersion status rated options{key value} version
	seats{seat team player{id name} awaySince} turn toAct choices mySeat phase moves pgn drawOfferBy result{winners draw reason}
	seedCommitment seed createdAt rematchOf clock{control initialMs incrementMs seats{seat} running}
	events{matchId version position type schemaVersion at actor visibility data redacted hash prevHash}
	` + tw.fields + `}}`
}

const (
	twinEventsSub = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){matchId version position type schemaVersion at actor
		visibility data redacted hash prevHash}}`
	twinReplaySub = `subscription($m:ID!){replay(matchId:$m, speed:10000){matchId version position type schemaVersion at actor
		visibility data redacted hash prevHash}}`
)

func (tw *twins) updatesSub() string {
	return `subscription($m:ID!){matchUpdates(matchId:$m){id status version turn toAct phase seats{seat player{id}}
		seedCommitment seed result{winners reason} ` + tw.fields + `}}`
}

// open subscribes on both twins, under label.
func (tw *twins) open(label, tok, protocol, query string, v map[string]any) {
	tw.t.Helper()
	var chans [2]<-chan json.RawMessage
	for i, srv := range tw.srv {
		chans[i] = srv.subscribeRaw(tw.t, tw.ctx, protocol, tok, query, v)
	}
	tw.subs[label] = chans
}

// watch opens, for each watcher, matchEvents from the start and matchUpdates over both
// websocket protocols.
func (tw *twins) watch(ws ...twinWatcher) {
	tw.t.Helper()
	tw.watchers = append(tw.watchers, ws...)
	for _, w := range ws {
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			tw.open(w.name+" matchEvents "+protocol, w.token, protocol, twinEventsSub, map[string]any{"m": tw.id, "a": 0})
			tw.open(w.name+" matchUpdates "+protocol, w.token, protocol, tw.updatesSub(), tw.vars)
		}
	}
}

// resume opens, for each watcher, matchEvents resumed after version over both protocols.
func (tw *twins) resume(after int) {
	tw.t.Helper()
	for _, w := range tw.watchers {
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			tw.open(w.name+" matchEvents after "+protocol, w.token, protocol, twinEventsSub, map[string]any{"m": tw.id, "a": after})
		}
	}
}

// compare checks that each watcher reads the same from both twins now: the whole match
// as a query reads it (its version, its events with their versions, positions, times and
// hashes, the state with every field), the receipt, and the ndjson export.
func (tw *twins) compare(when string) {
	tw.t.Helper()
	for _, w := range tw.watchers {
		var got [2][]byte
		for i, srv := range tw.srv {
			r := srv.post(tw.t, w.token, tw.matchQuery(), tw.vars)
			if len(r.Errors) > 0 {
				tw.t.Fatalf("%s: %+v", when, r.Errors)
			}
			var rc struct{ Receipt json.RawMessage }
			srv.must(tw.t, w.token, `query($m:ID!){receipt(matchId:$m){matchId size root note}}`, tw.vars, &rc)
			status, _, export := srv.getExport(tw.t, w.token, tw.id+".ndjson")
			if status != 200 {
				tw.t.Fatalf("%s: the export answered %d: %s", when, status, export)
			}
			got[i] = slices.Concat([]byte(r.Data), []byte("\n"), rc.Receipt, []byte("\n"), withoutExportTime(tw.t, export))
		}
		if !bytes.Equal(got[0], got[1]) {
			tw.t.Fatalf("%s, %s reads the twins differently:\nwith %s    %s\nwithout %s %s", when, w.name, tw.secret, got[0], tw.secret, got[1])
		}
	}
	tw.comparePolled(when)
}

// comparePolled checks that what anyone may poll outside the API reads the same on both
// twins: the signed head a client keeps in a head log of its own (/signed-head), and
// readiness (/readyz). /metrics is left out: it is the operator's, and counts every
// command, covert ones included (docs/operations.md, What the server exposes).
func (tw *twins) comparePolled(when string) {
	tw.t.Helper()
	for _, path := range []string{"/signed-head", "/readyz"} {
		var got [2][]byte
		for i, srv := range tw.srv {
			resp, err := http.Get(srv.url + path)
			if err != nil {
				tw.t.Fatalf("%s: %s: %v", when, path, err)
			}
			got[i], err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				tw.t.Fatalf("%s: %s answered %d: %s (%v)", when, path, resp.StatusCode, got[i], err)
			}
		}
		if !bytes.Equal(got[0], got[1]) {
			tw.t.Fatalf("%s, a spectator polls %s differently on the twins:\nwith %s    %s\nwithout %s %s", when, path, tw.secret, got[0], tw.secret, got[1])
		}
	}
}

// teamReceipt is the receipt of tok's team's hidden stream on twin i, or the error's
// code.
func (tw *twins) teamReceipt(i int, tok string) (r struct {
	Size int
	Note string
}, code string) {
	tw.t.Helper()
	resp := tw.srv[i].post(tw.t, tok, `query($m:ID!){teamReceipt(matchId:$m){matchId size root note}}`, tw.vars)
	if code = resp.code(); code == "" {
		var d struct {
			TeamReceipt struct {
				Size int
				Note string
			}
		}
		if err := json.Unmarshal(resp.Data, &d); err != nil {
			tw.t.Fatal(err)
		}
		r = d.TeamReceipt
	}
	return r, code
}

// drain reads every subscription on each twin up to the match's last version, end, once
// the paced replay is opened for each watcher too, and compares the twins: matchUpdates
// by compareUpdates (alike up to live, the last version before the end), the others
// whole.
func (tw *twins) drain(end, live int) {
	tw.t.Helper()
	for _, w := range tw.watchers {
		tw.open(w.name+" replay", w.token, "graphql-transport-ws", twinReplaySub, tw.vars)
	}
	for label, chans := range tw.subs {
		var got [2][]json.RawMessage
		for i, ch := range chans {
			for seen := 0; seen < end; {
				select {
				case data, ok := <-ch:
					if !ok {
						tw.t.Fatalf("%s on twin %d closed at version %d of %d", label, i, seen, end)
					}
					seen = versionOf(tw.t, data)
					got[i] = append(got[i], data)
				case <-tw.ctx.Done():
					tw.t.Fatalf("%s on twin %d: %v at version %d of %d", label, i, tw.ctx.Err(), seen, end)
				}
			}
		}
		if updates(label) {
			compareUpdates(tw.t, label, got, live, tw.secret)
			continue
		}
		if !slices.EqualFunc(got[0], got[1], func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			tw.t.Fatalf("%s differs between the twins:\nwith %s    %s\nwithout %s %s", label, tw.secret, got[0], tw.secret, got[1])
		}
	}
}

// updates reports whether a subscription's label is a matchUpdates one.
func updates(label string) bool { return strings.Contains(label, " matchUpdates ") }

// compareUpdates compares what one matchUpdates subscription delivered on each twin. The
// server may send changes in quick succession as one, so the two may not hold the same
// versions; but no version comes twice (a hidden event woke nobody), the last is the
// match's end, and every version both delivered is the same, byte for byte, up to live
// (after it the finished state may reveal the secret, as the rules say).
func compareUpdates(t *testing.T, label string, got [2][]json.RawMessage, live int, secret string) {
	t.Helper()
	byVersion := [2]map[int]json.RawMessage{{}, {}}
	for i, updates := range got {
		for _, u := range updates {
			v := versionOf(t, u)
			if _, twice := byVersion[i][v]; twice {
				t.Fatalf("%s on twin %d delivered version %d twice", label, i, v)
			}
			byVersion[i][v] = u
		}
	}
	shared := 0
	for v, a := range byVersion[0] {
		if b, ok := byVersion[1][v]; ok && v <= live {
			shared++
			if !bytes.Equal(a, b) {
				t.Fatalf("%s at version %d differs between the twins:\nwith %s    %s\nwithout %s %s", label, v, secret, a, secret, b)
			}
		}
	}
	if shared < 5 {
		t.Fatalf("%s: the twins delivered only %d versions alike", label, shared)
	}
}

// versionOf reads the version of a subscription's payload (matchEvents, matchUpdates or
// replay).
func versionOf(t *testing.T, data json.RawMessage) int {
	t.Helper()
	var p map[string]struct{ Version int }
	if err := json.Unmarshal(data, &p); err != nil || len(p) != 1 {
		t.Fatalf("a payload without a version: %s (%v)", data, err)
	}
	for _, x := range p {
		return x.Version
	}
	return 0
}

// withoutExportTime is an ndjson export without its header's exportedAt, the time of the
// request (read from the system clock): the rest is the match's.
func withoutExportTime(t *testing.T, export []byte) []byte {
	t.Helper()
	header, rest, _ := bytes.Cut(export, []byte("\n"))
	var h map[string]any
	if err := json.Unmarshal(header, &h); err != nil {
		t.Fatalf("the export's header %s: %v", header, err)
	}
	delete(h, "exportedAt")
	out, _ := json.Marshal(h)
	return slices.Concat(out, []byte("\n"), rest)
}

// verifyTeamReceipt stops the first twin and has `arbiter verify` check its store whole
// and, against the receipt tok's team holds of its hidden stream (team), that the store
// still holds the events the receipt signed, size of them.
func (tw *twins) verifyTeamReceipt(tok string, team, size int) {
	tw.t.Helper()
	r0, _ := tw.teamReceipt(0, tok)
	file := filepath.Join(tw.dir, "team.receipt")
	if err := os.WriteFile(file, []byte(r0.Note), 0o600); err != nil {
		tw.t.Fatal(err)
	}
	tw.srv[0].stop(tw.t)
	hidden := matchstream.Hidden(tw.id, team)
	var out, errOut bytes.Buffer
	if code := run(hostingGames(context.Background(), tw.reg), []string{"verify", "--db", tw.srv[0].db, "--key", tw.key, "--head-log", tw.headLog(0), "--match", hidden, "--receipt", file}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), fmt.Sprintf("ok   receipt: match %s still holds the %d events", hidden, size)) {
		tw.t.Fatalf("verify with the team receipt: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := run(hostingGames(context.Background(), tw.reg), []string{"verify", "--db", tw.srv[0].db, "--key", tw.key, "--head-log", tw.headLog(0)}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "all ok") {
		tw.t.Fatalf("verify of the store with the secret: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}
