package projections

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

// A restore says how the live matches' game states came back: with every game's codec,
// all read from their stored forms; with a chess whose codec refuses every other state,
// the refused ones counted and the first named, so that an operator hears of a codec
// that stopped reading what it wrote (the matches are folded again, and answer the same).
func TestARestoreCountsTheGameStatesItReadAndRefused(t *testing.T) {
	ctx := context.Background()
	store, head := corpusStore(t)
	for _, c := range []struct {
		name    string
		reg     *game.Registry
		refused bool
	}{
		{"every game's codec", game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}), false},
		{"a chess that refuses every other state", game.NewRegistry(&storingChess{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var total RestoredStates
			for cut := head / 7; cut <= head; cut += head / 7 {
				before := NewMatches(c.reg, ArchiveAfter(-1, store))
				if err := Rebuild(ctx, upTo{store, cut}, nil, before); err != nil {
					t.Fatal(err)
				}
				pos, data, err := before.Save()
				if err != nil {
					t.Fatal(err)
				}
				after := NewMatches(c.reg, ArchiveAfter(-1, store))
				if err := after.Restore(ctx, store, pos, data); err != nil {
					t.Fatal(err)
				}
				if after.Digest() != before.Digest() {
					t.Fatalf("at %d: the restored model differs from the saved one", cut)
				}
				r := after.RestoredStates()
				total.Decoded += r.Decoded
				total.Unstored += r.Unstored
				total.Refused += r.Refused
				if total.FirstRefused == "" {
					total.FirstRefused = r.FirstRefused
				}
			}
			t.Logf("%+v", total)
			switch {
			case total.Decoded == 0 || total.Unstored != 0:
				t.Fatalf("%+v: every game writes its states down, and some were read back", total)
			case !c.refused && (total.Refused != 0 || total.FirstRefused != ""):
				t.Fatalf("%+v: nothing refused", total)
			case c.refused && (total.Refused == 0 || !strings.Contains(total.FirstRefused, classic.ID) || !strings.Contains(total.FirstRefused, "not stored")):
				t.Fatalf("%+v: the chess states refused, the first named with its reason", total)
			}
		})
	}
}
