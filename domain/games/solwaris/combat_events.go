package solwaris

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// The events of spells. Each records its outcome, the random ones included (a damage's
// base roll and critical, a removal's points), so that the fold never draws.
type (
	// SpellCast spends AP on a spell aimed at Cell (Target: the entity there, -1 none).
	// Hidden: the spell lays a trap, and the cast is its team's alone (Team); the others
	// are shown Concealed in its place.
	SpellCast struct {
		Fighter int    `json:"fighter"`
		Spell   string `json:"spell"`
		Cell    string `json:"cell,omitempty"`
		Target  *int   `json:"target,omitempty"`
		AP      int    `json:"ap"`
		Team    int    `json:"team"`
		Hidden  bool   `json:"hidden,omitempty"`
	}
	// TrapLaid lays a hidden trap: its team's alone until it triggers (the others are
	// shown Concealed in its place).
	TrapLaid struct {
		ID      string            `json:"id"`
		Team    int               `json:"team"`
		Layer   int               `json:"layer,omitempty"`
		Spell   string            `json:"spell,omitempty"`
		Cell    string            `json:"cell,omitempty"`
		Zone    arena.Shape       `json:"zone"`
		Until   int               `json:"until,omitempty"`
		Effects []grimoire.Effect `json:"effects,omitempty"`
	}
	// Damaged is a hit on Fighter: Base (the roll, or a shock's), the critical, the
	// caster's bonus and the resistance, and what it dealt, the armour absorbed, the HP lost.
	Damaged struct {
		Fighter    int  `json:"fighter"`
		Caster     int  `json:"caster"`
		Base       int  `json:"base"`
		Critical   bool `json:"critical,omitempty"`
		Bonus      int  `json:"bonus,omitempty"`
		Resistance int  `json:"resistance,omitempty"`
		Dealt      int  `json:"dealt"`
		Absorbed   int  `json:"absorbed,omitempty"`
		HPLoss     int  `json:"hpLoss"`
		Shock      bool `json:"shock,omitempty"`
		// Spell is the spell whose damage was rolled ("" for a shock); Drawn where the
		// roll (a spell's) and the critical were drawn.
		Spell string `json:"spell,omitempty"`
		Drawn Drawn  `json:"drawn"`
	}
	// Fallen takes a fighter at 0 HP off the arena.
	Fallen struct {
		Fighter int `json:"fighter"`
	}
	// Pushed moves Fighter along Path by force (a push or a pull); Missed cells were not
	// travelled, for what Stop says, striking Struck (-1 none).
	Pushed struct {
		Fighter int      `json:"fighter"`
		Path    []string `json:"path"`
		Missed  int      `json:"missed,omitempty"`
		Stop    string   `json:"stop,omitempty"`
		Struck  int      `json:"struck"`
	}
	// Swapped trades the cells of two entities.
	Swapped struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	// Teleported puts Fighter on Cell.
	Teleported struct {
		Fighter int    `json:"fighter"`
		Cell    string `json:"cell"`
	}
	// PointsRemoved takes AP or MP (Kind "ap" or "mp") from Fighter.
	PointsRemoved struct {
		Fighter  int    `json:"fighter"`
		Kind     string `json:"kind"`
		Points   int    `json:"points"` // the points the effect removes
		Drawn    Drawn  `json:"drawn"`  // where each tried point's draw came from
		Removed  int    `json:"removed"`
		Resisted int    `json:"resisted,omitempty"`
		Capped   int    `json:"capped,omitempty"`
	}
	// Affected puts a lasting effect (boost, resistance, armour, state) or a gain of AP or
	// MP on Fighter, from Caster, until the start of Caster's turn of round Ends.
	Affected struct {
		Fighter int    `json:"fighter"`
		Caster  int    `json:"caster"`
		Kind    string `json:"kind"`
		Amount  int    `json:"amount,omitempty"`
		State   string `json:"state,omitempty"`
		Ends    int    `json:"ends"`
	}
	// Summoned brings Summoner's entity onto Cell as fighter number Fighter.
	Summoned struct {
		Fighter  int    `json:"fighter"`
		Summoner int    `json:"summoner"`
		Entity   string `json:"entity"`
		Cell     string `json:"cell"`
	}
)

func (SpellCast) EventType() string { return "SpellCast" }
func (TrapLaid) EventType() string  { return "TrapLaid" }

// Concealed is what a viewer who may not see an event of play is shown in its place (a
// trap laid, and the cast that lays it): that the stream moved on, and nothing of what
// moved it; one type for every such secret, so that its type names none of them. It is
// never stored.
type Concealed struct{}

func (Concealed) EventType() string { return "Concealed" }

// Shadow: the other team and the spectators learn nothing of a trap spell cast, not even
// that it is a spell (its AP is left out of their view of the caster: see View).
func (SpellCast) Shadow() game.Event { return Concealed{} }

// Shadow: the other team and the spectators learn nothing of a trap laid.
func (TrapLaid) Shadow() game.Event { return Concealed{} }

// Covert: a trap spell's cast is its team's secret, its very existence included (see
// game.Covert): it is stored in the team's hidden stream, never in the match's.
func (e SpellCast) Covert() bool { return e.Hidden }

// Covert: a trap laid is its team's secret until it triggers (TrapTriggered, public).
func (TrapLaid) Covert() bool { return true }

func (Damaged) EventType() string       { return "Damaged" }
func (Fallen) EventType() string        { return "Fallen" }
func (Pushed) EventType() string        { return "Pushed" }
func (Swapped) EventType() string       { return "Swapped" }
func (Teleported) EventType() string    { return "Teleported" }
func (PointsRemoved) EventType() string { return "PointsRemoved" }
func (Affected) EventType() string      { return "Affected" }
func (Summoned) EventType() string      { return "Summoned" }

// Lasting is an effect that holds on a fighter until the start of its caster's turn of
// round Ends.
type Lasting struct {
	Kind   string
	Amount int
	State  string
	Caster int
	Ends   int
}

// Cast is a cast of the fighter's current turn, and the entity it aimed (-1 none).
type Cast struct {
	Spell  string
	Target int
}

// Cooldown says a spell may be cast again from round From.
type Cooldown struct {
	Spell string
	From  int
}

// registerCombat adds the events of spells to c.
func registerCombat(c *game.Codec) {
	game.Register[SpellCast](c, 1)
	game.Register[TrapLaid](c, 1)
	game.Register[Damaged](c, 1)
	game.Register[Fallen](c, 1)
	game.Register[Pushed](c, 1)
	game.Register[Swapped](c, 1)
	game.Register[Teleported](c, 1)
	game.Register[PointsRemoved](c, 1)
	game.Register[Affected](c, 1)
	game.Register[Summoned](c, 1)
}

// evolveCombat folds the events of spells; false for an event that is none of them.
func (s *State) evolveCombat(e game.Event) bool {
	switch e := e.(type) {
	case SpellCast:
		f := &s.Fighters[e.Fighter]
		f.AP -= e.AP
		if e.Hidden {
			f.ConcealedAP += e.AP
		}
		target := -1
		if e.Target != nil {
			target = *e.Target
		}
		f.Casts = append(slices.Clone(f.Casts), Cast{Spell: e.Spell, Target: target})
		if sp, err := s.catalog().SpellByID(e.Spell); err == nil && sp.Cooldown > 0 {
			f.Cooldowns = append(slices.DeleteFunc(slices.Clone(f.Cooldowns), func(c Cooldown) bool { return c.Spell == e.Spell }),
				Cooldown{Spell: e.Spell, From: s.Turn + sp.Cooldown})
		}
	case Damaged:
		f := &s.Fighters[e.Fighter]
		f.HP = max(f.HP-e.HPLoss, 0)
		_, f.Stocks = combat.Absorb(e.Dealt, f.Stocks)
	case Fallen:
		s.Fighters[e.Fighter].OnArena = false
	case Pushed:
		if len(e.Path) > 0 {
			s.Fighters[e.Fighter].Cell, _ = arena.ParseCell(e.Path[len(e.Path)-1])
		}
	case Swapped:
		a, b := &s.Fighters[e.A], &s.Fighters[e.B]
		a.Cell, b.Cell = b.Cell, a.Cell
	case Teleported:
		s.Fighters[e.Fighter].Cell, _ = arena.ParseCell(e.Cell)
	case PointsRemoved:
		// Points removed from the fighter to act are taken now; from another, at the
		// start of its next turn.
		f, now := &s.Fighters[e.Fighter], e.Fighter == s.Actor
		switch {
		case e.Kind == "ap" && now:
			f.AP, f.APLost = max(f.AP-e.Removed, 0), f.APLost+e.Removed
		case e.Kind == "ap":
			f.APDue, f.APLost = f.APDue+e.Removed, f.APLost+e.Removed
		case now:
			f.MP, f.MPLost = max(f.MP-e.Removed, 0), f.MPLost+e.Removed
		default:
			f.MPDue, f.MPLost = f.MPDue+e.Removed, f.MPLost+e.Removed
		}
	case Affected:
		f := &s.Fighters[e.Fighter]
		switch grimoire.EffectKind(e.Kind) {
		case grimoire.APGain:
			f.AP += e.Amount
		case grimoire.MPGain:
			f.MP += e.Amount
		case grimoire.Armour:
			f.Stocks = append(slices.Clone(f.Stocks), combat.Stock{Points: e.Amount, Ends: e.Ends})
			slices.SortStableFunc(f.Stocks, func(a, b combat.Stock) int { return a.Ends - b.Ends })
		default:
			f.Lasting = append(slices.Clone(f.Lasting), Lasting{Kind: e.Kind, Amount: e.Amount, State: e.State, Caster: e.Caster, Ends: e.Ends})
		}
	case TrapLaid:
		c, _ := arena.ParseCell(e.Cell)
		s.Traps = append(slices.Clone(s.Traps), Trap{ID: e.ID, Team: e.Team, Layer: e.Layer, Cell: c, Zone: e.Zone, Until: e.Until, Effects: e.Effects})
	case Summoned:
		s.Fighters = append(s.Fighters, summoned(s.catalog(), s.Fighters[e.Summoner], e))
		s.Order = s.turnOrder(s.First)
	default:
		return false
	}
	return true
}

// summoned is the fighter a summon brings.
func summoned(cat *grimoire.Catalog, by Fighter, e Summoned) Fighter {
	c, _ := cat.ClassByID(by.Class)
	en, err := c.Summon(e.Entity)
	if err != nil {
		panic("solwaris: " + err.Error())
	}
	cell, _ := arena.ParseCell(e.Cell)
	f := Fighter{Seat: by.Seat, Team: by.Team, Class: by.Class, Entity: en.ID, Summoner: e.Summoner, Inert: en.Inert,
		HP: en.HP, MaxHP: en.HP, BaseAP: en.AP, BaseMP: en.MP, AP: en.AP, MP: en.MP, Cell: cell, OnArena: true}
	for _, sp := range en.Spells {
		f.Spells = append(f.Spells, sp.ID)
	}
	return f
}
