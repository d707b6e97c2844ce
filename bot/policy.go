package bot

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
)

// View is everything the policy knows: what the bot's seat may see of a match, as a
// player sees it through the API. It holds no deck, no other seat's hand, and not the
// match's secret seed.
type View struct {
	Seat  int
	Phase string // game.Status.Phase
	// Plays are what the bot's seat may do now, as its game lists them from the bot's own
	// view (game.View.Plays), in the game's order.
	Plays []game.Play
	Seed  [2]uint64 // where the policy's choices come from (see SeedOf)
}

// ViewOf is what the bot, at seat, may see of a match: the plays its game lists for it
// in the view the read side's redaction gives the bot's player, and the phase.
func ViewOf(snap engine.Snapshot, seat int) View {
	v := View{Seat: seat, Phase: snap.State.GameStatus(snap.Rules).Phase, Seed: SeedOf(snap.ID, snap.Version, snap.State.Seed)}
	if gv := projections.ViewerOf(snap.State, ID).View(snap.Rules, snap.State.GameState); gv != nil {
		for _, p := range gv.Plays() {
			if p.Seat == seat {
				v.Plays = append(v.Plays, p)
			}
		}
	}
	return v
}

// SeedOf is the seed of the bot's choices in a match at a version: the same decision on
// every node and on every retry, a different one at each turn. It is keyed with the
// match's secret seed (server-only until the match ends), so that a player cannot work
// out the bot's next choice from the match's public ID and version. The key only feeds
// the randomness: the policy sees nothing of the deal through it.
func SeedOf(matchID string, version int64, secret []byte) [2]uint64 {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "arbiter/bot/choice\x00%s\x00%d", matchID, version)
	h := mac.Sum(nil)
	return [2]uint64{binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:16])}
}

// cardOdds is how often the bot prefers a playable card to a quiet move: one turn in
// cardOdds.
const cardOdds = 4

// Decide is the policy: the actions the bot would take, best first (the runner plays the
// first one the rules accept); none when there is nothing it may do. It is a pure
// function of the view, and knows no game: it reads the plays' kinds and scores.
//
//   - A choice the rules put to it (Sovereign Chess's opening: keep or refuse White's
//     first move): one of the options, at random.
//   - Else the plays the game scores above 0, best first (in the chess-like games: a move
//     that mates or wins a Royale, then captures, the most valuable piece first and with
//     the least valuable piece among equals); then, one turn in cardOdds, a playable card
//     on one of its legal targets (a card that adds to the move is played alone: its move
//     follows in the next decision, in the phase "move-after-card"); then every other
//     play in a random order; then every playable card, so that a seat without a legal
//     move still plays one when it can.
//
// Every random choice comes from v.Seed, never from a global source.
func Decide(v View) []any {
	rng := rand.New(rand.NewPCG(v.Seed[0], v.Seed[1]))
	var options, moves []game.Play
	var cards [][]game.Play // each card's plays, one per choice of targets
	for _, p := range v.Plays {
		switch {
		case p.Kind == game.KindChoice:
			options = append(options, p)
		case p.Kind == game.KindCard && p.Of != "" && len(cards) > 0 && cards[len(cards)-1][0].Of == p.Of:
			cards[len(cards)-1] = append(cards[len(cards)-1], p)
		case p.Kind == game.KindCard:
			cards = append(cards, []game.Play{p})
		default:
			moves = append(moves, p)
		}
	}
	if len(options) > 0 {
		rng.Shuffle(len(options), func(i, j int) { options[i], options[j] = options[j], options[i] })
		return dos(options)
	}
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	var played []game.Play
	for _, aims := range cards {
		played = append(played, aims[rng.IntN(len(aims))])
	}
	rng.Shuffle(len(played), func(i, j int) { played[i], played[j] = played[j], played[i] })

	slices.SortStableFunc(moves, func(a, b game.Play) int { return cmp.Compare(b.Score, a.Score) })
	good := 0
	for good < len(moves) && moves[good].Score > 0 {
		good++
	}
	out := dos(moves[:good])
	if len(played) > 0 && rng.IntN(cardOdds) == 0 {
		out, played = append(out, played[0].Do), played[1:]
	}
	out = append(out, dos(moves[good:])...)
	return append(out, dos(played)...)
}

// dos are the actions of plays.
func dos(plays []game.Play) []any {
	out := make([]any, len(plays))
	for i, p := range plays {
		out[i] = p.Do
	}
	return out
}
