package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// fingerprint is a hash of what a command asks, without what the engine adds to it (the
// receive time; a creation's seed and abandonment rule). It goes into the IDs of the
// command's events, so a command ID sent again is known to be a retry of the same command
// or a different one, on any node and after a restart.
func fingerprint(cmd match.Command) (commandPrint, error) {
	if a, ok := cmd.(match.Act); ok {
		if fp, ok := moveFingerprint(a); ok {
			return fp, nil
		}
	}
	return fingerprintOf(cmd)
}

// commandPrint is a fingerprint as event IDs take it: the hex form of the first 16 bytes
// of its hash, held in place (a string of it would be allocated for every command), and,
// for a covert decision, the public version it was based on (basedOn).
type commandPrint struct {
	hex   [32]byte
	basis int64 // -1: none
}

// printOf is the commandPrint of a hash, with no basis.
func printOf(sum []byte) commandPrint {
	p := commandPrint{basis: -1}
	hex.Encode(p.hex[:], sum[:16])
	return p
}

// appendTo appends the fingerprint's text, the hex form and, with a basis, "@" and the
// basis: the form event IDs have always hashed.
func (p commandPrint) appendTo(b []byte) []byte {
	b = append(b, p.hex[:]...)
	if p.basis >= 0 {
		b = strconv.AppendInt(append(b, '@'), p.basis, 10)
	}
	return b
}

// String is the fingerprint's text (appendTo), for messages and tests.
func (p commandPrint) String() string { return string(p.appendTo(nil)) }

// fingerprintOf is fingerprint for any command, through its JSON encoding.
func fingerprintOf(cmd match.Command) (commandPrint, error) {
	cmd = match.Stamped(cmd, time.Time{})
	if c, ok := cmd.(match.Create); ok {
		c.Seed, c.Abandon = nil, nil
		cmd = c
	}
	body, err := json.Marshal(cmd)
	if err != nil {
		return commandPrint{}, fmt.Errorf("engine: fingerprinting %T: %w", cmd, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%T\x00", cmd)
	if a, ok := cmd.(match.Act); ok {
		fmt.Fprintf(h, "%T\x00", a.Do) // a move and a choice may encode alike
	}
	h.Write(body)
	return printOf(h.Sum(nil)), nil
}

// moveFingerprint is fingerprintOf(a) for the command of nearly every request, a move
// without a seat whose player ID and notation need no escaping in JSON, written without
// reflection: the same bytes hashed, so the same event IDs. ok is false for any other
// command, which fingerprintOf takes.
func moveFingerprint(a match.Act) (fp commandPrint, ok bool) {
	mv, isMove := a.Do.(game.Move)
	if !isMove || a.Seat != nil || !game.PlainJSON(a.PlayerID) || !game.PlainJSON(mv.Notation) {
		return commandPrint{}, false
	}
	var buf [256]byte
	b := append(buf[:0], "match.Act\x00game.Move\x00{\"PlayerID\":\""...)
	b = append(b, a.PlayerID...)
	b = append(b, `","Seat":null,"Do":{"Notation":"`...)
	b = append(b, mv.Notation...)
	b = append(b, `"},"At":"0001-01-01T00:00:00Z"}`...)
	sum := sha256.Sum256(b)
	return printOf(sum[:]), true
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
