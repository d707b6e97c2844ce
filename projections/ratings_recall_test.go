package projections

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A model that drops the ruling records of matches over for a minute (ArchiveRecords)
// rules on them as one that keeps every record: the record is read back from the store,
// folded again up to the match's end, with the rulings made on it before and those on
// other matches folded in between. Its snapshot, restored, goes on alike; an old
// snapshot's records (no time) are dropped at the next event and read back in turn.
func TestARulingOnAnArchivedMatchReadsItsRecordBack(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{})
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	eng := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }})
	every := NewRatings(reg)
	archived := NewRatings(reg)
	archived.ArchiveRecords(time.Minute, store)
	models := []*Ratings{every, archived}
	feed := func() {
		for _, m := range models {
			evs, err := store.ReadAll(ctx, m.Checkpoint(), 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if err := m.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, p := range []string{"ann", "bob", "cy"} {
			if a, b := fmt.Sprint(every.Of(p)), fmt.Sprint(archived.Of(p)); a != b {
				t.Fatalf("%s: every record kept %s, records archived %s", p, a, b)
			}
		}
		if a, b := every.Digest(), archived.Digest(); a != b {
			t.Fatalf("every record kept: %s, records archived: %s", a, b)
		}
	}
	n := 0
	played := func(white, black string, resigns string) string {
		n++
		now = now.Add(time.Minute)
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: white}, engine.Meta{CommandID: fmt.Sprint("m", n)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{white, black} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []match.Command{
			match.Act{PlayerID: white, Do: game.Move{Notation: "e4"}}, match.Act{PlayerID: black, Do: game.Move{Notation: "e5"}}, match.Resign{PlayerID: resigns},
		} {
			if _, err := eng.Handle(ctx, ack.MatchID, c, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		feed()
		return ack.MatchID
	}
	rev, _, err := eng.RegisterPlayer(ctx, "Rev", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SetReviewer(ctx, rev.ID, true, "test"); err != nil {
		t.Fatal(err)
	}
	rule := func(m, by string, r dispute.Ruling, seat int, over bool) {
		now = now.Add(time.Minute)
		ack, err := eng.OpenDispute(ctx, m, by, "not so", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.RuleDispute(ctx, ack.Event.(dispute.Opened).Dispute, rev.ID, r, seat, ""); err != nil {
			t.Fatal(err)
		}
		if _, kept := archived.rated[m]; kept == over {
			t.Fatalf("match %s: in the archiving model's records %v, over for more than a minute %v", m, kept, over)
		}
		feed()
	}
	m1 := played("ann", "bob", "bob")
	m2 := played("bob", "cy", "bob")
	played("cy", "ann", "ann")
	rule(m1, "bob", dispute.Win, 1, true) // m1 is two minutes over: archived
	m4 := played("ann", "cy", "cy")
	played("bob", "ann", "bob")
	rule(m1, "ann", dispute.Draw, 0, true) // a second ruling on m1: from the first's result
	rule(m2, "bob", dispute.Void, 0, true)
	rule(m4, "cy", dispute.Win, 1, true) // m1's rulings are folded before m4's end is reached
	if len(archived.rated) >= len(every.rated) || len(every.rated) != 5 {
		t.Fatalf("records kept: %d archiving, %d keeping every one (5 rated)", len(archived.rated), len(every.rated))
	}

	// Its snapshot restored goes on as the model; an old snapshot (no times) too.
	_, data, err := archived.Save()
	if err != nil {
		t.Fatal(err)
	}
	_, old, err := every.Save()
	if err != nil {
		t.Fatal(err)
	}
	pos := archived.Checkpoint()
	restored, fromOld := NewRatings(reg), NewRatings(reg)
	for _, c := range []struct {
		m    *Ratings
		data []byte
	}{{restored, data}, {fromOld, old}} {
		c.m.ArchiveRecords(time.Minute, store)
		if err := c.m.Restore(ctx, store, pos, c.data); err != nil {
			t.Fatal(err)
		}
	}
	models = append(models, restored, fromOld)
	m6 := played("cy", "bob", "cy")
	rule(m6, "cy", dispute.Win, 0, false) // recent: from its record in memory
	rule(m4, "ann", dispute.Void, 0, true)
	for _, m := range models[2:] {
		if a, b := every.Digest(), m.Digest(); a != b {
			t.Fatalf("every record kept: %s, restored: %s", a, b)
		}
	}
}
