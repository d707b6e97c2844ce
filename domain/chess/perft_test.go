package chess

import "testing"

// The reference positions and counts of the chessprogramming wiki "Perft Results" page
// (the FENs of Kiwipete and position 6 checked there: the copies had typos).
var perftPositions = []struct {
	name   string
	fen    string
	counts []uint64 // depth 1, 2, ...
}{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", []uint64{48, 2039, 97862, 4085603, 193690690}},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", []uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333, 15833292, 706045033}},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []uint64{6, 264, 9467, 422333, 15833292}},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487, 89941194}},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594, 164075551}},
	// Martin Sedlak's TalkChess positions, each aimed at one rule (only the deepest
	// published count is known, the others are left at 0 and skipped).
	{"illegal-ep-1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", []uint64{5: 1134888}},
	{"illegal-ep-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", []uint64{5: 1015133}},
	{"ep-capture-checks", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", []uint64{5: 1440467}},
	{"short-castling-checks", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", []uint64{5: 661072}},
	{"long-castling-checks", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", []uint64{5: 803711}},
	{"castle-rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", []uint64{3: 1274206}},
	{"castling-prevented", "1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1", []uint64{4: 1063513}},
}

// perftBudget is the largest count the ordinary test run goes to: a few seconds in all,
// under -race too.
const perftBudget = 5_000_000

func TestPerft(t *testing.T) { checkPerft(t, false) }

// checkPerft compares Perft with the published counts: the cheap ones (up to
// perftBudget nodes) or, with deep, only the expensive ones (TestDeepPerft).
func checkPerft(t *testing.T, deep bool) {
	for _, tc := range perftPositions {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustFEN(t, tc.fen)
			for d, want := range tc.counts {
				if want == 0 || (want > perftBudget) != deep {
					continue
				}
				if got := Perft(pos, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}
