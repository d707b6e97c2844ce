package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// Sovereign Chess has no published perft table: these counts are the package's own,
// cross-checked against its naive reference generator (domain/sovereign/reference_test.go).
func TestPerftSovereign(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--game", "sovereign"}, "20"},
		{[]string{"perft", "--game", "sovereign", "--depth", "3"}, "9940"},
		{[]string{"perft", "--game", "sovereign", "--fen", sovereign.StartNotation, "--depth", "2", "--divide"}, "400"},
		{[]string{"perft", "--game", "sovereign", "--fen", sovereign.RoyaleStartNotation, "--depth", "3"}, "8000"},
	}
	for _, tc := range tests {
		if got, out := lastLine(t, tc.args...); got != tc.want {
			t.Errorf("arbiter %v: last line %q, want %q\n%s", tc.args, got, tc.want, out)
		}
	}
}

func TestPerftSovereignDivide(t *testing.T) {
	_, out := lastLine(t, "perft", "--game", "sovereign", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 21 || lines[0] != "e2e3: 20" || lines[20] != "400" {
		t.Errorf("divide output:\n%s", out)
	}
}

func TestPerftSovereignRejects(t *testing.T) {
	var ne *sovereign.NotationError
	err := runPerft(context.Background(), []string{"--game", "sovereign", "--fen", "16/16 1 w b - 0"}, &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.As(err, &ne) || ne.Field != "board" {
		t.Errorf("two ranks: got %v, want a board *NotationError", err)
	}
	// A chess FEN is not a Sovereign position, and the chess default stays chess.
	if err := runPerft(context.Background(), []string{"--game", "sovereign", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("a chess FEN was accepted as Sovereign notation")
	}
	if got, _ := lastLine(t, "perft", "--depth", "2"); got != "400" {
		t.Errorf("chess default: %s", got)
	}
}
