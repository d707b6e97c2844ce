package match

import (
	"crypto/sha256"
	"encoding/base32"
	"strings"
)

// DerivedID is a stable ID for a thing named by its kind, who asked for it and under which
// key (a client's command ID): the same three always give the same ID, on any node.
func DerivedID(kind, who, key string) string {
	h := sha256.Sum256([]byte(kind + "\x00" + who + "\x00" + key))
	return strings.ToLower(base32.StdEncoding.EncodeToString(h[:10]))
}

// RematchID is the ID of a match's rematch. It is derived from the match's ID, so every
// player who asks for the rematch, on any node, reaches the same match, and an audit can
// tell that a match which says it is a rematch is the one it claims.
func RematchID(matchID string) string { return DerivedID("rematch", matchID, "") }
