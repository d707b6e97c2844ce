// Package match is the lifecycle every Arbiter match shares, whatever its game: creation
// with a secret seed, seats taken by players, the start, the game's own actions, draw
// offers, resignation and the end with a result. It is a pure decider around a
// game.Rules: Decide(state, command) gives events, Evolve(state, event) folds them. The
// events come back from the store as Stored values: Folder folds them into a state (the
// engine, the projections and replay all read a match through it), and Audit checks each
// against the state before it, for replay's verify.
package match

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Status of a match.
type Status string

// The statuses, in the order a match goes through them.
const (
	None     Status = ""         // no event yet
	Open     Status = "OPEN"     // waiting for players
	Live     Status = "LIVE"     // being played
	Finished Status = "FINISHED" // over, with a result
)

// Seat is one place at the table.
type Seat struct {
	PlayerID string
	Name     string
	Bot      bool // the house bot, which plays by itself (package bot)
	// Entropy is what the seat brought to the match seed (fairness.MatchSeed); nil in a
	// match of the Legacy procedure. ServerEntropy: the server drew it, the player sent none.
	Entropy       []byte
	ServerEntropy bool
}

// Taken reports whether a player sits there.
func (s Seat) Taken() bool { return s.PlayerID != "" }

// State is a match folded from its events. It is a value: Evolve never changes the state
// it is given, so a state can be kept as a cache and decided upon concurrently.
type State struct {
	Game           string
	RulesVersion   string
	Options        game.Options
	Rated          bool
	Plan           game.Plan
	CreatedBy      string
	RematchOf      string   // the match this one is the rematch of, if any
	Reserved       []string // by seat: the only player who may sit there (a rematch's); nil for open seats
	SeedCommitment string
	Seed           []byte // server-only until revealed
	SeedRevealed   bool
	// Fairness is the procedure the match draws its random outcomes by (MatchCreated).
	Fairness     fairness.Version
	Seats        []Seat
	Status       Status
	DrawOfferBy  int   // the seat whose offer is pending, or -1
	DrawAccepted []int // seats that accepted the pending offer
	Resigned     []int
	Abandon      *Abandon    // the rule for seats that leave; nil for none
	AwaySince    []time.Time // by seat: when its player left, zero while present
	StartedAt    time.Time   // when play started
	PlayFrom     time.Time   // when the first moves may start: StartedAt, or later after a game's prelude (game.Preluded)
	Opened       bool        // every seat has made its first move (see abort.go)
	Offered      []bool      // by seat: it offered a draw and no opponent has moved since
	GameState    game.State
	Result       *game.Outcome
	Funds        []int64  // by seat: the coins held for it, in a match that moves coins (see funds.go)
	Holds        []string // by seat: the ID of the hold that funds it
}

// SeatOf returns the seat of a player, or -1.
func (s *State) SeatOf(playerID string) int {
	for i, seat := range s.Seats {
		if seat.PlayerID == playerID && playerID != "" {
			return i
		}
	}
	return -1
}

// Commitment is the public commitment to a seed: its hex SHA-256.
func Commitment(seed []byte) string {
	sum := sha256.Sum256(seed)
	return hex.EncodeToString(sum[:])
}

// Started reports whether play started (MatchStarted, stamped with the last join's time):
// the game dealt its opening from the match seed (GameSeed). A match cancelled before its
// start drew nothing, so it has no match seed to reveal or check.
func (s *State) Started() bool { return !s.StartedAt.IsZero() }

// GameSeed is the seed the game draws every random outcome of the match from: under V1
// the match seed derived from the server's seed and each seat's entropy (fairness.MatchSeed),
// under Legacy the server's seed itself. seed is the server's seed (State.Seed, or the one
// revealed, for a verifier).
func (s *State) GameSeed(seed []byte) []byte {
	if s.Fairness == fairness.Legacy {
		return seed
	}
	entropies := make([][]byte, len(s.Seats))
	for i, st := range s.Seats {
		entropies[i] = st.Entropy
	}
	return fairness.MatchSeed(seed, entropies)
}

// Command is a request to a match. The engine fills in At, the server's receive time.
type Command interface{ command() }

// Create opens a new match. Seed comes from the engine's random source.
type Create struct {
	Game    string
	Options game.Options
	Rated   bool
	By      string // player ID, or "" for an anonymous creator
	Seed    []byte
	At      time.Time
	// RematchOf is the finished match this one replays (see engine.Rematch), or "".
	RematchOf string
	// Reserved keeps each seat for one player (by seat: a player ID): a rematch's seats
	// belong to the players of the finished match. nil leaves every seat open to anyone.
	Reserved []string
	// Abandon is the rule for players who leave (see presence.go); nil for none.
	Abandon *Abandon
}

// Join sits a player at a seat, or at the first free one when Seat is nil. Bot is set by
// the house bot's package alone: a seat that the bot takes. The bot, alone, may sit at
// several seats of a match (a player trying Royale against three bots).
type Join struct {
	PlayerID string
	Name     string
	Seat     *int
	At       time.Time
	Bot      bool
	Funds    *Funds // the hold that funds the seat, in a match that moves coins (see funds.go)
	// Entropy is what the seat brings to the match seed (fairness.MinEntropy to MaxEntropy
	// bytes): the player's own, or drawn by the engine when it sent none (ServerEntropy).
	Entropy       []byte
	ServerEntropy bool
}

// Act is a game action by the player's seat (a move, a card...). Seat names the seat
// of a player who sits at several (the bot); nil is the player's only seat.
type Act struct {
	PlayerID string
	Seat     *int
	Do       any
	At       time.Time
}

// Resign, OfferDraw, AcceptDraw and DeclineDraw are a player's lifecycle requests.
type (
	Resign struct {
		PlayerID string
		At       time.Time
	}
	OfferDraw struct {
		PlayerID string
		At       time.Time
	}
	AcceptDraw struct {
		PlayerID string
		At       time.Time
	}
	DeclineDraw struct {
		PlayerID string
		At       time.Time
	}
)

// Timeout is submitted by the engine's scheduler once the game's deadline has passed.
type Timeout struct {
	Deadline time.Time
	At       time.Time
}

func (Create) command()      {}
func (Join) command()        {}
func (Act) command()         {}
func (Resign) command()      {}
func (OfferDraw) command()   {}
func (AcceptDraw) command()  {}
func (DeclineDraw) command() {}
func (Timeout) command()     {}

// GameStatus returns the game's own status (who acts, phase, deadline) of a live match.
func (s *State) GameStatus(rules game.Rules) game.Status {
	if s.Status != Live {
		return game.Status{}
	}
	return rules.Status(s.GameState)
}

// Playing lists the seats still playing a live match, in ascending order: neither
// resigned nor taken out of play by the game (game.Status.Out). Only they offer, accept
// and decline draws, and only their teams count when a resignation asks whether one team
// is left standing.
func (s *State) Playing(rules game.Rules) []int {
	out := s.GameStatus(rules).Out
	var in []int
	for seat := range s.Seats {
		if s.stillIn(seat, out) {
			in = append(in, seat)
		}
	}
	return in
}

// inPlay reports whether seat is one of the seats Playing lists, without listing them:
// every move asks it of its mover.
func (s *State) inPlay(rules game.Rules, seat int) bool {
	return seat >= 0 && seat < len(s.Seats) && s.stillIn(seat, s.GameStatus(rules).Out)
}

// stillIn reports whether seat has neither resigned nor been put out of play (out).
func (s *State) stillIn(seat int, out []int) bool {
	return !slices.Contains(s.Resigned, seat) && !slices.Contains(out, seat)
}

// Settled reports whether the match stands between two commands: not in the middle of
// one command's events, where the game's state may already hold facts still to be
// recorded (game.Settling) or the match has ended without its seed revealed yet. Views
// streamed event by event, and whatever acts on a finished match, wait for it.
func (s *State) Settled(rules game.Rules) bool {
	if s.Status == Finished && !s.SeedRevealed {
		return false
	}
	g, ok := rules.(game.Settling)
	return !ok || s.GameState == nil || g.Settled(s.GameState)
}

// Evolve folds one event into the match. It never fails on an event Decide produced.
func Evolve(rules game.Rules, s State, e game.Event) State {
	s.apply(rules, e)
	return s
}

// apply is Evolve in place: it sets the fields of *s an event changes, and never writes
// into what *s shares with other states (it replaces a slice rather than change it). It
// and the functions under it take the state by reference: a game's event, nearly every
// one, then descends into the rules on a short stack (fewer goroutine stack growths per
// move).
func (s *State) apply(rules game.Rules, e game.Event) {
	if !s.applyMatch(rules, e) {
		s.applyGame(rules, e)
	}
}

// applyGame folds a game's event.
func (s *State) applyGame(rules game.Rules, e game.Event) {
	s.moved(rules)
	s.GameState = rules.Evolve(s.GameState, e)
	if s.Status == Live && !s.Opened {
		s.PlayFrom = game.PlayFrom(rules, s.GameState, s.StartedAt)
		s.Opened = opened(rules, s)
	}
}

// applyMatch folds e if it is one of the match's own events; it is false for a game's.
func (s *State) applyMatch(rules game.Rules, e game.Event) bool {
	switch e := e.(type) {
	case MatchCreated:
		s.Game, s.RulesVersion, s.Options, s.Rated = e.Game, e.RulesVersion, e.Options, e.Rated
		s.Plan = game.Plan{Seats: e.Seats, Teams: e.Teams}
		s.CreatedBy, s.SeedCommitment, s.RematchOf = e.CreatedBy, e.SeedCommitment, e.RematchOf
		s.Fairness = fairness.Version(e.Fairness)
		s.Reserved = e.Reserved
		s.Seats = make([]Seat, e.Seats)
		s.Funds, s.Holds = make([]int64, e.Seats), make([]string, e.Seats)
		s.AwaySince = make([]time.Time, e.Seats)
		s.Abandon = e.Abandon
		s.Status = Open
		s.DrawOfferBy = -1
	case SeedDrawn:
		s.Seed = e.Seed
	case SeatTaken:
		s.Seats = slices.Clone(s.Seats)
		var entropy []byte // none under Legacy
		if e.Entropy != "" {
			entropy, _ = hex.DecodeString(e.Entropy)
		}
		s.Seats[e.Seat] = Seat{PlayerID: e.PlayerID, Name: e.Name, Bot: e.Bot, Entropy: entropy, ServerEntropy: e.EntropyBy == EntropyByServer}
	case MatchStarted:
		s.Status = Live
		s.StartedAt, s.PlayFrom = e.At, e.At
		s.Offered = make([]bool, len(s.Seats))
		s.Opened = !keepsRecord(rules)
	case SeatFunded:
		s.Funds, s.Holds = slices.Clone(s.Funds), slices.Clone(s.Holds)
		s.Funds[e.Seat], s.Holds[e.Seat] = e.Funds, e.Hold
	case SeatVacated:
		s.Seats = slices.Clone(s.Seats)
		s.Seats[e.Seat] = Seat{}
		if e.Seat < len(s.Funds) {
			s.Funds, s.Holds = slices.Clone(s.Funds), slices.Clone(s.Holds)
			s.Funds[e.Seat], s.Holds[e.Seat] = 0, ""
		}
	case DrawOffered:
		s.DrawOfferBy, s.DrawAccepted = e.Seat, nil
		if e.Seat >= 0 && e.Seat < len(s.Offered) {
			s.Offered = slices.Clone(s.Offered)
			s.Offered[e.Seat] = true
		}
	case DrawAccepted:
		s.DrawAccepted = append(slices.Clone(s.DrawAccepted), e.Seat)
	case DrawDeclined:
		s.DrawOfferBy, s.DrawAccepted = -1, nil
	case Resigned:
		s.Resigned = append(slices.Clone(s.Resigned), e.Seat)
		s.present(e.Seat) // a resigned seat is no longer waited for
	case SeatLeft:
		s.AwaySince = slices.Clone(s.AwaySince)
		s.AwaySince[e.Seat] = e.At
	case SeatReturned:
		s.present(e.Seat)
	case Forfeited: // the Resigned that follows carries it out
	case MatchEnded:
		s.Status = Finished
		s.Result = &game.Outcome{Winners: e.Winners, Reason: e.Reason}
		s.DrawOfferBy, s.DrawAccepted = -1, nil
	case SeedRevealed:
		s.SeedRevealed = true
	default:
		return false
	}
	return true
}

// Stamped returns cmd with its time set to at: the engine stamps every command with the
// server's receive time, the only clock the rules ever see.
func Stamped(cmd Command, at time.Time) Command {
	switch c := cmd.(type) {
	case Create:
		c.At = at
		return c
	case Join:
		c.At = at
		return c
	case Act:
		c.At = at
		return c
	case Resign:
		c.At = at
		return c
	case OfferDraw:
		c.At = at
		return c
	case AcceptDraw:
		c.At = at
		return c
	case DeclineDraw:
		c.At = at
		return c
	case Timeout:
		c.At = at
		return c
	case Leave:
		c.At = at
		return c
	case Return:
		c.At = at
		return c
	case ClaimVictory:
		c.At = at
		return c
	case Cancel:
		c.At = at
		return c
	case Unseat:
		c.At = at
		return c
	}
	return cmd
}

// present marks a seat as present.
func (s *State) present(seat int) {
	if seat >= 0 && seat < len(s.AwaySince) && !s.AwaySince[seat].IsZero() {
		s.AwaySince = slices.Clone(s.AwaySince)
		s.AwaySince[seat] = time.Time{}
	}
}

// Record is what a game's export needs to know of the match around it.
func (s *State) Record(rules game.Rules, matchID string, started time.Time) game.Record {
	r := game.Record{MatchID: matchID, Game: rules.Info().Name, Started: started, Over: s.Result != nil}
	for _, seat := range s.Seats {
		r.Players = append(r.Players, seat.Name)
	}
	if s.Result != nil {
		r.Outcome = *s.Result
		r.Void = Void(s.Result.Reason)
	}
	return r
}
