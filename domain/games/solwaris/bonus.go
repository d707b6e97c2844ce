package solwaris

// BonusKind is a kind of terrain bonus, as data: what picking it up gives at once.
type BonusKind struct {
	ID     string
	NameFr string
	NameEn string
	AP     int // action points added now
	MP     int // movement points added now
	Heal   int // HP restored, up to the fighter's maximum
	Armour int // armour points added
}

// BonusKinds are the terrain bonuses the seed draws from, two different ones a hero turn.
var BonusKinds = []BonusKind{
	{ID: "ap", NameFr: "Éclat d'action", NameEn: "Action shard", AP: 2},
	{ID: "mp", NameFr: "Plume de vent", NameEn: "Wind feather", MP: 2},
	{ID: "heal", NameFr: "Source de vie", NameEn: "Spring of life", Heal: 60},
	{ID: "armour", NameFr: "Écu de pierre", NameEn: "Stone shield", Armour: 50},
}

// bonusKind is the kind id, or the zero kind.
func bonusKind(id string) BonusKind {
	for _, k := range BonusKinds {
		if k.ID == id {
			return k
		}
	}
	return BonusKind{}
}
