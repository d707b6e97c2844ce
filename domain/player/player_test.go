package player

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

func TestNames(t *testing.T) {
	for _, ok := range []string{"Ada", "Магнус", "李", "Jean-Luc Picard", strings.Repeat("x", MaxNameLength)} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", " Ada", "Ada ", "A\u0000da", "Ada\u200b", "\xff", strings.Repeat("x", MaxNameLength+1), HouseBotName, "arbiter BOT"} {
		if err := CheckName(bad); game.CodeOf(err) != game.BadInput {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}

func TestTokens(t *testing.T) {
	secret := bytes.Repeat([]byte{0xab}, 32)
	reg, token, err := Register("p1", "Ada", secret)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(reg.TokenHash, strings.TrimPrefix(token, "p1.")) {
		t.Fatalf("the stored hash contains the secret")
	}
	id, s, ok := SplitToken(token)
	if !ok || id != "p1" || !reg.Matches(s) {
		t.Fatalf("token %q does not authenticate", token)
	}
	if reg.Matches(s[:len(s)-1]+"0") || reg.Matches("") {
		t.Fatalf("a wrong secret matches")
	}
	for _, bad := range []string{"", "p1", "p1.", ".abc"} {
		if _, _, ok := SplitToken(bad); ok {
			t.Errorf("%q splits", bad)
		}
	}
	if _, _, err := Register("p2", "Bob", []byte("short")); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a short secret: %v", err)
	}
}
