package solwaris

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strconv"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
)

// The key and the streams. Under fairness.V1 (docs/fairness.md) the key is the match seed
// itself, the arena is drawn from the stream "solwaris/map" and the decision taken at
// version v draws from the stream "solwaris/decision/<v>": a roll between lo and hi is
// lo + IntN(hi-lo+1), a chance of p percent succeeds when IntN(100) < p. Under Legacy
// (matches recorded before V1) the key is SHA-256("solwaris/key/" || seed) and each
// decision's stream is ChaCha8 keyed with SHA-256(key || u64be(v)), a draw being one raw
// 64-bit number taken modulo the range.

// keyOf derives the match's random key from its seed under procedure v.
func keyOf(v fairness.Version, seed []byte) []byte {
	if v != fairness.Legacy {
		return seed
	}
	sum := sha256.Sum256(append([]byte("solwaris/key/"), seed...))
	return sum[:]
}

func hexKey(k []byte) string { return hex.EncodeToString(k) }

// trapID is the ID of the trap laid by the n-th event of the decision taken at public
// version v after hidden covert events: derived from the secret key, it names the trap
// when it springs and says nothing of the other traps (an index in the match's list of
// traps would count them). Two traps laid at one public version differ by hidden.
func trapID(key []byte, v, hidden, n int) string {
	var buf [24]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(int64(v)))
	binary.BigEndian.PutUint64(buf[8:16], uint64(int64(n)))
	binary.BigEndian.PutUint64(buf[16:], uint64(int64(hidden)))
	sum := sha256.Sum256(append(append([]byte("solwaris/trap/"), key...), buf[:]...))
	return hex.EncodeToString(sum[:8])
}

// Drawn says where an event's random outcomes were drawn: the stream of the decision
// taken at version At, from its From-th number on. The audit draws them again.
type Drawn struct {
	At   int `json:"at"`
	From int `json:"from"`
}

// decisionLabel is the V1 label of the stream of the decision taken at version v.
func decisionLabel(v int) string { return "solwaris/decision/" + strconv.Itoa(v) }

// source is the random numbers of one decision.
type source interface {
	// Below is a draw for an outcome among n (a roll's range, 100 for a chance).
	Below(n int) combat.Draw
	IntN(n int) int
	Perm(n int) []int
	// Drawn counts the 64-bit numbers taken so far.
	Drawn() int
}

// stream is the random numbers of the decision taken at version v of match s, positioned
// after the first from of them.
func stream(s State, v, from int) source {
	if s.Fairness != fairness.Legacy {
		st := fair{fairness.New(s.Key, decisionLabel(v))}
		st.Skip(from)
		return st
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(int64(v)))
	c := &counted{src: rand.NewChaCha8(sha256.Sum256(append(append([]byte{}, s.Key...), buf[:]...)))}
	for range from {
		c.Uint64()
	}
	return legacy{Rand: rand.New(c), c: c}
}

// fair is a V1 stream.
type fair struct{ *fairness.Stream }

// Below is uniform among n, by rejection.
func (f fair) Below(n int) combat.Draw { return combat.Draw(f.IntN(max(n, 1))) }

// legacy is a Legacy stream: math/rand/v2 over ChaCha8, counting the numbers it gives.
type legacy struct {
	*rand.Rand
	c *counted
}

// Below is one raw number: combat takes it modulo the range.
func (l legacy) Below(int) combat.Draw { return combat.Draw(l.Uint64()) }
func (l legacy) Drawn() int            { return l.c.n }

// counted is a source of random numbers that counts what it gave.
type counted struct {
	src *rand.ChaCha8
	n   int
}

func (c *counted) Uint64() uint64 { c.n++; return c.src.Uint64() }

// mapDraw is the index of the arena drawn among n for a match keyed by key.
func mapDraw(v fairness.Version, key []byte, n int) int {
	if v != fairness.Legacy {
		return fairness.New(key, "solwaris/map").IntN(n)
	}
	return stream(State{Key: key}, -1, 0).IntN(n)
}

var _ game.Random = Rules{}

// Drawn names what an event's random outcomes were drawn for (game.Random): the key (the
// match seed under V1), the arena, and the stream of the decision whose numbers an event's
// Drawn points at, with the first number it took ("solwaris/decision/57#3"): a placement
// and the auction's designation, the bonuses of a turn, a damage roll and its critical, a
// removal's points.
func (Rules) Drawn(e game.Event) []string {
	at := func(d Drawn) []string { return []string{decisionLabel(d.At) + "#" + strconv.Itoa(d.From)} }
	switch e := e.(type) {
	case Keyed:
		return []string{"solwaris/key"}
	case Opened:
		return []string{"solwaris/map"}
	case FightersPlaced:
		return at(e.Drawn)
	case BonusesSpawned:
		return at(e.Drawn)
	case Damaged:
		return at(e.Drawn)
	case PointsRemoved:
		return at(e.Drawn)
	}
	return nil
}
