package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// fingerprint is a hash of what a command asks, without what the engine adds to it (the
// receive time; a creation's seed and abandonment rule). It goes into the IDs of the
// command's events, so a command ID sent again is known to be a retry of the same command
// or a different one, on any node and after a restart.
func fingerprint(cmd match.Command) (string, error) {
	if a, ok := cmd.(match.Act); ok {
		if fp, ok := moveFingerprint(a); ok {
			return fp, nil
		}
	}
	return fingerprintOf(cmd)
}

// fingerprintOf is fingerprint for any command, through its JSON encoding.
func fingerprintOf(cmd match.Command) (string, error) {
	cmd = match.Stamped(cmd, time.Time{})
	if c, ok := cmd.(match.Create); ok {
		c.Seed, c.Abandon = nil, nil
		cmd = c
	}
	body, err := json.Marshal(cmd)
	if err != nil {
		return "", fmt.Errorf("engine: fingerprinting %T: %w", cmd, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%T\x00", cmd)
	if a, ok := cmd.(match.Act); ok {
		fmt.Fprintf(h, "%T\x00", a.Do) // a move and a choice may encode alike
	}
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// moveFingerprint is fingerprintOf(a) for the command of nearly every request, a move
// without a seat whose player ID and notation need no escaping in JSON, written without
// reflection: the same bytes hashed, so the same event IDs. ok is false for any other
// command, which fingerprintOf takes.
func moveFingerprint(a match.Act) (fp string, ok bool) {
	mv, isMove := a.Do.(game.Move)
	if !isMove || a.Seat != nil || !game.PlainJSON(a.PlayerID) || !game.PlainJSON(mv.Notation) {
		return "", false
	}
	var buf [256]byte
	b := append(buf[:0], "match.Act\x00game.Move\x00{\"PlayerID\":\""...)
	b = append(b, a.PlayerID...)
	b = append(b, `","Seat":null,"Do":{"Notation":"`...)
	b = append(b, mv.Notation...)
	b = append(b, `"},"At":"0001-01-01T00:00:00Z"}`...)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16]), true
}

// timeoutID is the command ID of the timeout of a match's deadline at the match's
// version. Every node at that version derives the same one, so a deadline times out once
// across a cluster; the version tells apart two timeouts of one deadline (a game with two
// things due at one instant times out one per command, and the second must not be
// answered from the first one's record). It is keyed with the match's secret seed, so no
// player can work it out from the public events.
func timeoutID(snap Snapshot, deadline time.Time) string {
	mac := hmac.New(sha256.New, snap.State.Seed)
	fmt.Fprintf(mac, "arbiter/timeout\x00%s\x00%d\x00%d", snap.ID, deadline.UnixNano(), snap.Version)
	return fmt.Sprintf("timeout-%x", mac.Sum(nil)[:16])
}
