// Package classic is classic chess (FIDE Laws) as an Arbiter game: it plugs domain/chess
// into the game contract. Seat 0 plays White, seat 1 Black. Threefold repetition and the
// fifty-move rule end the game when a player claims them (ClaimDraw), as FIDE's laws say;
// fivefold repetition, the seventy-five-move rule, checkmate, stalemate and dead positions
// end it by themselves.
package classic

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// ID is the game's name in the API.
const ID = "CHESS"

// RulesVersion changes whenever a rule of this package changes.
const RulesVersion = "fide-2023.1"

// Rules is classic chess.
type Rules struct{}

// GameStarted sets up the board.
type GameStarted struct {
	FEN   string      `json:"fen"`
	Clock *ClockSetup `json:"clock,omitempty"`
	At    time.Time   `json:"at,omitzero"` // when White's clock starts
}

// MovePlayed is one move.
type MovePlayed struct {
	Seat  int    `json:"seat"`
	UCI   string `json:"uci"`
	SAN   string `json:"san"`
	Piece int    `json:"piece"` // the stable ID of the moving piece
	FEN   string `json:"fen"`   // the position after the move
	// With a clock: when the move was played and what the mover had left after it.
	At     time.Time `json:"at,omitzero"`
	LeftMs int64     `json:"leftMs,omitempty"`
}

// DrawClaimed ends the game on a claim the position allows.
type DrawClaimed struct {
	Seat   int    `json:"seat"`
	Reason string `json:"reason"`
}

func (GameStarted) EventType() string { return "GameStarted" }
func (MovePlayed) EventType() string  { return "MovePlayed" }
func (DrawClaimed) EventType() string { return "DrawClaimed" }

var codec = func() *game.Codec {
	c := game.NewCodec()
	game.Register[GameStarted](c, 1)
	game.Register[MovePlayed](c, 1)
	game.Register[DrawClaimed](c, 1)
	game.Register[FlagFell](c, flagSchema)
	// Schema 1 had no at: its payload reads as schema 2's with none. Schema 2 without at
	// is malformed, not an old flag: it would pass the audit as one, its time unchecked.
	c.Upcaster(FlagFell{}.EventType(), func(_ int, payload []byte) ([]byte, error) { return payload, nil })
	c.Require(FlagFell{}.EventType(), func(e game.Event) error {
		if e.(FlagFell).At.IsZero() {
			return errors.New("no at: from schema 2 on a flag records when it fell")
		}
		return nil
	})
	return c
}()

// State is a chess game in progress. Evolve copies the game before changing it, so a
// State stays valid after being evolved.
type State struct {
	Game    *chess.Game
	Claimed string      // the draw claimed, if any
	Clock   clock.Clock // zero without a time control
	Flag    *FlagFell   // the flag that fell, if any
	Left    *clockEntry // with a clock: the time each move left its mover, latest first

	// extended is set once a later state shares Game's history storage (see playStored).
	extended *atomic.Bool
	// outcome is Game.Outcome(), worked out once when the game changes (known): a state's
	// status is asked for two or three times per command (whose turn; after the move,
	// whether it ended the game), and each answer needs to know whether a legal move exists.
	outcome chess.Outcome
	known   bool
}

// withOutcome is s with the outcome of its game worked out.
func withOutcome(s State) State {
	s.outcome, s.known = s.Game.Outcome(), true
	return s
}

// gameOutcome is s.Game.Outcome(), as worked out when the game last changed.
func (s State) gameOutcome() chess.Outcome {
	if s.known {
		return s.outcome
	}
	return s.Game.Outcome()
}

// Info names the game.
func (Rules) Info() game.Info { return game.Info{ID: ID, Name: "Chess", RulesVersion: RulesVersion} }

// Plan: two seats, each its own team. The option "fen" starts from another position.
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	for k, v := range opts {
		switch k {
		case "fen":
			p, err := chess.ParseFEN(v)
			if err != nil {
				return game.Plan{}, &game.Error{Code: game.BadInput, Reason: "option fen: " + err.Error(), Err: err}
			}
			if p.HasPockets() { // a bughouse FEN: chess has no pieces in hand
				return game.Plan{}, game.Reject(game.BadInput, "option fen: chess has no pieces in hand (%q)", v)
			}
		case clock.Option:
			if _, err := clock.Parse(v); err != nil {
				return game.Plan{}, err
			}
		default:
			return game.Plan{}, game.Reject(game.BadInput, "chess has no option %q (known: fen, clock)", k)
		}
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// Setup places the pieces.
func (Rules) Setup(s game.Setup) ([]game.Emitted, error) {
	start := chess.StartingPosition()
	if f, ok := s.Options["fen"]; ok {
		p, err := chess.ParseFEN(f)
		if err != nil {
			return nil, &game.Error{Code: game.BadInput, Reason: "option fen: " + err.Error(), Err: err}
		}
		start = p
	}
	started := GameStarted{FEN: start.FEN()}
	c, err := clock.FromOptions(s.Options)
	if err != nil {
		return nil, err
	}
	if c != nil {
		started.Clock, started.At = c, s.At
	}
	return game.PublicEvents(started), nil
}

// Decide checks a move or a claim.
func (Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s := st.(State)
	pos := s.Game.Position()
	seat := Seat(pos.Turn())
	if fell, err := s.Clock.Flag(seat, a); err != nil {
		return nil, err
	} else if fell {
		// The flag fell before this action arrived, or the timeout found it: the game
		// ends on time instead.
		return game.PublicEvents(flagFell(pos, seat, s.Clock.Deadline(seat))), nil
	}
	switch do := a.Do.(type) {
	case game.Move:
		m, err := pos.ParseMove(do.Notation)
		if err != nil {
			code := game.IllegalMove
			if errors.Is(err, chess.ErrMalformedMove) {
				code = game.BadInput
			}
			return nil, &game.Error{Code: code, Reason: err.Error(), Err: err}
		}
		id, _ := pos.PieceID(m.From())
		after := pos
		after.Play(m)
		san, fen := sanAndFEN(&pos, m, &after)
		played := MovePlayed{Seat: a.Seat, UCI: uciOf(m, do.Notation), SAN: san, Piece: int(id), FEN: fen}
		stamp := s.Clock.Stamp(seat, a.At, true)
		played.At, played.LeftMs = stamp.At, stamp.LeftMs
		return game.PublicEvents(played), nil
	case game.ClaimDraw:
		reason, ok := s.Game.ClaimableDraw()
		if !ok {
			return nil, game.Reject(game.IllegalMove, "no draw can be claimed: the position has not occurred three times and the fifty-move rule is not met")
		}
		return game.PublicEvents(DrawClaimed{Seat: a.Seat, Reason: reason.String()}), nil
	}
	return nil, game.Unsupported("chess", a.Do, "a move or a draw claim")
}

// sanAndFEN is pos.SAN(m) and after.FEN(), after being pos once m is played, in one
// allocation: both are substrings of one string, and go into the move's event together.
func sanAndFEN(pos *chess.Position, m chess.Move, after *chess.Position) (san, fen string) {
	var buf [128]byte // SAN and FEN fit (a FEN without pockets is under 96 bytes)
	b := pos.AppendSAN(buf[:0], m)
	n := len(b)
	s := string(after.AppendFEN(b))
	return s[:n], s[n:]
}

// uciOf is m.UCI(), which is most often the notation the move was sent in: that string
// is then taken, not written again.
func uciOf(m chess.Move, notation string) string {
	var buf [5]byte
	if b := m.AppendUCI(buf[:0]); string(b) != notation {
		return string(b)
	}
	return notation
}

// Evolve applies an event.
func (Rules) Evolve(st game.State, e game.Event) game.State {
	// Each case that needs room on the stack is a function of its own, so that a move's
	// descent into move generation carries no other case's locals.
	switch e := e.(type) {
	case GameStarted:
		return startGame(e)
	case MovePlayed:
		return playMove(st.(State), e)
	case FlagFell:
		s := st.(State)
		if !e.At.IsZero() {
			// The seat's time ran out at its deadline: its clock stops there, at 0.
			s.Clock = s.Clock.Ended(e.Seat, clock.Stamp{At: e.At})
		}
		e.At = time.Time{} // the clock holds it; the flag is who fell, and the outcome
		s.Flag = &e
		return s
	case DrawClaimed:
		s := st.(State)
		s.Claimed = e.Reason
		return s
	}
	return st
}

// startGame is the state a GameStarted sets up.
func startGame(e GameStarted) State {
	p, err := chess.ParseFEN(e.FEN)
	if err != nil {
		panic(fmt.Sprintf("classic: a stored GameStarted has a bad FEN: %v", err))
	}
	return withOutcome(State{Game: chess.NewGame(p), Clock: clock.Start(e.Clock, 2, e.At), extended: new(atomic.Bool)})
}

// playMove is s after the stored move e.
func playMove(s State, e MovePlayed) State {
	s.Game, s.extended = playStored(s, e.UCI)
	s = withOutcome(s)
	s.Clock = s.Clock.Ended(e.Seat, clock.Stamp{At: e.At, LeftMs: e.LeftMs})
	if s.Clock.On {
		s.Left = &clockEntry{LeftMs: e.LeftMs, Before: s.Left}
	}
	return s
}

// Status: whose turn, and the outcome.
func (Rules) Status(st game.State) game.Status {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return game.Status{}
	}
	if s.Claimed != "" {
		return game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: []int{}, Reason: s.Claimed}}
	}
	if s.Flag != nil {
		return game.Status{Phase: "over", Over: true, Outcome: s.Flag.outcome()}
	}
	pos := s.Game.Position()
	if o := s.gameOutcome(); o.Over {
		out := game.Outcome{Winners: []int{}, Reason: o.Reason.String()}
		if o.Winner != chess.NoColor {
			out.Winners = []int{Seat(o.Winner)}
		}
		return game.Status{Phase: "over", Over: true, Outcome: out}
	}
	seat := Seat(pos.Turn())
	return game.Status{ToAct: toAct[seat][:1:1], Phase: "play", Deadline: s.Clock.Deadline(seat)}
}

// toAct holds the ToAct of each seat's turn, so that a status, asked for twice or more
// per move, allocates none. It is read, never written, as every game.Status's ToAct is.
var toAct = [2][]int{{0}, {1}}

// Events decodes chess events.
func (Rules) Events() *game.Codec { return codec }

// Seat returns the seat playing a color: White is seat 0.
func Seat(c chess.Color) int {
	if c == chess.White {
		return 0
	}
	return 1
}

// Clock is the clock of the state (clock.Timed); the zero Clock without a time control.
func (Rules) Clock(st game.State) clock.Clock {
	s, _ := st.(State)
	return s.Clock
}

// Board shows the position.
func (Rules) Board(st game.State) game.Board {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return game.Board{}
	}
	pos := s.Game.Position()
	b := game.Board{FEN: pos.FEN(), InCheck: pos.InCheck()}
	if !s.gameOutcome().Over && s.Claimed == "" && s.Flag == nil {
		for _, m := range pos.LegalMoves(nil) {
			b.LegalMoves = append(b.LegalMoves, m.UCI())
		}
	}
	return b
}

// Turns gives the moves in SAN, one a turn, numbered from the start position's move number.
func (r Rules) Turns(st game.State) (int, []game.Turn) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return 1, nil
	}
	start := s.Game.Start()
	return start.FullmoveNumber(), game.Alternate(Seat(start.Turn()), r.MoveList(st))
}

// SideOf: seat 0 plays White, seat 1 Black.
func (Rules) SideOf(_ game.State, seat int) (int, string, bool) {
	return seat, [2]string{"White", "Black"}[seat&1], seat == 0 || seat == 1
}

// MoveList gives the moves in SAN.
func (Rules) MoveList(st game.State) []string {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil
	}
	p := s.Game.Start()
	out := make([]string, 0, len(s.Game.Moves()))
	for _, m := range s.Game.Moves() {
		out = append(out, p.SAN(m))
		p.Play(m)
	}
	return out
}
