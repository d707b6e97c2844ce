package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/economy/leagues"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
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

// lootSeats counts the seats of match id that draw loot (progress.DrawsLoot), read from
// the match's stored events.
func lootSeats(t *testing.T, db, id string) int {
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
	m, n := tally.Match(), 0
	for seat := range m.Seats {
		if progress.DrawsLoot(m, seat) {
			n++
		}
	}
	return n
}

// A draw of loot rewritten to a win the seed does not give, with every hash recomputed,
// is caught by verify's re-derivation of the draw (and by the signed head).
func TestVerifyCatchesAForgedLootDraw(t *testing.T) {
	d := solwarisDuel(t, "caveau")
	if d.draws == 0 {
		t.Skip("the duel was abandoned before its 4th round: nobody draws") // the test bots fight it out to a winner
	}
	if _, out := lastLine(t, "verify", "--db", d.db); !strings.Contains(out, "loot draw(s) re-derived from their seeds") {
		t.Fatalf("verify does not name the draws:\n%s", out)
	}
	moved := filepath.Join(t.TempDir(), "moved.db") // a copy with its server key, for the second forgery
	copyFile(t, d.db, moved)
	key := strings.TrimSuffix(moved, ".db") + ".key"
	copyFile(t, strings.TrimSuffix(d.db, ".db")+".key", key)
	if err := os.Chmod(key, 0o600); err != nil {
		t.Fatal(err)
	}
	var forged progress.LootDrawn
	if !rewriteConsistently(t, d.db, func(e *eventstore.Event) bool {
		if e.Type != "LootDrawn" {
			return false
		}
		if err := json.Unmarshal(e.Payload, &forged); err != nil {
			t.Fatal(err)
		}
		orig := forged.Roll
		forged.Roll = 0
		if orig == 0 {
			forged.Roll = 1 // 0 and 1 are both under every league's chance
		}
		forged.Won, forged.Item = true, progress.Crystal
		b, err := json.Marshal(forged)
		if err != nil {
			t.Fatal(err)
		}
		e.Payload = b
		return true
	}) {
		t.Fatal("no draw of loot in the store")
	}
	verifyFails(t, d.db, "FAIL wallets", "the seed gives roll")

	// The draw moved to the top league with its chance and result made consistent: the
	// seed's roll at Légende's chance, all the draw says agrees with itself; verify's own
	// fold of the ratings gives the class's rating at the end of the duel, and refuses it.
	if !rewriteConsistently(t, moved, func(e *eventstore.Event) bool {
		if e.Type != "LootDrawn" {
			return false
		}
		var l progress.LootDrawn
		if err := json.Unmarshal(e.Payload, &l); err != nil {
			t.Fatal(err)
		}
		top := leagues.All[len(leagues.All)-1]
		l.Rating, l.League, l.Chance = top.Min+50, top.ID, top.LootChance
		l.Won, l.Item = l.Roll < l.Chance, ""
		if l.Won {
			l.Item = progress.Crystal
		}
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		e.Payload = b
		return true
	}) {
		t.Fatal("no draw of loot in the copy")
	}
	verifyFails(t, moved, "FAIL wallets", "the ratings folded from the store rate")
}
