package solwaris

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

// keyOf derives the match's random key from its seed.
func keyOf(seed []byte) []byte {
	sum := sha256.Sum256(append([]byte("solwaris/key/"), seed...))
	return sum[:]
}

func hexKey(k []byte) string { return hex.EncodeToString(k) }

// trapID is the ID of the trap laid by the n-th event of the decision taken at version
// v: derived from the secret key, it names the trap when it springs and says nothing of
// the other traps (an index in the match's list of traps would count them).
func trapID(key []byte, v, n int) string {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(int64(v)))
	binary.BigEndian.PutUint64(buf[8:], uint64(int64(n)))
	sum := sha256.Sum256(append(append([]byte("solwaris/trap/"), key...), buf[:]...))
	return hex.EncodeToString(sum[:8])
}

// Drawn says where an event's random outcomes were drawn: the stream of the decision
// taken at version At, from its From-th number on. The audit draws them again.
type Drawn struct {
	At   int `json:"at"`
	From int `json:"from"`
}

// counted is a source of random numbers that counts what it gave.
type counted struct {
	src *rand.ChaCha8
	n   *int
}

func (c counted) Uint64() uint64 { *c.n++; return c.src.Uint64() }

// stream is the random numbers of the decision taken at version v, positioned after the
// first from of them, and the count of those given so far.
func stream(key []byte, v, from int) (*rand.Rand, *int) {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(int64(v)))
	n := new(int)
	src := counted{src: rand.NewChaCha8(sha256.Sum256(append(append([]byte{}, key...), buf[:]...))), n: n}
	for range from {
		src.Uint64()
	}
	return rand.New(src), n
}

// newRand is the stream of random numbers of the decision taken at version v of a match
// keyed by key: every decision draws from its own stream, so what one draws never shifts
// another, and the verifier can draw the same numbers again.
func newRand(key []byte, v int) *rand.Rand {
	r, _ := stream(key, v, 0)
	return r
}
