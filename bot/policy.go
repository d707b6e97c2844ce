package bot

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/domain/cards"
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
	// Choices are the options of a choice the rules put to the bot (game.Status.Choices).
	Choices []string
	Board   *game.Board      // nil for a game without a board
	Hand    []cards.HandCard // the bot's own hand, with what may be played now; nil without cards
	Seed    [2]uint64        // where the policy's choices come from (see SeedOf)
}

// ViewOf is what the bot, at seat, may see of a match: the board that everyone sees,
// its own hand as the read side's redaction shows it to the seat's player, and the phase.
func ViewOf(snap engine.Snapshot, seat int) View {
	st := snap.State.GameStatus(snap.Rules)
	v := View{Seat: seat, Phase: st.Phase, Choices: st.Choices, Seed: SeedOf(snap.ID, snap.Version, snap.State.Seed)}
	gs := snap.State.GameState
	if b, ok := snap.Rules.(game.Boarded); ok && gs != nil {
		board := b.Board(gs)
		v.Board = &board
	}
	if hand, ok := projections.ViewerOf(snap.State, ID).Hand(snap.Rules, gs, seat); ok {
		v.Hand = hand
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
// function of the view.
//
//   - A choice the rules put to it (Sovereign Chess's opening: keep or refuse White's
//     first move): one of the options, at random.
//   - Else a move that mates on the board (or wins a Royale), then captures, the most
//     valuable piece first and with the least valuable piece among equals; then, one turn
//     in cardOdds, a playable card on one of its legal targets (a card that adds to the
//     move is played alone: its move follows in the next decision, in the phase
//     "move-after-card"); then every other legal move in a random order; then every
//     playable card, so that a seat without a legal move still plays one when it can.
//
// Every random choice comes from v.Seed, never from a global source.
func Decide(v View) []any {
	rng := rand.New(rand.NewPCG(v.Seed[0], v.Seed[1]))
	if len(v.Choices) > 0 {
		options := make([]any, len(v.Choices))
		for i, c := range v.Choices {
			options[i] = game.Choose{Option: c}
		}
		rng.Shuffle(len(options), func(i, j int) { options[i], options[j] = options[j], options[i] })
		return options
	}
	var moves []string
	if v.Board != nil {
		moves = slices.Clone(v.Board.LegalMoves)
	}
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	cards := plays(v.Hand, rng)

	type judged struct {
		move             string
		victim, attacker int
	}
	var mates, captures []judged
	var quiet []any
	var look lookahead
	if v.Board != nil {
		look = readBoard(v.Board.FEN)
	}
	for _, mv := range moves {
		j, mate := judged{move: mv}, false
		if look != nil {
			mate, j.victim, j.attacker = look.judge(mv)
		}
		switch {
		case mate:
			mates = append(mates, j)
		case j.victim > 0:
			captures = append(captures, j)
		default:
			quiet = append(quiet, game.Move{Notation: mv})
		}
	}
	slices.SortStableFunc(captures, func(a, b judged) int {
		return cmp.Or(cmp.Compare(b.victim, a.victim), cmp.Compare(a.attacker, b.attacker))
	})
	out := make([]any, 0, len(moves)+len(cards))
	for _, j := range slices.Concat(mates, captures) {
		out = append(out, game.Move{Notation: j.move})
	}
	if len(cards) > 0 && rng.IntN(cardOdds) == 0 {
		out, cards = append(out, cards[0]), cards[1:]
	}
	out = append(out, quiet...)
	return append(out, cards...)
}

// plays are the hand's playable cards in a random order, each on one of its legal choices
// of targets, named by slot and card.
func plays(hand []cards.HandCard, rng *rand.Rand) []any {
	var out []any
	for _, hc := range hand {
		if !hc.Playable {
			continue
		}
		targets := []string{}
		if len(hc.Targets) > 0 {
			targets = slices.Clone(hc.Targets[rng.IntN(len(hc.Targets))])
		}
		out = append(out, cards.PlayCard{Card: hc.Card, Slot: hc.Slot, Targets: targets})
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
