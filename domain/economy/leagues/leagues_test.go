package leagues_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/leagues"
)

func TestEightBandsWithoutGapOrOverlap(t *testing.T) {
	if len(leagues.All) != 8 || leagues.All[0].NameFr != "Novice" || leagues.All[7].NameFr != "Légende" {
		t.Fatalf("leagues: %+v", leagues.All)
	}
	for i := 1; i < len(leagues.All); i++ {
		prev, l := leagues.All[i-1], leagues.All[i]
		if l.Min <= prev.Min || leagues.Max(prev) != l.Min-1 || l.LootChance <= prev.LootChance {
			t.Errorf("%s after %s: bands and chances must grow", l.ID, prev.ID)
		}
	}
	if leagues.Max(leagues.All[7]) != -1 {
		t.Error("Légende has a ceiling")
	}
}

func TestARatingFallsInOneLeague(t *testing.T) {
	for _, c := range []struct {
		rating float64
		want   string
	}{{1000, "novice"}, {412, "novice"}, {1099.4, "novice"}, {1099.5, "apprenti"}, {1100, "apprenti"}, {1399, "aguerri"}, {1549, "expert"}, {1550, "maitre"}, {1899, "champion"}, {1900, "legende"}, {2600, "legende"}} {
		if got := leagues.Of(c.rating).ID; got != c.want {
			t.Errorf("%v: %s, want %s", c.rating, got, c.want)
		}
	}
}
