package replay

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// Fairness is what a fairness verification drew again of one finished match: every deck,
// deal, reshuffle and roll its game recorded, from the revealed seed and the entropy each
// seat brought (docs/fairness.md).
type Fairness struct {
	Procedure  fairness.Version
	Commitment string   // MatchCreated's commitment to the server's seed
	Seed       string   // the revealed seed, hex; "" when the stream reveals none
	MatchSeed  string   // the seed the game drew from, derived again, hex
	Entropies  []string // by seat, hex, with who drew it: "<hex> (player)"
	// Drawn lists the events whose random outcomes were drawn again, with their purposes.
	Drawn []match.Drawn
}

// VerifyFairness verifies a match as Verify does and, the match being over, draws every
// random outcome it recorded again from the seed revealed at its end and the entropy of
// each seat (match.Audit.Fairness): a difference is a Problem under CheckFairness naming
// the event and the purpose it was drawn for, as is a seed that does not match its
// commitment and a match not over yet, whose seed is still secret.
func VerifyFairness(ctx context.Context, store Reader, games *game.Registry, matchID string) (Report, error) {
	return verifyMatch(ctx, store, games, matchID, true)
}

// VerifyEventsFairness is VerifyFairness on the events of a match's stream.
func VerifyEventsFairness(games *game.Registry, stream string, evs []eventstore.Event) Report {
	return verifyEvents(games, stream, evs, true)
}

// VerifyExportFairness is VerifyFairness on a match's export (VerifyExport): it must be
// the export of a finished match, which hides nothing.
func VerifyExportFairness(games *game.Registry, x Export) Report {
	return verifyExport(games, x, true)
}

// revealed reports whether a match's stream reveals its seed.
func revealed(evs []eventstore.Event) bool {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == (match.SeedRevealed{}).EventType() {
			return true
		}
	}
	return false
}

// fairnessOf starts the fairness audit of a match's events under rules: the audit draws
// from the seed the stream reveals at its end, found first.
func fairnessOf(a *match.Audit, rules game.Rules, evs []eventstore.Event) *Fairness {
	f := &Fairness{}
	var seed []byte
	for i := len(evs) - 1; i >= 0; i-- {
		ev := matchstream.Record(evs[i])
		if ev.Type != (match.SeedRevealed{}).EventType() {
			continue
		}
		if d, err := ev.Decode(rules); err == nil {
			seed = d.(match.SeedRevealed).Seed
		}
		break
	}
	a.Fairness(seed)
	if seed != nil {
		f.Seed = hex.EncodeToString(seed)
	}
	return f
}

// fill completes f from the audit once it has read every event.
func (f *Fairness) fill(a *match.Audit) {
	st := a.State()
	f.Procedure, f.Commitment, f.Drawn = st.Fairness, st.SeedCommitment, a.Drawn()
	for _, s := range st.Seats {
		if len(s.Entropy) == 0 {
			continue // procedure 0 took none
		}
		by := match.EntropyByPlayer
		if s.ServerEntropy {
			by = match.EntropyByServer
		}
		f.Entropies = append(f.Entropies, fmt.Sprintf("%x (%s)", s.Entropy, by))
	}
	if seed, err := hex.DecodeString(f.Seed); err == nil && f.Seed != "" && st.Started() {
		f.MatchSeed = hex.EncodeToString(st.GameSeed(seed))
	}
}
