package engine

import (
	"context"
	"encoding/hex"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/player"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Player is a registered player as the engine knows it.
type Player struct {
	ID   string
	Name string
}

// RegisterPlayer creates a player and returns its token. The token is shown once: only
// its hash is stored, so a lost token cannot be recovered.
func (e *Engine) RegisterPlayer(ctx context.Context, name string) (Player, string, error) {
	if err := player.CheckName(name); err != nil {
		return Player{}, "", err
	}
	id, err := e.newID()
	if err != nil {
		return Player{}, "", err
	}
	secret, err := e.randomBytes(32)
	if err != nil {
		return Player{}, "", err
	}
	reg, token, err := player.Register(id, name, secret)
	if err != nil {
		return Player{}, "", err
	}
	payload, err := game.Encode(reg)
	if err != nil {
		return Player{}, "", err
	}
	stream := PlayerStream(id)
	meta := Meta{CommandID: "register-" + id, Actor: "player:" + id}
	_, err = e.cfg.Store.Append(ctx, stream, eventstore.NoStream, eventstore.Proposed{
		ID: eventID(stream, meta, "", 0), Type: reg.EventType(), SchemaVersion: 1, Payload: payload,
		CommandID: meta.CommandID, Actor: meta.Actor, Visibility: eventstore.ServerOnly, Time: e.now(),
	})
	if err != nil {
		return Player{}, "", storeError("registering a player", err)
	}
	e.players.Store(id, reg)
	return Player{ID: id, Name: name}, token, nil
}

// registration reads a player's registration, from the cache or the store.
func (e *Engine) registration(ctx context.Context, id string) (player.Registered, error) {
	if r, ok := e.players.Load(id); ok {
		return r.(player.Registered), nil
	}
	evs, err := e.cfg.Store.ReadStream(ctx, PlayerStream(id), 0, 1)
	if err != nil {
		return player.Registered{}, storeError("reading a player", err)
	}
	if len(evs) == 0 {
		return player.Registered{}, game.Reject(game.NotFound, "no player %q", id)
	}
	d, err := player.Events.Decode(evs[0].Type, evs[0].SchemaVersion, evs[0].Payload)
	if err != nil {
		return player.Registered{}, err
	}
	reg := d.(player.Registered)
	e.players.Store(id, reg)
	return reg, nil
}

// Player returns a registered player.
func (e *Engine) Player(ctx context.Context, id string) (Player, error) {
	r, err := e.registration(ctx, id)
	if err != nil {
		return Player{}, err
	}
	return Player{ID: r.PlayerID, Name: r.Name}, nil
}

// Authenticate returns the player a bearer token belongs to, or UNAUTHENTICATED.
func (e *Engine) Authenticate(ctx context.Context, token string) (Player, error) {
	bad := game.Reject(game.Unauthenticated, "the token is not valid: send the token registerPlayer returned, as 'Authorization: Bearer <token>'")
	id, secret, ok := player.SplitToken(token)
	if !ok || len(id) > 64 {
		return Player{}, bad
	}
	if _, err := hex.DecodeString(secret); err != nil {
		return Player{}, bad
	}
	r, err := e.registration(ctx, id)
	if game.CodeOf(err) == game.NotFound {
		return Player{}, bad
	}
	if err != nil {
		return Player{}, err
	}
	if !r.Matches(secret) {
		return Player{}, bad
	}
	return Player{ID: r.PlayerID, Name: r.Name}, nil
}
