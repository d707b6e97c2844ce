package chess

import (
	"errors"
	"slices"
	"testing"
)

// roster is the Seven Tag Roster of a game with unknown event, site, date and round.
func roster(white, black, result string) string {
	return "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n" +
		"[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result + "\"]\n"
}

func TestWritePGN(t *testing.T) {
	g := NewGame(StartingPosition())
	play(t, g, "e4 e5 Nf3 Nc6 Bb5 a6")
	got, err := WritePGN(Tags{"White": "Morphy", "Black": `Duke "Karl"`, "ECO": "C60"}, g.Start(), g.Moves())
	if err != nil {
		t.Fatal(err)
	}
	want := roster("Morphy", `Duke \"Karl\"`, "*") + `[ECO "C60"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWritePGNFromPositionAndResult(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
	got, err := WritePGN(nil, start, []Move{newMove(D8, H4, kindNormal)})
	if err != nil {
		t.Fatal(err)
	}
	want := roster("?", "?", "0-1") + `[SetUp "1"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"]

2... Qh4# 0-1
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := WritePGN(nil, start, []Move{newMove(E2, E4, kindNormal)}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("illegal move written: %v", err)
	}
}

func TestParsePGNMainLine(t *testing.T) {
	pgn := `[Event "Casual game"]
[White "Anderssen, A."]
[Black "Kieseritzky, L."]
[Result "1-0"]

% an escaped line
1.e4 e5 2. f4 {King's Gambit} exf4 $1 3. Bc4 Qh4+ (3... d5 4. Bxd5 (4. exd5) Nf6) 4. Kf1 b5!?
; a rest-of-line comment
5. Bxb5 1-0

[Event "the next game"]
1. d4 *
`
	tags, start, moves, err := ParsePGN(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if tags["White"] != "Anderssen, A." || tags["Result"] != "1-0" || start.FEN() != StartFEN {
		t.Errorf("tags %v", tags)
	}
	var got []string
	pos := start
	for _, m := range moves {
		got = append(got, pos.SAN(m))
		pos.Play(m)
	}
	want := []string{"e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5", "Bxb5"}
	if !slices.Equal(got, want) {
		t.Errorf("main line %v, want %v", got, want)
	}
}

func TestPGNRoundTrip(t *testing.T) {
	start := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	g := NewGame(start)
	play(t, g, "O-O-O O-O Nxf7 Rxf7 d6 Bf8 dxc7 b3 c8=N bxa2 Qf4 a1=Q+")
	text, err := WritePGN(Tags{"Event": "round trip"}, start, g.Moves())
	if err != nil {
		t.Fatal(err)
	}
	tags, back, moves, err := ParsePGN(text)
	if err != nil {
		t.Fatal(err)
	}
	if tags["Event"] != "round trip" || back.FEN() != start.FEN() || !slices.Equal(moves, g.Moves()) {
		t.Errorf("round trip lost something:\n%s", text)
	}
}

func TestParsePGNErrors(t *testing.T) {
	_, _, _, err := ParsePGN("1. e4 e5 2. Ke3 *")
	var pe *PGNError
	if !errors.As(err, &pe) || pe.Ply != 3 || !errors.Is(err, ErrIllegalMove) || !errors.Is(err, ErrInvalidPGN) {
		t.Errorf("illegal move: %v", err)
	}
	if _, _, _, err := ParsePGN(`[FEN "not a fen"]` + "\n\n*"); !errors.Is(err, ErrInvalidFEN) {
		t.Errorf("bad FEN tag: %v", err)
	}
	if _, _, _, err := ParsePGN(`[Event "unterminated`); !errors.Is(err, ErrInvalidPGN) {
		t.Errorf("unterminated tag: %v", err)
	}
}
