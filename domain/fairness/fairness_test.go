package fairness

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

func seed(n byte) []byte { return bytes.Repeat([]byte{n}, 32) }

// IntN rejects exactly the values below 2^64 mod n: with n just above 2^63 about half the
// integers are rejected, and each result is the first accepted integer mod n.
func TestIntNRejectsTheBiasedValues(t *testing.T) {
	n := 1<<62 + 1<<61 + 1 // 2^64 mod n is large: a quarter of the integers are rejected
	low := -uint64(n) % uint64(n)
	rejected := 0
	for k := range 64 {
		label := fmt.Sprintf("test/%d", k)
		raw, s := New(seed(1), label), New(seed(1), label)
		got := s.IntN(n)
		var want uint64
		for {
			x := raw.Uint64()
			if x >= low {
				want = x % uint64(n)
				break
			}
			rejected++
		}
		if got != int(want) || s.Drawn() != raw.Drawn() {
			t.Fatalf("%s: IntN gave %d after %d integers; the rule gives %d after %d", label, got, s.Drawn(), want, raw.Drawn())
		}
	}
	if rejected == 0 {
		t.Fatal("no integer was rejected in 64 draws where a quarter of them should be: the test shows nothing")
	}
}

// Every result of a small n comes out about as often as the others.
func TestIntNIsUniform(t *testing.T) {
	const n, draws = 6, 60000
	s := New(seed(2), "test/dice")
	var count [n]int
	for range draws {
		count[s.IntN(n)]++
	}
	for face, c := range count {
		if c < draws/n*9/10 || c > draws/n*11/10 {
			t.Fatalf("face %d came %d times in %d draws: %v", face, c, draws, count)
		}
	}
}

func TestShuffleIsAPermutationAndDependsOnTheLabel(t *testing.T) {
	items := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	a := Shuffled(seed(3), "test/a", items)
	b := Shuffled(seed(3), "test/b", items)
	if slices.Equal(a, b) || slices.Equal(a, items) {
		t.Fatalf("two labels or the identity give the same order: %v %v", a, b)
	}
	if !slices.Equal(a, Shuffled(seed(3), "test/a", items)) {
		t.Fatal("one label gives two orders")
	}
	slices.Sort(a)
	if !slices.Equal(a, items) {
		t.Fatalf("the shuffle lost or doubled items: %v", a)
	}
}

// Fisher–Yates from the end: the last item's place is drawn first, among all of them.
func TestShuffleGoesFromTheEnd(t *testing.T) {
	items := []string{"a", "b", "c", "d"}
	s := New(seed(4), "test/order")
	want := slices.Clone(items)
	for i := len(want) - 1; i > 0; i-- {
		j := s.IntN(i + 1)
		want[i], want[j] = want[j], want[i]
	}
	if got := Shuffled(seed(4), "test/order", items); !slices.Equal(got, want) {
		t.Fatalf("Shuffled gives %v, Fisher–Yates from the end %v", got, want)
	}
}

func TestMatchSeedTakesEveryEntropyInOrder(t *testing.T) {
	e0, e1 := bytes.Repeat([]byte{1}, 16), bytes.Repeat([]byte{2}, 16)
	base := MatchSeed(seed(5), [][]byte{e0, e1})
	for name, other := range map[string][]byte{
		"swapped":        MatchSeed(seed(5), [][]byte{e1, e0}),
		"another server": MatchSeed(seed(6), [][]byte{e0, e1}),
		"one seat":       MatchSeed(seed(5), [][]byte{e0}),
		"moved a byte":   MatchSeed(seed(5), [][]byte{append(slices.Clone(e0), 2), e1[1:]}),
	} {
		if bytes.Equal(base, other) {
			t.Errorf("%s: the same match seed", name)
		}
	}
}

func TestParseEntropy(t *testing.T) {
	want := []byte("sixteen bytes!!!")
	for _, text := range []string{
		"7369787465656e20627974657321212" + "1",
		"7369787465656E20627974657321212" + "1",
		"c2l4dGVlbiBieXRlcyEhIQ==",
		"c2l4dGVlbiBieXRlcyEhIQ",
	} {
		got, err := ParseEntropy(text)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q: %q, %v", text, got, err)
		}
	}
	for _, text := range []string{"", "abcd", "not entropy at all!", "zz" + string(bytes.Repeat([]byte("00"), 20)), string(bytes.Repeat([]byte("ab"), 65))} {
		if _, err := ParseEntropy(text); err == nil {
			t.Errorf("%q is accepted", text)
		}
	}
}

func TestALabelWithAZeroBytePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	New(seed(7), "a\x00b")
}
