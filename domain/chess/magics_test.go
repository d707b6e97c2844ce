//go:build deep

package chess

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeepMagicSearch re-runs the deterministic search that produced magics.go and
// checks it finds the same numbers; -v prints the file.
//
//	go test -tags deep -run DeepMagicSearch -v ./domain/chess/
func TestDeepMagicSearch(t *testing.T) {
	rng := splitmix64(0x4172626974657221) // "Arbiter!"
	var rooks, bishops [64]uint64
	for s := A1; s <= H8; s++ {
		rooks[s] = searchMagic(s, rookDirs, &rng)
		bishops[s] = searchMagic(s, bishopDirs, &rng)
	}
	if rooks != rookFactors || bishops != bishopFactors {
		t.Error("the search no longer finds the numbers in magics.go")
	}
	var b strings.Builder
	for _, table := range []struct {
		name    string
		factors [64]uint64
	}{{"rookFactors", rooks}, {"bishopFactors", bishops}} {
		fmt.Fprintf(&b, "\t%s = [64]uint64{\n", table.name)
		for s, f := range table.factors {
			sep := " "
			if s%4 == 3 {
				sep = "\n"
			}
			fmt.Fprintf(&b, "0x%016x,%s", f, sep)
		}
		b.WriteString("}\n")
	}
	t.Log("\n" + b.String())
}

// searchMagic tries sparse random multipliers (the AND of three draws) until one maps
// every blocker subset of s without a harmful collision.
func searchMagic(s Square, dirs [4][2]int, rng *splitmix64) uint64 {
	var m magic
	for {
		f := rng.next() & rng.next() & rng.next()
		mask := slide(s, 0, dirs) &^ (((Rank1 | Rank8) &^ rankOf(s)) | ((FileA | FileH) &^ fileOf(s)))
		if Bitboard((uint64(mask)*f)>>56).Count() < 6 {
			continue
		}
		if fillMagic(&m, s, dirs, f) {
			return f
		}
	}
}
