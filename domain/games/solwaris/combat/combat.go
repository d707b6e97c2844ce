// Package combat holds the pure formulas of a Solwaris fight: damage rolls, critical hits,
// damage bonuses and their cap, resistance then armour, the shock of a blocked push, and
// AP/MP removal with its resistance and its cap between two turns. Nothing here draws: the
// game takes every random value from the match's seed (and records it) and passes it in
// as a Draw; the functions only compute. docs/games/solwaris.md, "Combat", states each
// formula and its rounding.
package combat

import "errors"

// The figures the rules fix.
const (
	// CriticalPercent is the chance of a critical hit; a critical hit deals
	// CriticalNum/CriticalDen times the damage.
	CriticalPercent = 10
	CriticalNum     = 3
	CriticalDen     = 2
	// MaxResistance caps a fighter's damage resistance, in percent.
	MaxResistance = 75
	// MaxBonusFactor caps, in percent of the hit, what all the bonuses of one hit
	// together make of it, the critical excluded: x3.
	MaxBonusFactor = 300
	// ShockPerCell is the damage of a blocked push per cell not travelled.
	ShockPerCell = 12
	// MaxLoss is the most AP, and separately the most MP, a fighter loses between two of
	// its turns, all sources together.
	MaxLoss = 4
	// MaxRemovalResist caps a fighter's AP or MP removal resistance, as MaxResistance
	// caps its damage resistance, so that a removal always has a chance.
	MaxRemovalResist = 75
)

// Draw is one random value the game took from the match's seed: a uniform 64-bit
// integer. A percent chance p succeeds when draw % 100 < p and a roll between min and max
// is min + draw % (max-min+1); the bias of the modulo is below 2^-57, far beneath
// anything a match can notice, and it keeps a recorded draw readable by hand.
type Draw uint64

// Roll is a damage roll between lo and hi inclusive (lo when hi < lo).
func Roll(lo, hi int, d Draw) int {
	if hi <= lo {
		return lo
	}
	return lo + int(uint64(d)%uint64(hi-lo+1))
}

// Chance says whether an event of percent chance happens with draw d (never at 0 or
// below, always at 100 or above).
func Chance(percent int, d Draw) bool { return int(uint64(d)%100) < percent }

// Critical says whether draw d makes a hit critical (CriticalPercent).
func Critical(d Draw) bool { return Chance(CriticalPercent, d) }

// Bonus is an attacker's damage bonus in percent: of the boosts its spells put on it
// (Cri de guerre, Œil du mage), only the strongest counts; a passive's boost (Érudition)
// adds to it. The cap on a hit's bonuses applies in Hit, where the target's weakened
// resistance joins in.
func Bonus(spellBoosts []int, passive int) int {
	best := 0
	for i, b := range spellBoosts {
		if i == 0 || b > best {
			best = b
		}
	}
	return best + passive
}

// Hit is one blow, before it reaches the target's armour: a spell's damage or a shock.
type Hit struct {
	// Base is the rolled damage (Roll), or a shock's (Shock).
	Base int
	// Critical: the draw made it critical (Critical).
	Critical bool
	// Bonus is the attacker's bonus in percent (Bonus); -100 or less deals nothing.
	Bonus int
	// Resistance is the target's resistance in percent: every gain and loss summed
	// (class, passives, spells, auras). Above MaxResistance it counts as MaxResistance;
	// below 0 the target is weakened and the part under 0 is a bonus of the hit.
	Resistance int
}

// Damage is what the hit deals before armour. The bonus factor (100+Bonus)% times the
// weakening factor (100-Resistance)% for a negative resistance is capped at
// MaxBonusFactor; then the critical multiplies by 1.5 and a positive resistance, capped
// at MaxResistance, takes its share. The exact product is rounded once, to the nearest
// integer, a half rounded up; it is never below 0.
func (h Hit) Damage() int {
	if h.Base <= 0 {
		return 0
	}
	bonus := int64(max(100+h.Bonus, 0)) * int64(100+max(-h.Resistance, 0)) // in 1/10000
	bonus = min(bonus, MaxBonusFactor*100)
	crit := int64(CriticalDen)
	if h.Critical {
		crit = CriticalNum
	}
	kept := int64(100 - min(max(h.Resistance, 0), MaxResistance))
	num := int64(h.Base) * bonus * crit * kept
	den := int64(10000) * CriticalDen * 100
	return int((2*num + den) / (2 * den))
}

// Stock is one armour: Points left, and Ends, the game's count at which it expires (any
// increasing count, such as the turn number); the soonest to expire absorbs first.
type Stock struct {
	Points int
	Ends   int
}

// Absorb takes damage (a Hit's, after resistance) through the armour stocks: the stock
// that ends soonest absorbs first, as much as it holds, then the next; what is left is
// the HP lost. It returns the stocks that still hold points, soonest first; stocks is
// not modified.
func Absorb(damage int, stocks []Stock) (hpLoss int, left []Stock) {
	left = sortedStocks(stocks)
	for i := range left {
		took := min(damage, left[i].Points)
		left[i].Points -= took
		damage -= took
	}
	kept := left[:0]
	for _, s := range left {
		if s.Points > 0 {
			kept = append(kept, s)
		}
	}
	return max(damage, 0), kept
}

// Expire drops the stocks that end at or before now: an armour lasts until its end,
// spent or not. stocks is not modified.
func Expire(stocks []Stock, now int) []Stock {
	var out []Stock
	for _, s := range stocks {
		if s.Ends > now && s.Points > 0 {
			out = append(out, s)
		}
	}
	return out
}

// Armour is the total of points the stocks hold.
func Armour(stocks []Stock) int {
	n := 0
	for _, s := range stocks {
		n += s.Points
	}
	return n
}

// sortedStocks copies stocks in order of Ends, stably, by insertion (a fighter holds a
// handful at most).
func sortedStocks(stocks []Stock) []Stock {
	out := make([]Stock, 0, len(stocks))
	for _, s := range stocks {
		i := len(out)
		for i > 0 && out[i-1].Ends > s.Ends {
			i--
		}
		out = append(out, Stock{})
		copy(out[i+1:], out[i:])
		out[i] = s
	}
	return out
}

// Outcome is a hit resolved against its target's armour.
type Outcome struct {
	// Dealt is the hit's damage after resistance (Hit.Damage); Absorbed the part the
	// armour took; HPLoss the rest.
	Dealt, Absorbed, HPLoss int
	// Armour is the target's stocks afterwards.
	Armour []Stock
}

// Resolve applies h to a target holding the armour stocks: resistance first, then armour.
func Resolve(h Hit, stocks []Stock) Outcome {
	dealt := h.Damage()
	hp, left := Absorb(dealt, stocks)
	return Outcome{Dealt: dealt, Absorbed: dealt - hp, HPLoss: hp, Armour: left}
}

// Shock is the base of the hits a blocked push deals: perCell (0 is the common
// ShockPerCell; a spell may have its own) for each cell the victim did not travel, and
// half of that, rounded down, to the entity it struck, if any. Each is then a Hit of the
// push's caster, with its own critical draw, its bonus and the struck one's resistance.
// A push that was not blocked, or that a trap stopped, has no shock: notTravelled is 0.
func Shock(notTravelled, perCell int) (victim, struck int) {
	if perCell <= 0 {
		perCell = ShockPerCell
	}
	victim = max(notTravelled, 0) * perCell
	return victim, victim / 2
}

// ErrDraws is a removal given a number of draws other than its Attempts.
var ErrDraws = errors.New("combat: removal draws do not match its attempts")

// Attempts is how many points of a removal of points are tried, on a fighter that has
// already lost `lost` of that kind (AP or MP) since its last turn: the points past
// MaxLoss are not tried at all and take no draw.
func Attempts(points, lost int) int { return max(min(points, MaxLoss-lost), 0) }

// Removal is the result of an AP or MP removal.
type Removal struct {
	// Removed points were taken; Resisted ones were refused by the target's resistance;
	// Capped ones were past MaxLoss and never tried.
	Removed, Resisted, Capped int
}

// Remove resolves a removal of points on a target with resist percent of removal
// resistance (capped at MaxRemovalResist) that has lost `lost` points of that kind since
// its last turn. Points are tried one by one, each with its own draw: draws must hold
// exactly Attempts(points, lost) draws, the i-th point refused when draws[i] falls under
// the resistance (Chance).
func Remove(points, resist, lost int, draws []Draw) (Removal, error) {
	n := Attempts(points, lost)
	if len(draws) != n {
		return Removal{}, ErrDraws
	}
	r := Removal{Capped: max(points, 0) - n}
	resist = min(max(resist, 0), MaxRemovalResist)
	for _, d := range draws {
		if Chance(resist, d) {
			r.Resisted++
		} else {
			r.Removed++
		}
	}
	return r, nil
}
