// Package facts reads what a finished match shows about each of its seats, from the
// match's own events (the lifecycle and the game's), for the economy's rules: the daily
// challenges count them, Solwaris's experience and loot read them, the abandonment
// cooldowns look for who abandoned. A Tally is fed the decoded events of one match in
// order, as stored (every event, the secret ones included: the server reads them all;
// what it counts is shown only once the match is over); it keeps counters, not the
// game's state.
package facts

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// The counters a seat's Counts may hold. Each counts what the seat did in the match;
// a challenge names one (see package daily).
const (
	Matches = "matches" // 1 in every match: "play 3 matches"
	Wins    = "wins"    // 1 in a match the seat won

	// UnfairChess.
	Moves      = "moves"
	Cards      = "cards"
	Captures   = "captures"
	Checks     = "checks"
	Castles    = "castles"
	Promotions = "promotions"
	// StatusPrefix+status: a status put on a piece by the seat's card (poison, sleep,
	// shield, dynamite); TriggeredPrefix+status: a status the seat put that went off (a
	// poisoned piece taking its capturer with it, dynamite exploding).
	StatusPrefix    = "status:"
	TriggeredPrefix = "triggered:"
	CardPrefix      = "card:" // CardPrefix+card ID: a card of that kind played

	// Solwaris: what happens during the turns of the seat's fighters.
	Spells     = "spells"
	Damage     = "damage" // HP lost by enemy fighters
	Crits      = "crits"
	Knockouts  = "knockouts" // enemy fighters fallen
	Pushes     = "pushes"    // enemy fighters pushed or pulled
	PushTraps  = "push-traps"
	Traps      = "traps"
	BonusesHit = "bonuses"
	Summons    = "summons"
	Teleports  = "teleports"
	Steps      = "steps"
)

// Seat is what one seat shows.
type Seat struct {
	Player    string
	Bot       bool
	Won, Drew bool
	Abandoned bool   // this seat resigned or forfeited
	Class     string // Solwaris: the class its hero played
	Counts    map[string]int
}

// Match is what a finished match shows.
type Match struct {
	ID     string
	Game   string
	Rated  bool
	Stake  int64
	Reason string
	Ended  time.Time
	Void   bool // aborted or cancelled: counts for nobody
	// Turns is the match's length: Solwaris's rounds, a chess game's full moves.
	Turns int
	Seats []Seat
	Seed  []byte // the server's seed, revealed at the end
	// MatchSeed is the seed derived from Seed and the seats' entropy (docs/fairness.md),
	// revealed with it; nil for a match of the Legacy procedure, which took no entropy.
	MatchSeed []byte
}

// VsBot reports whether the house bot sat at the match.
func (m Match) VsBot() bool {
	for _, s := range m.Seats {
		if s.Bot {
			return true
		}
	}
	return false
}

// Abandoner is the seat that abandoned (resigned or forfeited), or -1.
func (m Match) Abandoner() int {
	for i, s := range m.Seats {
		if s.Abandoned {
			return i
		}
	}
	return -1
}

// Tally counts a match's facts as its events come.
type Tally struct {
	m        Match
	over     bool
	fighters map[int]int // Solwaris: fighter -> seat
	teams    []int
	actor    int          // Solwaris: the seat whose fighter has the turn, -1 none
	status   map[int]int  // UnfairChess: piece -> the seat whose card put a status on it
	pushed   map[int]bool // Solwaris: fighters pushed during the current turn
}

// New starts the tally of match id.
func New(id string) *Tally {
	return &Tally{m: Match{ID: id}, fighters: map[int]int{}, actor: -1, status: map[int]int{}, pushed: map[int]bool{}}
}

// Over reports whether the match has ended.
func (t *Tally) Over() bool { return t.over }

// Match returns the facts so far (whole once Over).
func (t *Tally) Match() Match { return t.m }

func (t *Tally) add(seat int, counter string, n int) {
	if seat < 0 || seat >= len(t.m.Seats) || n == 0 {
		return
	}
	s := &t.m.Seats[seat]
	if s.Counts == nil {
		s.Counts = map[string]int{}
	}
	s.Counts[counter] += n
}

func (t *Tally) enemy(actor, fighter int) bool {
	s, ok := t.fighters[fighter]
	return ok && actor >= 0 && s < len(t.teams) && actor < len(t.teams) && t.teams[s] != t.teams[actor]
}

// Add folds one event of the match's lifecycle (domain/match), stored at at.
func (t *Tally) Add(e game.Event, at time.Time) {
	switch e := e.(type) {
	case match.MatchCreated:
		t.m.Game, t.m.Rated, t.teams = e.Game, e.Rated, e.Teams
		t.m.Stake, _ = match.Stake(e.Options)
		t.m.Seats = make([]Seat, e.Seats)
		for i := range t.m.Seats {
			t.fighters[i] = i // Solwaris: the heroes come first, by seat
		}
	case match.SeatTaken:
		if e.Seat >= 0 && e.Seat < len(t.m.Seats) {
			t.m.Seats[e.Seat].Player, t.m.Seats[e.Seat].Bot = e.PlayerID, e.Bot
		}
	case match.Resigned:
		if e.Seat >= 0 && e.Seat < len(t.m.Seats) {
			t.m.Seats[e.Seat].Abandoned = true
		}
	case match.Forfeited:
		if e.Seat >= 0 && e.Seat < len(t.m.Seats) {
			t.m.Seats[e.Seat].Abandoned = true
		}
	case match.MatchEnded:
		t.over, t.m.Reason, t.m.Ended, t.m.Void = true, e.Reason, at, match.Void(e.Reason)
		for i := range t.m.Seats {
			t.add(i, Matches, 1)
			switch {
			case len(e.Winners) == 0:
				t.m.Seats[i].Drew = true
			case contains(e.Winners, i):
				t.m.Seats[i].Won = true
				t.add(i, Wins, 1)
			}
		}
	case match.SeedRevealed:
		t.m.Seed, t.m.MatchSeed = e.Seed, e.MatchSeed

	}
}

// The fields of the games' events that the tally reads, decoded from their stored JSON:
// the tally imports no game (the read side that feeds it must not, see
// internal/layering), and reads only fields the games' schemas keep.
type (
	unfairEvent struct {
		Seat   int    `json:"seat"`
		SAN    string `json:"san"`
		Card   string `json:"card"`
		Piece  int    `json:"piece"`
		Status string `json:"status"`
	}
	solwarisEvent struct {
		Grimoires []struct {
			Seat  int    `json:"seat"`
			Class string `json:"class"`
		} `json:"grimoires"`
		Fighter  int      `json:"fighter"`
		Summoner int      `json:"summoner"`
		Turn     int      `json:"turn"`
		HPLoss   int      `json:"hpLoss"`
		Critical bool     `json:"critical"`
		Path     []string `json:"path"`
	}
)

// The games whose events the tally reads.
const (
	UnfairChess = "UNFAIR_CHESS"
	Solwaris    = "SOLWARIS"
)

// read are the event types the tally reads, by game.
var read = map[string]map[string]bool{
	UnfairChess: {"MovePlayed": true, "CardPlayed": true, "StatusApplied": true, "StatusTriggered": true},
	Solwaris: {"GrimoiresLocked": true, "TurnStarted": true, "Summoned": true, "SpellCast": true, "Damaged": true, "Fallen": true,
		"Pushed": true, "TrapTriggered": true, "TrapLaid": true, "BonusTaken": true, "Teleported": true, "FighterMoved": true},
}

// AddGame folds one of the game's own events, by its stored type and payload. An event
// the tally does not read, or cannot decode, counts for nothing.
func (t *Tally) AddGame(typ string, payload []byte) {
	if !read[t.m.Game][typ] {
		return // most of a game's events: not decoded at all
	}
	switch t.m.Game {
	case UnfairChess:
		var e unfairEvent
		if json.Unmarshal(payload, &e) == nil {
			t.unfair(typ, e)
		}
	case Solwaris:
		var e solwarisEvent
		if json.Unmarshal(payload, &e) == nil {
			t.solwaris(typ, e)
		}
	}
}

func (t *Tally) unfair(typ string, e unfairEvent) {
	switch typ {
	case "MovePlayed":
		t.add(e.Seat, Moves, 1)
		if e.Seat == 0 {
			t.m.Turns++
		}
		san := e.SAN
		t.add(e.Seat, Captures, b(strings.Contains(san, "x")))
		t.add(e.Seat, Checks, b(strings.ContainsAny(san, "+#")))
		t.add(e.Seat, Castles, b(strings.HasPrefix(san, "O-O")))
		t.add(e.Seat, Promotions, b(strings.Contains(san, "=")))
	case "CardPlayed":
		t.add(e.Seat, Cards, 1)
		t.add(e.Seat, CardPrefix+e.Card, 1)
	case "StatusApplied":
		t.add(e.Seat, StatusPrefix+e.Status, 1)
		t.status[e.Piece] = e.Seat
	case "StatusTriggered":
		if s, ok := t.status[e.Piece]; ok {
			t.add(s, TriggeredPrefix+e.Status, 1)
		}
	}
}

func (t *Tally) solwaris(typ string, e solwarisEvent) {
	switch typ {
	case "GrimoiresLocked":
		for _, g := range e.Grimoires {
			if g.Seat >= 0 && g.Seat < len(t.m.Seats) {
				t.m.Seats[g.Seat].Class = g.Class
			}
		}
	case "TurnStarted":
		t.actor = -1
		if s, ok := t.fighters[e.Fighter]; ok {
			t.actor = s
		}
		t.m.Turns = max(t.m.Turns, e.Turn)
		clear(t.pushed)
	case "Summoned":
		if s, ok := t.fighters[e.Summoner]; ok {
			t.fighters[e.Fighter] = s
			t.add(s, Summons, 1)
		}
	case "SpellCast":
		t.add(t.actor, Spells, 1)
	case "Damaged":
		if t.enemy(t.actor, e.Fighter) {
			t.add(t.actor, Damage, e.HPLoss)
			t.add(t.actor, Crits, b(e.Critical))
		}
	case "Fallen":
		if t.enemy(t.actor, e.Fighter) {
			t.add(t.actor, Knockouts, 1)
		}
	case "Pushed":
		if t.enemy(t.actor, e.Fighter) {
			t.add(t.actor, Pushes, 1)
			t.pushed[e.Fighter] = true
		}
	case "TrapTriggered":
		if t.pushed[e.Fighter] && t.enemy(t.actor, e.Fighter) {
			t.add(t.actor, PushTraps, 1)
		}
	case "TrapLaid":
		t.add(t.actor, Traps, 1)
	case "BonusTaken":
		if s, ok := t.fighters[e.Fighter]; ok && s == t.actor {
			t.add(s, BonusesHit, 1)
		}
	case "Teleported":
		if s, ok := t.fighters[e.Fighter]; ok && s == t.actor {
			t.add(s, Teleports, 1)
		}
	case "FighterMoved":
		if s, ok := t.fighters[e.Fighter]; ok {
			t.add(s, Steps, len(e.Path))
		}
	}
}

func b(v bool) int {
	if v {
		return 1
	}
	return 0
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// AddStored folds one stored event of the match: a lifecycle event decoded (returned, to
// see a SeedRevealed), any other as the game's (nil returned).
func (t *Tally) AddStored(typ string, schema int, payload []byte, at time.Time) (game.Event, error) {
	if !match.IsLifecycle(typ) {
		t.AddGame(typ, payload)
		return nil, nil
	}
	d, err := match.Decode(nil, typ, schema, payload)
	if err != nil {
		return nil, err
	}
	t.Add(d, at)
	return d, nil
}
