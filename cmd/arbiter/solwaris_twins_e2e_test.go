package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/matchstream"
)

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

// matchQuery reads every field of a match a client may ask for, its events' and its
// Solwaris state's included.
const matchQuery = `query($m:ID!){match(id:$m){id game rulesVersion status rated options{key value} version
	seats{seat team player{id name} awaySince} turn toAct choices mySeat phase moves pgn drawOfferBy result{winners draw reason}
	seedCommitment seed createdAt rematchOf clock{control initialMs incrementMs seats{seat} running}
	events{matchId version position type schemaVersion at actor visibility data redacted hash prevHash}
	state{` + solwarisFullState + `}}}`

// eventsSub and updatesSub are the two subscriptions of a match, every field asked.
const (
	eventsSub = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){matchId version position type schemaVersion at actor
		visibility data redacted hash prevHash}}`
	updatesSub = `subscription($m:ID!){matchUpdates(matchId:$m){id status version turn toAct phase seats{seat player{id}}
		seedCommitment seed result{winners reason} state{` + solwarisFullState + `}}}`
	replaySub = `subscription($m:ID!){replay(matchId:$m, speed:10000){matchId version position type schemaVersion at actor
		visibility data redacted hash prevHash}}`
)

// A trap laid leaves no trace outside its team, on any surface: two servers, twins (one
// seeded stream of random bytes each, alike, and one frozen clock, so that the same
// requests make the same IDs, seeds, tokens and times, and one server key), host the same
// Solwaris duel, request for request, except that on the first ann lays a trap. Everything
// bob (the other team) and a spectator receive from each, until the match ends, is then
// the same, byte for byte: the whole match as a query reads it (its version, its events
// with their versions, positions, times and hashes, the state with every field), the
// receipt, the ndjson export, matchEvents from the start and resumed from a version after
// the trap over both websocket protocols, matchUpdates over both, and, once over, the
// paced replay. Only once the match is over may the trap show: then, as the rules say,
// every secret is revealed, and the finished state of the first shows ann's trap.
func TestATrapLeavesNoTraceOutsideItsTeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	reg := game.NewRegistry(solwaris.Rules{Catalog: trapCatalog(t)})
	dir := t.TempDir()
	key := filepath.Join(dir, "server.key")
	frozen := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	twins := make([]*server, 2) // twins[0]: the trap is laid there
	for i := range twins {
		random := &twinRandom{bySize: map[int]*rand.ChaCha8{}}
		tctx := twinOf(hostingGames(context.Background(), reg), func() time.Time { return frozen }, random)
		twins[i] = startServerIn(t, tctx, filepath.Join(dir, fmt.Sprintf("twin%d.db", i)), "--key", key)
	}
	// each sends the same request to both twins and checks that they answer alike.
	var tokens []string
	each := func(tok, query string, vars map[string]any, v any) {
		t.Helper()
		var answers [2]json.RawMessage
		for i, srv := range twins {
			srv.must(t, tok, query, vars, &answers[i])
		}
		if !bytes.Equal(answers[0], answers[1]) {
			t.Fatalf("the twins answer %s differently:\n%s\n%s", query, answers[0], answers[1])
		}
		if v != nil {
			if err := json.Unmarshal(answers[0], v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"ann", "bob"} {
		var ids, toks [2]string
		for i, srv := range twins {
			ids[i], toks[i] = srv.register(t, name)
		}
		if ids[0] != ids[1] || toks[0] != toks[1] {
			t.Fatalf("the twins registered %s as %v, %v: they are no twins", name, ids, toks)
		}
		tokens = append(tokens, toks[0])
	}
	ann, bob := tokens[0], tokens[1]
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	each(ann, `mutation{createMatch(input:{game:SOLWARIS, options:[{key:"map", value:"caveau"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	vars := map[string]any{"m": id}
	n := 0
	cmd := func(tok, mutation string, extra map[string]any) {
		t.Helper()
		n++
		v := map[string]any{"m": id, "k": fmt.Sprintf("cmd-%d", n)}
		for k, x := range extra {
			v[k] = x
		}
		each(tok, mutation, v, nil)
	}
	for seat, tok := range tokens {
		cmd(tok, `mutation($m:ID!,$s:Int,$k:ID){joinMatch(matchId:$m, seat:$s, commandId:$k){seat}}`, map[string]any{"s": seat})
	}

	// What bob and the spectator receive, from each twin.
	type watcher struct {
		name, token string
	}
	watchers := []watcher{{"bob", bob}, {"spectator", ""}}
	subs := map[string][2]<-chan json.RawMessage{}
	open := func(label, tok, protocol, query string, v map[string]any) {
		var chans [2]<-chan json.RawMessage
		for i, srv := range twins {
			chans[i] = srv.subscribeRaw(t, ctx, protocol, tok, query, v)
		}
		subs[label] = chans
	}
	for _, w := range watchers {
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			open(w.name+" matchEvents "+protocol, w.token, protocol, eventsSub, map[string]any{"m": id, "a": 0})
			open(w.name+" matchUpdates "+protocol, w.token, protocol, updatesSub, vars)
		}
	}
	// compare reads what bob and the spectator read of the match now from each twin.
	compare := func(when string) {
		t.Helper()
		for _, w := range watchers {
			var got [2][]byte
			for i, srv := range twins {
				r := srv.post(t, w.token, matchQuery, vars)
				if len(r.Errors) > 0 {
					t.Fatalf("%s: %+v", when, r.Errors)
				}
				var rc struct{ Receipt json.RawMessage }
				srv.must(t, w.token, `query($m:ID!){receipt(matchId:$m){matchId size root note}}`, vars, &rc)
				status, _, export := srv.getExport(t, w.token, id+".ndjson")
				if status != 200 {
					t.Fatalf("%s: the export answered %d: %s", when, status, export)
				}
				got[i] = slices.Concat([]byte(r.Data), []byte("\n"), rc.Receipt, []byte("\n"), withoutExportTime(t, export))
			}
			if !bytes.Equal(got[0], got[1]) {
				t.Fatalf("%s, %s reads the twins differently:\nwith the trap    %s\nwithout the trap %s", when, w.name, got[0], got[1])
			}
		}
	}

	// To play: ann the Guerrier, bob the Arcaniste, placed near each other; ann buys the
	// initiative.
	for seat, class := range []string{"guerrier", "arcaniste"} {
		cmd(tokens[seat], `mutation($m:ID!,$c:String!,$k:ID){chooseGrimoire(matchId:$m, class:$c, commandId:$k){version}}`, map[string]any{"c": class})
	}
	var st solwarisState
	each(ann, solwarisStateQuery, vars, &st)
	annCell := st.Match.State.PlacementCells[0]
	cmd(ann, `mutation($m:ID!,$c:String!,$k:ID){placeFighter(matchId:$m, cell:$c, commandId:$k){version}}`, map[string]any{"c": annCell})
	each(bob, solwarisStateQuery, vars, &st)
	bobCell := slices.MinFunc(st.Match.State.PlacementCells, func(a, b string) int { return nearest(a, []string{annCell}) - nearest(b, []string{annCell}) })
	cmd(bob, `mutation($m:ID!,$c:String!,$k:ID){placeFighter(matchId:$m, cell:$c, commandId:$k){version}}`, map[string]any{"c": bobCell})
	for each(ann, solwarisStateQuery, vars, &st); st.Match.State.Phase == "auction"; each(ann, solwarisStateQuery, vars, &st) {
		seat := st.Match.ToAct[0]
		q := `mutation($m:ID!,$k:ID){passBid(matchId:$m, commandId:$k){version}}`
		if seat == 0 && st.Match.State.Auction.Price == 0 {
			q = `mutation($m:ID!,$k:ID){bid(matchId:$m, commandId:$k){version}}`
		}
		cmd(tokens[seat], q, nil)
	}
	if st.Match.State.Phase != "play" || st.Match.ToAct[0] != 0 {
		t.Fatalf("after the auction: %+v, to act %v", st.Match.State, st.Match.ToAct)
	}

	// ann walks towards bob until a cell two or more from both may take her trap.
	trap := ""
	for tries := 0; trap == ""; tries++ {
		each(ann, solwarisStateQuery, vars, &st)
		s := st.Match.State
		annCell, bobCell = s.Fighters[0].Cell, s.Fighters[1].Cell
		for _, sp := range s.Targets {
			for _, cell := range sp.Cells {
				if sp.Spell == trapSpell && trap == "" && nearest(cell, []string{annCell}) >= 2 && nearest(cell, []string{bobCell}) >= 2 {
					trap = cell
				}
			}
		}
		if trap != "" {
			break
		}
		best, to := nearest(annCell, []string{bobCell}), ""
		for _, r := range s.Reachable {
			if d := nearest(r.Cell, []string{bobCell}); d < best && d >= 3 {
				best, to = d, r.Cell
			}
		}
		switch {
		case tries > 20:
			t.Fatalf("ann (%s) finds no cell for her trap near bob (%s): %+v", annCell, bobCell, s)
		case to != "":
			cmd(ann, `mutation($m:ID!,$p:[String!]!,$k:ID){moveFighter(matchId:$m, path:$p, commandId:$k){version}}`, map[string]any{"p": walk(s.Reachable, to)})
		default:
			cmd(ann, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
			cmd(bob, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
		}
	}
	var before struct{ Match struct{ Version int } }
	each(bob, `query($m:ID!){match(id:$m){version}}`, vars, &before)
	compare("before the trap")

	// On the first twin alone, ann lays her trap; her answer is the match's version, which
	// did not move, and she sees her trap.
	var laid struct{ CastSpell struct{ Version int } }
	twins[0].must(t, ann, `mutation($m:ID!,$s:String!,$c:String!){castSpell(matchId:$m, spell:$s, cell:$c, commandId:"trap"){version}}`,
		map[string]any{"m": id, "s": trapSpell, "c": trap}, &laid)
	if laid.CastSpell.Version != before.Match.Version {
		t.Fatalf("the trap's cast answers version %d; the match was at %d", laid.CastSpell.Version, before.Match.Version)
	}
	if traps := stateOf(t, fullState(t, twins[0], ann, id)).Traps; len(traps) != 1 || traps[0].Cell != trap {
		t.Fatalf("ann does not see her trap on %s: %+v", trap, traps)
	}
	compare("after the trap")
	// ann's team's receipt covers its hidden stream: the trap's two events on the first
	// twin, none on the second; bob's is his team's, alike on both; a spectator has none.
	teamReceipt := func(srv *server, tok string) (r struct {
		Size int
		Note string
	}, code string) {
		t.Helper()
		resp := srv.post(t, tok, `query($m:ID!){teamReceipt(matchId:$m){matchId size root note}}`, vars)
		if code = resp.code(); code == "" {
			var d struct {
				TeamReceipt struct {
					Size int
					Note string
				}
			}
			if err := json.Unmarshal(resp.Data, &d); err != nil {
				t.Fatal(err)
			}
			r = d.TeamReceipt
		}
		return r, code
	}
	if r0, _ := teamReceipt(twins[0], ann); r0.Size != 2 {
		t.Fatalf("ann's team receipt covers %d events; want the trap's cast and its laying", r0.Size)
	}
	if r1, _ := teamReceipt(twins[1], ann); r1.Size != 0 {
		t.Fatalf("ann's team receipt without a trap covers %d events", r1.Size)
	}
	b0, _ := teamReceipt(twins[0], bob)
	if b1, _ := teamReceipt(twins[1], bob); b0 != b1 || b0.Size != 0 {
		t.Fatalf("bob's team receipt differs between the twins or is not empty: %+v, %+v", b0, b1)
	}
	for _, srv := range twins {
		if _, code := teamReceipt(srv, ""); code != "FORBIDDEN" {
			t.Fatalf("a spectator's team receipt: %q, want FORBIDDEN", code)
		}
	}
	for _, w := range watchers {
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			open(w.name+" matchEvents after "+protocol, w.token, protocol, eventsSub, map[string]any{"m": id, "a": before.Match.Version - 2})
		}
	}

	// ann ends her turn; bob, who sees the arena as if no trap lay there, ends his; ann
	// resigns.
	cmd(ann, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
	compare("in bob's turn")
	cmd(bob, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
	compare("in ann's next turn")
	var live struct{ Match struct{ Version int } }
	each(bob, `query($m:ID!){match(id:$m){version}}`, vars, &live)
	cmd(ann, `mutation($m:ID!,$k:ID){resign(matchId:$m, commandId:$k){version}}`, nil)
	var end struct {
		Match struct {
			Version int
			Status  string
			Result  struct {
				Winners []int
				Reason  string
			}
		}
	}
	each(bob, `query($m:ID!){match(id:$m){version status result{winners reason}}}`, vars, &end)
	if end.Match.Status != "FINISHED" || !slices.Equal(end.Match.Result.Winners, []int{1}) {
		t.Fatalf("after ann resigned the match is %s, %+v: her resignation gives bob the win", end.Match.Status, end.Match.Result)
	}
	for _, w := range watchers {
		open(w.name+" replay", w.token, "graphql-transport-ws", replaySub, vars)
	}

	// Every subscription, on each twin, up to the end.
	for label, chans := range subs {
		var got [2][]json.RawMessage
		for i, ch := range chans {
			for seen := 0; seen < end.Match.Version; {
				select {
				case data, ok := <-ch:
					if !ok {
						t.Fatalf("%s on twin %d closed at version %d of %d", label, i, seen, end.Match.Version)
					}
					seen = versionOf(t, data)
					got[i] = append(got[i], data)
				case <-ctx.Done():
					t.Fatalf("%s on twin %d: %v at version %d of %d", label, i, ctx.Err(), seen, end.Match.Version)
				}
			}
		}
		if slices.Contains([]string{"bob matchUpdates graphql-ws", "bob matchUpdates graphql-transport-ws",
			"spectator matchUpdates graphql-ws", "spectator matchUpdates graphql-transport-ws"}, label) {
			compareUpdates(t, label, got, live.Match.Version)
			continue
		}
		if !slices.EqualFunc(got[0], got[1], func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Fatalf("%s differs between the twins:\nwith the trap    %s\nwithout the trap %s", label, got[0], got[1])
		}
	}

	// Over: every secret is revealed, the trap with them, on the first twin alone.
	if traps := stateOf(t, fullState(t, twins[0], bob, id)).Traps; len(traps) != 1 || traps[0].Cell != trap {
		t.Fatalf("the finished match does not show ann's trap on %s: %+v", trap, traps)
	}
	if traps := stateOf(t, fullState(t, twins[1], bob, id)).Traps; len(traps) != 0 {
		t.Fatalf("the twin without a trap shows %+v", traps)
	}

	// verify re-derives the duel from both streams, and the store still holds what ann's
	// team receipt signed.
	r0, _ := teamReceipt(twins[0], ann)
	file := filepath.Join(dir, "team.receipt")
	if err := os.WriteFile(file, []byte(r0.Note), 0o600); err != nil {
		t.Fatal(err)
	}
	twins[0].stop(t)
	var out, errOut bytes.Buffer
	if code := run(hostingGames(context.Background(), reg), []string{"verify", "--db", twins[0].db, "--key", key, "--match", matchstream.Hidden(id, 0), "--receipt", file}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "ok   receipt: match "+matchstream.Hidden(id, 0)+" still holds the 2 events") || !strings.Contains(out.String(), "ok ") {
		t.Fatalf("verify with ann's team receipt: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

// compareUpdates compares what one matchUpdates subscription delivered on each twin. The
// server may send changes in quick succession as one, so the two may not hold the same
// versions; but no version comes twice (a hidden event woke nobody), the last is the
// match's end, and every version both delivered is the same, byte for byte, up to the
// end (after it the finished state reveals the trap, as the rules say).
func compareUpdates(t *testing.T, label string, got [2][]json.RawMessage, live int) {
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
				t.Fatalf("%s at version %d differs between the twins:\nwith the trap    %s\nwithout the trap %s", label, v, a, b)
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

var _ io.Reader = (*twinRandom)(nil)
