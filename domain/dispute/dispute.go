// Package dispute is the review of a finished match's result as a pure decider: a player of
// the match opens a dispute with a reason, both players add statements citing the events
// the match recorded (a disconnection, a clock stamp, a draw offer), and a reviewer rules:
// the result stands, the match is void (no rating change, every coin back where it was
// before the match), or the result becomes a win for another side or a draw.
//
// Every dispute of a match lives on one stream, dispute-<matchID>, so that two rulings on
// one match are ordered by the stream's version: each ruling records the result it found
// (Before) and the one it leaves (After), and the read side (ratings, wallets) moves from
// one to the other, exactly once. Who is a reviewer is the player stream's fact (package
// player); the engine checks it and hands Decide the facts of the match as data.
package dispute

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Bounds of what a dispute holds, so that a stream cannot grow without end.
const (
	MaxText       = 2000 // characters of a reason, a statement or a note
	MaxCites      = 20   // events cited by one reason or statement
	MaxStatements = 10   // statements of one player in one dispute
	MaxPerPlayer  = 3    // disputes one player may open on one match, ruled ones included
)

// Ruling is a reviewer's decision.
type Ruling string

// The rulings.
const (
	Uphold Ruling = "UPHOLD" // the result stands
	Void   Ruling = "VOID"   // no result: no rating change, stakes back to every seat
	Draw   Ruling = "DRAW"   // the result becomes a draw
	Win    Ruling = "WIN"    // the result becomes a win for the side of a seat
)

// Status of one dispute.
const (
	Open   = "OPEN"
	Closed = "RULED"
)

// Statement is a player's word in a dispute (its reason is the first).
type Statement struct {
	By    string
	Seat  int
	Text  string
	Cites []Ref
}

// Dispute is one dispute of a match.
type Dispute struct {
	ID         string
	By         string
	Seat       int
	Reason     string
	Cites      []Ref
	Statements []Statement
	Status     string
	Ruling     *Ruled
}

// State is a match's dispute stream folded. It is a value: Evolve copies what it changes.
type State struct {
	Match    string
	Facts    *Facts
	Disputes []Dispute
	Result   Result // the result as it stands: the recorded one, or the last ruling's
}

// Find returns the dispute of ID id.
func (s State) Find(id string) (Dispute, bool) {
	for _, d := range s.Disputes {
		if d.ID == id {
			return d, true
		}
	}
	return Dispute{}, false
}

// ID is the ID of a match's n-th dispute (from 1).
func ID(matchID string, n int) string { return matchID + "." + strconv.Itoa(n) }

// MatchOf returns the match of a dispute ID.
func MatchOf(id string) (string, bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 {
		return "", false
	}
	if n, err := strconv.ParseUint(id[i+1:], 10, 16); err != nil || n < 1 {
		return "", false
	}
	return id[:i], true
}

// The commands. Player and Reviewer are authenticated by the engine; Facts is read from
// the match's stream by the engine.
type (
	// OpenDispute opens a dispute on a finished match.
	OpenDispute struct {
		Match    string
		Player   string
		Reason   string
		Cites    []Ref
		Facts    Facts
		Finished bool // the match is over (else CONFLICT)
	}
	// AddStatement adds a player's statement to an open dispute.
	AddStatement struct {
		Dispute string
		Player  string
		Text    string
		Cites   []Ref
	}
	// Rule closes an open dispute. Seat names the winning side of a Win.
	Rule struct {
		Dispute  string
		Reviewer string
		Ruling   Ruling
		Seat     int
		Note     string
	}
)

// Command is a request to a dispute stream.
type Command interface{ command() }

func (OpenDispute) command()  {}
func (AddStatement) command() {}
func (Rule) command()         {}

// Decide checks a command against the match's disputes and returns the event it records,
// or a *game.Error that records nothing.
func Decide(s State, cmd Command) ([]game.Event, error) {
	switch c := cmd.(type) {
	case OpenDispute:
		return decideOpen(s, c)
	case AddStatement:
		d, err := openDispute(s, c.Dispute)
		if err != nil {
			return nil, err
		}
		seat := s.seatOf(c.Player)
		if seat < 0 {
			return nil, game.Reject(game.Forbidden, "only the players of match %s may add statements to its disputes", s.Match)
		}
		n := 0
		for _, st := range d.Statements {
			if st.By == c.Player {
				n++
			}
		}
		if n >= MaxStatements {
			return nil, game.Reject(game.Conflict, "you have made %d statements in dispute %s: at most %d", n, d.ID, MaxStatements)
		}
		if err := checkText("a statement", c.Text, true); err != nil {
			return nil, err
		}
		if err := s.checkCites(c.Cites); err != nil {
			return nil, err
		}
		return []game.Event{StatementAdded{Dispute: d.ID, By: c.Player, Seat: seat, Text: c.Text, Cites: c.Cites}}, nil
	case Rule:
		return decideRule(s, c)
	}
	return nil, game.Reject(game.BadInput, "unknown dispute command %T", cmd)
}

func decideOpen(s State, c OpenDispute) ([]game.Event, error) {
	facts := s.Facts
	if facts == nil {
		facts = &c.Facts
	}
	seat := slices.Index(facts.Players, c.Player)
	switch {
	case seat < 0:
		return nil, game.Reject(game.Forbidden, "only a player of match %s may dispute it", c.Match)
	case s.Facts == nil && !c.Finished:
		return nil, game.Reject(game.Conflict, "match %s is not finished: a result can be disputed once there is one", c.Match)
	}
	if s.Facts == nil && facts.Result.Void {
		return nil, game.Reject(game.Conflict, "match %s ended with no result (%s): there is nothing to dispute", c.Match, facts.Result.Reason)
	}
	mine := 0
	for _, d := range s.Disputes {
		if d.By != c.Player {
			continue
		}
		if d.Status == Open {
			return nil, game.Reject(game.Conflict, "you already have dispute %s open on match %s: add a statement to it", d.ID, c.Match)
		}
		mine++
	}
	if mine >= MaxPerPlayer {
		return nil, game.Reject(game.Conflict, "you have opened %d disputes on match %s: at most %d", mine, c.Match, MaxPerPlayer)
	}
	if err := checkText("the reason", c.Reason, true); err != nil {
		return nil, err
	}
	probe := s
	probe.Facts = facts
	if err := probe.checkCites(c.Cites); err != nil {
		return nil, err
	}
	ev := Opened{Dispute: ID(c.Match, len(s.Disputes)+1), Match: c.Match, By: c.Player, Seat: seat, Reason: c.Reason, Cites: c.Cites}
	if s.Facts == nil {
		f := c.Facts
		ev.Facts = &f
	}
	return []game.Event{ev}, nil
}

func decideRule(s State, c Rule) ([]game.Event, error) {
	d, err := openDispute(s, c.Dispute)
	if err != nil {
		return nil, err
	}
	if s.seatOf(c.Reviewer) >= 0 {
		return nil, game.Reject(game.Forbidden, "a reviewer may not rule on its own match")
	}
	if err := checkText("the note", c.Note, false); err != nil {
		return nil, err
	}
	after, err := s.resultOf(c)
	if err != nil {
		return nil, err
	}
	return []game.Event{Ruled{Dispute: d.ID, Match: s.Match, Reviewer: c.Reviewer, Ruling: c.Ruling, Note: c.Note, Before: s.Result, After: after}}, nil
}

// resultOf is the result a ruling leaves.
func (s State) resultOf(c Rule) (Result, error) {
	switch c.Ruling {
	case Uphold:
		return s.Result, nil
	case Void:
		return Result{Reason: ReasonVoided, Void: true}, nil
	case Draw:
		return Result{Winners: []int{}, Reason: ReasonRuling}, nil
	case Win:
		teams := s.Facts.Teams
		if c.Seat < 0 || c.Seat >= len(teams) {
			return Result{}, game.Reject(game.BadInput, "seat %d: match %s has seats 0 to %d", c.Seat, s.Match, len(teams)-1)
		}
		var w []int
		for seat, t := range teams {
			if t == teams[c.Seat] {
				w = append(w, seat)
			}
		}
		return Result{Winners: w, Reason: ReasonRuling}, nil
	}
	return Result{}, game.Reject(game.BadInput, "ruling %q: it is UPHOLD, VOID, DRAW or WIN", c.Ruling)
}

func openDispute(s State, id string) (Dispute, error) {
	d, ok := s.Find(id)
	switch {
	case !ok:
		return Dispute{}, game.Reject(game.NotFound, "no dispute %q", id)
	case d.Status != Open:
		return Dispute{}, game.Reject(game.Conflict, "dispute %s was ruled already", id)
	}
	return d, nil
}

func (s State) seatOf(player string) int {
	if s.Facts == nil {
		return -1
	}
	return slices.Index(s.Facts.Players, player)
}

// checkCites checks that every cited event is one the match had recorded.
func (s State) checkCites(cites []Ref) error {
	if len(cites) > MaxCites {
		return game.Reject(game.BadInput, "%d events cited: at most %d", len(cites), MaxCites)
	}
	for _, r := range cites {
		if r.Version < 1 || r.Version > s.Facts.Version {
			return game.Reject(game.BadInput, "event %d: match %s has events 1 to %d", r.Version, s.Match, s.Facts.Version)
		}
	}
	return nil
}

// checkText bounds a reason, a statement or a note.
func checkText(what, text string, required bool) error {
	n := utf8.RuneCountInString(text)
	switch {
	case !utf8.ValidString(text):
		return game.Reject(game.BadInput, "%s is not valid UTF-8", what)
	case required && strings.TrimSpace(text) == "":
		return game.Reject(game.BadInput, "%s is empty", what)
	case n > MaxText:
		return game.Reject(game.BadInput, "%s has %d characters: at most %d", what, n, MaxText)
	}
	for _, r := range text {
		if r != '\n' && r != '\t' && !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return game.Reject(game.BadInput, "%s contains a control or invisible character (%U)", what, r)
		}
	}
	return nil
}

// Evolve folds one event of the stream.
func Evolve(s State, e game.Event) State {
	s.Disputes = slices.Clone(s.Disputes)
	switch e := e.(type) {
	case Opened:
		s.Match = e.Match
		if e.Facts != nil && s.Facts == nil {
			f := *e.Facts
			s.Facts, s.Result = &f, f.Result
		}
		s.Disputes = append(s.Disputes, Dispute{ID: e.Dispute, By: e.By, Seat: e.Seat, Reason: e.Reason, Cites: e.Cites, Status: Open})
	case StatementAdded:
		if i := s.index(e.Dispute); i >= 0 {
			d := s.Disputes[i]
			d.Statements = append(slices.Clone(d.Statements), Statement{By: e.By, Seat: e.Seat, Text: e.Text, Cites: e.Cites})
			s.Disputes[i] = d
		}
	case Ruled:
		if i := s.index(e.Dispute); i >= 0 {
			r := e
			s.Disputes[i].Status, s.Disputes[i].Ruling = Closed, &r
		}
		s.Result = e.After
	}
	return s
}

func (s State) index(id string) int {
	return slices.IndexFunc(s.Disputes, func(d Dispute) bool { return d.ID == id })
}

// Changes reports whether a ruling moves the result (and with it ratings and coins).
func (r Ruled) Changes() bool { return !r.Before.Same(r.After) }

// Same reports whether two results are the same result.
func (r Result) Same(o Result) bool {
	return r.Void == o.Void && slices.Equal(r.Winners, o.Winners) || r.Void && o.Void
}

// String is a result as a person reads it.
func (r Result) String() string {
	switch {
	case r.Void:
		return "void"
	case len(r.Winners) == 0:
		return fmt.Sprintf("draw (%s)", r.Reason)
	}
	return fmt.Sprintf("won by seats %v (%s)", r.Winners, r.Reason)
}
