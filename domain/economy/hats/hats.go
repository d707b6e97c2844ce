// Package hats is the hats a king may wear: a catalog (data: catalog.json, names in
// French and English, prices in coins), bought with coins and worn one at a time.
//
// A hat is bought by a spending on the player's wallet (wallet.CoinsSpent with reason
// ReasonHat and the hat's ID as its ref, once per hat: the spending's key is the hat's),
// so that the coin and the hat it buys are one event on one stream: the wallet's events
// say which hats a player owns. Which hat is worn is the player's profile stream
// (profile-<playerID>), decided here from the hats owned: ownership only grows, so a
// wallet read before the profile's append cannot let a hat not owned be worn.
package hats

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Hat is a hat of the catalog.
type Hat struct {
	ID    string `json:"id"`
	Fr    string `json:"fr"`
	En    string `json:"en"`
	Price int64  `json:"price"`
}

//go:embed catalog.json
var data []byte

// Catalog is every hat, cheapest first.
var Catalog = func() []Hat {
	var out []Hat
	if err := json.Unmarshal(data, &out); err != nil {
		panic(fmt.Sprintf("hats: catalog.json: %v", err))
	}
	return out
}()

// ByID returns a hat of the catalog.
func ByID(id string) (Hat, bool) {
	i := slices.IndexFunc(Catalog, func(h Hat) bool { return h.ID == id })
	if i < 0 {
		return Hat{}, false
	}
	return Catalog[i], true
}

// ReasonHat is the reason of a hat's spending on the wallet.
const ReasonHat = "hat"

// Key is the idempotency key of a hat's purchase: a hat is bought once.
func Key(id string) string { return "hat:" + id }

// Find checks that id names a hat of the catalog.
func Find(id string) (Hat, error) {
	h, ok := ByID(id)
	if !ok {
		return Hat{}, game.Reject(game.NotFound, "no hat %q in the catalog: see the query hats", id)
	}
	return h, nil
}

// HatWorn is the profile stream's event: the king wears Hat ("" for none).
type HatWorn struct {
	Hat string `json:"hat"`
}

func (HatWorn) EventType() string { return "HatWorn" }

// Events decodes a profile stream.
var Events = func() *game.Codec {
	c := game.NewCodec()
	game.Register[HatWorn](c, 1)
	return c
}()

// Stream is the name of a player's profile stream.
func Stream(playerID string) string { return "profile-" + playerID }

// Profile is a profile stream folded.
type Profile struct {
	Worn string
}

// Evolve folds one event.
func Evolve(p Profile, e game.Event) Profile {
	if e, ok := e.(HatWorn); ok {
		p.Worn = e.Hat
	}
	return p
}

// Wear decides putting hat on (or taking the hat off, for ""), given the hats owned:
// FORBIDDEN for a hat not owned, NOT_FOUND for one not in the catalog, nothing when it is
// worn already.
func Wear(p Profile, owned []string, hat string) ([]game.Event, error) {
	if hat != "" {
		if _, err := Find(hat); err != nil {
			return nil, err
		}
		if !slices.Contains(owned, hat) {
			return nil, game.Reject(game.Forbidden, "you do not own the hat %q: buy it first (buyHat)", hat)
		}
	}
	if p.Worn == hat {
		return nil, nil
	}
	return []game.Event{HatWorn{Hat: hat}}, nil
}

// Audit checks a stored profile event against what Wear decides there, with the hats the
// player owned by the end of its wallet.
func Audit(p Profile, owned []string, e game.Event) error {
	w, ok := e.(HatWorn)
	if !ok {
		return fmt.Errorf("%s is no profile event", e.EventType())
	}
	evs, err := Wear(p, owned, w.Hat)
	switch {
	case err != nil:
		return fmt.Errorf("wearing %q: %w", w.Hat, err)
	case len(evs) == 0:
		return fmt.Errorf("wearing %q, worn already", w.Hat)
	}
	return nil
}
