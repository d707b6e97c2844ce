package game

import "testing"

// owned stands for an action that a game owns and names.
type owned struct{}

func (owned) ActionName() string { return "spells" }

// A game that does not take an action says what it was: by the name the action gives
// itself, or by its Go type when it gives none.
func TestUnsupportedNamesTheAction(t *testing.T) {
	for _, c := range []struct {
		do   any
		want string
	}{
		{Move{Notation: "e2e4"}, "Toy has no moves: it takes a spell"},
		{Choose{Option: "keep"}, "Toy has no choice to make here: it takes a spell"},
		{ClaimDraw{}, "Toy has no draw to claim on demand: it takes a spell"},
		{Timeout{}, "Toy has no timeouts: it takes a spell"},
		{owned{}, "Toy has no spells: it takes a spell"},
		{struct{ X int }{}, "Toy has no action struct { X int }: it takes a spell"},
	} {
		err := Unsupported("Toy", c.do, "a spell")
		if err.Code != BadInput || err.Reason != c.want {
			t.Errorf("%T: %v, want %s", c.do, err, c.want)
		}
	}
}
