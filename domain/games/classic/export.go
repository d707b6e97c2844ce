package classic

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

var _ game.Exporter = Rules{}

// Export writes the game in PGN with the Seven Tag Roster. The result is the match's,
// which also knows of resignations, agreed draws and flags that the moves alone do not
// show. The Termination tag has the PGN standard's values (see termination). With a
// clock, each move is followed by its mover's time left, as "[%clk h:mm:ss]".
func (Rules) Export(st game.State, r game.Record) (string, error) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return "", fmt.Errorf("classic: the game has not started")
	}
	tags := chess.Tags{
		"Event": "Arbiter " + r.Game, "Site": "match " + r.MatchID,
		"Date": r.Started.UTC().Format("2006.01.02"), "Round": "-",
		"Result": "*", "Termination": "unterminated",
	}
	for seat, name := range r.Players {
		if name != "" {
			tags[[]string{"White", "Black"}[seat]] = name
		}
	}
	moves := s.Game.Moves()
	var comments []string
	if s.Clock.On {
		tags["TimeControl"] = fmt.Sprintf("%d+%d", int(s.Clock.Initial.Seconds()), int(s.Clock.Increment.Seconds()))
		for _, left := range s.Left.list() {
			comments = append(comments, "[%clk "+clk(time.Duration(left)*time.Millisecond)+"]")
		}
	}
	if r.Over && !r.Void { // a void match keeps "*" and "unterminated": nothing was decided
		switch {
		case len(r.Outcome.Winners) == 0:
			tags["Result"] = "1/2-1/2"
		case r.Outcome.Winners[0] == 0:
			tags["Result"] = "1-0"
		default:
			tags["Result"] = "0-1"
		}
		tags["Termination"] = termination(r.Outcome.Reason)
	}
	return chess.WriteAnnotatedPGN(tags, s.Game.Start(), moves, comments)
}

// termination is the PGN standard's Termination value (section 9.8.1) for a match's
// reason: a game ended by the rules, a resignation or an agreement ended "normal"ly; a
// flag is a "time forfeit" (a draw against a bare king included); a player gone for
// good "abandoned" it. A reason this export does not know is written "normal" too; the
// API's result.reason keeps the match's own words. A void match (aborted, cancelled) is
// written as the standard writes a game without a result: "*" and "unterminated".
func termination(reason string) string {
	switch reason {
	case "timeout", "timeout vs insufficient material":
		return "time forfeit"
	case "abandonment":
		return "abandoned"
	}
	return "normal"
}

// clk writes a clock's time left as the PGN clock comment does, h:mm:ss, with the
// seconds rounded down as a clock shows them.
func clk(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

// clockEntry is one move's time left in State.Left, a list that evolving only ever
// extends at its head, so states share it safely.
type clockEntry struct {
	LeftMs int64
	Before *clockEntry
}

// list is the times left in the order of the moves.
func (e *clockEntry) list() []int64 {
	n := 0
	for x := e; x != nil; x = x.Before {
		n++
	}
	out := make([]int64, n) // counted first: one allocation, not one per doubling
	for ; e != nil; e = e.Before {
		n--
		out[n] = e.LeftMs
	}
	return out
}
