package solwaris

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The grimoire phase: each seat's choice is its team's until both are locked, then
// everyone's; a bad class or variant is refused with a typed error.
func TestGrimoiresAreSecretUntilLocked(t *testing.T) {
	s := opened(t, "caveau", 500, 500)
	refused(t, s, 0, ChooseGrimoire{Class: "nobody"}, game.BadInput)
	refused(t, s, 0, ChooseGrimoire{Class: "guerrier", Variants: []string{"rayon"}}, game.BadInput)
	refused(t, s, 0, PlaceFighter{Cell: "a1"}, game.NotYourTurn)
	s, evs := act(t, s, 0, ChooseGrimoire{Class: "guerrier", Variants: []string{"ancrage"}})
	if (Rules{}).Sight(evs[0].Event).IsPublic() {
		t.Fatal("a grimoire chosen is public before the lock")
	}
	if v := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View); len(v.Grimoires) != 0 {
		t.Fatalf("seat 1 sees %+v before the lock", v.Grimoires)
	}
	if v := (Rules{}).View(s, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View); len(v.Grimoires) != 1 {
		t.Fatalf("seat 0 does not see its own grimoire: %+v", v.Grimoires)
	}
	refused(t, s, 0, ChooseGrimoire{Class: "arcaniste"}, game.NotYourTurn) // locked for seat 0
	s, evs = act(t, s, 1, ChooseGrimoire{Class: "arcaniste"})
	if len(evs) != 2 || evs[1].Event.EventType() != "GrimoiresLocked" || !evs[1].Visibility.IsPublic() {
		t.Fatalf("the last choice locks the grimoires: %+v", evs)
	}
	if s.Phase != PhasePlacement || s.Fighters[1].BaseAP != 14 || s.Fighters[0].BaseAP != 12 {
		t.Fatalf("after the lock: phase %s, fighters %+v", s.Phase, s.Fighters)
	}
	if !slices.Contains(s.Fighters[0].Spells, "ancrage") {
		t.Fatalf("the Guerrier's spells %v lack its variant", s.Fighters[0].Spells)
	}
}

// Placement: a seat's start cell is hidden from the other side until both are placed (so
// that whoever places last learns nothing, and nobody waits for the deadline to see the
// other first); at the deadline the game places the late seat from the seed.
func TestPlacementIsBlindAndTimesOut(t *testing.T) {
	s := locked(t)
	zoneA := s.grid().Zone(0)
	refused(t, s, 0, PlaceFighter{Cell: s.grid().Zone(1)[0].String()}, game.IllegalMove)
	refused(t, s, 0, PlaceFighter{Cell: "zz99"}, game.BadInput)
	s, evs := act(t, s, 0, PlaceFighter{Cell: zoneA[0].String()})
	if evs[0].Visibility.IsPublic() {
		t.Fatal("a start cell is public before both are placed")
	}
	spect := (Rules{}).View(s, game.Viewpoint{}).(*View)
	other := (Rules{}).View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	for _, v := range []*View{spect, other} {
		if v.Fighters[0].Cell != "" {
			t.Fatalf("seat 0's start cell is shown: %+v", v.Fighters[0])
		}
	}
	if len(other.PlacementCells) == 0 || slices.Contains(other.PlacementCells, zoneA[0].String()) {
		t.Fatalf("seat 1 may place on %v", other.PlacementCells)
	}
	evs, err := (Rules{}).Decide(s, game.Action{Seat: game.System, At: s.Deadline, Do: game.Timeout{Deadline: s.Deadline}})
	if err != nil {
		t.Fatal(err)
	}
	s = fold(t, s, evs)
	p := evs[0].Event.(FightersPlaced)
	if p.Cells[0] != (Placement{Seat: 0, Cell: zoneA[0].String()}) || !p.Cells[1].Auto {
		t.Fatalf("placed %+v", p.Cells)
	}
	if side, ok := s.grid().ZoneOf(s.Fighters[1].Cell); !ok || side != 1 {
		t.Fatalf("seat 1 placed at %s, outside its zone", s.Fighters[1].Cell)
	}
	if s.Phase != PhaseAuction {
		t.Fatalf("phase %s after placement", s.Phase)
	}
}

// The auction: the seed designates a team; the other may buy the first turn; each
// overbid adds 100; the last bidder plays first and alone pays; a bid above the purse is
// refused.
func TestAuction(t *testing.T) {
	s := placed(t, 250, 150)
	d := s.Auction.Designated
	o := 1 - d
	refused(t, s, d, Bid{}, game.NotYourTurn)
	s, _ = act(t, s, o, Bid{}) // 100
	s, _ = act(t, s, d, Bid{}) // 200
	if s.Auction.Price != 200 || s.Auction.Bidder != d {
		t.Fatalf("auction %+v", s.Auction)
	}
	// The next bid would be 300: above either purse.
	refused(t, s, o, Bid{}, game.IllegalMove)
	s, evs := act(t, s, o, PassBid{})
	c := evs[0].Event.(AuctionClosed)
	if c.Team != d || c.Payer != d || c.Price != 200 {
		t.Fatalf("closed %+v", c)
	}
	if got := (Rules{}).Charged(s); got[d] != 200 || got[o] != 0 {
		t.Fatalf("charged %v", got)
	}
	if f := s.acting(); f == nil || f.Team != d || s.Turn != 1 || len(s.Bonuses) != BonusesPerTurn {
		t.Fatalf("first turn: actor %d, turn %d, bonuses %v", s.Actor, s.Turn, s.Bonuses)
	}
}

// Nobody bids: the designated team plays first, free.
func TestAuctionWithoutBid(t *testing.T) {
	s := placed(t, 0, 0)
	evs, err := (Rules{}).Decide(s, game.Action{Seat: game.System, At: s.Deadline, Do: game.Timeout{Deadline: s.Deadline}})
	if err != nil {
		t.Fatal(err)
	}
	c := evs[0].Event.(AuctionClosed)
	if c.Team != s.Auction.Designated || c.Payer != -1 || c.Price != 0 {
		t.Fatalf("closed %+v", c)
	}
}

func locked(t *testing.T, purses ...int64) State {
	s := opened(t, "caveau", purses...)
	s, _ = act(t, s, 0, ChooseGrimoire{Class: "guerrier"})
	s, _ = act(t, s, 1, ChooseGrimoire{Class: "arcaniste"})
	return s
}

func placed(t *testing.T, purses ...int64) State {
	s := locked(t, purses...)
	s, _ = act(t, s, 0, PlaceFighter{Cell: s.grid().Zone(0)[0].String()})
	s, _ = act(t, s, 1, PlaceFighter{Cell: s.grid().Zone(1)[0].String()})
	return s
}

// A result counts under the game and under each seat's class.
func TestRatingKeys(t *testing.T) {
	s := locked(t)
	if got := (Rules{}).RatingKeys(s, 1); !slices.Equal(got, []string{"SOLWARIS", "SOLWARIS/arcaniste"}) {
		t.Fatalf("keys %v", got)
	}
	if got := (Rules{}).RatingKeys(opened(t, "caveau"), 0); !slices.Equal(got, []string{"SOLWARIS"}) {
		t.Fatalf("keys before the lock %v", got)
	}
}
