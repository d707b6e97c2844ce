// Package receipt gives a match's players something to keep: a signed head of a Merkle
// tree over the match's events (a transparency log, golang.org/x/mod/sumdb/tlog, the code
// Go's checksum database runs on), and the proofs that tie a later log to it. A receipt
// taken during or after a match lets its holder check, offline and without trusting the
// server, that the stored match still holds exactly the events it signed: an event changed,
// two swapped or the log cut short changes the tree's root at the receipt's size.
//
// The tree's leaf i (from 0) is the stored hash of the event of version i+1 (see
// eventstore.Hash): its 32 bytes, hashed by tlog as a record (SHA-256 of 0x00 and them).
// The hash rather than the event's bytes, because the hash is what every viewer of a match
// already sees, hidden events included, and it covers the event's whole content and the
// hash before it. A receipt and its proofs hold hashes alone, never a payload. The format
// is in docs/receipts.md.
package receipt

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/arbiter-games/arbiter/serverkey"
)

// KeyName is the name of the server's key in a receipt's signature line.
const KeyName = "arbiter"

// header is the first line of a receipt's text: what it is and the version of its format.
const header = "arbiter match receipt v1"

// Head is what a receipt signs: the tree over the first Size events of a match.
type Head struct {
	Match string
	Size  int64
	Root  tlog.Hash
}

// Text is the head as signed:
//
//	arbiter match receipt v1
//	match <id>
//	size <n>
//	root <base64 of the 32-byte root>
func (h Head) Text() string {
	return fmt.Sprintf("%s\nmatch %s\nsize %d\nroot %s\n", header, h.Match, h.Size, h.Root)
}

// Tree is the Merkle tree over one match's events, built in memory: a match has at most
// some thousands of events, and its hashes are read from the store anyway.
type Tree struct {
	match  string
	size   int64
	stored []tlog.Hash // tlog's stored hashes, by tlog.StoredHashIndex
}

// Build returns the tree over a match's event hashes, in version order (hex, as stored).
func Build(match string, eventHashes []string) (*Tree, error) {
	t := &Tree{match: match}
	for i, h := range eventHashes {
		leaf, err := Leaf(h)
		if err != nil {
			return nil, fmt.Errorf("receipt: event %d of match %s: %w", i+1, match, err)
		}
		add, err := tlog.StoredHashesForRecordHash(t.size, leaf, t)
		if err != nil {
			return nil, err
		}
		t.stored = append(t.stored, add...)
		t.size++
	}
	return t, nil
}

// Leaf is the record hash of the event whose stored hash is eventHash (64 hex digits).
func Leaf(eventHash string) (tlog.Hash, error) {
	b, err := hex.DecodeString(eventHash)
	if err != nil || len(b) != sha256Size {
		return tlog.Hash{}, fmt.Errorf("the event hash %q is not 64 hex digits", eventHash)
	}
	return tlog.RecordHash(b), nil
}

const sha256Size = 32

// ReadHashes implements tlog.HashReader over the tree's own stored hashes.
func (t *Tree) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(t.stored)) {
			return nil, fmt.Errorf("receipt: no stored hash %d in a tree of %d", x, t.size)
		}
		out[i] = t.stored[x]
	}
	return out, nil
}

// Size is the number of events in the tree.
func (t *Tree) Size() int64 { return t.size }

// Head returns the head of the tree over the first n events.
func (t *Tree) Head(n int64) (Head, error) {
	if n < 0 || n > t.size {
		return Head{}, fmt.Errorf("%w: the match has %d events, not %d", ErrSize, t.size, n)
	}
	root, err := tlog.TreeHash(n, t)
	return Head{Match: t.match, Size: n, Root: root}, err
}

// Inclusion proves that event version (from 1) is in the tree over the first n events.
func (t *Tree) Inclusion(version, n int64) (tlog.RecordProof, error) {
	if n < 1 || n > t.size || version < 1 || version > n {
		return nil, fmt.Errorf("%w: no event %d in the first %d of %d events", ErrSize, version, n, t.size)
	}
	return tlog.ProveRecord(n, version-1, t)
}

// Consistency proves that the tree over the first n events extends the tree over the first
// old ones.
func (t *Tree) Consistency(old, n int64) (tlog.TreeProof, error) {
	if old < 1 || old > n || n > t.size {
		return nil, fmt.Errorf("%w: no proof from %d to %d events of %d", ErrSize, old, n, t.size)
	}
	return tlog.ProveTree(n, old, t)
}

// ErrSize is a size or version outside the match's log.
var ErrSize = errors.New("receipt: out of the log")

// Sign returns the head as a signed note (golang.org/x/mod/sumdb/note): its text, a blank
// line, and the signature line of the server's key. Ed25519 signatures are deterministic,
// so a head signed twice gives the same receipt.
func Sign(h Head, key *serverkey.Key) ([]byte, error) {
	v, err := Verifier(key.Public())
	if err != nil {
		return nil, err
	}
	return note.Sign(&note.Note{Text: h.Text()}, signer{key, v.KeyHash()})
}

// signer is the server's key as a note.Signer; the key never leaves serverkey.
type signer struct {
	key  *serverkey.Key
	hash uint32
}

func (s signer) Name() string                    { return KeyName }
func (s signer) KeyHash() uint32                 { return s.hash }
func (s signer) Sign(msg []byte) ([]byte, error) { return s.key.Sign(msg), nil }

// VerifierKey is the server's public key as a note verifier key, "arbiter+<hash>+<key>":
// what a client needs to check a receipt with the note package or its own code.
func VerifierKey(pub ed25519.PublicKey) (string, error) {
	return note.NewEd25519VerifierKey(KeyName, pub)
}

// Verifier is the server's public key as a note.Verifier.
func Verifier(pub ed25519.PublicKey) (note.Verifier, error) {
	vkey, err := VerifierKey(pub)
	if err != nil {
		return nil, err
	}
	return note.NewVerifier(vkey)
}

// ErrReceipt is a receipt that does not read or whose signature does not check.
var ErrReceipt = errors.New("receipt: not a valid receipt")

// Open checks a receipt's signature with pub and returns the head it signs.
func Open(signed []byte, pub ed25519.PublicKey) (Head, error) {
	v, err := Verifier(pub)
	if err != nil {
		return Head{}, err
	}
	n, err := note.Open(signed, note.VerifierList(v))
	if err != nil {
		return Head{}, fmt.Errorf("%w: %w (signed by key %s?)", ErrReceipt, err, serverkey.Fingerprint(pub))
	}
	return parse(n.Text)
}

func parse(text string) (Head, error) {
	bad := func(why string) (Head, error) { return Head{}, fmt.Errorf("%w: %s", ErrReceipt, why) }
	lines := strings.Split(text, "\n")
	if len(lines) != 5 || lines[4] != "" || lines[0] != header {
		return bad("its text is not the four lines of " + header)
	}
	match, ok1 := strings.CutPrefix(lines[1], "match ")
	size, ok2 := strings.CutPrefix(lines[2], "size ")
	root, ok3 := strings.CutPrefix(lines[3], "root ")
	if !ok1 || !ok2 || !ok3 || match == "" {
		return bad("its lines are not match, size and root")
	}
	n, err := strconv.ParseInt(size, 10, 64)
	if err != nil || n < 0 {
		return bad("its size is not a count")
	}
	r, err := tlog.ParseHash(root)
	if err != nil {
		return bad("its root is not a base64 SHA-256")
	}
	h := Head{Match: match, Size: n, Root: r}
	if h.Text() != text {
		return bad("its text is not in the canonical form")
	}
	return h, nil
}

// Check reports whether the events whose stored hashes are given (in version order, all
// of the match's) still hold exactly what the head signed: at least its size, and the
// tree over its first Size events has its root. It does not check that each hash follows
// from its event's content: eventstore.VerifyChain does, and a checker needs both.
func Check(h Head, eventHashes []string) error {
	if int64(len(eventHashes)) < h.Size {
		return fmt.Errorf("receipt: the log of match %s holds %d events, the receipt signed %d: the log was cut short", h.Match, len(eventHashes), h.Size)
	}
	t, err := Build(h.Match, eventHashes[:h.Size])
	if err != nil {
		return err
	}
	got, err := t.Head(h.Size)
	if err != nil {
		return err
	}
	if got.Root != h.Root {
		return fmt.Errorf("receipt: the first %d events of match %s hash to root %s, the receipt signed %s: the log was changed", h.Size, h.Match, got.Root, h.Root)
	}
	return nil
}

// EncodeProof writes proof hashes as base64, one per element, as the API answers them.
func EncodeProof(p []tlog.Hash) []string {
	out := make([]string, len(p))
	for i, h := range p {
		out[i] = base64.StdEncoding.EncodeToString(h[:])
	}
	return out
}

// DecodeProof reads proof hashes written by EncodeProof.
func DecodeProof(s []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(s))
	for i, x := range s {
		h, err := tlog.ParseHash(x)
		if err != nil {
			return nil, fmt.Errorf("%w: proof hash %d: %w", ErrReceipt, i, err)
		}
		out[i] = h
	}
	return out, nil
}
