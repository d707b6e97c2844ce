package replay

import (
	"context"
	"crypto/ed25519"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/receipt"
)

// ReceiptReport is the check of a stored match against a receipt taken from the server.
type ReceiptReport struct {
	Head   receipt.Head // what the receipt signed
	Events int          // the events the store holds for the match now
	// Problem says why the store no longer holds what the receipt signed; "" when it does.
	Problem string
}

// OK reports whether the store still holds exactly what the receipt signed.
func (r ReceiptReport) OK() bool { return r.Problem == "" }

// Err is nil when the receipt holds, else an error naming the match and the problem.
func (r ReceiptReport) Err() error {
	if r.OK() {
		return nil
	}
	return fmt.Errorf("match %s does not hold what its receipt signed: %s", r.Head.Match, r.Problem)
}

// VerifyReceipt checks the stored match matchID against a receipt (a signed note, see
// package receipt): the receipt's signature with pub, its match, the match's hash chain
// (every stored hash recomputed from its event, so that an event changed under its old
// hash is seen), and the Merkle tree of its first events against the signed root, so that
// a log re-chained after a change, a reordering or a cut is seen too. An error is a
// receipt that does not open or a store that cannot be read; a store that fails the
// receipt is a report with a Problem.
func VerifyReceipt(ctx context.Context, store Reader, pub ed25519.PublicKey, signed []byte, matchID string) (ReceiptReport, error) {
	h, err := openReceipt(signed, pub, matchID)
	if err != nil {
		return ReceiptReport{}, err
	}
	stream := matchstream.Name(matchID)
	if _, _, hidden := matchstream.HiddenOf(matchID); hidden {
		stream = matchID // a team's receipt (graph's teamReceipt) names its hidden stream
	}
	evs, err := readStream(ctx, store, stream)
	if err != nil {
		return ReceiptReport{}, err
	}
	r := ReceiptReport{Head: h, Events: len(evs)}
	// The chain of the events the receipt covers; a break after them is verify's to report.
	if err := eventstore.VerifyChain(evs[:min(int64(len(evs)), h.Size)]); err != nil {
		r.Problem = err.Error()
		return r, nil
	}
	hashes := make([]string, len(evs))
	for i, ev := range evs {
		hashes[i] = ev.Hash
	}
	if err := receipt.Check(h, hashes); err != nil {
		r.Problem = err.Error()
	}
	return r, nil
}

// VerifyReceiptExport checks a match's export (GET /matches/{id}.ndjson) against a
// receipt: the export's hashes, the hidden events' included, against the signed root.
// That the export's chain links and its visible events hash to what it says is
// VerifyExport's to check: a checker needs both.
func VerifyReceiptExport(pub ed25519.PublicKey, signed []byte, x Export) (ReceiptReport, error) {
	h, err := openReceipt(signed, pub, x.Header.Match)
	if err != nil {
		return ReceiptReport{}, err
	}
	// The match's receipt covers its own stream; the lines of its hidden streams, which an
	// export holds for their team or once the match is over, are not in it.
	var hashes []string
	for _, l := range x.Lines {
		if l.Stream == matchstream.Name(x.Header.Match) {
			hashes = append(hashes, l.Hash)
		}
	}
	r := ReceiptReport{Head: h, Events: len(hashes)}
	if err := receipt.Check(h, hashes); err != nil {
		r.Problem = err.Error()
	}
	return r, nil
}

// openReceipt opens a receipt with pub and checks that it is matchID's.
func openReceipt(signed []byte, pub ed25519.PublicKey, matchID string) (receipt.Head, error) {
	h, err := receipt.Open(signed, pub)
	if err != nil {
		return receipt.Head{}, err
	}
	if h.Match != matchID {
		return receipt.Head{}, fmt.Errorf("%w: it is the receipt of match %s, not of %s", receipt.ErrReceipt, h.Match, matchID)
	}
	return h, nil
}
