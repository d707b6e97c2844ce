package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
)

// damage rewrites the payload of one stored event of a match with SQL, as someone with
// the file could, and recomputes the hashes of that event and of the ones after it in
// its stream: the damage is then in what the events say, not a broken chain only.
func damage(t *testing.T, db, matchID string, version int64, edit func(payload string) string) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := store.ReadStream(ctx, matchstream.Name(matchID), 0, 1000)
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	prev := ""
	for _, ev := range evs {
		if ev.Version == version {
			before := string(ev.Payload)
			ev.Payload = []byte(edit(before))
			if string(ev.Payload) == before {
				t.Fatalf("the edit of %s version %d changed nothing: %s", matchID, version, before)
			}
		}
		if ev.Version >= version {
			ev.PrevHash = prev
			ev.Hash = eventstore.Hash(prev, ev)
			if _, err := sqlDB.Exec(`UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE position = ?`, ev.Payload, ev.PrevHash, ev.Hash, ev.Position); err != nil {
				t.Fatal(err)
			}
		}
		prev = ev.Hash
	}
}

// TestAMatchThatDoesNotReplayIsSetAside: a store where one match's move was changed into
// one the rules cannot play, another's event into bytes that do not decode, and a third's
// rules version into one this build does not have, still boots; those matches are refused with MATCH_UNAVAILABLE naming them, logged once
// and counted in /metrics, and every other match plays on. rebuild completes and names
// them, replay explains instead of panicking, verify names them and fails, saying which
// rules version the third needs and which this build plays (match.UnknownRulesVersion).
func TestAMatchThatDoesNotReplayIsSetAside(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	good := srv.newMatch(t, white, black, false)
	illegal := srv.newMatch(t, white, black, false)
	garbled := srv.newMatch(t, white, black, true)
	future := srv.newMatch(t, white, black, false)
	for _, id := range []string{good, illegal, garbled, future} {
		if r := srv.play(t, white, id, "e4"); len(r.Errors) > 0 {
			t.Fatalf("e4 on %s: %+v", id, r.Errors)
		}
	}
	srv.stop(t)

	// Version 7 is the first move: MatchCreated, SeedDrawn, two SeatTaken, MatchStarted,
	// GameStarted, e4.
	damage(t, db, illegal, 7, func(p string) string { return strings.ReplaceAll(p, "e2e4", "e2e5") })
	damage(t, db, garbled, 3, func(string) string { return "not json" })
	damage(t, db, future, 1, func(p string) string {
		return regexp.MustCompile(`"rulesVersion":"[^"]*"`).ReplaceAllString(p, `"rulesVersion":"from-a-later-build"`)
	})

	damaged := []string{illegal, garbled, future}

	// The stop wrote a snapshot of the read side, taken before the damage: it covers the
	// events rewritten under it, whose global hash at its position is unchanged. A boot
	// from it serves the matches as they were (a snapshot is trusted for what it covers);
	// the engine, which folds a match from its stream, still refuses to play the damaged
	// ones, and `rebuild --verify-snapshot` finds the difference.
	srv = startServer(t, db)
	for _, id := range damaged {
		if r := srv.play(t, black, id, "e5"); r.code() != "MATCH_UNAVAILABLE" {
			t.Errorf("playMove on the damaged match %s, booted from a snapshot taken before the damage: %+v", id, r.Errors)
		}
	}
	srv.stop(t)
	if out, errOut := fails(t, "rebuild", "--db", db, "--verify-snapshot"); !strings.Contains(out+errOut, "matches  DIFFERS") {
		t.Errorf("rebuild --verify-snapshot over the damage does not say the matches differ:\n%s\n%s", out, errOut)
	}

	// Without the snapshot the boot folds from zero and finds each damaged match.
	if err := os.RemoveAll(db + ".snapshots"); err != nil {
		t.Fatal(err)
	}
	srv = startServer(t, db)
	if r := srv.play(t, black, good, "e5"); len(r.Errors) > 0 {
		t.Fatalf("a sound match after the boot: %+v", r.Errors)
	}
	for _, id := range damaged {
		for name, r := range map[string]gqlResponse{
			"playMove": srv.play(t, black, id, "e5"),
			"match":    srv.post(t, black, `query($m:ID!){match(id:$m){id status}}`, map[string]any{"m": id}),
			"resign":   srv.post(t, black, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}),
		} {
			if r.code() != "MATCH_UNAVAILABLE" || !strings.Contains(r.Errors[0].Message, id) || !strings.Contains(r.Errors[0].Message, "arbiter verify --match "+id) {
				t.Errorf("%s on the damaged match %s: %+v", name, id, r.Errors)
			}
		}
	}
	var list struct{ Matches []struct{ ID string } }
	srv.must(t, "", `{matches{id}}`, nil, &list)
	if len(list.Matches) != 1 || list.Matches[0].ID != good {
		t.Errorf("the lobby lists %+v, want only %s", list.Matches, good)
	}
	if n := srv.scrape(t, "arbiter_matches_quarantined"); n != "3" {
		t.Errorf("/metrics counts %s matches set aside, want 3", n)
	}
	log := srv.stderr.String()
	for _, id := range damaged {
		if n := strings.Count(log, "match set aside"); n != 3 || !strings.Contains(log, "match="+id) {
			t.Errorf("the log should name each match set aside once (%d lines):\n%s", n, log)
		}
	}
	srv.stop(t)

	_, out := lastLine(t, "rebuild", "--db", db)
	for _, id := range damaged {
		if !strings.Contains(out, "set aside: match "+id+" does not replay") {
			t.Errorf("rebuild does not name %s:\n%s", id, out)
		}
	}
	_, errOut := fails(t, "replay", "--db", db, "--match", illegal)
	if !strings.Contains(errOut, "match "+illegal+" does not replay at version 7") || !strings.Contains(errOut, "arbiter verify --match "+illegal) {
		t.Errorf("replay of the damaged match: %s", errOut)
	}
	if _, out := lastLine(t, "replay", "--db", db, "--match", good); !strings.Contains(out, "1. e4 e5") {
		t.Errorf("replay of a sound match:\n%s", out)
	}
	out, errOut = fails(t, "verify", "--db", db)
	for _, id := range damaged {
		if !strings.Contains(out, "FAIL "+id) {
			t.Errorf("verify does not name %s:\n%s\n%s", id, out, errOut)
		}
	}
	if strings.Contains(out, "FAIL "+good) {
		t.Errorf("verify fails the sound match:\n%s", out)
	}
	// The match of a later build is not damaged: verify says which version it needs, and
	// what this build plays.
	out, _ = fails(t, "verify", "--db", db, "--match", future)
	if want := `"from-a-later-build", which this build does not play (it plays ` + classic.RulesVersion + `): serve and verify it with a build that plays "from-a-later-build"`; !strings.Contains(out, want) {
		t.Errorf("verify of the match of a later build does not say %q:\n%s", want, out)
	}
}
