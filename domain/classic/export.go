package classic

import (
	"fmt"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

var _ game.Exporter = Rules{}

// Export writes the game in PGN with the Seven Tag Roster. The result is the match's,
// which also knows of resignations, agreed draws and flags that the moves alone do not
// show; the Termination tag says why it ended.
func (Rules) Export(st game.State, r game.Record) (string, error) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return "", fmt.Errorf("classic: the game has not started")
	}
	tags := chess.Tags{
		"Event": "Arbiter " + r.Game, "Site": "match " + r.MatchID,
		"Date": r.Started.UTC().Format("2006.01.02"), "Round": "-",
		"Result": "*",
	}
	for seat, name := range r.Players {
		if name != "" {
			tags[[]string{"White", "Black"}[seat]] = name
		}
	}
	if s.Clock.On {
		tags["TimeControl"] = fmt.Sprintf("%d+%d", int(s.Clock.Initial.Seconds()), int(s.Clock.Increment.Seconds()))
	}
	if r.Over {
		switch {
		case len(r.Outcome.Winners) == 0:
			tags["Result"] = "1/2-1/2"
		case r.Outcome.Winners[0] == 0:
			tags["Result"] = "1-0"
		default:
			tags["Result"] = "0-1"
		}
		tags["Termination"] = r.Outcome.Reason
	}
	return chess.WritePGN(tags, s.Game.Start(), s.Game.Moves())
}
