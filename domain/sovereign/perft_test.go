package sovereign

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// middlegame is the position after 50 plies of a seeded random game (seed 0 of
// TestReferenceRandomPlayouts' move picker): White has defected to navy, three colours
// are controlled through squares of colour, 44 legal moves.
const middlegame = "aqabvrvnbk1br2bbbnbrynyrsbsq/aranvpvp3bpbq3ypypsnsr/nqnp4bn1bp5opob/5bp1bpbp1bp3opoq/crcp2np4bp4rprr/cncp4bp7rprn/gbgp12pppb/gqgp12pppq/yqyp12vpvq/ybyp9np2vpvb/onop11np1nn/orop2wpwq8nr1/rqrp8wpwp2cpcq/rbrp2wr1wpwpwp5cpcb/srsnpppp2wp2wp2gpgpanar/sqsbprpn1wnwb1nkwbwnwrgngrabaq 1 n b CLN 50"

// Sovereign Chess has no published perft table. These counts are this package's, each
// equal to the naive reference generator's (reference_test.go) at the depths that run in
// every go test, and at depth 4 from the start and 3 from the middlegame in TestDeep*.
var perftCounts = []struct {
	name, notation string
	counts         []uint64
}{
	{"start", StartNotation, []uint64{20, 400, 9940, 247005}},
	{"middlegame", middlegame, []uint64{44, 2396, 114840}},
	{"royale", RoyaleStartNotation, []uint64{20, 400, 8000, 160000}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCounts {
		p, err := Parse(tc.notation)
		if err != nil {
			t.Fatal(err)
		}
		for d, want := range tc.counts {
			if got := Perft(p, d+1); got != want {
				t.Errorf("%s perft(%d) = %d, want %d", tc.name, d+1, got, want)
			}
		}
	}
}

func TestReferencePerftMiddlegame(t *testing.T) {
	p, _ := Parse(middlegame)
	if got, want := Perft(p, 2), refPerft(refFrom(p), 2); got != want {
		t.Errorf("middlegame perft(2) = %d, reference %d", got, want)
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	p, _ := Parse(middlegame)
	var sum uint64
	for _, e := range Divide(p, 2) {
		sum += e.Nodes
	}
	if sum != Perft(p, 2) {
		t.Errorf("divide sums to %d", sum)
	}
}

// TestDeepPerftReference runs the reference to depth 4 from the start, depth 3 from the
// middlegame and depth 4 from the Royale start (about a minute): go test -run Deep
// ./domain/sovereign/, or SOVEREIGN_DEEP=1 for a whole run.
func TestDeepPerftReference(t *testing.T) {
	if os.Getenv("SOVEREIGN_DEEP") == "" && !deepRequested() {
		t.Skip("deep perft: go test -run Deep")
	}
	for _, tc := range []struct {
		notation string
		depth    int
	}{{StartNotation, 4}, {middlegame, 3}, {RoyaleStartNotation, 4}} {
		p, _ := Parse(tc.notation)
		if got, want := Perft(p, tc.depth), refPerft(refFrom(p), tc.depth); got != want {
			t.Errorf("%s perft(%d) = %d, reference %d", tc.notation, tc.depth, got, want)
		}
	}
	p := StartPosition()
	t.Logf("start perft(5) = %d", Perft(p, 5))
}

// deepRequested reports whether -run names the deep tests explicitly.
func deepRequested() bool {
	f := flag.Lookup("test.run")
	return f != nil && strings.Contains(f.Value.String(), "Deep")
}
