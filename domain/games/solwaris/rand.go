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

// newRand is the stream of random numbers of the decision taken at version v of a match
// keyed by key: every decision draws from its own stream, so what one draws never shifts
// another, and the verifier can draw the same numbers again.
func newRand(key []byte, v int) *rand.Rand {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(int64(v)))
	return rand.New(rand.NewChaCha8(sha256.Sum256(append(append([]byte{}, key...), buf[:]...))))
}
