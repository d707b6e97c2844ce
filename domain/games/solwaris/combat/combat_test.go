package combat

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestRoll(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lo, hi int
		draw   Draw
		want   int
	}{
		{"draw 0 is the minimum", 27, 33, 0, 27},
		{"draw 6 is the maximum of 7 values", 27, 33, 6, 33},
		{"draw 7 wraps to the minimum", 27, 33, 7, 27},
		{"the largest draw", 10, 14, math.MaxUint64, 10}, // 2^64-1 is a multiple of 5
		{"a fixed damage", 12, 12, 99, 12},
		{"max below min gives min", 12, 8, 5, 12},
	} {
		if got := Roll(tc.lo, tc.hi, tc.draw); got != tc.want {
			t.Errorf("%s: Roll(%d, %d, %d) = %d, want %d", tc.name, tc.lo, tc.hi, tc.draw, got, tc.want)
		}
	}
	// Every value between min and max comes out equally often over consecutive draws.
	count := map[int]int{}
	for d := Draw(1000); d < 1000+7*50; d++ {
		count[Roll(27, 33, d)]++
	}
	for v := 27; v <= 33; v++ {
		if count[v] != 50 {
			t.Errorf("value %d came %d times in 350 draws, want 50", v, count[v])
		}
	}
}

func TestCriticalIsOneDrawInTen(t *testing.T) {
	for _, tc := range []struct {
		draw Draw
		want bool
	}{{0, true}, {9, true}, {10, false}, {99, false}, {100, true}, {109, true}, {110, false}} {
		if got := Critical(tc.draw); got != tc.want {
			t.Errorf("Critical(%d) = %v", tc.draw, got)
		}
	}
	n := 0
	for d := Draw(0); d < 1000; d++ {
		if Critical(d) {
			n++
		}
	}
	if n != 100 {
		t.Errorf("%d criticals in 1000 consecutive draws, want 100", n)
	}
	if Chance(0, 0) || !Chance(100, 99) {
		t.Error("a 0% chance happened or a 100% chance failed")
	}
}

func TestBonusStrongestSpellPlusPassive(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spells  []int
		passive int
		want    int
	}{
		{"none", nil, 0, 0},
		{"War Cry alone", []int{30}, 0, 30},
		{"War Cry and Mage's Eye: the strongest counts", []int{25, 30}, 0, 30},
		{"Mage's Eye and Erudition add up", []int{25}, 10, 35},
		{"two spells and a passive", []int{30, 25}, 10, 40},
		{"the passive alone", nil, 10, 10},
	} {
		if got := Bonus(tc.spells, tc.passive); got != tc.want {
			t.Errorf("%s: Bonus(%v, %d) = %d, want %d", tc.name, tc.spells, tc.passive, got, tc.want)
		}
	}
}

func TestHitDamage(t *testing.T) {
	for _, tc := range []struct {
		name string
		hit  Hit
		want int
	}{
		{"a plain hit", Hit{Base: 30}, 30},
		{"a critical is x1.5", Hit{Base: 30, Critical: true}, 45},
		{"a critical rounds a half up", Hit{Base: 31, Critical: true}, 47}, // 46.5
		{"resistance 20%", Hit{Base: 30, Resistance: 20}, 24},
		{"resistance exactly at the cap", Hit{Base: 40, Resistance: 75}, 10},
		{"resistance 90% counts as 75%", Hit{Base: 40, Resistance: 90}, 10},
		{"a boost of 30%", Hit{Base: 30, Bonus: 30}, 39},
		{"boost and resistance", Hit{Base: 30, Bonus: 30, Resistance: 20}, 31}, // 31.2
		{"bonuses over x3 stop at x3", Hit{Base: 20, Bonus: 250}, 60},
		{"the cap leaves the critical out", Hit{Base: 20, Bonus: 250, Critical: true}, 90},
		{"a boost and a weakened target add up", Hit{Base: 10, Bonus: 100, Resistance: -20}, 24}, // x2 x1.2
		{"weakening alone is a bonus", Hit{Base: 30, Resistance: -20}, 36},
		{"boost and weakening together stop at x3", Hit{Base: 10, Bonus: 150, Resistance: -50}, 30}, // x3.75
		{"at the cap, a critical still counts", Hit{Base: 10, Bonus: 150, Resistance: -50, Critical: true}, 45},
		{"everything: boost, critical, resistance", Hit{Base: 40, Bonus: 40, Critical: true, Resistance: 12}, 74}, // 73.92
		{"9.9 rounds to 10", Hit{Base: 9, Bonus: 10}, 10},
		{"2.5 rounds up to 3", Hit{Base: 5, Resistance: 50}, 3},
		{"0.75 rounds to 1", Hit{Base: 3, Resistance: 75}, 1},
		{"0.25 rounds to 0", Hit{Base: 1, Resistance: 75}, 0},
		{"no base, no damage", Hit{Base: 0, Bonus: 100, Critical: true}, 0},
		{"a bonus of -100% deals nothing", Hit{Base: 30, Bonus: -100}, 0},
	} {
		if got := tc.hit.Damage(); got != tc.want {
			t.Errorf("%s: %+v deals %d, want %d", tc.name, tc.hit, got, tc.want)
		}
	}
}

// The cap holds over the whole range of bonuses and resistances: never more than x3 the
// base, x4.5 with a critical, and never less than a quarter (minus rounding) of it.
func TestHitBoundsHoldEverywhere(t *testing.T) {
	for base := 0; base <= 120; base += 7 {
		for bonus := -120; bonus <= 400; bonus += 15 {
			for res := -150; res <= 120; res += 9 {
				for _, crit := range []bool{false, true} {
					h := Hit{Base: base, Bonus: bonus, Resistance: res, Critical: crit}
					d, top := h.Damage(), 3*base
					if crit {
						top = 3 * base * 3 / 2
					}
					if d < 0 || d > top+1 {
						t.Fatalf("%+v deals %d, outside 0..%d", h, d, top)
					}
					if bonus >= 0 && res <= 100 && d < (base+2)/4 {
						t.Fatalf("%+v deals %d, under a quarter of the base", h, d)
					}
				}
			}
		}
	}
}

func TestArmourAbsorbsWhatResistanceLetThrough(t *testing.T) {
	for _, tc := range []struct {
		name     string
		damage   int
		stocks   []Stock
		wantLoss int
		wantLeft []Stock
	}{
		{"no armour", 30, nil, 30, nil},
		{"armour takes it all", 30, []Stock{{45, 2}}, 0, []Stock{{15, 2}}},
		{"armour spent, the rest is HP", 30, []Stock{{12, 2}}, 18, nil},
		{"armour spent exactly disappears", 12, []Stock{{12, 2}}, 0, nil},
		{"the soonest to end absorbs first", 20, []Stock{{45, 5}, {12, 3}}, 0, []Stock{{37, 5}}},
		{"two stocks spent", 70, []Stock{{45, 5}, {12, 3}}, 13, nil},
		{"equal ends keep their order", 10, []Stock{{8, 4}, {8, 4}}, 0, []Stock{{6, 4}}},
		{"no damage", 0, []Stock{{12, 2}}, 0, []Stock{{12, 2}}},
	} {
		in := slices.Clone(tc.stocks)
		loss, left := Absorb(tc.damage, tc.stocks)
		if loss != tc.wantLoss || !slices.Equal(left, tc.wantLeft) {
			t.Errorf("%s: Absorb(%d, %v) = %d, %v; want %d, %v", tc.name, tc.damage, tc.stocks, loss, left, tc.wantLoss, tc.wantLeft)
		}
		if !slices.Equal(in, tc.stocks) {
			t.Errorf("%s: Absorb modified its stocks", tc.name)
		}
	}

	// Resistance first: 40 at 50% is 20, of which 12 armour takes; armour first would
	// have let 14 through.
	o := Resolve(Hit{Base: 40, Resistance: 50}, []Stock{{12, 3}})
	if o.Dealt != 20 || o.Absorbed != 12 || o.HPLoss != 8 || len(o.Armour) != 0 {
		t.Errorf("Resolve = %+v, want 20 dealt, 12 absorbed, 8 HP", o)
	}

	// The example of docs/games/solwaris.md: an Execution rolled 54, critical, under War
	// Cry, on a Warrior with Scale Armour (12%) and Anchor's 20 points of armour.
	o = Resolve(Hit{Base: 54, Critical: true, Bonus: Bonus([]int{30}, 0), Resistance: 12}, []Stock{{20, 1}})
	if o.Dealt != 93 || o.Absorbed != 20 || o.HPLoss != 73 {
		t.Errorf("the page's example: %+v, want 93 dealt, 20 absorbed, 73 HP", o)
	}

	// An armour lasts until its end, spent or not.
	stocks := []Stock{{20, 3}, {45, 4}, {0, 9}}
	if got := Expire(stocks, 3); !slices.Equal(got, []Stock{{45, 4}}) {
		t.Errorf("Expire at 3 = %v", got)
	}
	if Armour(stocks) != 65 {
		t.Errorf("Armour = %d", Armour(stocks))
	}
}

func TestPushShock(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		notTravelled, perCell  int
		wantVictim, wantStruck int
	}{
		{"against a wall, 2 cells short", 2, 0, 24, 12},
		{"1 cell short", 1, 0, 12, 6},
		{"a spell's stronger shock (Onde de choc)", 2, 18, 36, 18},
		{"half of an odd shock rounds down", 1, 13, 13, 6},
		{"a push that went all the way", 0, 0, 0, 0},
	} {
		v, s := Shock(tc.notTravelled, tc.perCell)
		if v != tc.wantVictim || s != tc.wantStruck {
			t.Errorf("%s: Shock(%d, %d) = %d, %d; want %d, %d", tc.name, tc.notTravelled, tc.perCell, v, s, tc.wantVictim, tc.wantStruck)
		}
	}
	// The shock is a hit by the caster: its bonus and a critical raise it, the victim's
	// resistance then armour lower it. 24 x1.3 x1.5 x0.88 = 41.18.
	v, _ := Shock(2, 0)
	o := Resolve(Hit{Base: v, Bonus: 30, Critical: true, Resistance: 12}, []Stock{{12, 1}})
	if o.Dealt != 41 || o.HPLoss != 29 {
		t.Errorf("a shock of 24 under War Cry, critical, on 12%% resistance and 12 armour: %+v", o)
	}
}

func TestRemoval(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		points, resist, lost int
		draws                []Draw
		want                 Removal
	}{
		{"Arcaniste, 25% AP: one point taken, one resisted", 2, 25, 0, []Draw{30, 10}, Removal{Removed: 1, Resisted: 1}},
		{"a draw of exactly the resistance is taken", 1, 25, 0, []Draw{25}, Removal{Removed: 1}},
		{"a draw under it resists", 1, 25, 0, []Draw{24}, Removal{Resisted: 1}},
		{"no resistance takes every point", 3, 0, 0, []Draw{0, 0, 0}, Removal{Removed: 3}},
		{"a resistance of 100% counts as 75%", 1, 100, 0, []Draw{80}, Removal{Removed: 1}},
		{"3 lost already: one point tried, one capped", 2, 20, 3, []Draw{50}, Removal{Removed: 1, Capped: 1}},
		{"4 lost already: nothing tried, no draw", 2, 20, 4, nil, Removal{Capped: 2}},
		{"a resisted point still counts as tried", 2, 20, 3, []Draw{5}, Removal{Resisted: 1, Capped: 1}},
		{"6 points at once stop at 4", 6, 0, 0, []Draw{1, 2, 3, 4}, Removal{Removed: 4, Capped: 2}},
		{"no point", 0, 20, 0, nil, Removal{}},
	} {
		got, err := Remove(tc.points, tc.resist, tc.lost, tc.draws)
		if err != nil || got != tc.want {
			t.Errorf("%s: Remove(%d, %d%%, lost %d, %v) = %+v, %v; want %+v", tc.name, tc.points, tc.resist, tc.lost, tc.draws, got, err, tc.want)
		}
	}
	if _, err := Remove(2, 20, 0, []Draw{1}); !errors.Is(err, ErrDraws) {
		t.Errorf("too few draws: %v", err)
	}
	if _, err := Remove(1, 20, 3, []Draw{1, 2}); !errors.Is(err, ErrDraws) {
		t.Errorf("a draw for a capped point: %v", err)
	}
}

// All sources together: Entrave (2 MP), the Feu follet's Brûlure (1), then Entrave again
// (2) before the Guerrier plays: the fourth point is the last. Whatever the draws and
// the order, a fighter never loses more than MaxLoss between two turns.
func TestRemovalCapAcrossSources(t *testing.T) {
	lost := 0
	for _, points := range []int{2, 1, 2} {
		draws := make([]Draw, Attempts(points, lost))
		for i := range draws {
			draws[i] = 99 // never resisted
		}
		r, err := Remove(points, 30, lost, draws)
		if err != nil {
			t.Fatal(err)
		}
		lost += r.Removed
	}
	if lost != MaxLoss {
		t.Errorf("lost %d MP, want %d", lost, MaxLoss)
	}
	for start := 0; start <= MaxLoss; start++ {
		for points := 0; points <= 8; points++ {
			for seed := Draw(0); seed < 100; seed += 7 {
				draws := make([]Draw, Attempts(points, start))
				for i := range draws {
					draws[i] = seed + Draw(i)*31
				}
				r, err := Remove(points, 25, start, draws)
				if err != nil || start+r.Removed > MaxLoss || r.Removed+r.Resisted+r.Capped != points {
					t.Fatalf("Remove(%d, 25%%, lost %d) = %+v, %v", points, start, r, err)
				}
			}
		}
	}
}
