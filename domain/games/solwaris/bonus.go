package solwaris

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// Terrain bonuses are data: bonuses.json, embedded and checked when the package loads (a
// bad file panics, so it never ships; the tests catch it first). At each hero turn the
// seed draws BonusesPerTurn different kinds of it onto free cells.

// BonusKind is a kind of terrain bonus: what picking it up gives at once (its AP and MP
// come with the taker's next turn when taken out of its turn).
type BonusKind struct {
	ID     string `json:"id"`
	NameFr string `json:"nameFr"`
	NameEn string `json:"nameEn"`
	AP     int    `json:"ap,omitempty"`     // action points added
	MP     int    `json:"mp,omitempty"`     // movement points added
	Heal   int    `json:"heal,omitempty"`   // HP restored, up to the fighter's maximum
	Armour int    `json:"armour,omitempty"` // armour points added, for ArmourTurns
	// ArmourTurns is how long the armour holds, counted as every lasting effect: taken on
	// round t, it ends at the start of its holder's turn of round t+ArmourTurns.
	ArmourTurns int `json:"armourTurns,omitempty"`
}

// The bounds a bonus kind's figures must keep: a bonus tips a turn, it does not make one.
const (
	MaxBonusPoints = 6   // AP or MP
	MaxBonusHP     = 200 // heal or armour
)

//go:embed bonuses.json
var bonusesJSON []byte

var bonusKinds = func() []BonusKind {
	ks, err := ParseBonusKinds(bonusesJSON)
	if err != nil {
		panic("solwaris: bonuses.json: " + err.Error())
	}
	return ks
}()

// BonusKinds lists the terrain bonuses the seed draws from, in the file's order (a copy).
func BonusKinds() []BonusKind { return append([]BonusKind(nil), bonusKinds...) }

// ParseBonusKinds reads and checks bonus kinds in bonuses.json's format: fields it does
// not know are refused; there are at least BonusesPerTurn kinds (a turn's bonuses are
// all different), each with a unique ID, both names, and at least one figure, none
// negative nor past its bound; armour comes with its duration, and a duration with armour.
func ParseBonusKinds(data []byte) ([]BonusKind, error) {
	var ks []BonusKind
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ks); err != nil {
		return nil, err
	}
	if len(ks) < BonusesPerTurn {
		return nil, fmt.Errorf("%d bonus kinds; a turn draws %d different ones", len(ks), BonusesPerTurn)
	}
	seen := map[string]bool{}
	for i, k := range ks {
		if err := k.check(); err != nil {
			return nil, fmt.Errorf("bonus %d (%q): %w", i, k.ID, err)
		}
		if seen[k.ID] {
			return nil, fmt.Errorf("bonus %d: the ID %q is taken", i, k.ID)
		}
		seen[k.ID] = true
	}
	return ks, nil
}

func (k BonusKind) check() error {
	switch {
	case k.ID == "" || k.NameFr == "" || k.NameEn == "":
		return fmt.Errorf("an ID or a name is missing")
	case k.AP < 0 || k.MP < 0 || k.Heal < 0 || k.Armour < 0 || k.ArmourTurns < 0:
		return fmt.Errorf("a negative figure")
	case k.AP+k.MP+k.Heal+k.Armour == 0:
		return fmt.Errorf("it gives nothing")
	case k.AP > MaxBonusPoints || k.MP > MaxBonusPoints:
		return fmt.Errorf("more than %d AP or MP", MaxBonusPoints)
	case k.Heal > MaxBonusHP || k.Armour > MaxBonusHP:
		return fmt.Errorf("more than %d HP healed or of armour", MaxBonusHP)
	case (k.Armour > 0) != (k.ArmourTurns > 0):
		return fmt.Errorf("armour %d for %d turns: armour needs a duration, and a duration armour", k.Armour, k.ArmourTurns)
	}
	return nil
}

// bonusKind is the kind id, or the zero kind.
func bonusKind(id string) BonusKind {
	for _, k := range bonusKinds {
		if k.ID == id {
			return k
		}
	}
	return BonusKind{}
}
