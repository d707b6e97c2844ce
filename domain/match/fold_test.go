package match_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// recorded stores the events the table emitted as the store would hand them back.
func (tb *table) recorded() []match.Stored {
	tb.t.Helper()
	out := make([]match.Stored, len(tb.events))
	for i, e := range tb.events {
		payload, err := game.Encode(e.Event)
		if err != nil {
			tb.t.Fatal(err)
		}
		typ := e.Event.EventType()
		out[i] = match.Stored{Stream: "match-m", Version: int64(i) + 1, Type: typ, Schema: match.SchemaOf(rules, typ),
			Payload: payload, Visibility: e.Visibility, Time: t0}
	}
	return out
}

func fold(evs []match.Stored) (game.Rules, match.State, error) {
	f := match.Folder{Games: game.NewRegistry(rules)}
	var (
		r   game.Rules
		st  match.State
		err error
	)
	for i, ev := range evs {
		if r, st, err = f.Apply("m", r, st, int64(i), ev); err != nil {
			return nil, match.State{}, err
		}
	}
	return r, st, nil
}

func TestFoldGivesTheStateDecideAndEvolveGave(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e2e4")
	tb.move("bob", "e7e5")
	r, st, err := fold(tb.recorded())
	if err != nil {
		t.Fatal(err)
	}
	if r.Info().ID != rules.Info().ID || st.Status != tb.state.Status || rules.Status(st.GameState).ToAct[0] != rules.Status(tb.state.GameState).ToAct[0] {
		t.Fatalf("folded %s %s, want %s %s", r.Info().ID, st.Status, rules.Info().ID, tb.state.Status)
	}
}

// Every way a stored stream fails to fold is an *Unreplayable naming the match and the
// version, never a panic.
func TestFoldRefusesWhatDoesNotReplay(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e2e4")
	good := tb.recorded()
	last := int64(len(good))
	for name, c := range map[string]struct {
		change  func([]match.Stored) []match.Stored
		version int64
		cause   string
	}{
		"gap":          {func(evs []match.Stored) []match.Stored { return append(evs[:2], evs[3:]...) }, 4, "jumps from version 2 to 4"},
		"not created":  {func(evs []match.Stored) []match.Stored { return evs[1:] }, 2, "jumps from version 0 to 2"},
		"wrong first":  {func(evs []match.Stored) []match.Stored { evs[0].Type = "SeatTaken"; return evs }, 1, "not MatchCreated at 1"},
		"payload":      {func(evs []match.Stored) []match.Stored { evs[last-1].Payload = []byte(`{"uci":`); return evs }, last, fmt.Sprintf("version %d", last)},
		"schema ahead": {func(evs []match.Stored) []match.Stored { evs[last-1].Schema = 99; return evs }, last, "schema 99"},
		"unplayable move": {func(evs []match.Stored) []match.Stored {
			evs[last-1].Payload = []byte(strings.Replace(string(evs[last-1].Payload), "e2e4", "z9z9", 1))
			return evs
		}, last, "cannot apply"},
	} {
		evs := c.change(append([]match.Stored(nil), good...))
		for i := range evs {
			evs[i].Payload = append([]byte(nil), evs[i].Payload...)
		}
		_, _, err := fold(evs)
		var u *match.Unreplayable
		if !errors.As(err, &u) || u.Match != "m" || u.Version != c.version || !strings.Contains(err.Error(), c.cause) {
			t.Errorf("%s: %v, want an *Unreplayable at version %d saying %q", name, err, c.version, c.cause)
		}
		if game.CodeOf(u.Refusal()) != game.Unavailable {
			t.Errorf("%s: a match that does not replay is refused with %s", name, game.CodeOf(u.Refusal()))
		}
	}
}

// A match pinned to a rules version this build does not play is an *UnknownRulesVersion
// (inside the *Unreplayable that sets it aside) naming the game, the version, and the
// versions the build plays, and saying which build to run.
func TestFoldNamesARulesVersionThisBuildDoesNotPlay(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e2e4")
	evs := tb.recorded()
	have := rules.Info().RulesVersion
	evs[0].Payload = []byte(strings.Replace(string(evs[0].Payload), `"rulesVersion":"`+have+`"`, `"rulesVersion":"fide-2099.1"`, 1))
	_, _, err := fold(evs)
	var (
		u *match.Unreplayable
		v *match.UnknownRulesVersion
	)
	if !errors.As(err, &u) || u.Version != 1 || !errors.As(err, &v) {
		t.Fatalf("%v, want an *Unreplayable at version 1 wrapping an *UnknownRulesVersion", err)
	}
	if v.Game != rules.Info().ID || v.Version != "fide-2099.1" || len(v.Have) != 1 || v.Have[0] != have {
		t.Errorf("%+v, want game %s, version fide-2099.1, have [%s]", v, rules.Info().ID, have)
	}
	for _, want := range []string{`"fide-2099.1", which this build does not play (it plays ` + have + `)`, `a build that plays "fide-2099.1"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}
