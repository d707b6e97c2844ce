package solwaris

import (
	"fmt"
	"reflect"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// Audit checks that a recorded event is one the rules record in the state before it. The
// opening (Keyed, Opened) is dealt again from the seed by the verifier. An event that
// follows from a seat's action is checked against the state: the phase it belongs to,
// the fighter whose turn it is, a path that the fighter could walk. Random outcomes are
// checked by drawing them again from the key: a timeout's placements, designation and
// bonuses are what the rules draw at that version.
func (r Rules) Audit(before game.State, e game.Event) error {
	s, _ := before.(State)
	switch e := e.(type) {
	case Keyed, Opened:
		return nil
	case GrimoireChosen:
		return r.replays(s, e, e.Seat, ChooseGrimoire{Class: e.Class, Variants: e.Variants})
	case PlacementChosen:
		return r.replays(s, e, e.Seat, PlaceFighter{Cell: e.Cell})
	case BidPlaced:
		if s.Phase != PhaseAuction || s.Teams[e.Seat] != s.Auction.ToBid || e.Price != s.Auction.Price+BidStep || e.Price > s.Purses[e.Seat] {
			return fmt.Errorf("seat %d may not bid %d now (auction %+v)", e.Seat, e.Price, s.Auction)
		}
	case FighterMoved:
		if f := s.acting(); f == nil || s.Actor != e.Fighter {
			return fmt.Errorf("fighter %d moves out of its turn", e.Fighter)
		}
		if len(e.Path) > s.Fighters[e.Fighter].MP {
			return fmt.Errorf("fighter %d walks %d steps with %d MP", e.Fighter, len(e.Path), s.Fighters[e.Fighter].MP)
		}
		// Step by step, as Decide checks it: free adjacent cells nobody stands on, and no
		// step past the first that enters a trap's zone (the trap ends the walk there).
		from, path := s.Fighters[e.Fighter].Cell, make([]arena.Cell, len(e.Path))
		for i, name := range e.Path {
			c, err := s.grid().ParseCell(name)
			if err != nil {
				return fmt.Errorf("fighter %d's step %d: %w", e.Fighter, i+1, err)
			}
			path[i] = c
		}
		if err := s.grid().ValidatePath(from, path, s.occupied(e.Fighter)); err != nil {
			return fmt.Errorf("fighter %d's walk %v: %w", e.Fighter, e.Path, err)
		}
		if n, _ := s.untilTrap(from, path); n != len(path) {
			return fmt.Errorf("fighter %d walks %v on past the trap it sprang on its step %d", e.Fighter, e.Path, n)
		}
	case TurnEnded:
		if s.Phase != PhasePlay || s.Actor != e.Fighter {
			return fmt.Errorf("fighter %d ends a turn that is not its own", e.Fighter)
		}
	case SpellCast:
		if s.Phase != PhasePlay || s.Actor != e.Fighter {
			return fmt.Errorf("fighter %d casts out of its turn", e.Fighter)
		}
		sp, err := s.castable(e.Fighter, e.Spell)
		if err != nil {
			return fmt.Errorf("fighter %d may not cast %s: %w", e.Fighter, e.Spell, err)
		}
		to, err := arena.ParseCell(e.Cell)
		if err != nil {
			return err
		}
		if why := s.aimable(e.Fighter, sp, to); why != nil || e.AP != sp.Cost || e.Target == nil || *e.Target != s.at(to) {
			return fmt.Errorf("fighter %d's %s on %s (AP %d, target %v): %v", e.Fighter, e.Spell, e.Cell, e.AP, e.Target, why)
		}
	case Damaged:
		// The roll and the critical are drawn again from the key; the bonus and resistance
		// are the state's, the damage and the armour's share are combat's.
		rng := stream(s, e.Drawn.At, e.Drawn.From)
		if sp, err := r.catalog().SpellByID(e.Spell); err == nil && !e.Shock {
			for _, ef := range sp.Effects {
				if ef.Kind == grimoire.Damage {
					if base := combat.Roll(ef.Min, ef.Max, roll(rng, ef.Min, ef.Max)); base != e.Base {
						return fmt.Errorf("recorded a roll of %d for %s, the key draws %d", e.Base, e.Spell, base)
					}
					break
				}
			}
		}
		if crit := combat.Critical(chance(rng)); crit != e.Critical {
			return fmt.Errorf("recorded critical %v, the key draws %v", e.Critical, crit)
		}
		h := combat.Hit{Base: e.Base, Critical: e.Critical, Bonus: s.bonus(e.Caster), Resistance: s.resistance(e.Fighter)}
		o := combat.Resolve(h, s.Fighters[e.Fighter].Stocks)
		if h.Bonus != e.Bonus || h.Resistance != e.Resistance || o.Dealt != e.Dealt || o.Absorbed != e.Absorbed || o.HPLoss != e.HPLoss {
			return fmt.Errorf("recorded the hit %+v, the formulas give %+v dealing %+v", e, h, o)
		}
	case PointsRemoved:
		f := s.Fighters[e.Fighter]
		resist, lost := f.APResist, f.APLost
		if e.Kind == "mp" {
			resist, lost = f.MPResist, f.MPLost
		}
		rng := stream(s, e.Drawn.At, e.Drawn.From)
		draws := make([]combat.Draw, combat.Attempts(e.Points, lost))
		for i := range draws {
			draws[i] = chance(rng)
		}
		r, err := combat.Remove(e.Points, resist, lost, draws)
		if err != nil || r.Removed != e.Removed || r.Resisted != e.Resisted || r.Capped != e.Capped {
			return fmt.Errorf("recorded the removal %+v, the key draws %+v (%v)", e, r, err)
		}
	case BonusesSpawned:
		d := redraw(r, s, e.Drawn)
		if got := d.drawBonuses(); !reflect.DeepEqual(got, e.Bonuses) && len(got)+len(e.Bonuses) > 0 {
			return fmt.Errorf("recorded the bonuses %v, the key draws %v", e.Bonuses, got)
		}
	case FightersPlaced:
		if s.Phase != PhasePlacement {
			return fmt.Errorf("%s in the %s phase", e.EventType(), s.Phase)
		}
		d := redraw(r, s, e.Drawn)
		d.at = e.Deadline.Add(-BidTime)
		d.reveal()
		if got := d.out[0].Event; !reflect.DeepEqual(got, e) {
			return fmt.Errorf("recorded %+v, the rules and the key give %+v", e, got)
		}
	case AuctionClosed:
		a := s.Auction
		want := AuctionClosed{Team: a.Designated, Payer: -1, Timeout: e.Timeout}
		if a.Bidder >= 0 {
			want = AuctionClosed{Team: a.Leader, Payer: a.Bidder, Price: a.Price, Timeout: e.Timeout}
		}
		if s.Phase != PhaseAuction || e != want {
			return fmt.Errorf("recorded %+v, the auction %+v closes as %+v", e, a, want)
		}
	case TurnStarted:
		f := s.Fighters[e.Fighter]
		if e.AP != max(f.BaseAP-f.APDue, 0) || e.MP != max(f.BaseMP-f.MPDue, 0) || !f.Standing() {
			return fmt.Errorf("fighter %d starts a turn with %d AP and %d MP; the rules give %d and %d", e.Fighter, e.AP, e.MP, max(f.BaseAP-f.APDue, 0), max(f.BaseMP-f.MPDue, 0))
		}
	case GrimoiresLocked:
		if s.Phase == PhaseOver || s.Phase == PhasePlay {
			return fmt.Errorf("%s in the %s phase", e.EventType(), s.Phase)
		}
	}
	return nil
}

// replays checks that seat's action decided on s records e first.
func (r Rules) replays(s State, e game.Event, seat int, do any) error {
	evs, err := r.Decide(s, game.Action{Seat: seat, Do: do})
	if err != nil {
		return fmt.Errorf("seat %d's %T is refused: %w", seat, do, err)
	}
	if !reflect.DeepEqual(evs[0].Event, e) {
		return fmt.Errorf("recorded %+v, the rules record %+v", e, evs[0].Event)
	}
	return nil
}

// redraw is a decision on s whose random numbers are drawn again from where drawn says.
func redraw(r Rules, s State, drawn Drawn) *decision {
	return &decision{r: r, s: s, rng: stream(s, drawn.At, drawn.From), v0: drawn.At}
}
