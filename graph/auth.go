package graph

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
)

type callerKey struct{}

// caller is who sent a request: a token (checked on first use) or nobody.
type caller struct {
	token  string
	once   sync.Once
	player *engine.Player
	err    error
}

// withToken records the bearer token of an HTTP request; it is checked when a resolver
// needs the player, so a spectator's bad header does not fail a public query.
func withToken(r *http.Request) *http.Request {
	h := r.Header.Get("Authorization")
	if h == "" {
		return r
	}
	c := &caller{}
	if tok, ok := strings.CutPrefix(h, "Bearer "); ok {
		c.token = strings.TrimSpace(tok)
	} else {
		c.err = game.Reject(game.Unauthenticated, "the Authorization header must be 'Bearer <token>'")
		c.once.Do(func() {}) // decided: the header itself is wrong
	}
	return r.WithContext(context.WithValue(r.Context(), callerKey{}, c))
}

// wsInit reads the token of a websocket from the connection_init payload: the
// Authorization field (with or without "Bearer "), or authToken, or token.
func (r *Resolver) wsInit(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	tok := p.Authorization()
	if tok == "" {
		tok = p.GetString("authToken")
	}
	if tok == "" {
		tok = p.GetString("token")
	}
	if tok == "" {
		return ctx, nil, nil // a spectator
	}
	tok = strings.TrimSpace(strings.TrimPrefix(tok, "Bearer "))
	pl, err := r.Engine.Authenticate(ctx, tok)
	if err != nil {
		return ctx, nil, err
	}
	return context.WithValue(ctx, callerKey{}, &caller{token: tok, player: &pl}), nil, nil
}

// viewer returns the caller's player, nil for a spectator, or UNAUTHENTICATED when a
// token was sent and is wrong.
func (r *Resolver) viewer(ctx context.Context) (*engine.Player, error) {
	c, _ := ctx.Value(callerKey{}).(*caller)
	if c == nil {
		return nil, nil
	}
	c.once.Do(func() {
		if c.player != nil { // authenticated at connection_init
			return
		}
		pl, err := r.Engine.Authenticate(ctx, c.token)
		if err != nil {
			c.err = err
		} else {
			c.player = &pl
		}
	})
	return c.player, c.err
}

// player returns the authenticated player, or UNAUTHENTICATED.
func (r *Resolver) player(ctx context.Context) (engine.Player, error) {
	p, err := r.viewer(ctx)
	if err != nil {
		return engine.Player{}, err
	}
	if p == nil {
		return engine.Player{}, game.Reject(game.Unauthenticated, "this needs a player: register with registerPlayer and send 'Authorization: Bearer <token>'")
	}
	return *p, nil
}

func viewerID(p *engine.Player) string {
	if p == nil {
		return ""
	}
	return p.ID
}
