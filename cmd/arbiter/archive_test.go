package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestArchivedMatchesReadTheSame: the same finished matches read through a server that
// keeps their boards in memory and one that archives them at once and folds them from
// the store when asked, field for field, for each player and a spectator.
func TestArchivedMatchesReadTheSame(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--archive-after", "1h")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	mate := srv.newMatch(t, ann, bob, false)
	for i, mv := range []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"} {
		if r := srv.play(t, []string{ann, bob}[i%2], mate, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS}){match{id}}}`, nil, &c)
	cards := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": cards, "s": seat}, nil)
	}
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": cards}, nil)

	const q = `query($m:ID!){match(id:$m){status version moves pgn seed result{winner reason}
	  board{fen inCheck legalMoves marks{square kind} checked}
	  hand{slot playable card{id}} cards{seat handSize deckSize discardPile{id} played{count}}
	  seats{seat player{name}} events(first:100){version type data}}}`
	read := func(s *server) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for _, id := range []string{mate, cards} {
			for who, tok := range map[string]string{"ann": ann, "bob": bob, "spectator": ""} {
				r := s.post(t, tok, q, map[string]any{"m": id})
				if len(r.Errors) > 0 {
					t.Fatalf("%s reading %s: %+v", who, id, r.Errors)
				}
				out[id+" "+who] = r.Data
			}
		}
		return out
	}
	kept := read(srv)
	srv.stop(t)
	srv = startServer(t, db, "--archive-after", "0s")
	archived := read(srv)
	resp, err := http.Get(srv.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	figures, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(figures), "arbiter_matches_archived 2\n") {
		t.Fatalf("both finished matches should be archived:\n%s", figures)
	}
	for k, want := range kept {
		if !bytes.Equal(archived[k], want) {
			t.Fatalf("%s differs once archived:\nkept     %s\narchived %s", k, want, archived[k])
		}
	}
	var b struct {
		Match struct{ Board struct{ FEN string } }
	}
	_ = json.Unmarshal(kept[mate+" spectator"], &b)
	if b.Match.Board.FEN != "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4" {
		t.Fatalf("the board read: %s", kept[mate+" spectator"])
	}
}

// TestFinishedMatchIsArchivedOnATimer: with --archive-after, a finished match is archived
// once the delay has passed even though no event comes after its end, and reads the same.
func TestFinishedMatchIsArchivedOnATimer(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--archive-after", "200ms")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	const q = `query($m:ID!){match(id:$m){status version result{winner reason} board{fen}}}`
	before := srv.post(t, "", q, map[string]any{"m": id})

	// The condition ends the wait; the deadline only bounds a server that never archives.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, ctx, "the finished match to be archived, with --archive-after 200ms and no later event", func() bool {
		return srv.scrape(t, "arbiter_matches_archived") == "1"
	})
	if after := srv.post(t, "", q, map[string]any{"m": id}); !bytes.Equal(after.Data, before.Data) || len(after.Errors) > 0 {
		t.Fatalf("archived, the match reads %s %v; before, %s", after.Data, after.Errors, before.Data)
	}
}

// TestOldMatchesListAndRuleTheSameArchived: the lobby's listings (every match, a player's
// history a page at a time, by game, by status), the leaderboard, the ratings, a dispute
// and its match read the same from a server that holds the finished matches in memory and
// from one that archived them (folding them from the store when asked); and a ruling on
// an archived match moves the ratings as it does on a server that never archived.
func TestOldMatchesListAndRuleTheSameArchived(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--snapshots", "off", "--archive-after", "1h")
	annID, ann := srv.register(t, "Ann")
	bobID, bob := srv.register(t, "Bob")
	cyID, cy := srv.register(t, "Cy")
	revID, rev := srv.register(t, "Rev")
	// Four rated matches and a friendly one, each ended by a resignation after two moves.
	var rated []string
	for i, pair := range [][2]string{{ann, bob}, {bob, cy}, {cy, ann}, {ann, bob}, {bob, ann}} {
		id := srv.newMatch(t, pair[0], pair[1], i < 4)
		srv.must(t, pair[0], `mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, map[string]any{"m": id}, nil)
		srv.must(t, pair[1], `mutation($m:ID!){playMove(matchId:$m, move:"e5"){version}}`, map[string]any{"m": id}, nil)
		srv.must(t, pair[i%2], `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
		if i < 4 {
			rated = append(rated, id)
		}
	}
	live := srv.newMatch(t, cy, bob, false)
	srv.must(t, cy, `mutation($m:ID!){playMove(matchId:$m, move:"d4"){version}}`, map[string]any{"m": live}, nil)
	d := srv.openDispute(t, bob, rated[0], "I resigned by mistake")
	grantReviewer(t, db, revID)

	const fields = `id status version moves seed result{winner reason} seats{seat player{id name}} rematch{id}`
	type ask struct {
		token, query string
		vars         map[string]any
	}
	asks := map[string]ask{
		"lobby":       {"", `{matches(first:500){` + fields + `}}`, nil},
		"finished":    {"", `{matches(status:FINISHED, first:500){id}}`, nil},
		"live":        {"", `{matches(status:LIVE){id board{fen}}}`, nil},
		"chess":       {"", `{matches(game:CHESS, first:3){id}}`, nil},
		"none":        {"", `{matches(game:UNFAIR_CHESS){id}}`, nil},
		"leaderboard": {"", `{leaderboard(key:"chess"){player{id} rating{key ratingExact games wins losses draws}}}`, nil},
		"dispute":     {rev, `query($d:ID!){dispute(id:$d){` + disputeFields + ` match{` + fields + ` board{fen}}}}`, map[string]any{"d": d.ID}},
		"review":      {rev, `query($m:ID!){reviewMatch(id:$m){` + fields + ` events(first:50){version type data}}}`, map[string]any{"m": rated[0]}},
	}
	for name, p := range map[string]string{"ann": annID, "bob": bobID, "cy": cyID} {
		asks["ratings "+name] = ask{"", `query($p:ID!){player(id:$p){ratings{key ratingExact games wins losses draws}}}`, map[string]any{"p": p}}
		// A player's history, a page of two, then all of it.
		asks["history "+name] = ask{"", `query($p:ID!){a:matches(player:$p, first:2){id} b:matches(player:$p, status:FINISHED){` + fields + `}}`, map[string]any{"p": p}}
	}
	read := func(s *server) map[string]string {
		out := map[string]string{}
		for name, a := range asks {
			r := s.post(t, a.token, a.query, a.vars)
			if len(r.Errors) > 0 {
				t.Fatalf("%s: %+v", name, r.Errors)
			}
			out[name] = string(r.Data)
		}
		return out
	}
	same := func(what string, a, b map[string]string) {
		t.Helper()
		for k, want := range a {
			if b[k] != want {
				t.Fatalf("%s: %s differs:\nkept     %s\narchived %s", what, k, want, b[k])
			}
		}
	}
	kept := read(srv)
	var lobby struct{ Matches []struct{ ID string } }
	if err := json.Unmarshal([]byte(kept["lobby"]), &lobby); err != nil || len(lobby.Matches) != 6 {
		t.Fatalf("the lobby: %s (%v)", kept["lobby"], err)
	}
	// Pages after a cursor: a finished match (archived on the next server) and the live one.
	asks["after finished"] = ask{"", `query($a:ID){matches(first:2, after:$a){id} mine:matches(player:"` + annID + `", after:$a){id}}`, map[string]any{"a": lobby.Matches[2].ID}}
	asks["after live"] = ask{"", `query($a:ID){matches(first:2, after:$a){id}}`, map[string]any{"a": live}}
	kept = read(srv)
	srv.stop(t)

	srv = startServer(t, db, "--snapshots", "off", "--archive-after", "0s")
	if n := srv.scrape(t, "arbiter_matches_archived"); n != "5" {
		t.Fatalf("%s matches archived, want the 5 finished", n)
	}
	same("archived", kept, read(srv))
	// A ruling on an archived match: the first match becomes a draw.
	srv.rule(t, rev, d.ID, "DRAW", "both lost on time in the log")
	ruled := read(srv)
	if ruled["ratings ann"] == kept["ratings ann"] {
		t.Fatalf("the ruling moved no rating: %s", ruled["ratings ann"])
	}
	srv.stop(t)

	srv = startServer(t, db, "--snapshots", "off", "--archive-after", "1h")
	if n := srv.scrape(t, "arbiter_matches_archived"); n != "0" {
		t.Fatalf("%s matches archived, want none", n)
	}
	same("ruled", read(srv), ruled)
}

// TestArchivingTurnedOnAfterASnapshotWithoutIt: a server run with --archive-after off
// writes a snapshot whose archive queue is empty; restarted from it with archiving on, it
// archives the matches finished before, as a fold from zero does (they kept their boards
// in memory for good).
func TestArchivingTurnedOnAfterASnapshotWithoutIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--archive-after", "off")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	for _, rated := range []bool{true, false} {
		id := srv.newMatch(t, ann, bob, rated)
		srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	}
	srv.newMatch(t, ann, bob, false) // live: never archived
	srv.stop(t)
	if !strings.Contains(srv.stderr.String(), "wrote the read side's snapshot") {
		t.Fatalf("no snapshot written on stop:\n%s", srv.stderr)
	}

	srv = startServer(t, db, "--archive-after", "0s")
	if !strings.Contains(srv.stderr.String(), "read the read side's snapshot") {
		t.Fatalf("the boot read no snapshot:\n%s", srv.stderr)
	}
	// An event after the boot: its fold archives whatever is due before the mutation
	// answers, so the count below waits on nothing.
	srv.newMatch(t, ann, bob, false)
	if n := srv.scrape(t, "arbiter_matches_archived"); n != "2" {
		t.Fatalf("%s matches archived after a boot from the snapshot, want the 2 finished", n)
	}
	srv.stop(t)
	zero := startServer(t, db, "--snapshots", "off", "--archive-after", "0s")
	if n := zero.scrape(t, "arbiter_matches_archived"); n != "2" {
		t.Fatalf("%s matches archived by a fold from zero, want the 2 finished", n)
	}
}

// TestMatchesArchivedByTheClockAreInTheStopsSnapshot: a server that archived matches by
// the clock alone (no event applied since its boot) writes a snapshot when it stops, so
// that the next boot starts from them archived: it neither reads their boards back nor
// archives them into the lobby's index again.
func TestMatchesArchivedByTheClockAreInTheStopsSnapshot(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--archive-after", "1h")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	srv.stop(t) // its snapshot: the match finished, not archived

	srv = startServer(t, db, "--archive-after", "200ms")
	// The condition ends the wait; the deadline only bounds a server that never archives.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, ctx, "the finished match to be archived by the clock", func() bool {
		return srv.scrape(t, "arbiter_matches_archived") == "1"
	})
	srv.stop(t)
	if !strings.Contains(srv.stderr.String(), "wrote the read side's snapshot") {
		t.Fatalf("the stop after archiving by the clock wrote no snapshot:\n%s", srv.stderr)
	}

	// An hour's delay archives nothing at this boot: the archived match is the snapshot's.
	srv = startServer(t, db, "--archive-after", "1h")
	if n := srv.scrape(t, "arbiter_matches_archived"); n != "1" {
		t.Fatalf("%s matches archived after the boot, want the snapshot's 1:\n%s", n, srv.stderr)
	}
	const q = `query($m:ID!){match(id:$m){status result{winner reason}}}`
	if r := srv.post(t, "", q, map[string]any{"m": id}); len(r.Errors) > 0 || !strings.Contains(string(r.Data), "FINISHED") {
		t.Fatalf("the archived match reads %s %v", r.Data, r.Errors)
	}
}

// TestALobbyCursorOnAnUnreadableArchiveIndexFails: a page of the lobby after a match the
// node's archive index cannot be read for fails with an error, not as a cursor that names
// no match (BAD_USER_INPUT, which would blame the client for the node's file).
func TestALobbyCursorOnAnUnreadableArchiveIndexFails(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db, "--archive-after", "0s")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.newMatch(t, ann, bob, false)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	if n := srv.scrape(t, "arbiter_matches_archived"); n != "1" {
		t.Fatalf("%s matches archived, want 1", n)
	}
	const q = `query($a:ID!){matches(first:5, after:$a){id}}`
	if r := srv.post(t, "", q, map[string]any{"a": "nowhere"}); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("a cursor naming no match: %s %v, want BAD_USER_INPUT", r.Data, r.Errors)
	}
	file, err := sql.Open("sqlite", "file:"+archivePath(snapshotDir("", db)))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Exec("DROP TABLE archived"); err != nil {
		t.Fatal(err)
	}
	r := srv.post(t, "", q, map[string]any{"a": "nowhere"})
	if len(r.Errors) == 0 || r.code() == "BAD_USER_INPUT" {
		t.Fatalf("a cursor on an unreadable archive index: %s %v, want an error of the server's", r.Data, r.Errors)
	}
}

// TestAnUnreadableArchiveIndexStopsTheBootSayingWhatToDo: a node's archive index that is
// no SQLite file (a real file of other bytes: overwritten, or another program's) stops
// serve before it serves, with an error naming the file and what to do, and the file is
// left as it was: a boot that went on would answer every archived match as one it does
// not hold.
func TestAnUnreadableArchiveIndexStopsTheBootSayingWhatToDo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	first := startServer(t, db)
	first.register(t, "Ada")
	first.stop(t)
	path := archivePath(snapshotDir("", db))
	garbage := bytes.Repeat([]byte("not an archive index\n"), 400)
	if err := os.WriteFile(path, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	// A serve that boots anyway prints its URL, which ends it: the test then fails on its
	// exit code rather than waiting on a server.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	code := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, cancelOnWrite{cancel}, &stderr)
	msg := stderr.String()
	if code != 1 || !strings.Contains(msg, "the archive index "+path) || !strings.Contains(msg, "not a database") ||
		!strings.Contains(msg, "delete it, and start again") {
		t.Fatalf("serve on an archive index that is no SQLite file: exit %d\n%s", code, msg)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, garbage) {
		t.Fatalf("the refused boot changed the unreadable archive index (%v)", err)
	}
}

// cancelOnWrite cancels its context at the first write.
type cancelOnWrite struct{ cancel context.CancelFunc }

func (c cancelOnWrite) Write(p []byte) (int, error) { c.cancel(); return len(p), nil }
