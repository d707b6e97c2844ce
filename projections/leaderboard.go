package projections

import (
	"cmp"
	"slices"
	"strings"
)

// A leaderboard index: each rating key's rows in the leaderboard's order, kept as the
// ratings change, so that Ratings.Leaderboard reads its first n rows instead of sorting
// every player at each call.

// place is a rating row's place on its key's leaderboard: its rating then its player.
type place struct {
	rating float64
	player string
}

// ahead orders places as Leaderboard lists them: the higher rating first, ties by player ID.
func ahead(a, b place) int {
	if c := cmp.Compare(b.rating, a.rating); c != 0 {
		return c
	}
	return strings.Compare(a.player, b.player)
}

// board is one key's places in the leaderboard's order. A rating that changes moves its
// place by a binary search and a shift of the places between where it was and where it
// goes (few, for a result's change of a few points); a new row, or a row that goes, shifts
// the places after it.
type board []place

func (b board) find(p place) (int, bool) { return slices.BinarySearchFunc(b, p, ahead) }

func (b *board) add(p place) {
	if i, found := b.find(p); !found {
		*b = slices.Insert(*b, i, p)
	}
}

func (b *board) remove(p place) {
	if i, found := b.find(p); found {
		*b = slices.Delete(*b, i, i+1)
	}
}

// move puts the place from, which the board holds, at to's place in the order.
func (b board) move(from, to place) {
	i, found := b.find(from)
	if !found {
		return
	}
	j, _ := b.find(to) // where to goes while from is still at i
	if j > i {
		copy(b[i:j-1], b[i+1:j]) // the places between come up one
		b[j-1] = to
		return
	}
	copy(b[j+1:i+1], b[j:i]) // the places between go down one
	b[j] = to
}

// list puts the player's row x on its key's board. The caller holds the lock.
func (r *Ratings) list(player string, x *Rating) {
	if r.boards == nil {
		r.boards = map[string]*board{}
	}
	b := r.boards[x.Key]
	if b == nil {
		b = &board{}
		r.boards[x.Key] = b
	}
	b.add(place{x.Rating, player})
}

// moved moves the player's row x on its key's board from the rating it had, was, to the
// one it has now. The caller holds the lock.
func (r *Ratings) moved(player string, x *Rating, was float64) {
	if b := r.boards[x.Key]; b != nil {
		b.move(place{was, player}, place{x.Rating, player})
	}
}

// unlist takes the player's row x off its key's board, before x changes or goes. The
// caller holds the lock.
func (r *Ratings) unlist(player string, x *Rating) {
	if b := r.boards[x.Key]; b != nil {
		b.remove(place{x.Rating, player})
	}
}

// reindex builds every board again from the rows (after a snapshot is read back). The
// caller holds the lock.
func (r *Ratings) reindex() {
	r.boards = map[string]*board{}
	for p, keys := range r.byPlayer {
		for _, x := range keys {
			b := r.boards[x.Key]
			if b == nil {
				b = &board{}
				r.boards[x.Key] = b
			}
			*b = append(*b, place{x.Rating, p})
		}
	}
	for _, b := range r.boards {
		slices.SortFunc(*b, ahead)
	}
}
