package graph

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
)

type callerKey struct{}

// caller is who sent a request or opened a websocket: the player its token names (checked
// before anything else, so that the rate limiter counts the player and not the token),
// the token's error, or nobody; and the address it came from.
type caller struct {
	player *engine.Player
	err    error  // the token sent was wrong; nil for a spectator
	addr   string // the address it counts against: clientAddress
	method string // the HTTP method; "" on a websocket
	ws     bool   // an operation sent over a websocket
	subs   atomic.Int32
}

// rateKey names whose bucket a request takes from: the player's, else the address's (a
// wrong token is no one, so inventing tokens gives no fresh bucket).
func (c *caller) rateKey() string {
	if c.player != nil {
		return "player:" + c.player.ID
	}
	return "addr:" + c.addr
}

func callerOf(ctx context.Context) *caller {
	c, _ := ctx.Value(callerKey{}).(*caller)
	return c
}

// identify checks the bearer token of an HTTP request and records who sent it. A wrong
// token fails only the resolvers that need the viewer, so a spectator's bad header does
// not fail a public query.
func (r *Resolver) identify(req *http.Request) *http.Request {
	c := &caller{addr: clientAddress(req), method: req.Method}
	if h := req.Header.Get("Authorization"); h != "" {
		if tok, ok := strings.CutPrefix(h, "Bearer "); ok {
			pl, err := r.Engine.Authenticate(req.Context(), strings.TrimSpace(tok))
			if err != nil {
				c.err = err
			} else {
				c.player = &pl
			}
		} else {
			c.err = game.Reject(game.Unauthenticated, "the Authorization header must be 'Bearer <token>'")
		}
	}
	return req.WithContext(context.WithValue(req.Context(), callerKey{}, c))
}

// wsInit reads the token of a websocket from the connection_init payload: the
// Authorization field (with or without "Bearer "), or authToken, or token. The connection
// gets a caller of its own: its operations count against the player's rate (or the
// address's), and its subscriptions against the cap per connection.
func (r *Resolver) wsInit(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	c := &caller{ws: true}
	if up := callerOf(ctx); up != nil {
		c.addr = up.addr
	}
	tok := p.Authorization()
	if tok == "" {
		tok = p.GetString("authToken")
	}
	if tok == "" {
		tok = p.GetString("token")
	}
	if tok != "" {
		tok = strings.TrimSpace(strings.TrimPrefix(tok, "Bearer "))
		pl, err := r.Engine.Authenticate(ctx, tok)
		if err != nil {
			return ctx, nil, err
		}
		c.player = &pl
	}
	return context.WithValue(ctx, callerKey{}, c), nil, nil
}

// viewer returns the caller's player, nil for a spectator, or UNAUTHENTICATED when a
// token was sent and is wrong.
func (r *Resolver) viewer(ctx context.Context) (*engine.Player, error) {
	c := callerOf(ctx)
	if c == nil {
		return nil, nil
	}
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
