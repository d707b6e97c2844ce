package solwaris

import (
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// Evolve folds one event into the state. It never changes the state it is given: it
// works on a copy of what it changes.
func (r Rules) Evolve(st game.State, e game.Event) game.State {
	s, _ := st.(State)
	s = s.clone()
	s.cat = r.Catalog
	if game.IsCovert(e) {
		s.Hidden++ // a covert event never shifts the random streams of public decisions
	} else {
		s.Version++
	}
	switch e := e.(type) {
	case Keyed:
		s.Key, _ = hex.DecodeString(e.Key)
		s.Fairness = fairness.Version(e.Fairness)
		s.Purses = slices.Clone(e.Purses)
	case Opened:
		s.Map, s.Teams, s.Stake = e.Map, slices.Clone(e.Teams), e.Stake
		s.Phase, s.Deadline = PhaseGrimoire, e.Deadline
		s.Chosen = make([]bool, len(e.Teams))
		s.Grimoires = make([]Grimoire, len(e.Teams))
		s.Placed = make([]string, len(e.Teams))
		s.Actor = -1
		if len(s.Purses) < len(e.Teams) {
			s.Purses = append(s.Purses, make([]int64, len(e.Teams)-len(s.Purses))...)
		}
	case GrimoireChosen:
		s.Chosen[e.Seat] = true
		if e.Class != "" { // the shadow a verifier never folds, but a fold of it stays sane
			s.Grimoires[e.Seat] = Grimoire{Seat: e.Seat, Class: e.Class, Variants: slices.Clone(e.Variants)}
		}
	case GrimoiresLocked:
		s.Phase, s.Deadline = PhasePlacement, e.Deadline
		for _, g := range e.Grimoires {
			s.Chosen[g.Seat] = true
			s.Grimoires[g.Seat] = g
			s.Fighters = append(s.Fighters, hero(s.catalog(), g, s.Teams[g.Seat]))
		}
	case PlacementChosen:
		s.Placed[e.Seat] = e.Cell
	case FightersPlaced:
		for _, p := range e.Cells {
			s.Placed[p.Seat] = p.Cell
			c, _ := arena.ParseCell(p.Cell)
			s.Fighters[p.Seat].Cell, s.Fighters[p.Seat].OnArena = c, true
		}
		s.Phase, s.Deadline = PhaseAuction, e.Deadline
		s.Auction = Auction{Designated: e.Designated, ToBid: other(s.teams(), e.Designated), Leader: -1, Bidder: -1, Payer: -1}
	case BidPlaced:
		t := s.Teams[e.Seat]
		s.Auction.Leader, s.Auction.Bidder, s.Auction.Price = t, e.Seat, e.Price
		s.Auction.ToBid = other(s.teams(), t)
		s.Deadline = e.Deadline
	case AuctionClosed:
		s.Auction.Closed, s.Auction.Payer = true, e.Payer
		s.Auction.Price = e.Price
		s.Phase, s.First, s.Turn = PhasePlay, e.Team, 0
		s.Order = s.turnOrder(e.Team)
	case BonusesSpawned:
		s.Bonuses = slices.Clone(e.Bonuses)
	case TurnStarted:
		s.Actor, s.Turn, s.Deadline = e.Fighter, e.Turn, e.Deadline
		f := &s.Fighters[e.Fighter]
		f.AP, f.MP, f.APLost, f.MPLost, f.APDue, f.MPDue, f.Casts, f.ConcealedAP = e.AP, e.MP, 0, 0, 0, 0, nil, 0
		f.Stocks = combat.Expire(f.Stocks, e.Turn)
		for i := range s.Fighters {
			h := &s.Fighters[i]
			h.Lasting = slices.DeleteFunc(slices.Clone(h.Lasting), func(l Lasting) bool { return s.lapsed(l, e.Fighter, e.Turn) })
		}
		s.Traps = slices.DeleteFunc(s.Traps, func(t Trap) bool { return s.expired(t, e.Fighter, e.Turn) })
	case FighterMoved:
		f := &s.Fighters[e.Fighter]
		f.MP -= len(e.Path)
		f.Cell, _ = arena.ParseCell(e.Path[len(e.Path)-1])
	case BonusTaken:
		s.Bonuses = slices.DeleteFunc(s.Bonuses, func(b Bonus) bool { return b.Cell == e.Cell })
		f, k := &s.Fighters[e.Fighter], bonusKind(e.Kind)
		if e.Fighter == s.Actor {
			f.AP += k.AP
			f.MP += k.MP
		} else { // pushed onto it in another's turn: its next turn starts with them
			f.APDue -= k.AP
			f.MPDue -= k.MP
		}
		f.HP = min(f.HP+k.Heal, f.MaxHP)
		if k.Armour > 0 {
			f.Stocks = append(slices.Clone(f.Stocks), combat.Stock{Points: k.Armour, Ends: s.Turn + k.ArmourTurns})
			slices.SortStableFunc(f.Stocks, func(a, b combat.Stock) int { return a.Ends - b.Ends }) // the soonest to end absorbs first
		}
	case TrapTriggered:
		if i := slices.IndexFunc(s.Traps, func(t Trap) bool { return t.ID == e.Trap }); i >= 0 {
			s.Traps[i].Sprung = true
		}
		s.Fighters[e.Fighter].MP = 0
	case TurnEnded:
	case FightEnded:
		s.Phase, s.Deadline, s.Actor = PhaseOver, timeZero, -1
		s.Winners, s.Reason = slices.Clone(e.Winners), e.Reason
	default:
		if !s.evolveCombat(e) {
			panic(fmt.Sprintf("solwaris: no event %T", e))
		}
	}
	return s
}

// lapsed reports whether lasting effect l is over when fighter f starts its turn of round
// turn: at the start of its caster's turn of round Ends. A caster that has fallen has no
// more turns, so its place in the order counts instead, as a fallen layer's does for its
// traps: the effect ends at the first turn of round Ends from that place on (the turn the
// caster would have started), or at the first turn after, if no one plays from there.
// Ending it when its caster falls would cut short what it gave its allies (or took from
// its foes) for a fall they had no part in; never ending it would make it last for ever.
func (s *State) lapsed(l Lasting, f, turn int) bool {
	switch {
	case l.Caster == f:
		return l.Ends <= turn
	case l.Caster >= len(s.Fighters) || s.Fighters[l.Caster].OnArena:
		return false
	case turn != l.Ends:
		return turn > l.Ends
	}
	return slices.Index(s.Order, f) >= slices.Index(s.Order, l.Caster)
}

// expired reports whether trap t is gone when fighter f starts its turn of round turn. A
// trap laid on its layer's turn of round r for d turns (Until = r+d) vanishes at the
// start of its layer's turn of round r+d, as a lasting effect does: every fighter has
// then had exactly d turns with it on the arena, its layer's turn of laying counted. A
// fallen layer's place in the order still counts: the trap vanishes at the first turn of
// round r+d from that place on.
func (s *State) expired(t Trap, f, turn int) bool {
	if turn != t.Until {
		return turn > t.Until
	}
	return slices.Index(s.Order, f) >= slices.Index(s.Order, t.Layer)
}

// hero is the fighter a locked grimoire brings into the match.
func hero(cat *grimoire.Catalog, g Grimoire, team int) Fighter {
	gr, err := cat.Choose(g.Class, g.Variants)
	if err != nil {
		panic("solwaris: a locked grimoire the catalog refuses: " + err.Error())
	}
	c := gr.Class
	f := Fighter{Seat: g.Seat, Team: team, Class: c.ID, Summoner: -1, Passive: gr.Passive.ID,
		HP: c.HP, MaxHP: c.HP, BaseAP: c.AP, BaseMP: c.MP, APResist: c.APResist, MPResist: c.MPResist}
	for _, sp := range gr.Spells {
		f.Spells = append(f.Spells, sp.ID)
	}
	if gr.Passive.Trigger == grimoire.TriggerAlways {
		for _, e := range gr.Passive.Effects {
			switch e.Kind {
			case grimoire.Boost:
				f.PassiveBoost += e.Amount
			case grimoire.Resistance:
				f.PassiveResist += e.Amount
			case grimoire.APGain:
				f.BaseAP += e.Amount
			case grimoire.MPGain:
				f.BaseMP += e.Amount
			}
		}
	}
	return f
}

// other is the team after t, in a match of these teams.
func other(teams []int, t int) int {
	i := slices.Index(teams, t)
	return teams[(i+1)%len(teams)]
}

var timeZero time.Time
