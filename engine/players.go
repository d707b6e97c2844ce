package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/player"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Player is a registered player as the engine knows it.
type Player struct {
	ID   string
	Name string
}

// MinRegisterKey is the shortest command ID a registration accepts: its token is derived
// from it, so it must be as hard to guess as a token (a random UUID).
const MinRegisterKey = 32

// RegisterPlayer creates a player and returns its token. The token is shown once: only
// its hash is stored, so a lost token cannot be recovered.
//
// With a command ID, the registration is idempotent: the player's ID and token secret are
// derived from the command ID, so sending it again (after an answer that was lost or
// UNKNOWN_OUTCOME) returns the same player and the same token, and never creates a second
// player. The command ID is then a secret worth the token: it must be at least
// MinRegisterKey characters long and random, and it is never stored (the stream records
// only the player's ID, a hash of it). The same command ID with another name is CONFLICT.
func (e *Engine) RegisterPlayer(ctx context.Context, name, commandID string) (Player, string, error) {
	if err := player.CheckName(name); err != nil {
		return Player{}, "", err
	}
	if err := CheckCommandID(commandID); err != nil {
		return Player{}, "", err
	}
	var id string
	var secret []byte
	var err error
	switch {
	case commandID == "":
		if id, err = e.newID(); err != nil {
			return Player{}, "", notApplied(err)
		}
		if secret, err = e.randomBytes(32); err != nil {
			return Player{}, "", notApplied(err)
		}
	case len(commandID) < MinRegisterKey:
		return Player{}, "", game.Reject(game.BadInput, "a registration's command ID is %d characters long; it must have at least %d, random (a UUID): the player's token is derived from it", len(commandID), MinRegisterKey)
	default:
		id = match.DerivedID("player", "", commandID)
		h := sha256.Sum256([]byte("arbiter/player-token\x00" + commandID))
		secret = h[:]
	}
	reg, token, err := player.Register(id, name, secret)
	if err != nil {
		return Player{}, "", err
	}
	payload, err := game.Encode(reg)
	if err != nil {
		return Player{}, "", notApplied(err)
	}
	stream := PlayerStream(id)
	meta := Meta{CommandID: "register-" + id, Actor: "player:" + id}
	first := eventID(stream, meta, reg.TokenHash+"\x00"+name, 0, 0) // no basis: its first form
	_, err = e.cfg.Store.Append(ctx, stream, eventstore.NoStream, eventstore.Proposed{
		ID: first, Type: reg.EventType(), SchemaVersion: 1, Payload: payload,
		CommandID: meta.CommandID, Actor: meta.Actor, Visibility: visibility.Server, Time: e.now(),
	})
	var conflict *eventstore.VersionConflict
	if errors.As(err, &conflict) && commandID != "" {
		// Registered before: the same registration sent again, or another under its key.
		evs, rerr := e.cfg.Store.ReadStream(ctx, stream, 0, 1)
		switch {
		case rerr != nil:
			return Player{}, "", notApplied(storeError("reading a player", rerr))
		case len(evs) == 1 && evs[0].ID == first:
			err = nil
		default:
			return Player{}, "", game.Reject(game.Conflict, "this command ID was already used for a different registration: send this one under a new command ID")
		}
	}
	if err != nil {
		return Player{}, "", appendError("registering a player", err)
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
		return player.Registered{}, notApplied(storeError("reading a player", err))
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
