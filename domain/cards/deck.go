package cards

import (
	"crypto/sha256"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/domain/fairness"
)

// Shuffle is deck in the order the match seed deals it for label (a game's name for one
// deck of one match, "unfair/deck/0") under procedure v: V1's Fisher–Yates on the stream
// of the label (fairness.Shuffled, docs/fairness.md), or for a match recorded before it
// (Legacy) the shuffle of then (legacyShuffle). deck is not changed.
func Shuffle(v fairness.Version, seed []byte, label string, deck []string) []string {
	if v != fairness.Legacy {
		return fairness.Shuffled(seed, label, deck)
	}
	return legacyShuffle(seed, label, deck)
}

// legacyShuffle is the Legacy procedure: a Fisher-Yates shuffle driven by ChaCha8 keyed
// with sha256(seed || label). Both the generator and the way a draw becomes an index are
// written down here, so that a deck dealt then deals the same under any later Go release.
func legacyShuffle(seed []byte, label string, deck []string) []string {
	key := sha256.Sum256(slices.Concat(seed, []byte(label)))
	rng := rand.NewChaCha8(key)
	out := slices.Clone(deck)
	for i := len(out) - 1; i > 0; i-- {
		j := below(rng, uint64(i+1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// below is a uniform number in [0, n), rejecting the draws that would bias the modulo.
func below(rng *rand.ChaCha8, n uint64) uint64 {
	threshold := -n % n // 2^64 mod n
	for {
		if x := rng.Uint64(); x >= threshold {
			return x % n
		}
	}
}

// Counts counts the cards of played by card ID, in ID order: a seat's Played pile as
// SeatCards shows it.
func Counts(played []string) []CardCount {
	n := map[string]int{}
	for _, c := range played {
		n[c]++
	}
	out := []CardCount{}
	for _, id := range slices.Sorted(maps.Keys(n)) {
		out = append(out, CardCount{Card: id, Count: n[id]})
	}
	return out
}
