package eventstore

import (
	"fmt"
	"time"
)

// The per-stream chain (Hash) shows that a stream was not changed inside, but not that a
// stream, or the tail of one, is missing, nor that every event of the store was rewritten
// with every hash recomputed. Two more links close those holes:
//
//   - the global chain: every event's GlobalHash also covers the GlobalHash of the event
//     before it in global order, so that the store as a whole is one chain, and a missing
//     event anywhere but at the very end breaks it;
//   - the signed head: at every commit the store signs the position and GlobalHash of its
//     last event with a key kept outside the store (see package serverkey), so that a store
//     cut short, or rewritten with its hashes recomputed, no longer matches a signature that
//     only the key's holder could have made.

// globalDomain separates global hashes from event hashes (hashDomain) and names the
// encoding.
const globalDomain = "arbiter.global.v1"

// headDomain names what a head signature signs; publicHeadDomain what a public head's
// signs.
const (
	headDomain       = "arbiter.head.v1"
	publicHeadDomain = "arbiter.head.public.v1"
)

// publicDomain separates the public chain's hashes from the others.
const publicDomain = "arbiter.public.v1"

// GlobalHash returns the hex SHA-256 that chains the event at position, whose own hash is
// hash, to the event before it in global order, whose GlobalHash is prev ("" at position
// 1). The event's hash covers its content and its stream's chain, so the global hash covers
// the whole store up to position.
func GlobalHash(prev string, position int64, hash string) string {
	var h hexSum
	globalSum(&h, prev, position, hash)
	return string(h[:])
}

// globalSum writes GlobalHash(prev, position, hash) to h.
func globalSum(h *hexSum, prev string, position int64, hash string) {
	var buf [256]byte
	encoding(buf[:0]).string(globalDomain).string(prev).int(position).string(hash).sum(h)
}

// Head is the end of a store's global chain as the store signed it at a commit, or, when
// Public, the end of its public chain (PublicChain) as the server signed it.
type Head struct {
	Position  int64     // of the last event, 0 for an empty store; when Public, the count of public events
	Hash      string    // the GlobalHash of the event at Position, "" at 0; when Public, the PublicChain's Hash
	Time      time.Time // when it was signed, UTC; when Public, the time of the last public event
	Signature []byte    // over Message, by the store's Signer; nil if the store has none
	Public    bool      // a head of the public chain, which a hidden stream's events do not move
}

// Message returns the bytes a head's signature signs: the kind of head, the position, the
// hash and the time, each length-prefixed as in Hash.
func (h Head) Message() []byte {
	domain := headDomain
	if h.Public {
		domain = publicHeadDomain
	}
	// Sized at once (four length or integer prefixes, two integers): every transaction
	// that appends signs one.
	size := 4*8 + len(domain) + 8 + len(h.Hash) + 8
	return encoding(make([]byte, 0, size)).string(domain).int(h.Position).string(h.Hash).int(h.Time.UnixNano())
}

// Signer signs the heads of a store. It must be safe for concurrent use.
type Signer interface {
	Sign(message []byte) []byte
}

// SignHead returns the head at position with global hash hash, signed at now by signer, or
// unsigned if signer is nil.
func SignHead(signer Signer, position int64, hash string, now time.Time) Head {
	h := Head{Position: position, Hash: hash, Time: time.Unix(0, now.UnixNano()).UTC()}
	if signer != nil {
		h.Signature = signer.Sign(h.Message())
	}
	return h
}

// GlobalError reports the first place where the global chain breaks.
type GlobalError struct {
	Position int64  // the first position that does not follow from the one before
	Stream   string // the stream of the event found there ("" if none was)
	Reason   string
}

func (e *GlobalError) Error() string {
	where := fmt.Sprintf("position %d", e.Position)
	if e.Stream != "" {
		where += fmt.Sprintf(" (stream %q)", e.Stream)
	}
	return fmt.Sprintf("eventstore: the global chain breaks at %s: %s", where, e.Reason)
}

// GlobalChain checks a store's events in global order, page by page: positions run from 1
// without a gap and each GlobalHash follows from the one before. The zero value expects
// position 1.
type GlobalChain struct {
	Position int64  // of the last event checked
	Hash     string // its stored GlobalHash
	Stream   string // its stream
}

// Next checks e, the event after the last one checked, and returns a *GlobalError if it
// does not follow. Either way the chain then goes on from e as stored, so that a later,
// separate break is reported on its own.
func (c *GlobalChain) Next(e Event) error {
	var err error
	switch want := c.Position + 1; {
	case e.Position != want:
		after := "the start of the store"
		if c.Position > 0 {
			after = fmt.Sprintf("position %d (stream %q)", c.Position, c.Stream)
		}
		err = &GlobalError{Position: want, Reason: fmt.Sprintf(
			"missing: the store goes from %s to position %d (stream %q); %d event(s) were removed",
			after, e.Position, e.Stream, e.Position-want)}
	case !c.follows(e):
		err = &GlobalError{Position: e.Position, Stream: e.Stream, Reason: fmt.Sprintf(
			"stored global hash %q does not follow from the event and the global hash before it: the event or one before it was changed",
			e.GlobalHash)}
	}
	c.Position, c.Hash, c.Stream = e.Position, e.GlobalHash, e.Stream
	return err
}

// follows reports whether e's GlobalHash follows from the last event checked; it
// compares without building the hash's string, since an audit checks every event.
func (c *GlobalChain) follows(e Event) bool {
	var h hexSum
	globalSum(&h, c.Hash, e.Position, e.Hash)
	return string(h[:]) == e.GlobalHash
}

// PublicChain is the chain of a store's public events: every event but those of streams
// whose very events are a secret (a team's hidden stream, matchstream.Hidden), in global
// order. The global chain covers every event, so its head moves with a secret one and its
// position counts them; a head of the public chain, shown to anyone, moves with public
// events alone and tells nothing of the others. The zero value is the empty chain.
type PublicChain struct {
	Count int64     // public events chained
	Hash  string    // "" for none; else SHA-256 over the Hash before, Count and the event's hash
	Time  time.Time // of the last public event
}

// Next chains ev, the public event after the last one chained.
func (c *PublicChain) Next(ev Event) {
	c.Count++
	var (
		buf [256]byte
		h   hexSum
	)
	encoding(buf[:0]).string(publicDomain).string(c.Hash).int(c.Count).string(ev.Hash).sum(&h)
	c.Hash = string(h[:])
	c.Time = ev.Time.UTC()
}

// Head returns the chain's head signed by signer (unsigned if nil), at the time of its last
// event: the same events give the same head, on any node and whenever it is asked.
func (c PublicChain) Head(signer Signer) Head {
	h := Head{Position: c.Count, Hash: c.Hash, Time: time.Unix(0, c.Time.UnixNano()).UTC(), Public: true}
	if c.Count == 0 {
		h.Time = time.Time{}
	}
	if signer != nil {
		h.Signature = signer.Sign(h.Message())
	}
	return h
}
