package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/arbiter-games/arbiter/engine"
)

// liveRing is how many of its messages a matchEvents group keeps at least once it has
// sent more than twice as many. A subscriber of the same operation that comes while the
// group still holds everything since its start joins it and is sent the history from
// there; a later one starts a group of its own, which reads the store for its catch-up.
const liveRing = 256

// liveRingMax is the most messages a matchEvents group holds for members still writing
// its older ones (see trimmable): a history of this many events is sent to a late
// subscriber without a trip back to the store.
const liveRingMax = 16 * liveRing

// liveLag is how many messages a member may have waiting, beyond the one being written,
// before the wait counts against it (see liveMember): the buffer a subscription had of
// its own before groups.
func liveLag(k liveKind) int64 {
	if k == liveUpdates {
		return 1
	}
	return 16
}

// liveGroup is one run of a live subscription's operation shared by its members. Its
// pump runs the operation (as the class's player, or nobody), encodes each result once
// into the ring and wakes the members, and never waits for one: each member writes from
// the ring at its own pace (liveMember.serve).
type liveGroup struct {
	r    *Resolver
	key  liveKey
	rep  *engine.Player            // who the operation runs as
	op   *graphql.OperationContext // the operation, parsed and validated once for the first member
	stop context.CancelFunc        // ends the pump
	tap  liveTap                   // the match version of each result, in order

	mu      sync.Mutex
	ring    []liveMessage // consecutive results; ring[0] is message number base
	base    int64
	members map[*liveMember]struct{}
	kicked  []*liveMember // members to hand to the writers (kickLocked, flushLocked)
	done    bool          // the operation ended: nothing more comes
	closed  bool          // the pump stopped (done, or no member left): joins go to a new group
}

// liveMessage is one result of a group's operation: its payload, as JSON, and the
// version of the match it shows.
type liveMessage struct {
	version int64
	payload []byte
}

func newLiveGroup(r *Resolver, key liveKey, rep *engine.Player, op *graphql.OperationContext) *liveGroup {
	// A copy of what running the operation needs; the member's own context stays its own.
	own := &graphql.OperationContext{
		RawQuery:               op.RawQuery,
		Variables:              op.Variables,
		OperationName:          op.OperationName,
		Doc:                    op.Doc,
		Operation:              op.Operation,
		DisableIntrospection:   op.DisableIntrospection,
		RecoverFunc:            op.RecoverFunc,
		ResolverMiddleware:     op.ResolverMiddleware,
		RootResolverMiddleware: op.RootResolverMiddleware,
		Stats:                  graphql.Stats{OperationStart: time.Now()},
	}
	return &liveGroup{r: r, key: key, rep: rep, op: own, members: map[*liveMember]struct{}{}}
}

// start runs the pump.
func (g *liveGroup) start() {
	ctx, stop := context.WithCancel(context.Background())
	g.stop = stop
	// The operation's caller: not a websocket's (nothing counts against a connection's
	// cap or rate), the class's player or a spectator.
	ctx = context.WithValue(ctx, callerKey{}, &caller{player: g.rep})
	ctx = context.WithValue(ctx, liveTapKey{}, &g.tap)
	go g.pump(ctx)
}

// pump runs the operation and publishes each result, until it ends or is stopped.
func (g *liveGroup) pump(ctx context.Context) {
	defer g.end()
	defer func() {
		if p := recover(); p != nil {
			g.r.limits.Log.Error("a live subscription's operation panicked", "match", g.key.matchID, "panic", fmt.Sprint(p))
		}
	}()
	responses, ctx := g.r.live.exec.DispatchOperation(ctx, g.op)
	for {
		resp := responses(ctx)
		if resp == nil {
			return
		}
		b, err := json.Marshal(resp)
		if err != nil {
			g.r.limits.Log.Error("encoding a live subscription's result failed", "match", g.key.matchID, "err", err)
			return
		}
		g.publish(liveMessage{version: g.tap.next(), payload: b})
	}
}

// publish appends a result to the ring and wakes the members.
func (g *liveGroup) publish(msg liveMessage) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.key.kind == liveUpdates:
		// Only the latest view is ever sent.
		g.base += int64(len(g.ring))
		g.ring = append(g.ring[:0], msg)
	case len(g.ring) >= 2*liveRing:
		// Trimmed in steps of at least half a ring, so that a member writing old messages
		// does not make every result copy the ring.
		if drop := g.trimmable(); drop >= liveRing/2 || len(g.ring) >= liveRingMax {
			g.ring = append(make([]liveMessage, 0, max(2*liveRing, len(g.ring)-drop+liveRing)), g.ring[drop:]...)
			g.base += int64(drop)
		}
		fallthrough
	default:
		g.ring = append(g.ring, msg)
	}
	for m := range g.members {
		g.kickLocked(m)
	}
	g.flushLocked()
}

// trimmable is how many of the ring's oldest messages may go: all but the last liveRing,
// save those a member still has to write, as long as the ring holds fewer than
// liveRingMax. A group started for a late subscriber reads the match's history from the
// store faster than a socket takes it; trimming under that member would drop it as slow
// while its client reads at full speed. A member that is truly slow is dropped by its
// timer (kickLocked) long before the ring reaches liveRingMax at a live match's pace.
func (g *liveGroup) trimmable() int {
	drop := len(g.ring) - liveRing
	if len(g.ring) >= liveRingMax {
		return drop
	}
	for m := range g.members {
		if m.state == liveActive {
			drop = min(drop, int(max(m.next-g.base, 0)))
		}
	}
	return drop
}

// end marks the operation over: each member is sent what remains, then completes.
func (g *liveGroup) end() {
	g.mu.Lock()
	g.done, g.closed = true, true
	for m := range g.members {
		g.kickLocked(m)
	}
	g.flushLocked()
	g.mu.Unlock()
	g.stop()
	g.r.live.forget(g)
}

// head is the number of the next message to come.
func (g *liveGroup) head() int64 { return g.base + int64(len(g.ring)) }

// add makes m a member, sent the history since the group's start (matchEvents) or the
// latest view (matchUpdates), and reports false when the group cannot take it (it has
// stopped, or no longer holds its start).
func (g *liveGroup) add(m *liveMember) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.key.kind == liveEvents && g.base > 0 {
		return false
	}
	m.group = g
	if g.key.kind == liveUpdates {
		m.next = max(g.head()-1, 0)
	}
	g.members[m] = struct{}{}
	g.kickLocked(m)
	g.flushLocked()
	// A subscription stopped (complete, or its socket gone) leaves at once.
	m.sub.whenStopped(func() { g.leave(m, liveGone) })
	return true
}

// leave takes m out of the group for why (it is gone, or too slow), unless it has left
// already. A group without members stops.
func (g *liveGroup) leave(m *liveMember, why liveState) {
	g.mu.Lock()
	if m.state != liveActive {
		g.mu.Unlock()
		return
	}
	m.state = why
	delete(g.members, m)
	last := len(g.members) == 0 && !g.closed
	if last {
		g.closed = true
	}
	finish := g.finishableLocked(m)
	g.mu.Unlock()
	m.release()
	if finish {
		m.finish()
	}
	if last {
		g.stop()
		g.r.live.forget(g)
	}
}

// liveTap is how a group learns the match version of each result of its operation: the
// resolver notes it as it hands the item over (noteLive), and the pump takes them in the
// same order, one per result.
type liveTap struct {
	mu       sync.Mutex
	versions []int64
	last     int64
}

type liveTapKey struct{}

func (t *liveTap) note(v int64) {
	t.mu.Lock()
	t.versions = append(t.versions, v)
	t.mu.Unlock()
}

// next returns the version of the next result; a result the resolver did not note (an
// error) carries the last one.
func (t *liveTap) next() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.versions) > 0 {
		t.last = t.versions[0]
		t.versions = t.versions[1:]
	}
	return t.last
}

// noteLive records, for a group's operation, the version of the item about to be sent.
func noteLive(ctx context.Context, version int64) {
	if t, ok := ctx.Value(liveTapKey{}).(*liveTap); ok {
		t.note(version)
	}
}

// forGroup reports whether ctx runs a group's operation: its results are taken as they
// come, so its resolver never waits for a slow consumer.
func forGroup(ctx context.Context) bool {
	_, ok := ctx.Value(liveTapKey{}).(*liveTap)
	return ok
}
