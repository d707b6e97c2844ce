// Package leagues is Solwaris's eight leagues, from Novice to Légende, by rating band: the
// one place that says which rating is which league (the API's leagues, the loot's chance,
// and the leaderboards to come read it here). A class's rating starts at 1000 (Novice,
// with room to fall); each band is a hundred points wide up to Expert, then wider, as the
// Elo of the best players spreads out.
package leagues

// League is a band of ratings: from Min up to the next league's Min.
type League struct {
	ID     string
	NameFr string
	NameEn string
	Min    int
	// LootChance is the chance of a Cristal légendaire at the end of a duel against a
	// player, in thousandths: it grows with the league (see package progress).
	LootChance int
}

// All is every league, lowest first.
var All = []League{
	{ID: "novice", NameFr: "Novice", NameEn: "Novice", Min: 0, LootChance: 5},
	{ID: "apprenti", NameFr: "Apprenti", NameEn: "Apprentice", Min: 1100, LootChance: 8},
	{ID: "initie", NameFr: "Initié", NameEn: "Initiate", Min: 1200, LootChance: 12},
	{ID: "aguerri", NameFr: "Aguerri", NameEn: "Seasoned", Min: 1300, LootChance: 18},
	{ID: "expert", NameFr: "Expert", NameEn: "Expert", Min: 1400, LootChance: 25},
	{ID: "maitre", NameFr: "Maître", NameEn: "Master", Min: 1550, LootChance: 35},
	{ID: "champion", NameFr: "Champion", NameEn: "Champion", Min: 1700, LootChance: 50},
	{ID: "legende", NameFr: "Légende", NameEn: "Legend", Min: 1900, LootChance: 80},
}

// Of is the league of a rating (a rating is rounded to the nearest point first, as shown).
func Of(rating float64) League {
	r := int(rating + 0.5)
	out := All[0]
	for _, l := range All {
		if r >= l.Min {
			out = l
		}
	}
	return out
}

// Max is the highest rating of l's band, or -1 for the top league, which has none.
func Max(l League) int {
	for i, x := range All {
		if x.ID == l.ID && i+1 < len(All) {
			return All[i+1].Min - 1
		}
	}
	return -1
}
