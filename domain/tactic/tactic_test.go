package tactic

import "testing"

func TestScoreOrdersMatesThenVictimsThenCheapAttackers(t *testing.T) {
	ordered := []int{
		Score(true, 0, Pawn),
		Score(false, King, King),
		Score(false, Queen, Pawn),
		Score(false, Queen, Queen),
		Score(false, Rook, Knight),
		Score(false, Knight, Pawn),
		Score(false, Bishop, King),
		Score(false, Pawn, Pawn),
		Score(false, Pawn, King),
	}
	for i := 1; i < len(ordered); i++ {
		if ordered[i-1] < ordered[i] {
			t.Fatalf("score %d = %d ranks below score %d = %d", i-1, ordered[i-1], i, ordered[i])
		}
	}
	if last := ordered[len(ordered)-1]; last <= 0 {
		t.Fatalf("a capture scores %d, not above a quiet move", last)
	}
	if q := Score(false, 0, Queen); q != 0 {
		t.Fatalf("a quiet move scores %d", q)
	}
}
