package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// The fingerprint of a move, written without reflection, is the JSON one's to the byte:
// event IDs stored by earlier versions must still tell a retry from another command.
func TestMoveFingerprintIsTheJSONOne(t *testing.T) {
	seat := 1
	at := time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC)
	players := []string{"", "p1", "abcdefghijklmnop", "a\"b", `a\b`, "<x>", "a&b", "é", "tab\t", "\u2028", "\x7f", string([]byte{0xff}), "player:" + string(make([]byte, 300))}
	notations := []string{"e2e4", "e7e8q", "Nf3", "O-O", "N@f3", "", "<", "\"", "\u00e9"}
	fast := 0
	for _, p := range players {
		for _, n := range notations {
			for _, a := range []match.Act{
				{PlayerID: p, Do: game.Move{Notation: n}},
				{PlayerID: p, Do: game.Move{Notation: n}, At: at},
				{PlayerID: p, Do: game.Move{Notation: n}, Seat: &seat},
				{PlayerID: p, Do: game.ClaimDraw{}},
			} {
				want, err := fingerprintOf(a)
				if err != nil {
					t.Fatal(err)
				}
				got, err := fingerprint(a)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%#v: fingerprint %s, through JSON %s", a, got, want)
				}
				if _, ok := moveFingerprint(a); ok {
					fast++
				}
			}
		}
	}
	if fast < 20 {
		t.Fatalf("only %d commands took the fast path", fast)
	}
}

// eventID is the hash of its inputs joined by NULs, written as a UUID, as it always was.
func TestEventIDsAreAsStored(t *testing.T) {
	for i, in := range []struct {
		stream string
		meta   Meta
		fp     string
	}{
		{"match-abc", Meta{Actor: "player:x", CommandID: "c1"}, "00ff"},
		{"", Meta{}, ""},
		{"match-" + string(make([]byte, 400)), Meta{Actor: "é", CommandID: "auto-q"}, "fp@12"},
	} {
		h := sha256.Sum256([]byte(in.stream + "\x00" + in.meta.Actor + "\x00" + in.meta.CommandID + "\x00" + in.fp + "\x00" + fmt.Sprint(i*7)))
		x := hex.EncodeToString(h[:16])
		want := x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
		if got := eventID(in.stream, in.meta, in.fp, i*7); got != want {
			t.Fatalf("eventID %q, want %q", got, want)
		}
	}
}
