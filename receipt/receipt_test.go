package receipt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/arbiter-games/arbiter/serverkey"
)

// hashes returns n distinct event hashes, as stored (hex).
func hashes(n int) []string {
	out := make([]string, n)
	for i := range out {
		sum := sha256.Sum256([]byte(fmt.Sprint("event ", i+1)))
		out[i] = hex.EncodeToString(sum[:])
	}
	return out
}

func signed(t *testing.T, key *serverkey.Key, evs []string, n int64) []byte {
	t.Helper()
	tree, err := Build("m1", evs)
	if err != nil {
		t.Fatal(err)
	}
	h, err := tree.Head(n)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Sign(h, key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAReceiptCatchesAChangedSwappedOrCutLog(t *testing.T) {
	key, _ := serverkey.Generate()
	evs := hashes(20)
	r := signed(t, key, evs, 12)
	h, err := Open(r, key.Public())
	if err != nil {
		t.Fatal(err)
	}
	if h.Match != "m1" || h.Size != 12 {
		t.Fatalf("the receipt signs %+v", h)
	}
	if err := Check(h, evs); err != nil {
		t.Fatalf("the log the receipt was taken on: %v", err)
	}
	if err := Check(h, evs[:12]); err != nil {
		t.Fatalf("the log at the receipt's size: %v", err)
	}
	changed := slices.Clone(evs)
	changed[4] = hashes(21)[20]
	swapped := slices.Clone(evs)
	swapped[2], swapped[3] = swapped[3], swapped[2]
	for name, log := range map[string][]string{"changed": changed, "swapped": swapped, "cut": evs[:11]} {
		if err := Check(h, log); err == nil {
			t.Errorf("a %s log passes the receipt", name)
		}
	}
	// What comes after the receipt's size is not its business.
	later := slices.Clone(evs)
	later[15] = hashes(21)[20]
	if err := Check(h, later); err != nil {
		t.Errorf("a change after the receipt's size: %v", err)
	}
}

func TestAReceiptOpensOnlyWithItsKeyAndText(t *testing.T) {
	key, _ := serverkey.Generate()
	other, _ := serverkey.Generate()
	r := signed(t, key, hashes(5), 5)
	if _, err := Open(r, other.Public()); !errors.Is(err, ErrReceipt) {
		t.Errorf("another key opens it: %v", err)
	}
	for _, edit := range [][2]string{{"size 5", "size 4"}, {"match m1", "match m2"}, {"v1", "v2"}} {
		forged := bytes.Replace(r, []byte(edit[0]), []byte(edit[1]), 1)
		if _, err := Open(forged, key.Public()); !errors.Is(err, ErrReceipt) {
			t.Errorf("a receipt edited %q → %q opens: %v", edit[0], edit[1], err)
		}
	}
	// Signing is deterministic: the receipt of a finished match is always the same bytes.
	if again := signed(t, key, hashes(5), 5); !bytes.Equal(again, r) {
		t.Error("the same head signed twice differs")
	}
	if !strings.HasPrefix(string(r), "arbiter match receipt v1\nmatch m1\nsize 5\nroot ") {
		t.Errorf("the receipt reads:\n%s", r)
	}
}

// ceilLog2 is the length bound of a proof in a tree of n leaves.
func ceilLog2(n int64) int { return bits.Len64(uint64(n - 1)) }

func TestProofsAreLogarithmicAndCheck(t *testing.T) {
	evs := hashes(300)
	tree, err := Build("m1", evs)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1, 2, 3, 7, 8, 9, 100, 255, 256, 257, 300} {
		head, err := tree.Head(n)
		if err != nil {
			t.Fatal(err)
		}
		for v := int64(1); v <= n; v++ {
			p, err := tree.Inclusion(v, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(p) > ceilLog2(n) {
				t.Fatalf("the proof of event %d of %d has %d hashes, more than log2", v, n, len(p))
			}
			leaf, _ := Leaf(evs[v-1])
			if err := tlog.CheckRecord(p, n, head.Root, v-1, leaf); err != nil {
				t.Fatalf("event %d of %d: %v", v, n, err)
			}
			other, _ := Leaf(evs[v%n])
			if n > 1 && tlog.CheckRecord(p, n, head.Root, v-1, other) == nil {
				t.Fatalf("event %d's proof proves another event", v)
			}
		}
		for old := int64(1); old <= n; old++ {
			p, err := tree.Consistency(old, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(p) > 2*ceilLog2(n) {
				t.Fatalf("the proof from %d to %d has %d hashes", old, n, len(p))
			}
			was, _ := tree.Head(old)
			if err := tlog.CheckTree(p, n, head.Root, old, was.Root); err != nil {
				t.Fatalf("from %d to %d: %v", old, n, err)
			}
		}
	}
	if _, err := tree.Inclusion(301, 300); !errors.Is(err, ErrSize) {
		t.Errorf("a proof past the log: %v", err)
	}
	if _, err := tree.Head(301); !errors.Is(err, ErrSize) {
		t.Errorf("a head past the log: %v", err)
	}
}
