//go:build deep

package chess

import "testing"

// TestDeepPerft goes to the deepest published count of every reference position, the
// counts TestPerft leaves out to keep the ordinary run short (a minute or two):
//
//	go test -tags deep -run Deep ./domain/chess/
func TestDeepPerft(t *testing.T) {
	for _, tc := range perftPositions {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.counts {
				if want <= perftBudget {
					continue
				}
				if got := Perft(pos, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}
