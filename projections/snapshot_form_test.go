package projections

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

// The card games' views are written down as their games' own stored forms, not folded
// again at boot: at positions of the corpus store where matches of Ajedrez Mágico, one
// board and doubles, and of UnfairChess are under way, every such view the snapshot of
// Matches holds has its game state in the form, and the form reads back (a form refused
// would be folded again silently, which only this test would see).
func TestCardGamesViewsAreStoredAsTheirGamesForms(t *testing.T) {
	ctx := context.Background()
	store, head := corpusStore(t)
	reg := game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
	stored := map[string]int{} // views stored in the game's form, by game
	tables := 0
	for cut := head / 9; cut <= head; cut += head / 9 {
		m := NewMatches(reg, ArchiveAfter(-1, store))
		if err := Rebuild(ctx, upTo{store, cut}, nil, m); err != nil {
			t.Fatal(err)
		}
		_, data, err := m.Save()
		if err != nil {
			t.Fatal(err)
		}
		var s StoredMatches
		if err := decode(data, &s); err != nil {
			t.Fatal(err)
		}
		for _, v := range append(s.Views, s.Moving...) {
			if g := v.State.Game; g != magicchess.ID && g != unfair.ID {
				continue
			}
			if v.Refold || v.GameState == nil {
				t.Fatalf("at %d: the %s match %s is folded again at boot (refold %v)", cut, v.State.Game, v.ID, v.Refold)
			}
			rules, err := pinnedRules(reg, v.State.Game, v.State.RulesVersion)
			if err != nil {
				t.Fatal(err)
			}
			st, ok := restoredState(rules, v.GameState)
			if !ok {
				t.Fatalf("at %d: the %s state of match %s (%s) does not read back", cut, v.State.Game, v.ID, v.State.RulesVersion)
			}
			if _, ok := st.(magicchess.Table); ok {
				tables++
			}
			stored[v.State.Game]++
		}
	}
	t.Logf("views stored in their game's form: %v, %d of them doubles", stored, tables)
	if stored[magicchess.ID] == 0 || stored[unfair.ID] == 0 || tables == 0 {
		t.Errorf("the corpus store's positions hold no view of each: %v, %d doubles", stored, tables)
	}
}
