package projections

import (
	"context"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// PublicHead is the store's public chain (eventstore.PublicChain): every event but a
// hidden stream's, in global order. The store signs its own head at every commit, hidden
// events included, and that head's position counts them: shown to anyone it would count a
// team's secrets. What the server shows (/signed-head) is this chain's head instead, which
// covers the public events alone; the store's head, which covers everything, stays in the
// store and in the server's head log (docs/operations.md).
type PublicHead struct {
	checkpoint
	chain eventstore.PublicChain
}

// NewPublicHead returns the chain of an empty store.
func NewPublicHead() *PublicHead { return &PublicHead{} }

// Name implements Projection.
func (p *PublicHead) Name() string { return "public head" }

// Apply implements Projection.
func (p *PublicHead) Apply(ev eventstore.Event) error {
	defer p.mu.Unlock()
	if p.admit(ev) && matchstream.Public(ev.Stream) {
		p.chain.Next(ev)
	}
	return nil
}

// Head returns the chain's head signed by signer (unsigned if nil).
func (p *PublicHead) Head(signer eventstore.Signer) eventstore.Head {
	p.mu.RLock()
	chain := p.chain
	p.mu.RUnlock()
	return chain.Head(signer)
}

// Digest implements Projection.
func (p *PublicHead) Digest() string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return fmt.Sprintf("%d %s", p.chain.Count, p.chain.Hash)
}

// PublicHeadFormat is the version of StoredPublicHead.
const PublicHeadFormat = 1

// StoredPublicHead is PublicHead written down: the end of its chain.
type StoredPublicHead struct {
	Count int64
	Hash  string
	Time  time.Time
}

// Format implements Stored.
func (p *PublicHead) Format() int { return PublicHeadFormat }

// Save implements Stored.
func (p *PublicHead) Save() (int64, []byte, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	data, err := encode(&StoredPublicHead{Count: p.chain.Count, Hash: p.chain.Hash, Time: p.chain.Time})
	return p.pos, data, err
}

// Restore implements Stored.
func (p *PublicHead) Restore(_ context.Context, _ eventstore.Store, pos int64, data []byte) error {
	var s StoredPublicHead
	if err := decode(data, &s); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.chain, p.pos = eventstore.PublicChain{Count: s.Count, Hash: s.Hash, Time: s.Time}, pos
	return nil
}
