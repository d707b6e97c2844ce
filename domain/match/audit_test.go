package match_test

import (
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/domain/match"
)

// audit runs the match's audit over evs and returns what it found, one line each.
func audit(t *testing.T, evs []match.Stored) []string {
	t.Helper()
	var found []string
	a := match.NewAudit("m", rules, func(version int64, check, format string, args ...any) {
		found = append(found, fmt.Sprintf("%d %s: %s", version, check, fmt.Sprintf(format, args...)))
	})
	for _, ev := range evs {
		d, err := ev.Decode(rules)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Check(ev, d) {
			break
		}
	}
	a.End()
	return found
}

func TestAuditAcceptsWhatDecideRecorded(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "f2f3")
	tb.move("bob", "e7e5")
	tb.move("alice", "g2g4")
	tb.move("bob", "d8h4") // mate: the match ends and reveals its seed
	if found := audit(t, tb.recorded()); len(found) != 0 {
		t.Fatalf("the audit of an honest match found %q", found)
	}
}

func TestAuditNamesWhatTheLifecycleForbids(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e2e4")
	evs := tb.recorded()
	last := evs[len(evs)-1]
	// The stream stops before the match ends: nothing is wrong with that.
	if found := audit(t, evs); len(found) != 0 {
		t.Fatalf("a match in play: %q", found)
	}
	// A seat taken again once the match is live.
	again := append(evs[:len(evs):len(evs)], evs[2])
	again[len(again)-1].Version = last.Version + 1
	found := audit(t, again)
	want := fmt.Sprintf("%d %s: SeatTaken while the match is LIVE", last.Version+1, match.CheckLifecycle)
	if len(found) == 0 || found[0] != want {
		t.Fatalf("a seat taken during play: %q, want %q first", found, want)
	}
}
