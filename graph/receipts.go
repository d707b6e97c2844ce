package graph

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/receipt"
	"github.com/arbiter-games/arbiter/serverkey"
)

// errNoKey answers the receipts of a server started without a signing key (a test's).
var errNoKey = errors.New("this server has no signing key: it signs no receipts")

// matchLog is a match's events as far as the caller may read them: their tree, and their
// hashes and previous hashes by version (index version-1).
type matchLog struct {
	tree       *receipt.Tree
	hash, prev []string
}

// readLog reads the match's events up to what the caller may read (a spectator held back
// by the match's delay reads less) and builds their tree. The read side's version bounds
// it, so a receipt never signs an event that a query of the match would not show yet.
func (r *Resolver) readLog(ctx context.Context, matchID string) (*matchLog, error) {
	if r.Key == nil {
		return nil, errNoKey
	}
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	v, err := r.shownMatch(ctx, matchID, viewerID(p))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, r.noMatch(matchID)
	}
	if v, _, err = r.delayedView(ctx, v, spectatorDelay(v, viewerID(p))); err != nil {
		return nil, err
	}
	return r.buildLog(ctx, matchID, matchstream.Name(matchID), v.Version)
}

// buildLog reads stream up to version upTo and builds the tree of its events, named name.
// A stream's first upTo events never change, so their tree is built once and kept
// (Resolver.logs): a receipt read and hashed the whole match for each field that asked for
// it, and one request of a hundred aliases read a long match a hundred times.
func (r *Resolver) buildLog(ctx context.Context, name, stream string, upTo int64) (*matchLog, error) {
	return r.logs.get(ctx, logKey{name: name, stream: stream, upTo: upTo}, nil, func() (*matchLog, bool, error) {
		l, err := r.readTree(ctx, name, stream, upTo)
		if err != nil {
			return nil, false, err
		}
		return l, l.tree.Size() == upTo, nil // a store behind the read side gave fewer: not kept
	})
}

// readTree computes buildLog.
func (r *Resolver) readTree(ctx context.Context, name, stream string, upTo int64) (*matchLog, error) {
	l := &matchLog{}
	if _, err := r.eachEvent(ctx, stream, 0, upTo, func(ev eventstore.Event) bool {
		l.hash, l.prev = append(l.hash, ev.Hash), append(l.prev, ev.PrevHash)
		return true
	}); err != nil {
		return nil, fmt.Errorf("reading %s for its receipt: %w", stream, err)
	}
	var err error
	if l.tree, err = receipt.Build(name, l.hash); err != nil {
		return nil, err
	}
	return l, nil
}

// teamLog reads the caller's team's hidden stream in the match (matchstream.Hidden), as
// far as the read side has folded it, and builds its tree, named after the stream. Only a
// player seated in the match has a team; its secrets are its team's alone.
func (r *Resolver) teamLog(ctx context.Context, matchID string) (*matchLog, error) {
	if r.Key == nil {
		return nil, errNoKey
	}
	p, err := r.viewer(ctx)
	if err != nil {
		return nil, err
	}
	v, err := r.shownMatch(ctx, matchID, viewerID(p))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, r.noMatch(matchID)
	}
	viewer := projections.ViewerOf(v.State, viewerID(p))
	if len(viewer.Teams) == 0 {
		return nil, game.Reject(game.Forbidden, "only a player seated in match %s has a team, and so a team receipt", matchID)
	}
	stream := matchstream.Hidden(matchID, viewer.Teams[0])
	return r.buildLog(ctx, stream, stream, v.At.HiddenVersion(viewer.Teams[0]))
}

// signedReceipt signs the head of the tree over the first n events.
func (r *Resolver) signedReceipt(l *matchLog, n int64) (*model.Receipt, error) {
	h, err := l.tree.Head(n)
	if err != nil {
		return nil, err
	}
	note, err := receipt.Sign(h, r.Key)
	if err != nil {
		return nil, err
	}
	return &model.Receipt{MatchID: h.Match, Size: int(h.Size), Root: h.Root.String(), Note: string(note)}, nil
}

// sizeError turns a size or version outside what the caller may read into BAD_USER_INPUT.
func sizeError(err error, l *matchLog) error {
	if errors.Is(err, receipt.ErrSize) {
		return game.Reject(game.BadInput, "%v (versions 1 to %d may be read)", err, l.tree.Size())
	}
	return err
}

// serverKey describes the public half of the server's key.
func (r *Resolver) serverKey() (*model.ServerKey, error) {
	if r.Key == nil {
		return nil, errNoKey
	}
	pub := r.Key.Public()
	vkey, err := receipt.VerifierKey(pub)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return &model.ServerKey{
		VerifierKey:  vkey,
		Fingerprint:  serverkey.Fingerprint(pub),
		PublicKeyPem: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})),
	}, nil
}

// logKey names a tree kept in Resolver.logs: the trees of the streams' prefixes last
// read, read-only once built.
type logKey struct {
	name, stream string
	upTo         int64
}

// maxLogs bounds the trees kept: each holds two hashes per event of its stream.
const maxLogs = 64
