package dispute

import (
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// Corrections says, by seat, the coins a ruling moves in a finished match that moved
// coins: what the match's settlement under the result after pays the seat (what it won
// less what it was charged) less what it paid under the result before. A void pays nothing
// to anyone, so each seat gets back what it lost (its stake, what the game charged it) and
// gives back what it won. A seat without a hold has nothing to correct (zero).
func Corrections(rules game.Rules, st match.State, before, after Result) []int64 {
	was, will := net(rules, st, before), net(rules, st, after)
	out := make([]int64, len(was))
	for i := range out {
		out[i] = will[i] - was[i]
	}
	return out
}

// net is, by seat, what the match's settlement pays under result r.
func net(rules game.Rules, st match.State, r Result) []int64 {
	out := make([]int64, len(st.Seats))
	if r.Void {
		return out
	}
	st.Result = &game.Outcome{Winners: r.Winners, Reason: r.Reason}
	for i, s := range match.Settlement(rules, st) {
		if s.Hold != "" {
			out[i] = s.Won - s.Charged
		}
	}
	return out
}

// CoinReason is the reason a wallet's correction records for a ruling's result.
func CoinReason(after Result) string {
	if after.Void {
		return ReasonVoided
	}
	return ReasonRuling
}
