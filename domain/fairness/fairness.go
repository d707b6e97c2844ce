// Package fairness is the one procedure by which every Arbiter game draws its random
// outcomes (decks, deals, reshuffles, rolls, placements), written down byte for byte in
// docs/fairness.md so that anyone can draw them again in any language once a match is over.
//
// A match's randomness comes from two sides. The server draws a secret seed at creation and
// publishes its commitment (SHA-256) before any player joins; each seat brings its own
// entropy when it is taken (the player's, or the server's for a player who sent none), and
// the entropy is recorded, publicly, before the seed is revealed. The match seed, derived
// from both when play starts (MatchSeed), is one that the server could not choose (its seed
// was fixed before it knew the entropies) and no player could either (nobody but the server
// knows the seed). Each purpose (a deck, a deal, a decision's rolls) then reads its own
// stream of HMAC-SHA256 blocks keyed by the match seed under a label of its own (Stream),
// from which integers are drawn without modulo bias (IntN) and sequences shuffled by
// Fisher–Yates (Shuffle).
//
// The procedure is versioned: a match records the version it was played under (V1), and
// a match stored before it (Legacy, the zero value) keeps the derivations each game had
// then, which the games still carry. The package is pure: the entropy and the seed arrive
// as data, it never reads a random source of its own.
package fairness

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// Version is a version of the procedure.
type Version int

const (
	// Legacy is every match recorded before V1: the server's seed alone, each game's own
	// derivation (kept by the games for such matches).
	Legacy Version = 0
	// V1 is the procedure of this package and docs/fairness.md.
	V1 Version = 1
	// Current is the version new matches are created under.
	Current = V1
)

// Entropy bounds: what a seat brings must be at least MinEntropy bytes (128 bits, beyond
// any search) and at most MaxEntropy.
const (
	MinEntropy = 16
	MaxEntropy = 64
)

// matchSeedLabel opens the message from which V1's match seed is derived.
const matchSeedLabel = "arbiter/match-seed/v1"

// MatchSeed derives the match seed of procedure V1 from the server's seed and each seat's
// entropy, in seat order:
//
//	HMAC-SHA256(key = serverSeed,
//	            msg = "arbiter/match-seed/v1" || 0x00 || u32be(seats) || for each seat: u32be(len(e)) || e)
//
// The lengths make the message unambiguous: no two lists of entropies give the same bytes.
func MatchSeed(serverSeed []byte, entropies [][]byte) []byte {
	mac := hmac.New(sha256.New, serverSeed)
	mac.Write([]byte(matchSeedLabel))
	mac.Write([]byte{0})
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(entropies)))
	mac.Write(n[:])
	for _, e := range entropies {
		binary.BigEndian.PutUint32(n[:], uint32(len(e)))
		mac.Write(n[:])
		mac.Write(e)
	}
	return mac.Sum(nil)
}

// CheckEntropy says what is wrong with a seat's entropy, nil when it may be used.
func CheckEntropy(e []byte) error {
	if len(e) < MinEntropy || len(e) > MaxEntropy {
		return fmt.Errorf("entropy of %d bytes: give %d to %d bytes", len(e), MinEntropy, MaxEntropy)
	}
	return nil
}

// Stream is the random numbers of one purpose of a match: the bytes of the blocks
//
//	block(k) = HMAC-SHA256(key = matchSeed, msg = label || 0x00 || u64be(k)),  k = 0, 1, 2...
//
// read in order, eight at a time as big-endian unsigned 64-bit integers (Uint64). A label
// names its purpose ("unfair/deck/0", "solwaris/decision/57"): two purposes never share
// numbers, so what one draws never shifts what another draws. A Stream is not safe for
// concurrent use.
type Stream struct {
	mac   []byte // the key
	label string
	block [sha256.Size]byte
	k     uint64 // the next block's index
	off   int    // bytes of block already read; len(block) when none is left
	drawn int    // the integers read so far
}

// New is the stream of label under the match seed. A label holds no zero byte (it would
// make two labels' messages alike); New panics on one, a programming error.
func New(matchSeed []byte, label string) *Stream {
	if strings.IndexByte(label, 0) >= 0 {
		panic("fairness: a label holds a zero byte: " + label)
	}
	return &Stream{mac: matchSeed, label: label, off: sha256.Size}
}

// Label is the stream's label.
func (s *Stream) Label() string { return s.label }

// Drawn is how many 64-bit integers the stream has given.
func (s *Stream) Drawn() int { return s.drawn }

// Skip reads and drops n integers: a stream positioned where an earlier draw left it.
func (s *Stream) Skip(n int) {
	for range n {
		s.Uint64()
	}
}

// Uint64 is the stream's next eight bytes as a big-endian integer.
func (s *Stream) Uint64() uint64 {
	if s.off+8 > len(s.block) {
		mac := hmac.New(sha256.New, s.mac)
		mac.Write([]byte(s.label))
		var k [9]byte
		binary.BigEndian.PutUint64(k[1:], s.k)
		mac.Write(k[:])
		mac.Sum(s.block[:0])
		s.k++
		s.off = 0
	}
	x := binary.BigEndian.Uint64(s.block[s.off:])
	s.off += 8
	s.drawn++
	return x
}

// IntN is a uniform integer in [0, n), n > 0: the next integer x that is not below
// 2^64 mod n, taken mod n. Rejecting those few values leaves the same count of candidates
// for every result, so no result is favoured (a plain x mod n would favour the small ones).
func (s *Stream) IntN(n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("fairness: IntN(%d)", n))
	}
	u := uint64(n)
	low := -u % u // 2^64 mod n, in 64-bit arithmetic
	for {
		if x := s.Uint64(); x >= low {
			return int(x % u)
		}
	}
}

// Shuffle puts items in the stream's order, in place, by Fisher–Yates from the end: for
// i from len-1 down to 1, swap items[i] with items[IntN(i+1)].
func Shuffle[T any](s *Stream, items []T) {
	for i := len(items) - 1; i > 0; i-- {
		j := s.IntN(i + 1)
		items[i], items[j] = items[j], items[i]
	}
}

// Perm is 0..n-1 shuffled (Shuffle of the list in increasing order).
func (s *Stream) Perm(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	Shuffle(s, out)
	return out
}

// Shuffled is a shuffled copy of items under label: Shuffle on a new stream.
func Shuffled[T any](matchSeed []byte, label string, items []T) []T {
	out := append([]T(nil), items...)
	Shuffle(New(matchSeed, label), out)
	return out
}

// Hex writes bytes as the events record them.
func Hex(b []byte) string { return hex.EncodeToString(b) }

// ParseEntropy reads a seat's entropy as a client sends it: hex when the text is hex
// digits alone (an even count of them), else base64 (standard or URL alphabet, padded or
// not). The result must hold MinEntropy to MaxEntropy bytes.
func ParseEntropy(text string) ([]byte, error) {
	if len(text) > 4*MaxEntropy {
		return nil, fmt.Errorf("entropy of %d characters: give %d to %d bytes, in hex or base64", len(text), MinEntropy, MaxEntropy)
	}
	var b []byte
	var err error
	if isHex(text) {
		b, err = hex.DecodeString(text)
	} else {
		b, err = decodeBase64(text)
	}
	if err != nil {
		return nil, fmt.Errorf("entropy %q is neither hex nor base64: %w", text, err)
	}
	return b, CheckEntropy(b)
}

func isHex(s string) bool {
	if len(s)%2 != 0 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func decodeBase64(s string) ([]byte, error) {
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
	}
	return enc.Strict().DecodeString(s)
}
