package projections

import (
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/rating"
)

// A ruling record unpacks to what was packed, a duel under its game's key as a match of
// keyed seats in teams; a record cut short does not unpack.
func TestARatingRecordUnpacksAsPacked(t *testing.T) {
	r := NewRatings(nil)
	for _, d := range []*ratedResult{
		{game: "chess", players: []string{"ann", "bob"}, teams: []int{0, 1},
			before: [][]rating.Player{{{Rating: 1500, Games: 0}, {Rating: 1612.25, Games: 300}}},
			moved:  []movedRating{{seat: 0, key: 0, by: 16.5, result: 1}, {seat: 1, key: 0, by: -16.5, result: 0}}},
		{game: "solwaris", players: []string{"ann", "bob", "cy"}, teams: []int{0, 0, 1},
			keys:   [][]string{{"solwaris/mage", "solwaris"}, {"solwaris/rogue", "solwaris"}, {"solwaris/mage", "solwaris"}},
			before: [][]rating.Player{{{Rating: 1, Games: 1}, {Rating: 2, Games: 2}, {Rating: 3, Games: 3}}, {{Rating: 4, Games: 4}, {Rating: 5, Games: 5}, {Rating: 6, Games: 6}}},
			moved:  []movedRating{{seat: 2, key: 1, by: 0.125, result: 0.5}}},
	} {
		p := r.pack(d)
		got, err := r.unpack(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, d) {
			t.Fatalf("unpacked\n%+v\nwant\n%+v", got, d)
		}
		if _, err := r.unpack(p[:len(p)-1]); err == nil {
			t.Fatalf("a record of %s cut short unpacked", d.game)
		}
		t.Logf("%s: %d bytes packed", d.game, len(p))
	}
}
