package magicchess

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// The advanced mode (rules 14-21): reactions in the opponent's turn. After a trigger the
// rules open a reaction window for the opponent of the player who acted:
//
//   - R1 after a card is laid, before it resolves: the card is held face up (CardPlayed
//     with the result "held") and resolves when the window closes (CardResolved);
//   - R2 after a move that checks, captures, promotes, castles, allows an en passant
//     capture or mates; the end such a move makes (a mate, a stalemate, the 75-move
//     rule) is judged once its window has closed;
//   - R3 after a trigger written on a card (Setback's: an enemy pawn reaches its seventh
//     rank); a move that is both opens one window, named R2, with both triggers.
//
// The window opens whatever the opponent holds (its hand is its secret), unless its hand
// is empty, which everyone sees. It has a fixed length (the option reaction, 10 seconds by
// default): its first fifth is reading time, in which no answer is taken, so that a
// player who holds no reaction cannot answer faster than one who does; then the player
// reacts once (React) or passes (game.Choose "pass"), or the window lapses at its end.
// No clock runs while a window is open: at its close the clock of the player to act
// starts again from where it stopped. A reaction never opens a window (no chains). The
// order of rule 19 holds: the action, the reaction, the king's legality (a player whose
// king a reaction leaves in check keeps the turn to answer it), then play goes on.

// The kinds of windows and their triggers, as Status's phase and the events name them.
const (
	R1 = "R1"
	R2 = "R2"
	R3 = "R3"

	TriggerCard      = "card"
	TriggerCheck     = "check"
	TriggerCapture   = "capture"
	TriggerPromotion = "promotion"
	TriggerCastling  = "castling"
	TriggerEnPassant = "en-passant"
	TriggerMate      = "mate"
	TriggerSeventh   = "seventh" // R3, Setback's: an enemy pawn reaches its seventh rank

	// Pass is the choice that passes a window.
	Pass = "pass"
	// Held is the result of a card laid in the advanced mode that waits for its window.
	Held = "held"
	// Cancelled and Prevented are the results of a held card that a reaction stopped.
	Cancelled = "cancelled"
	Prevented = "prevented"
)

// React is a reaction laid in a window: a reaction card of the hand, by slot (or by ID
// with Slot -1), on its targets.
type React struct {
	Card    string
	Slot    int
	Targets []string
}

// ActionName implements game.Named.
func (React) ActionName() string { return "react" }

// Window is a reaction window: who may react, after what, until when. Windows are
// values: a change makes a new one.
type Window struct {
	Kind      string // R1, R2 or R3
	Seat      int    // the seat that may react
	Triggers  []string
	At        time.Time // when it opened: the time of the action that opened it
	Answers   time.Time // the end of the reading time
	Closes    time.Time // the window's deadline
	Answering bool      // the reading time is over
	Blocked   string    // R1: Cancelled or Prevented once a reaction stopped the held card
	Closed    bool      // R1: answered, the held card resolves next

	move   *moved // R2, R3: the move that opened it
	before *State // R2, R3: the state before that move, which Rewind restores
}

// moved is what a move that opened a window did, for the reactions to it.
type moved struct {
	from, to chess.Square
	captured chess.Piece  // the piece it took, if took
	on       chess.Square // where that piece stood
	took     bool
}

// HeldCard is a card laid in the advanced mode, face up until its window closes.
type HeldCard struct {
	Seat    int
	Card    string
	Targets []string
}

// The events of the windows.

// ReactionWindowOpened opens a window for Seat after Triggers, at At; answers are taken
// from Answers until Closes.
type ReactionWindowOpened struct {
	Window   string    `json:"window"`
	Seat     int       `json:"seat"`
	Board    int       `json:"board,omitempty"` // doubles: the board, 0 or 1
	Triggers []string  `json:"triggers"`
	At       time.Time `json:"at"`
	Answers  time.Time `json:"answers"`
	Closes   time.Time `json:"closes"`
}

// ReactionReadingEnded ends a window's reading time: answers are taken from then.
type ReactionReadingEnded struct {
	Seat  int       `json:"seat"`
	Board int       `json:"board,omitempty"` // doubles: the board, 0 or 1
	At    time.Time `json:"at"`
}

// ReactionPassed closes a window without a reaction: passed, or lapsed at its deadline.
type ReactionPassed struct {
	Seat     int       `json:"seat"`
	Board    int       `json:"board,omitempty"` // doubles: the board, 0 or 1
	At       time.Time `json:"at"`
	TimedOut bool      `json:"timedOut,omitempty"`
}

// ReactionPlayed is a reaction laid from a hand slot on its targets; it closes the window.
type ReactionPlayed struct {
	Seat    int       `json:"seat"`
	Board   int       `json:"board,omitempty"` // doubles: the board, 0 or 1
	Card    string    `json:"card"`
	Slot    int       `json:"slot"`
	Targets []string  `json:"targets"`
	Result  string    `json:"result"`
	FEN     string    `json:"fen"`
	At      time.Time `json:"at"`
}

// CardPlayedBy implements cards.CardPlay: a reaction is a card played.
func (e ReactionPlayed) CardPlayedBy() (int, string) { return e.Seat, e.Card }

// CardResolved is the held card of an R1 window resolving once it closed: Result is as
// CardPlayed's, or Cancelled or Prevented when a reaction stopped it.
type CardResolved struct {
	Seat    int      `json:"seat"`
	Board   int      `json:"board,omitempty"` // doubles: the board, 0 or 1
	Card    string   `json:"card"`
	Result  string   `json:"result"`
	FEN     string   `json:"fen"`
	Expired []string `json:"expired,omitempty"`
	clock.Stamp
}

// Stamped is the resolution with the clock's stamp (cardchess.Stamper).
func (e CardResolved) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

func (ReactionWindowOpened) EventType() string { return "ReactionWindowOpened" }
func (ReactionReadingEnded) EventType() string { return "ReactionReadingEnded" }
func (ReactionPassed) EventType() string       { return "ReactionPassed" }
func (ReactionPlayed) EventType() string       { return "ReactionPlayed" }
func (CardResolved) EventType() string         { return "CardResolved" }

// reading is the part of a window in which no answer is taken.
func reading(length time.Duration) time.Duration { return length / 5 }

// opened is the event that opens the window due, at at.
func (s *State) opened(at time.Time) ReactionWindowOpened {
	w := s.opening
	return ReactionWindowOpened{Window: w.Kind, Seat: w.Seat, Triggers: slices.Clone(w.Triggers), At: at,
		Answers: at.Add(reading(s.reaction)), Closes: at.Add(s.reaction)}
}

// handCount is how many cards seat holds.
func (s *State) handCount(seat int) int {
	n := 0
	for _, c := range s.Hands[seat] {
		if c != "" {
			n++
		}
	}
	return n
}

// triggered is the window that seat's move m, played from before and giving s, opens
// for the opponent, or nil: none in the classic mode, none for an opponent with no card.
func (s *State) triggered(before *State, seat int, m chess.Move) *Window {
	them := 1 - seat
	if s.Mode != Advanced || s.handCount(them) == 0 {
		return nil
	}
	mv := &moved{from: m.From(), to: m.To(), on: m.To()}
	pc, _ := before.Pos.PieceAt(m.From())
	if m.IsEnPassant() {
		mv.on, _ = offset(m.To(), 0, -ahead(colour(seat))) // the pawn taken stood behind
	}
	if !m.IsCastling() {
		mv.captured, mv.took = before.Pos.PieceAt(mv.on)
	}
	var trig []string
	add := func(ok bool, t string) {
		if ok {
			trig = append(trig, t)
		}
	}
	add(s.kingAttacked(them), TriggerCheck)
	add(mv.took, TriggerCapture)
	add(m.Promotion() != chess.NoRole, TriggerPromotion)
	add(m.IsCastling(), TriggerCastling)
	if s.toAct() == them {
		ep := false
		for _, n := range s.moves() {
			ep = ep || n.IsEnPassant()
		}
		add(ep, TriggerEnPassant)
	}
	// The end the move would make is judged after its window (rule 19): a mate is a
	// trigger of its own; a stalemate or the 75-move rule waits for the window its
	// other triggers open (none: the game ends at once). Before magic-2026.6 only a mate
	// waited.
	if o, over := s.outcome(); over {
		switch {
		case o.Reason == "checkmate":
			add(true, TriggerMate)
		case s.endAtMove:
			return nil
		}
	}
	kind := R2
	if len(trig) == 0 {
		kind = R3
	}
	add(pc.Role == chess.Pawn && m.Promotion() == chess.NoRole && m.To().Rank() == rankOf(colour(seat), 6), TriggerSeventh)
	if len(trig) == 0 {
		return nil
	}
	b := *before
	b.opening, b.Window = nil, nil
	return &Window{Kind: kind, Seat: them, Triggers: trig, move: mv, before: &b}
}

// hold is seat laying the card in slot on targets in the advanced mode: out of the hand,
// face up, its R1 window due; it resolves when the window closes.
func (s *State) hold(seat, slot int, targets []string) {
	id := s.Hands[seat][slot]
	s.expired = nil
	s.lay(seat, slot)
	s.Held = &HeldCard{Seat: seat, Card: id, Targets: slices.Clone(targets)}
	s.Record, s.Players = with(s.Record, notation(id, targets)), with(s.Players, seat)
	s.opening = &Window{Kind: R1, Seat: 1 - seat, Triggers: []string{TriggerCard}}
}

// holds says whether a card laid by seat now waits for a window: in the advanced mode,
// when the opponent holds a card.
func (s *State) holds(seat int) bool { return s.Mode == Advanced && s.handCount(1-seat) > 0 }

// closeWindow closes the window at at: the clock that stopped when it opened starts
// again, as if the window had not been; an R1 window waits for its card's resolution.
func (s *State) closeWindow(w *Window, at time.Time) {
	if s.Clock.On {
		s.Clock.TurnStart = s.Clock.TurnStart.Add(at.Sub(w.At))
	}
	if w.Kind == R1 {
		c := *w
		c.Closed = true
		s.Window = &c
		return
	}
	s.Window = nil
}

// resolveHeld resolves the card held through its window, once closed: its effect, or
// nothing when a reaction stopped it or nothing is left to act on (the card is spent
// either way). Then the king's legality (rule 19): a card that is the turn ends it,
// unless its player's king is left in check, in which case the player keeps the turn to
// answer it (by a move or another card); a card that a move follows owes its move.
func (s *State) resolveHeld() outcome {
	h, blocked := *s.Held, s.Window.Blocked
	s.Held, s.Window, s.expired = nil, nil, nil
	e := byID[h.Card]
	if blocked == "" {
		all, _ := effects[h.Card](s, h.Seat)
		if p, ok := find(all, h.Targets); ok {
			o := s.apply(h.Seat, e, p)
			if o.result == Annulled {
				n := len(s.Record)
				s.Record = with(s.Record[:n-1], s.Record[n-1]+" annulled")
			}
			return o
		}
		blocked = NoEffect
	}
	s.Discard = with(s.Discard, h.Card)
	if s.kingAttacked(h.Seat) {
		s.Turn = Turn{}
	} else {
		s.Pos.PassTurn()
		s.endTurn(h.Seat)
	}
	return outcome{result: blocked}
}

// decideWindow is an action while a window is open: the engine's timeout at the end of
// the reading time or of the window; the seat that may react reacting or passing.
func (s State) decideWindow(a game.Action) ([]game.Emitted, error) {
	w := s.Window
	if t, ok := a.Do.(game.Timeout); ok {
		due := w.Closes
		if !w.Answering {
			due = w.Answers
		}
		switch {
		case !t.Deadline.Equal(due):
			return nil, game.Reject(game.Conflict, "the reaction window's deadline is %s, not %s", due.Format(time.RFC3339Nano), t.Deadline.Format(time.RFC3339Nano))
		case a.At.Before(due):
			return nil, game.Reject(game.Conflict, "the reaction window's deadline %s has not passed", due.Format(time.RFC3339Nano))
		case !w.Answering:
			return game.PublicEvents(ReactionReadingEnded{Seat: w.Seat, At: w.Answers}), nil
		}
		return s.closing(ReactionPassed{Seat: w.Seat, At: w.Closes, TimedOut: true}, w.Closes), nil
	}
	if a.Seat != w.Seat {
		return nil, game.Reject(game.NotYourTurn, "a reaction window (%s) is open for seat %d until %s", w.Kind, w.Seat, w.Closes.Format(time.RFC3339Nano))
	}
	// A time passed whose timeout has not come yet: it is applied first, then the action
	// is decided after it.
	var first game.Event
	switch {
	case !w.Answering && !a.At.Before(w.Answers):
		first = ReactionReadingEnded{Seat: w.Seat, At: w.Answers}
	case w.Answering && !a.At.Before(w.Closes):
		first = ReactionPassed{Seat: w.Seat, At: w.Closes, TimedOut: true}
	}
	if first != nil {
		var evs []game.Emitted
		if p, ok := first.(ReactionPassed); ok {
			evs = s.closing(p, w.Closes)
		} else {
			evs = game.PublicEvents(first)
		}
		if _, lapsed := first.(ReactionPassed); lapsed {
			switch a.Do.(type) {
			case game.Choose, React:
				// An answer that comes too late: the window lapsed at its deadline, as a
				// flag falls on a late move; the answer has no effect.
				return evs, nil
			}
		}
		var next game.State = s
		for _, e := range evs {
			next = Rules{}.Evolve(next, e.Event)
		}
		more, err := Rules{}.Decide(next, a)
		if err != nil {
			return nil, err
		}
		return append(evs, more...), nil
	}
	if !w.Answering {
		return nil, game.Reject(game.NotYourTurn, "the reaction window's reading time runs until %s: no answer is taken before", w.Answers.Format(time.RFC3339Nano))
	}
	switch do := a.Do.(type) {
	case game.Choose:
		if do.Option != Pass {
			return nil, game.Reject(game.BadInput, "a reaction window takes the choice %q, not %q", Pass, do.Option)
		}
		return s.closing(ReactionPassed{Seat: w.Seat, At: a.At}, a.At), nil
	case React:
		played, err := s.decideReaction(do, a.At)
		if err != nil {
			return nil, err
		}
		return s.closing(played, a.At), nil
	case game.Move, cards.PlayCard:
		return nil, game.Reject(game.IllegalMove, "a reaction window (%s) is open for you: react with a reaction card, or pass", w.Kind)
	}
	return nil, game.Unsupported("Ajedrez Mágico", a.Do, "a reaction or a pass")
}

// closing is the window closed by ev at at, and for R1 the held card's resolution after
// it, with the clock's stamp when it ends its player's turn.
func (s State) closing(ev game.Event, at time.Time) []game.Emitted {
	out := game.PublicEvents(ev)
	if s.Window.Kind != R1 {
		return out
	}
	next := Rules{}.Evolve(s, ev).(State)
	res, after := next.resolution()
	layer := next.toAct()
	return append(out, cardchess.Stamp(res, next.Clock, layer, at, after.toAct() != layer)...)
}

// resolution is the held card resolving in a closed R1 window: its events, unstamped,
// and the state they give.
func (s State) resolution() ([]game.Emitted, State) {
	f := s
	h := *s.Held
	o := f.resolveHeld()
	out := game.PublicEvents(CardResolved{Seat: h.Seat, Card: h.Card, Result: o.result, FEN: f.Pos.FEN(), Expired: f.expired})
	if o.result == Annulled {
		out = append(out, game.PublicEvents(CardAnnulled{Seat: h.Seat, Card: h.Card, Reason: o.why, FEN: f.Pos.FEN()})...)
	}
	return out, f
}

// decideReaction is the seat of the window laying a reaction: the event.
func (s State) decideReaction(r React, at time.Time) (ReactionPlayed, error) {
	seat := s.Window.Seat
	slot, err := cards.PlayCard{Card: r.Card, Slot: r.Slot}.SlotIn(s.Hands[seat], "Ajedrez Mágico", func(id string) bool { _, ok := byID[id]; return ok })
	if err != nil {
		return ReactionPlayed{}, err
	}
	id := s.Hands[seat][slot]
	e := byID[id]
	if e.Window != Reaction {
		return ReactionPlayed{}, game.Reject(game.IllegalMove, "%s is not a reaction: only a reaction card is laid in a reaction window", id)
	}
	targets := r.Targets
	if targets == nil {
		targets = []string{}
	}
	if n := len(e.words()); len(targets) != n {
		return ReactionPlayed{}, game.Reject(game.BadInput, "%s takes %d target(s) (%s), not %d", id, n, e.Targets, len(targets))
	}
	lifted, legal, why := s.reactionOptions(seat, slot)
	if len(legal) == 0 {
		return ReactionPlayed{}, game.Reject(game.IllegalMove, "%s cannot be laid now: %s", id, why)
	}
	p, ok := find(legal, targets)
	if !ok {
		return ReactionPlayed{}, game.Reject(game.IllegalMove, "%s cannot be aimed at %v: it is not one of the choices listed with your hand", id, targets)
	}
	f := lifted
	o := f.react(seat, id, p)
	return ReactionPlayed{Seat: seat, Card: id, Slot: slot, Targets: p.targets, Result: o.result, FEN: f.Pos.FEN(), At: at}, nil
}

// reacted is the fold of a reaction laid: out of the hand, its effect, the record, the
// window closed.
func (s *State) reacted(e ReactionPlayed) {
	lifted, legal, _ := s.reactionOptions(e.Seat, e.Slot)
	p, ok := find(legal, e.Targets)
	if !ok {
		panic(fmt.Sprintf("magicchess: a stored reaction %s has targets %v the rules do not allow", e.Card, e.Targets))
	}
	*s = lifted
	s.react(e.Seat, e.Card, p)
	w := s.Window // as the reaction left it (Counterspell, Ward: the held card blocked)
	s.closeWindow(w, e.At)
}

// reactionOptions are the legal plays of the reaction in seat's slot, on the state it
// leaves by being laid (out of the hand, on the discard pile, recorded), or why there are
// none. A reaction must leave the position legal: the king of the side not to move is
// never left in check (rule 19's third step).
func (s *State) reactionOptions(seat, slot int) (lifted State, legal []play, reason string) {
	id := s.Hands[seat][slot]
	f := *s
	h := slices.Clone(f.Hands[seat])
	h[slot] = ""
	f.Hands[seat] = h
	f.Played[seat] = with(f.Played[seat], id)
	f.Discard = with(f.Discard, id)
	w := s.Window
	switch {
	case w == nil || w.Closed:
		return f, nil, "a reaction is laid only in a reaction window, in the opponent's turn (advanced mode)"
	case w.Seat != seat:
		return f, nil, "the reaction window is not yours"
	}
	all, why := reactionCards[id](&f, seat)
	for _, p := range all {
		g := f
		p.do(&g, seat)
		if g.kingAttacked(1 - g.toAct()) {
			why = "it would leave the king of the side that has just played in check"
			continue
		}
		legal = append(legal, p)
	}
	return f, legal, why
}

// react is seat's reaction p, on the state its card left by being laid: its effect, then
// the record.
func (s *State) react(seat int, id string, p play) outcome {
	o := p.do(s, seat)
	s.Record, s.Players = with(s.Record, notation(id, p.targets)), with(s.Players, seat)
	return o
}

// The reactions, by ID: what each may do in the window open, as plays.
var reactionCards = map[string]plays{
	// Counterspell (R1, cancel): the card just laid is discarded without effect.
	"counterspell": inR1(func(s *State, seat int) ([]play, string) {
		return []play{{targets: []string{}, do: blocking(Cancelled)}}, ""
	}),
	// Ward (R1, prevent): a piece of yours that the card just laid is aimed at is spared
	// it; every card aimed at enemy pieces acts on them all or not at all, so it is
	// discarded without effect.
	"ward": inR1(func(s *State, seat int) ([]play, string) {
		var out []play
		for _, t := range s.Held.Targets {
			sq, _ := chess.ParseSquare(t)
			if pc, ok := s.Pos.PieceAt(sq); ok && pc.Color == colour(seat) && pc.Role != chess.King {
				out = append(out, play{targets: []string{t}, do: blocking(Prevented)})
			}
		}
		return out, "the card just laid is not aimed at a piece of yours"
	}),
	// Deflection (R2, prevent): the piece just captured comes back on an empty square
	// next to the one it was taken on.
	"deflect": after(TriggerCapture, "an enemy capture", func(s *State, seat int) []play {
		mv := s.Window.move
		var out []play
		for _, sq := range s.enterable(seat, neighbours(mv.on)).Squares() {
			if !mayStand(mv.captured, sq) {
				continue
			}
			out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
				_, err := s.Pos.Put(sq, mv.captured)
				must(err)
				return resolved
			}})
		}
		return out
	}),
	// Last stand (R2, save the king): after a check, your king steps to an empty
	// neighbouring square where it is not in check.
	"last-stand": after(TriggerCheck, "an enemy check", func(s *State, seat int) []play {
		k, _ := s.Pos.KingSquare(colour(seat))
		var out []play
		for _, to := range s.enterable(seat, neighbours(k)).Squares() {
			f := *s
			must(f.Pos.Relocate(k, to))
			if !f.kingAttacked(seat) {
				p := relocation(k, to)
				p.targets = names(to)
				out = append(out, p)
			}
		}
		return out
	}),
	// Miracle (R2, save the king): after a mate, a pawn of yours appears between your
	// king and the one piece that checks it from afar.
	"miracle": after(TriggerMate, "an enemy mate", func(s *State, seat int) []play {
		checkers := s.checkers(seat)
		if len(checkers) != 1 {
			return nil
		}
		k, _ := s.Pos.KingSquare(colour(seat))
		pawn := chess.Piece{Color: colour(seat), Role: chess.Pawn}
		var out []play
		for _, sq := range s.enterable(seat, line(k, checkers[0])).Squares() {
			if mayStand(pawn, sq) {
				out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
					_, err := s.Pos.Put(sq, pawn)
					must(err)
					return resolved
				}})
			}
		}
		return out
	}),
	// Rewind (R2, take back): the opponent's last move is taken back; they play their
	// turn again from where they stood, their clock where it stopped.
	"rewind": func(s *State, seat int) ([]play, string) {
		if w := s.Window; w == nil || w.Kind != R2 {
			return none("Rewind answers an R2 window: a move that checks, captures, promotes, castles, allows en passant or mates")
		}
		return []play{{targets: []string{}, do: func(s *State, _ int) outcome {
			b := *s.Window.before
			b.Hands, b.Played, b.Discard, b.Deck = s.Hands, s.Played, s.Discard, s.Deck
			if !s.rewoundRanOut {
				b.Discard, _ = faceUpAgain(s.Discard, b.Lasting, s.Lasting)
			}
			b.Record, b.Players = s.Record, s.Players
			b.Window = s.Window
			*s = b
			return resolved
		}}}, ""
	},
	// Setback (R3, take back): when an enemy pawn reaches its seventh rank, it goes back
	// to the square it came from.
	"setback": after(TriggerSeventh, "an enemy pawn reaching its seventh rank", func(s *State, seat int) []play {
		mv := s.Window.move
		if pc, ok := s.Pos.PieceAt(mv.to); !ok || pc.Role != chess.Pawn || pc.Color == colour(seat) {
			return nil
		}
		return []play{{targets: []string{}, do: func(s *State, _ int) outcome {
			must(s.Pos.Relocate(mv.to, mv.from))
			return resolved
		}}}
	}),
}

// faceUpAgain is the discard pile after a move that Rewind takes back: the cards that
// the move ran out (face up before it, not after) are face up again, so they leave the
// pile, each its last copy there. It returns the pile, and the cards that left it.
func faceUpAgain(discard []string, before, after []Lasting) (pile, up []string) {
	pile = discard
	for _, l := range before {
		if slices.ContainsFunc(after, func(a Lasting) bool { return a.Card == l.Card }) {
			continue
		}
		for i := len(pile) - 1; i >= 0; i-- {
			if pile[i] == l.Card {
				pile = slices.Concat(pile[:i], pile[i+1:]) // a new array: the state's slices are shared
				up = append(up, l.Card)
				break
			}
		}
	}
	return pile, up
}

// inR1 builds the plays of a reaction to a card just laid.
func inR1(list plays) plays {
	return func(s *State, seat int) ([]play, string) {
		if w := s.Window; w == nil || w.Kind != R1 || s.Held == nil {
			return none("it answers a card just laid (R1)")
		}
		return list(s, seat)
	}
}

// after builds the plays of a reaction to a move with trigger.
func after(trigger, what string, list func(s *State, seat int) []play) plays {
	return func(s *State, seat int) ([]play, string) {
		if w := s.Window; w == nil || w.move == nil || !slices.Contains(w.Triggers, trigger) {
			return none("it answers " + what)
		}
		return list(s, seat), "nothing it may do here"
	}
}

// blocking is the play of a reaction that stops the held card: it resolves as result.
func blocking(result string) func(s *State, seat int) outcome {
	return func(s *State, _ int) outcome {
		w := *s.Window
		w.Blocked = result
		s.Window = &w
		return resolved
	}
}

// enterable is the empty squares of b that seat may bring a piece onto: not closed to it
// by a lasting card of its opponent (Wall, Swamp, Trail).
func (s *State) enterable(seat int, b chess.Bitboard) chess.Bitboard {
	b &^= s.Pos.Occupied()
	for _, l := range s.Lasting {
		if l.Seat != seat && l.Left > 0 && (l.Effect == "wall" || l.Effect == "swamp" || l.Effect == "trail") {
			b &^= l.Squares
		}
	}
	return b
}

// unsettled says whether s is between two events of one command: after an action whose
// window is not open yet, or after a window's close before its held card resolved. Such
// a state is never the last of a command; the read side never shows it (game.Settling:
// projections.Matches keeps the view before it), and it lets nobody act and lists no move.
func (s *State) unsettled() bool {
	return s.opening != nil || s.Window != nil && s.Window.Closed
}

// windowOf is the window of an unsettled state: the one opening, or the one closing.
func (s *State) windowOf() *Window {
	if s.opening != nil {
		return s.opening
	}
	return s.Window
}

// Settled implements game.Settling: a state between two events of one command is not.
func (Rules) Settled(st game.State) bool {
	switch s := st.(type) {
	case State:
		return !s.unsettled()
	case Table:
		return s.settled()
	}
	return true
}

// lateAt reports whether the clock of the seat to act has run out at at: never while a
// reaction window is open or opening, since no clock runs in one (rule 20). In doubles
// the other board's flag is checked so before each action.
func (s *State) lateAt(at time.Time) bool {
	return s.Window == nil && s.opening == nil && s.Clock.Late(s.toAct(), at)
}

var _ game.Settling = Rules{}

// phaseOf is the phase Status names for a window: "reaction-R1"...
func phaseOf(w *Window) string { return "reaction-" + w.Kind }

// windowNote says, to a player who may not lay a card now, that a window is open.
func windowNote(w *Window, seat int) string {
	switch {
	case w.Seat != seat:
		return fmt.Sprintf("a reaction window (%s) is open for your opponent", w.Kind)
	case !w.Answering:
		return "the reaction window's reading time: answers are taken from " + w.Answers.Format(time.RFC3339Nano)
	}
	return ""
}

// auditWindow checks an event of a reaction window against the state before it: a window
// opens when the last action opened one, for its seat, after its triggers, with the
// mode's length; the reading time ends at its end; a pass comes in the answer time, a
// lapse at the deadline; a reaction is what the rules record for it, decided again; a
// held card resolves as the rules resolve it, with its clock's stamp.
func (s State) auditWindow(e game.Event) error {
	w := s.Window
	if _, opening := e.(ReactionWindowOpened); !opening && (w == nil || w.Closed != isResolution(e)) {
		return fmt.Errorf("%s without the reaction window it belongs to", e.EventType())
	}
	switch e := e.(type) {
	case ReactionWindowOpened:
		if s.opening == nil || w != nil {
			return errors.New("ReactionWindowOpened after an action that opens none")
		}
		want := s.opened(e.At)
		if err := cardchess.Differs(e, want); err != nil {
			return fmt.Errorf("ReactionWindowOpened: %w", err)
		}
	case ReactionReadingEnded:
		if w.Answering || e.Seat != w.Seat || !e.At.Equal(w.Answers) {
			return fmt.Errorf("ReactionReadingEnded %+v: the reading time of seat %d's window ends at %s", e, w.Seat, w.Answers)
		}
	case ReactionPassed:
		switch {
		case e.Seat != w.Seat:
			return fmt.Errorf("ReactionPassed by seat %d in seat %d's window", e.Seat, w.Seat)
		case e.TimedOut && !e.At.Equal(w.Closes):
			return fmt.Errorf("ReactionPassed on time at %s, the window closes at %s", e.At, w.Closes)
		case !e.TimedOut && (!w.Answering || e.At.Before(w.Answers) || !e.At.Before(w.Closes)):
			return fmt.Errorf("ReactionPassed at %s, out of the answer time %s to %s", e.At, w.Answers, w.Closes)
		}
	case ReactionPlayed:
		if !w.Answering || e.At.Before(w.Answers) || !e.At.Before(w.Closes) {
			return fmt.Errorf("ReactionPlayed at %s, out of the answer time %s to %s", e.At, w.Answers, w.Closes)
		}
		if e.Seat != w.Seat || e.Slot < 0 || e.Slot >= len(s.Hands[e.Seat]) || s.Hands[e.Seat][e.Slot] != e.Card {
			return fmt.Errorf("ReactionPlayed %s: slot %d of seat %d's hand does not hold it, or the window is not its", e.Card, e.Slot, e.Seat)
		}
		want, err := s.decideReaction(React{Slot: e.Slot, Targets: e.Targets}, e.At)
		if err != nil {
			return fmt.Errorf("ReactionPlayed %s: %w", e.Card, err)
		}
		return cardchess.Differs(e, want)
	case CardResolved:
		evs, after := s.resolution()
		if err := s.same(e, evs[0].Event, e.Stamp, after); err != nil {
			return fmt.Errorf("CardResolved: %w", err)
		}
	}
	return nil
}

// isResolution says whether e comes after its window closed.
func isResolution(e game.Event) bool { _, ok := e.(CardResolved); return ok }
