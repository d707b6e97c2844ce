package game

import (
	"slices"
	"testing"
)

// hooked is a game that answers each lifecycle hook as its fields say; a nil Rules inside
// it panics if anything else of the game is asked.
type hooked struct {
	Rules
	reseat []int
	keys   map[int][]string
}

func (hooked) Info() Info                                 { return Info{ID: "HOOKED"} }
func (h hooked) Reseat(Plan) []int                        { return h.reseat }
func (h hooked) RatingKeys(_ State, seat int) []string    { return h.keys[seat] }
func (hooked) DeclinesDraw(_ State, a Action, _ int) bool { return a.Seat == 1 }

// plain is a game with none of the hooks.
type plain struct{ Rules }

func (plain) Info() Info { return Info{ID: "PLAIN"} }

func TestRematchSeats(t *testing.T) {
	if to, err := RematchSeats(plain{}, Plan{Seats: 3}); err != nil || !slices.Equal(to, []int{1, 2, 0}) {
		t.Errorf("by default each player sits at the seat after theirs: %v %v", to, err)
	}
	if to, err := RematchSeats(hooked{reseat: []int{2, 3, 0, 1}}, Plan{Seats: 4}); err != nil || !slices.Equal(to, []int{2, 3, 0, 1}) {
		t.Errorf("the game's own seating: %v %v", to, err)
	}
	for _, bad := range [][]int{nil, {0, 1, 2}, {0, 0, 1, 2}, {1, 2, 3, 4}, {-1, 0, 1, 2}, {0, 1, 2, 3, 0}} {
		if to, err := RematchSeats(hooked{reseat: bad}, Plan{Seats: 4}); err == nil {
			t.Errorf("reseating as %v is not a permutation of four seats, yet gives %v", bad, to)
		}
	}
}

func TestRatingKeys(t *testing.T) {
	if got := RatingKeys(plain{}, nil, 2); len(got) != 2 || !slices.Equal(got[0], []string{"PLAIN"}) || !slices.Equal(got[1], []string{"PLAIN"}) {
		t.Errorf("by default the game's ID: %v", got)
	}
	keys := map[int][]string{0: {"HOOKED", "HOOKED/mage"}, 1: {"HOOKED", "HOOKED/brute"}}
	if got := RatingKeys(hooked{keys: keys}, nil, 2); !slices.Equal(got[0], keys[0]) || !slices.Equal(got[1], keys[1]) {
		t.Errorf("the game's own keys: %v", got)
	}
	uneven := map[int][]string{0: {"HOOKED", "HOOKED/mage"}, 1: {"HOOKED/brute"}}
	if got := RatingKeys(hooked{keys: uneven}, nil, 2); !slices.Equal(got[0], []string{"HOOKED"}) || !slices.Equal(got[1], []string{"HOOKED"}) {
		t.Errorf("keys in different numbers count under the game's ID: %v", got)
	}
	if got := RatingKeys(hooked{keys: map[int][]string{}}, nil, 2); !slices.Equal(got[0], []string{"HOOKED"}) {
		t.Errorf("no keys count under the game's ID: %v", got)
	}
}

func TestDeclinesDraw(t *testing.T) {
	for _, c := range []struct {
		rules    Rules
		seat     int
		declines bool
	}{
		{plain{}, 1, true}, {plain{}, 2, true}, {plain{}, 0, false}, {plain{}, System, false},
		{hooked{}, 1, true}, {hooked{}, 2, false}, {hooked{}, 0, false}, {hooked{}, System, false},
	} {
		if got := DeclinesDraw(c.rules, nil, Action{Seat: c.seat}, 0); got != c.declines {
			t.Errorf("%s: seat %d's action declines seat 0's offer: %v, want %v", c.rules.Info().ID, c.seat, got, c.declines)
		}
	}
}
