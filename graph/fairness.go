package graph

import (
	"encoding/hex"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/graph/model"
)

// entropyOf reads the entropy a player sends with joinMatch or rematch (hex or base64,
// fairness.ParseEntropy): nil when it sent none, for the engine to draw it.
func entropyOf(text *string) ([]byte, error) {
	if text == nil {
		return nil, nil
	}
	b, err := fairness.ParseEntropy(*text)
	if err != nil {
		return nil, &game.Error{Code: game.BadInput, Reason: err.Error() + " (docs/fairness.md)", Err: err}
	}
	return b, nil
}

// fairnessModel is what Match.fairness shows of st: the commitment and the entropies from
// the start, the seeds once revealed. Nothing here is secret before the end: the
// entropies are public events.
func fairnessModel(st match.State) *model.Fairness {
	f := &model.Fairness{Procedure: int(st.Fairness), SeedCommitment: st.SeedCommitment, Entropies: []*model.SeatEntropy{}}
	for seat, s := range st.Seats {
		if !s.Taken() || len(s.Entropy) == 0 {
			continue
		}
		by := match.EntropyByPlayer
		if s.ServerEntropy {
			by = match.EntropyByServer
		}
		f.Entropies = append(f.Entropies, &model.SeatEntropy{Seat: seat, Entropy: hex.EncodeToString(s.Entropy), DrawnBy: by})
	}
	if st.SeedRevealed {
		seed := hex.EncodeToString(st.Seed)
		f.Seed = &seed
		if st.Started() {
			ms := hex.EncodeToString(st.GameSeed(st.Seed))
			f.MatchSeed = &ms
		}
	}
	return f
}
