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

// eventID with no basis is the hash of its inputs joined by NULs, written as a UUID, as
// it always was.
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
		if got := eventID(in.stream, in.meta, in.fp, i*7, 0); got != want {
			t.Fatalf("eventID %q, want %q", got, want)
		}
	}
}

// eventID with a basis begins with it, big-endian, and ends as the same command's ID with
// none: what a retry is told apart by (commandPart) is the same in both forms, and a
// basis alone never makes two commands' IDs alike.
func TestEventIDsWithABasis(t *testing.T) {
	meta := Meta{Actor: "player:x", CommandID: "c1"}
	const basis = int64(1764590400123456) // 2025-12-01T12:00:00.123456Z in microseconds
	old := eventID("match-abc", meta, "00ff", 1, 0)
	got := eventID("match-abc", meta, "00ff", 1, basis)
	if want := "000644e2-b7f9-3240" + old[18:]; got != want {
		t.Fatalf("eventID with basis %d = %q, want %q", basis, got, want)
	}
	if commandPart(got) != commandPart(old) || commandPart(got) != got[18:] || commandPart("ruling:d1:p2") != "ruling:d1:p2" {
		t.Fatalf("commandPart(%q) = %q, of %q %q", got, commandPart(got), old, commandPart(old))
	}
	if next := eventID("match-abc", meta, "00ff", 1, basis+1); next <= got || next[18:] != got[18:] {
		t.Fatalf("a later basis gives %q after %q", next, got)
	}
	for _, other := range []string{
		eventID("match-abd", meta, "00ff", 1, basis),
		eventID("match-abc", Meta{Actor: "player:y", CommandID: "c1"}, "00ff", 1, basis),
		eventID("match-abc", Meta{Actor: "player:x", CommandID: "c2"}, "00ff", 1, basis),
		eventID("match-abc", meta, "00fe", 1, basis),
		eventID("match-abc", meta, "00ff", 2, basis),
	} {
		if other[:18] != got[:18] || commandPart(other) == commandPart(got) {
			t.Fatalf("%q and %q", other, got)
		}
	}
}

// The observer's name for a move, given without fmt, is the one every other command's is
// made by: its type in lower case.
func TestCommandKindOfAMoveIsItsTypeName(t *testing.T) {
	for _, cmd := range []match.Command{match.Act{}, match.Act{PlayerID: "p", Do: game.Move{Notation: "e2e4"}}} {
		if got, want := commandKind(cmd), typeKind(cmd); got != want {
			t.Errorf("commandKind(%#v) = %q, its type's name %q", cmd, got, want)
		}
	}
	if got := commandKind(match.OfferDraw{}); got != "offerdraw" {
		t.Errorf("commandKind(OfferDraw) = %q", got)
	}
}

// A fingerprint based on a public version is written as it always was, "%s@%d", and one
// with no basis as the fingerprint alone.
func TestBasedOnWritesTheBasis(t *testing.T) {
	fp, err := fingerprint(match.Act{PlayerID: "p1", Do: game.Move{Notation: "e2e4"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := basedOn(fp, 12).String(), fmt.Sprintf("%s@%d", string(fp.hex[:]), 12); got != want {
		t.Fatalf("based on 12: %q, want %q", got, want)
	}
	if got := basedOn(fp, -1); got != fp || got.String() != string(fp.hex[:]) {
		t.Fatalf("based on nothing: %q, want %q", got, fp)
	}
	if got := basedOn(basedOn(fp, 3), -1); got != fp {
		t.Fatalf("a basis taken away: %q, want %q", got, fp)
	}
}
