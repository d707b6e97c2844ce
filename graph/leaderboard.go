package graph

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/projections"
)

// A leaderboard's cursor is a place in its order, not a player: a page goes on after the
// place the last standing of the page before had, even when that player's rating moved
// since (a player's place changes with every result; a match's in the lobby never does,
// which is why the lobby's after is a match ID). The rating is written exactly (the
// shortest decimal that reads back the same float64), so the place is found again to the
// bit; base64 keeps the cursor one opaque token.

// leaderboardCursor is the cursor of a standing.
func leaderboardCursor(s projections.Standing) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatFloat(s.Rating.Rating, 'g', -1, 64) + ":" + s.Player))
}

// leaderboardAfter reads the after of a page of a leaderboard: nil for none, a place, or
// BAD_USER_INPUT for anything that is not a cursor.
func leaderboardAfter(after *string) (*projections.Place, error) {
	if after == nil {
		return nil, nil
	}
	bad := game.Reject(game.BadInput, "after %q is not a leaderboard cursor: give the cursor of the last standing of the page before", *after)
	raw, err := base64.RawURLEncoding.DecodeString(*after)
	if err != nil {
		return nil, bad
	}
	rating, player, ok := strings.Cut(string(raw), ":")
	if !ok || player == "" {
		return nil, bad
	}
	x, err := strconv.ParseFloat(rating, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, bad
	}
	return &projections.Place{Rating: x, Player: player}, nil
}
