package fairness_test

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
)

// The worked example of docs/fairness.md is the code's: every line of its block of
// vectors is computed again here, so the page cannot drift from what Arbiter draws.
func TestFairnessDocVectors(t *testing.T) {
	doc := vectors(t, "../../docs/fairness.md")
	seed := unhex(t, doc["server seed"])
	e0, e1 := unhex(t, doc["entropy of seat 0"]), unhex(t, doc["entropy of seat 1"])
	ms := fairness.MatchSeed(seed, [][]byte{e0, e1})
	// The match seed laid out by hand, as the page writes it, and not by MatchSeed.
	mac := hmac.New(sha256.New, seed)
	mac.Write([]byte("arbiter/match-seed/v1\x00\x00\x00\x00\x02"))
	for _, e := range [][]byte{e0, e1} {
		mac.Write([]byte{0, 0, 0, byte(len(e))})
		mac.Write(e)
	}
	if byHand := mac.Sum(nil); !bytes.Equal(byHand, ms) {
		t.Fatalf("MatchSeed gives %x, the page's layout %x", ms, byHand)
	}
	setup := func(r game.Rules, opts game.Options, seats int) []game.Emitted {
		plan, err := r.Plan(opts)
		if err != nil || plan.Seats != seats {
			t.Fatalf("%s: plan %+v, %v", r.Info().Name, plan, err)
		}
		evs, err := r.Setup(game.Setup{Plan: plan, Options: opts, Seed: ms, Fairness: fairness.V1})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	unfairOpening := setup(unfair.Rules{}, nil, 2)
	top := func(cards []string, n int) string { return strings.Join(cards[:n], " ") }
	want := map[string]string{
		"match seed":                                  hex.EncodeToString(ms),
		`"example/numbers" block 0`:                   block0(ms, "example/numbers"),
		`"example/numbers" integers 0-4`:              integers(ms, "example/numbers", 5),
		`"example/dice" IntN(6) x 10`:                 dice(ms, "example/dice", 6, 10),
		`"example/deck" shuffle of A-J`:               strings.Join(fairness.Shuffled(ms, "example/deck", strings.Fields("A B C D E F G H I J")), " "),
		`"unfair/deck/0" top four`:                    top(unfairOpening[1].Event.(unfair.DeckShuffled).Cards, 4),
		`"unfair/deck/1" top four`:                    top(unfairOpening[6].Event.(unfair.DeckShuffled).Cards, 4),
		`"magicchess/deck" top five (classic)`:        top(setup(magicchess.Rules{}, nil, 2)[1].Event.(magicchess.DeckShuffled).Cards, 5),
		`"sovereign/opening" IntN(2)`:                 fmt.Sprint(setup(sovereignchess.Rules{}, nil, 2)[0].Event.(sovereignchess.GameStarted).FirstMover),
		`"sovereign/royale-order" Perm(4)`:            strings.Trim(fmt.Sprint(setup(sovereignchess.Rules{}, game.Options{"mode": sovereignchess.Royale}, 4)[0].Event.(sovereignchess.GameStarted).Order), "[]"),
		`"solwaris/map" arena`:                        setup(solwaris.Rules{}, nil, 2)[1].Event.(solwaris.Opened).Map,
		`"solwaris/decision/12" roll 10-14, critical`: rollAndCritical(ms, "solwaris/decision/12", 10, 14),
	}
	for k, v := range want {
		if doc[k] != v {
			t.Errorf("docs/fairness.md gives %s = %q; the code draws %q", k, doc[k], v)
		}
		delete(doc, k)
	}
	for _, k := range []string{"server seed", "entropy of seat 0", "entropy of seat 1"} {
		delete(doc, k)
	}
	for k := range doc {
		t.Errorf("docs/fairness.md gives %s, which this test does not check", k)
	}
}

// vectors reads the lines "name = value" of the block after "<!-- vectors -->" in file.
func vectors(t *testing.T, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := bytes.Cut(b, []byte("<!-- vectors -->\n```\n"))
	block, _, closed := bytes.Cut(block, []byte("```"))
	if !ok || !closed {
		t.Fatalf("%s has no block of vectors", file)
	}
	out := map[string]string{}
	for sc := bufio.NewScanner(bytes.NewReader(block)); sc.Scan(); {
		k, v, ok := strings.Cut(sc.Text(), " = ")
		if !ok {
			t.Fatalf("%s: a vector line without ' = ': %q", file, sc.Text())
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) == 0 {
		t.Fatalf("%q: %v", s, err)
	}
	return b
}

// block0 is the stream's first block, computed as the page lays it out (not through
// fairness.Stream): HMAC-SHA256(matchSeed, label || 0x00 || u64be(0)).
func block0(seed []byte, label string) string {
	mac := hmac.New(sha256.New, seed)
	mac.Write([]byte(label))
	mac.Write(make([]byte, 1+8))
	return hex.EncodeToString(mac.Sum(nil))
}

func integers(seed []byte, label string, n int) string {
	s := fairness.New(seed, label)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%016x", s.Uint64())
	}
	return strings.Join(out, " ")
}

func dice(seed []byte, label string, faces, n int) string {
	s := fairness.New(seed, label)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(s.IntN(faces))
	}
	return strings.Join(out, " ")
}

// rollAndCritical is a Solwaris hit's draws from the start of a decision's stream: the
// roll lo + IntN(hi-lo+1), then the critical IntN(100) < 10.
func rollAndCritical(seed []byte, label string, lo, hi int) string {
	s := fairness.New(seed, label)
	roll := lo + s.IntN(hi-lo+1)
	return fmt.Sprintf("%d, %v", roll, s.IntN(100) < 10)
}
