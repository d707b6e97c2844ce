package graph

// The live subscriptions (matchEvents, matchUpdates) served once per group of alike
// subscribers instead of once per subscriber. The websocket transport (wsconn.go) runs
// each socket's protocol: connection_init, ping, subscribe (through the executor:
// parsing, validation, limits, the rate per operation, the cap per connection), complete
// and errors. When one of our two live resolvers is called for a subscription over a
// websocket, it does not stream: it joins the subscriber to a group (liveGroup) of the
// subscriptions of the same match, viewer class, operation text and variables. The group
// runs the operation once, through the same resolvers as any subscription (so redaction,
// the spectator delay and the order of events are what they always were), encodes each
// result once, and writes those bytes to every member's socket (liveMember), which ends
// the subscription itself with complete, or its error.

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
)

// liveKind is which live subscription a group serves.
type liveKind uint8

const (
	liveEvents  liveKind = iota // matchEvents: every event, in order, none skipped
	liveUpdates                 // matchUpdates: the latest view; a member behind skips to it
)

// liveKey is what subscribers of one group share: the same operation, run for the same
// viewer class (see updateClass) on the same match, returns the same bytes.
type liveKey struct {
	kind      liveKind
	matchID   string
	class     string // "" for every viewer seated in neither the match nor its rematch
	query     string // the operation's text, as sent
	operation string
	variables string // as JSON, its keys sorted
}

// liveGroups is the groups of this node.
type liveGroups struct {
	exec    *executor.Executor // runs a group's operation: no limits (each member's passed them), no rate
	writers *liveWriters

	mu     sync.Mutex
	groups map[liveKey]*liveGroup
}

func newLiveGroups(exec *executor.Executor, writeTimeout time.Duration) *liveGroups {
	return &liveGroups{exec: exec, writers: newLiveWriters(writeTimeout), groups: map[liveKey]*liveGroup{}}
}

// joinLive serves a live subscription through a group, when it can: it came over one of
// our websockets, for a match the read side has. ok false leaves the subscription to the
// caller's own stream (the group's own operation, or a player not seated in a match it
// may still join: its view changes when it sits down, its group's would not). release
// gives the subscription's place on its websocket back. The channel returned is closed:
// the websocket's transport does not read it (wsSub.joined).
func joinLive[T any](ctx context.Context, r *Resolver, kind liveKind, matchID string, after int64, release func()) (<-chan T, bool) {
	c, s := callerOf(ctx), subOf(ctx)
	if r.live == nil || c == nil || s == nil || !graphql.HasOperationContext(ctx) {
		return nil, false
	}
	oc := graphql.GetOperationContext(ctx)
	v, err := r.Lobby.Get(ctx, matchID)
	if err != nil || v == nil { // the caller's own stream meets the error, or the missing match
		return nil, false
	}
	class, err := r.updateClass(ctx, v, viewerID(c.player))
	if err != nil {
		return nil, false
	}
	if class == "" && c.player != nil && (v.State.Status == match.None || v.State.Status == match.Open) {
		return nil, false
	}
	vars, err := json.Marshal(oc.Variables)
	if err != nil {
		return nil, false
	}
	key := liveKey{kind: kind, matchID: matchID, class: class, query: oc.RawQuery, operation: oc.OperationName, variables: string(vars)}

	_, unwatch := r.Hub.watch(matchstream.Name(matchID), true) // the member counts among the node's subscriptions
	m := newLiveMember(s, after, func() { unwatch(); release() })
	var rep *engine.Player // who the group's operation runs as: the class's player, or nobody
	if class != "" {
		rep = c.player
	}
	r.live.join(key, m, func() *liveGroup { return newLiveGroup(r, key, rep, oc) })
	ch := make(chan T)
	close(ch)
	return ch, true
}

// join adds m to the group of key, starting one (with start) when there is none, or when
// the one there can no longer take a new member from its start.
func (gs *liveGroups) join(key liveKey, m *liveMember, start func() *liveGroup) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g := gs.groups[key]; g != nil && g.add(m) {
		return
	}
	g := start()
	gs.groups[key] = g
	g.add(m)
	g.start()
}

// forget removes a group that has ended or lost its last member, unless a newer one
// has taken its key.
func (gs *liveGroups) forget(g *liveGroup) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.groups[g.key] == g {
		delete(gs.groups, g.key)
	}
}
