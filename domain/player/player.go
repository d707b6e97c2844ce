// Package player is the identity of a person who plays: a name and a secret token.
// A token is "<player id>.<secret>"; only the SHA-256 of the secret is ever stored.
package player

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Registered is the first and, for now, only event of a player's stream.
type Registered struct {
	PlayerID  string `json:"playerId"`
	Name      string `json:"name"`
	TokenHash string `json:"tokenHash"`
}

// EventType names the event in the store.
func (Registered) EventType() string { return "PlayerRegistered" }

// ReviewerGranted gives the player the reviewer role: it may see every finished match
// whole and rule on the disputes of matches it did not play (package dispute). Only an
// operator grants it, from the command line (`arbiter grant-reviewer`).
type ReviewerGranted struct {
	By string `json:"by"` // who granted it: "operator" from the command line
}

// ReviewerRevoked takes the reviewer role back.
type ReviewerRevoked struct {
	By string `json:"by"`
}

func (ReviewerGranted) EventType() string { return "ReviewerGranted" }
func (ReviewerRevoked) EventType() string { return "ReviewerRevoked" }

// Events decodes a player's stream.
var Events = func() *game.Codec {
	c := game.NewCodec()
	game.Register[Registered](c, 1)
	game.Register[ReviewerGranted](c, 1)
	game.Register[ReviewerRevoked](c, 1)
	return c
}()

// Reviewer reports whether the events of a player's stream, in order, leave it a reviewer.
func Reviewer(evs []game.Event) bool {
	on := false
	for _, e := range evs {
		switch e.(type) {
		case ReviewerGranted:
			on = true
		case ReviewerRevoked:
			on = false
		}
	}
	return on
}

// MaxNameLength is the longest name, in characters.
const MaxNameLength = 32

// HouseBotName is the house bot's name at the table (package bot), which no player may
// take, in any case: a player named so would pass for the bot in its opponents' eyes.
const HouseBotName = "Arbiter bot"

// CheckName rejects a name a person could not read or that would break a display.
func CheckName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case !utf8.ValidString(name):
		return game.Reject(game.BadInput, "the name is not valid UTF-8")
	case strings.TrimSpace(name) != name:
		return game.Reject(game.BadInput, "the name may not start or end with spaces")
	case n == 0:
		return game.Reject(game.BadInput, "the name is empty")
	case n > MaxNameLength:
		return game.Reject(game.BadInput, "the name has %d characters; at most %d are allowed", n, MaxNameLength)
	case strings.EqualFold(name, HouseBotName):
		return game.Reject(game.BadInput, "the name %q is the house bot's: choose another", name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return game.Reject(game.BadInput, "the name contains a control or invisible character (%U)", r)
		}
	}
	return nil
}

// Register decides a registration. secret comes from the caller's random source.
func Register(playerID, name string, secret []byte) (Registered, string, error) {
	if err := CheckName(name); err != nil {
		return Registered{}, "", err
	}
	if len(secret) < 16 {
		return Registered{}, "", game.Reject(game.BadInput, "a token secret needs at least 16 bytes")
	}
	s := hex.EncodeToString(secret)
	return Registered{PlayerID: playerID, Name: name, TokenHash: hashSecret(s)}, playerID + "." + s, nil
}

// SplitToken returns the player ID a token claims to belong to.
func SplitToken(token string) (playerID, secret string, ok bool) {
	playerID, secret, ok = strings.Cut(token, ".")
	return playerID, secret, ok && playerID != "" && secret != ""
}

// Matches checks a token's secret against the stored hash in constant time.
func (r Registered) Matches(secret string) bool {
	return subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(r.TokenHash)) == 1
}

func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
