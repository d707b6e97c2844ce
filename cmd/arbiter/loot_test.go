package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// The draws of a Cristal légendaire (docs/economy.md, "Loot"): recorded by the settlement
// process on the players' loot streams, re-derived by verify from the revealed seed.

// lootDraws counts the draws of loot stored in db.
func lootDraws(t *testing.T, db string) int {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var n int
	if err := d.QueryRow(`SELECT COUNT(*) FROM events WHERE type = 'LootDrawn'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// storedFacts is what match id shows (package facts), read from its stored events.
func storedFacts(t *testing.T, db, id string) facts.Match {
	t.Helper()
	tally := facts.New(id)
	for _, ev := range storedEvents(t, db) {
		if ev.Stream != matchstream.Name(id) {
			continue
		}
		if _, err := tally.AddStored(ev.Type, ev.SchemaVersion, ev.Payload, ev.Time); err != nil {
			t.Fatal(err)
		}
	}
	return tally.Match()
}

// lootSeats counts the seats of match id that draw loot (progress.DrawsLoot), read from
// the match's stored events.
func lootSeats(t *testing.T, db, id string) int {
	t.Helper()
	m, n := storedFacts(t, db, id), 0
	for seat := range m.Seats {
		if progress.DrawsLoot(m, seat) {
			n++
		}
	}
	return n
}

// A draw of loot is drawn from the match seed, the one the seats' entropy went into
// (procedure 1). Rewritten to a win the seed does not give, with every hash recomputed, it
// is caught by verify's re-derivation of the draw (and by the signed head). The same draw
// rewritten as a server before procedure 1 stored it (no procedure, the server seed's
// roll) is refused by the re-derivation too: the duel ended after the loot moved to the
// match seed (progress.MatchSeedLootFrom), which the draw does not choose.
func TestVerifyCatchesAForgedLootDraw(t *testing.T) {
	d := solwarisDuel(t, "caveau")
	if d.draws == 0 {
		t.Skip("the duel was abandoned before its 4th round: nobody draws") // the test bots fight it out to a winner
	}
	if _, out := lastLine(t, "verify", "--db", d.db); !strings.Contains(out, fmt.Sprintf("%d loot draw(s) re-derived from their seeds (%d by the match seed, 0 by the Legacy derivation)", d.draws, d.draws)) {
		t.Fatalf("verify does not name the draws, %d by the match seed:\n%s", d.draws, out)
	}
	m := storedFacts(t, d.db, d.id)
	for _, ev := range storedEvents(t, d.db) {
		if ev.Type != "LootDrawn" {
			continue
		}
		var l progress.LootDrawn
		if err := json.Unmarshal(ev.Payload, &l); err != nil {
			t.Fatal(err)
		}
		if want := fairness.New(m.MatchSeed, "solwaris/loot/"+strconv.Itoa(l.Seat)).IntN(1000); len(m.MatchSeed) == 0 || l.Procedure != fairness.V1 || l.Roll != want {
			t.Fatalf("stored %s, want roll %d of the match seed %x by procedure 1", ev.Payload, want, m.MatchSeed)
		}
	}
	copied := func(name string) string {
		db := filepath.Join(t.TempDir(), name+".db") // a copy with its server key
		copyFile(t, d.db, db)
		key := strings.TrimSuffix(db, ".db") + ".key"
		copyFile(t, strings.TrimSuffix(d.db, ".db")+".key", key)
		if err := os.Chmod(key, 0o600); err != nil {
			t.Fatal(err)
		}
		return db
	}
	moved, legacy := copied("moved"), copied("legacy")
	stored := rewriteDraw(t, legacy, func(l *progress.LootDrawn) {
		roll, err := progress.LootRoll(m, l.Seat, fairness.Legacy)
		if err != nil {
			t.Fatal(err)
		}
		l.Procedure, l.Roll = fairness.Legacy, roll
		l.Won, l.Item = settled(l.Roll, l.Chance)
	})
	if strings.Contains(string(stored), "procedure") {
		t.Fatalf("a Legacy draw encodes its procedure: %s", stored)
	}
	verifyFails(t, legacy, "events up to here were rewritten", "FAIL wallets", "by the Legacy derivation, but the match ended at")
	rewriteDraw(t, d.db, func(l *progress.LootDrawn) {
		orig := l.Roll
		l.Roll = 0
		if orig == 0 {
			l.Roll = 1 // 0 and 1 are both under every league's chance
		}
		l.Won, l.Item = true, progress.Crystal
	})
	verifyFails(t, d.db, "FAIL wallets", "the seed gives roll")

	// The draw moved to the top league with its chance and result made consistent: the
	// seed's roll at Légende's chance, all the draw says agrees with itself; verify's own
	// fold of the ratings gives the class's rating at the end of the duel, and refuses it.
	rewriteDraw(t, moved, func(l *progress.LootDrawn) {
		top := leagues.All[len(leagues.All)-1]
		l.Rating, l.League, l.Chance = top.Min+50, top.ID, top.LootChance
		l.Won, l.Item = settled(l.Roll, l.Chance)
	})
	verifyFails(t, moved, "FAIL wallets", "the ratings folded from the store rate")
}

// rewriteDraw changes the first draw of loot stored in db as change says, every hash after
// it recomputed (rewriteConsistently), and returns its new payload.
func rewriteDraw(t *testing.T, db string, change func(l *progress.LootDrawn)) []byte {
	t.Helper()
	var payload []byte
	if !rewriteConsistently(t, db, func(e *eventstore.Event) bool {
		if e.Type != "LootDrawn" {
			return false
		}
		var l progress.LootDrawn
		if err := json.Unmarshal(e.Payload, &l); err != nil {
			t.Fatal(err)
		}
		change(&l)
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		e.Payload, payload = b, b
		return true
	}) {
		t.Fatalf("no draw of loot in %s", db)
	}
	return payload
}

// settled is what a draw of roll at chance gives: whether it wins, and its item.
func settled(roll, chance int) (bool, string) {
	if roll < chance {
		return true, progress.Crystal
	}
	return false, ""
}
