package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
)

// lastLine runs arbiter with args and returns the last line it printed.
func lastLine(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("arbiter %v: exit %d, stderr: %s", args, code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	return lines[len(lines)-1], stdout.String()
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--depth", "3"}, "8902"},
		{[]string{"perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "--depth", "3"}, "97862"},
		{[]string{"perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", "--depth", "4", "--divide"}, "43238"},
		{[]string{"perft", "--game", "chess", "--fen", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", "--depth", "3"}, "9467"},
	}
	for _, tc := range tests {
		if got, out := lastLine(t, tc.args...); got != tc.want {
			t.Errorf("arbiter %v: last line %q, want %q\n%s", tc.args, got, tc.want, out)
		}
	}
}

func TestPerftDivideLines(t *testing.T) {
	_, out := lastLine(t, "perft", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 21 || lines[0] != "a2a3: 20" || lines[20] != "400" {
		t.Errorf("divide output:\n%s", out)
	}
}

func TestPerftCommandRejects(t *testing.T) {
	var fenErr *chess.FENError
	err := runPerft(context.Background(), []string{"--fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.As(err, &fenErr) || fenErr.Field != "board" {
		t.Errorf("kingless FEN: got %v, want a board *FENError", err)
	}
	for _, args := range [][]string{{"--depth", "0"}, {"--game", "checkers"}, {"--bogus"}} {
		if err := runPerft(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("arbiter perft %v: no error", args)
		}
	}
}
