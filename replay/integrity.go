package replay

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/serverkey"
)

// SignedReader is the part of an event store that VerifyStore reads.
type SignedReader interface {
	ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error)
	SignedHead(ctx context.Context) (eventstore.Head, error)
}

// StoreProblem is one thing wrong with the store as a whole.
type StoreProblem struct {
	Position int64  // the global position it is about; 0 for none
	Stream   string // the stream of the event there, when known
	Detail   string
}

func (p StoreProblem) String() string {
	switch {
	case p.Position == 0:
		return p.Detail
	case p.Stream == "":
		return fmt.Sprintf("position %d: %s", p.Position, p.Detail)
	}
	return fmt.Sprintf("position %d (stream %q): %s", p.Position, p.Stream, p.Detail)
}

// StoreReport is the verification of the store's global chain and signed heads.
type StoreReport struct {
	Events   int64            // events read
	Last     int64            // position of the last event
	Signed   eventstore.Head  // the head the store signed at its last commit
	Logged   int              // heads of the head log checked
	Key      string           // the fingerprint of the public key the signatures were checked with
	Public   int64            // public events read (eventstore.PublicChain)
	Problems []StoreProblem   // at most maxProblems
	seen     map[int64]string // global hash at the positions of the signed heads
	public   map[int64]string // public chain's hash at the counts of the public heads logged
}

// OK reports whether the store verified.
func (r StoreReport) OK() bool { return len(r.Problems) == 0 }

// Err returns nil for a store that verified, or an error naming its first problem.
func (r StoreReport) Err() error {
	if r.OK() {
		return nil
	}
	more := ""
	if n := len(r.Problems) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more problem(s))", n)
	}
	return fmt.Errorf("the store: %s%s", r.Problems[0], more)
}

func (r *StoreReport) add(position int64, stream, format string, args ...any) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, StoreProblem{Position: position, Stream: stream, Detail: fmt.Sprintf(format, args...)})
	}
}

// VerifyStore checks what the per-stream checks cannot see: that no event of the store is
// missing or changed, from the first to the last, and that the store still holds what it
// acknowledged.
//   - The global chain: positions run from 1 without a gap, each GlobalHash follows from
//     the event and the one before it (a deleted event or stream, a changed event).
//   - The store's signed head: its signature verifies with pub, it names the last event
//     and that event's global hash. A store behind it lost acknowledged events; a store
//     beyond it has events no signature covers; a different global hash means the store
//     was rewritten, even with every hash recomputed, since only the key signs.
//   - Each head of logged (the head log kept outside the store; nil for none): its
//     signature verifies, the store reaches its position, and holds the same global hash
//     there. This catches a store rolled back to an older state with its older signed head:
//     an SQLite file without its -wal, or restored from a copy. A public head (the one
//     /signed-head shows, which a client keeps) is checked alike against the store's
//     public chain: its count of public events, and its hash there.
//
// A problem goes into the report; the error is for a store that could not be read.
func VerifyStore(ctx context.Context, store SignedReader, pub ed25519.PublicKey, logged []eventstore.Head) (StoreReport, error) {
	signed, err := store.SignedHead(ctx)
	if err != nil {
		return StoreReport{}, fmt.Errorf("replay: reading the signed head: %w", err)
	}
	r := StoreReport{Signed: signed, Logged: len(logged), Key: serverkey.Fingerprint(pub), seen: map[int64]string{}, public: map[int64]string{}}
	want, wantPublic := map[int64]bool{signed.Position: true}, map[int64]bool{}
	for _, h := range logged {
		if h.Public {
			wantPublic[h.Position] = true
		} else {
			want[h.Position] = true
		}
	}
	var (
		chain  eventstore.GlobalChain
		public eventstore.PublicChain
	)
	for {
		page, err := store.ReadAll(ctx, chain.Position, 4096)
		if err != nil {
			return StoreReport{}, fmt.Errorf("replay: reading the store after position %d: %w", chain.Position, err)
		}
		if len(page) == 0 {
			break
		}
		for _, ev := range page {
			if err := chain.Next(ev); err != nil {
				var ge *eventstore.GlobalError
				if !errors.As(err, &ge) {
					return StoreReport{}, err
				}
				r.add(ge.Position, ge.Stream, "global chain: %s", ge.Reason)
			}
			if want[ev.Position] {
				r.seen[ev.Position] = ev.GlobalHash
			}
			if matchstream.Public(ev.Stream) {
				public.Next(ev)
				if wantPublic[public.Count] {
					r.public[public.Count] = public.Hash
				}
			}
		}
		r.Events += int64(len(page))
	}
	r.Last, r.Public = chain.Position, public.Count
	r.checkSigned(pub)
	r.checkLogged(pub, logged)
	return r, nil
}

func (r *StoreReport) checkSigned(pub ed25519.PublicKey) {
	h := r.Signed
	switch {
	case h.Position == 0 && r.Last == 0:
		return // an empty store
	case h.Signature == nil:
		r.add(h.Position, "", "the store's head is not signed: it was written without the server key, or its signature was removed")
		return
	case !serverkey.Verify(pub, h.Message(), h.Signature):
		r.add(h.Position, "", "the signature of the store's head (signed %s) does not verify with key %s: the head was forged or changed, or the key is not this store's", stamp(h.Time), r.Key)
		return
	case h.Position > r.Last:
		r.add(h.Position, "", "the store ends at position %d, but its last commit signed position %d (%s): events %d to %d, acknowledged, are missing",
			r.Last, h.Position, stamp(h.Time), r.Last+1, h.Position)
	case h.Position < r.Last:
		r.add(h.Position+1, "", "events %d to %d come after the store's signed head (position %d): no signature covers them; they were written without the server key or by hand",
			h.Position+1, r.Last, h.Position)
	}
	switch got, ok := r.seen[h.Position]; {
	case !ok && h.Position <= r.Last:
		r.add(h.Position, "", "the store has no event at the position of its signed head (%s)", stamp(h.Time))
	case ok && got != h.Hash:
		r.add(h.Position, "", "the global hash here is %q, the signed head (%s) says %q: events up to here were rewritten", got, stamp(h.Time), h.Hash)
	}
}

func (r *StoreReport) checkLogged(pub ed25519.PublicKey, logged []eventstore.Head) {
	var beyond, beyondPublic *eventstore.Head
	for i, h := range logged {
		if h.Public {
			switch got, ok := r.public[h.Position]; {
			case !serverkey.Verify(pub, h.Message(), h.Signature):
				r.add(0, "", "head log, line %d: the signature of the public head (signed %s) does not verify with key %s: the line was forged or changed", i+1, stamp(h.Time), r.Key)
			case h.Position > r.Public:
				if beyondPublic == nil || h.Position > beyondPublic.Position {
					beyondPublic = &logged[i]
				}
			case h.Position > 0 && (!ok || got != h.Hash):
				r.add(0, "", "head log, line %d: the public head of %s has public chain hash %q, the store %q: the store was rewritten, or rolled back and written again",
					i+1, stamp(h.Time), h.Hash, got)
			}
			continue
		}
		switch got, ok := r.seen[h.Position]; {
		case !serverkey.Verify(pub, h.Message(), h.Signature):
			r.add(h.Position, "", "head log, line %d: the signature (signed %s) does not verify with key %s: the line was forged or changed", i+1, stamp(h.Time), r.Key)
		case h.Position > r.Last:
			if beyond == nil || h.Position > beyond.Position {
				beyond = &logged[i]
			}
		case h.Position > 0 && !ok:
			r.add(h.Position, "", "head log, line %d: the store has no event at the position of this head signed %s", i+1, stamp(h.Time))
		case h.Position > 0 && got != h.Hash:
			r.add(h.Position, "", "head log, line %d: the head signed %s has global hash %q here, the store %q: the store was rewritten, or rolled back and written again",
				i+1, stamp(h.Time), h.Hash, got)
		}
	}
	if beyond != nil {
		r.add(beyond.Position, "", "the head log has a head signed %s at position %d, but the store ends at position %d: events %d to %d, acknowledged, are missing (the store was cut short or rolled back, e.g. an SQLite file without its -wal)",
			stamp(beyond.Time), beyond.Position, r.Last, r.Last+1, beyond.Position)
	}
	if b := beyondPublic; b != nil {
		r.add(0, "", "the head log has a head signed of the public chain at %s covering %d public events, but the store holds %d: public events %d to %d, acknowledged, are missing (the store was cut short or rolled back)",
			stamp(b.Time), b.Position, r.Public, r.Public+1, b.Position)
	}
}

// HeadReader is the part of an event store that CheckSignedHead reads.
type HeadReader interface {
	SignedReader
	HeadPosition(ctx context.Context) (int64, error)
}

// CheckSignedHead is the cheap part of VerifyStore, for a server's boot: it reads the signed
// head and at most two events, not the whole store. It checks the store's signed head
// (signature, the last event, its global hash) and the last store head of logged (a public
// head, which only a reading of the whole store can check, is left to VerifyStore). A
// store that fails it lost acknowledged events or was changed; serving it would sign its
// state as genuine. The error names the first problem; VerifyStore tells more.
func CheckSignedHead(ctx context.Context, store HeadReader, pub ed25519.PublicKey, logged []eventstore.Head) error {
	signed, err := store.SignedHead(ctx)
	if err != nil {
		return fmt.Errorf("replay: reading the signed head: %w", err)
	}
	last, err := store.HeadPosition(ctx)
	if err != nil {
		return fmt.Errorf("replay: reading the head position: %w", err)
	}
	logged = slices.DeleteFunc(slices.Clone(logged), func(h eventstore.Head) bool { return h.Public })
	if len(logged) > 0 {
		logged = logged[len(logged)-1:]
	}
	r := StoreReport{Signed: signed, Last: last, Logged: len(logged), Key: serverkey.Fingerprint(pub), seen: map[int64]string{}}
	for _, h := range append([]eventstore.Head{signed}, logged...) {
		if h.Position <= 0 || h.Position > last {
			continue
		}
		evs, err := store.ReadAll(ctx, h.Position-1, 1)
		if err != nil {
			return fmt.Errorf("replay: reading position %d: %w", h.Position, err)
		}
		if len(evs) == 1 && evs[0].Position == h.Position {
			r.seen[h.Position] = evs[0].GlobalHash
		}
	}
	r.checkSigned(pub)
	r.checkLogged(pub, logged)
	return r.Err()
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
