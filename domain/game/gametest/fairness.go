package gametest

import (
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// fairness checks a finished match's fairness (docs/fairness.md): every random outcome
// drawn again from the revealed seed and the seats' entropy is what the match recorded,
// and a forger who re-hashes the chain is caught when it changes a seat's entropy, or the
// seed (which then no longer matches its commitment).
func (w *watch) fairness(truth []eventstore.Event) {
	w.t.Helper()
	report := w.tb.VerifyFairness(truth)
	if !report.OK() || report.Fairness == nil {
		w.t.Fatalf("seed %d: the fairness check fails a match as played: %v", w.seed, report.Err())
	}
	if r, ok := w.rules.(game.Random); ok {
		recorded := 0
		for _, ev := range truth {
			if d, err := matchstream.Record(ev).Decode(w.rules); err == nil && len(r.Drawn(d)) > 0 {
				recorded++
			}
		}
		if len(report.Fairness.Drawn) != recorded {
			w.t.Fatalf("seed %d: the fairness check drew %d events again; %d record random outcomes", w.seed, len(report.Fairness.Drawn), recorded)
		}
	}
	other := hex.EncodeToString([]byte("another entropy of 32 bytes here"))
	forged := Forge(w.t, truth, "SeatTaken", 1, "entropy", other)
	if r := w.tb.VerifyFairness(forged); !HasProblem(r, replay.CheckFairness, "match seed") {
		w.t.Fatalf("seed %d: a forged entropy passes the fairness check: %v", w.seed, r.Problems)
	}
	seed := []byte("a seed the server never drew....") // stored as base64, as []byte fields are
	forged = Forge(w.t, Forge(w.t, truth, "SeedDrawn", 1, "seed", seed), "SeedRevealed", 1, "seed", seed)
	if r := w.tb.VerifyFairness(forged); !HasProblem(r, replay.CheckSeed, "committed") {
		w.t.Fatalf("seed %d: a seed that does not match its commitment passes the fairness check: %v", w.seed, r.Problems)
	}
}

// VerifyFairness verifies a stream of the table's match with its fairness
// (replay.VerifyEventsFairness).
func (tb *Table) VerifyFairness(evs []eventstore.Event) replay.Report {
	return replay.VerifyEventsFairness(tb.Games, matchstream.Name(tb.ID), evs)
}

// HasProblem reports whether r names a problem under check whose detail holds each of
// what.
func HasProblem(r replay.Report, check string, what ...string) bool {
	return slices.ContainsFunc(r.Problems, func(p replay.Problem) bool {
		if p.Check != check {
			return false
		}
		for _, w := range what {
			if !strings.Contains(p.Detail, w) {
				return false
			}
		}
		return true
	})
}

// CatchesForgedOutcome forges the random outcome field of the nth event of type typ of
// the table's match (re-hashing the chain, Forge) and fails the test unless the fairness
// check names that event, its type and purpose under CheckFairness.
func CatchesForgedOutcome(t testing.TB, tb *Table, typ string, nth int, field string, value any, purpose string) {
	t.Helper()
	evs := tb.Events()
	i := Nth(evs, typ, nth)
	forged := Forge(t, evs, typ, nth, field, value)
	r := tb.VerifyFairness(forged)
	for _, p := range r.Problems {
		if p.Check == replay.CheckFairness && p.Version == evs[i].Version && strings.Contains(p.Detail, typ) && strings.Contains(p.Detail, purpose) {
			return
		}
	}
	t.Fatalf("%s number %d with another %s: the fairness check does not name version %d drawn for %s: %v", typ, nth, field, evs[i].Version, purpose, r.Problems)
}
