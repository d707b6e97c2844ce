package rating

import (
	"math"
	"testing"
)

func TestNewcomersMoveFasterForTenGames(t *testing.T) {
	newcomer := Player{Rating: Initial, Games: 0}
	veteran := Player{Rating: Initial, Games: ProvisionalGames}
	a, b := Update(newcomer, veteran, 1)
	if a != 1420 || b != 1390 {
		t.Fatalf("equal ratings, newcomer wins: got %v and %v, want 1420 (K=40) and 1390 (K=20)", a, b)
	}
	ninth := Player{Rating: Initial, Games: ProvisionalGames - 1}
	if ninth.K() != KProvisional {
		t.Fatalf("the tenth rated game is still provisional")
	}
}

func TestDrawBetweenUnequalPlayersMovesTowardEachOther(t *testing.T) {
	strong := Player{Rating: 1800, Games: 50}
	weak := Player{Rating: 1400, Games: 50}
	s, w := Update(strong, weak, 0.5)
	if !(s < 1800 && w > 1400) {
		t.Fatalf("draw: got %v, %v", s, w)
	}
	if math.Abs((1800-s)-(w-1400)) > 1e-9 {
		t.Fatalf("with equal K the points lost equal the points won: %v vs %v", 1800-s, w-1400)
	}
	if e := Expected(1800, 1400); math.Abs(e-0.909) > 0.001 {
		t.Fatalf("expected score of +400 is about 0.909, got %v", e)
	}
}
