package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
)

// watch follows a match at a table: the suite's own two folds of its stream, and what
// each viewer was shown of it while it was played, through the projections' redaction,
// the one place that decides what a viewer sees.
type watch struct {
	t       *testing.T
	tb      *Table
	seed    uint64
	rules   game.Rules
	stream  string
	version int64      // the last version read
	a, b    game.State // two folds of the game events, from separately decoded events
	endedAt int64      // the version of MatchEnded, once read

	viewers []string                       // the seats' players, and "" for a spectator
	shown   map[string][]projections.Shown // by viewer: every event as it was shown, by version
	read    map[string]map[string]int64    // by viewer: each string its views held, and the first version that did
}

func newWatch(t *testing.T, tb *Table, seed uint64) *watch {
	ms, _ := tb.Snapshot()
	w := &watch{t: t, tb: tb, seed: seed, rules: tb.Rules, stream: matchstream.Name(tb.ID),
		shown: map[string][]projections.Shown{}, read: map[string]map[string]int64{}}
	for seat := range ms.Seats {
		w.viewers = append(w.viewers, Player(seat))
	}
	w.viewers = append(w.viewers, "")
	for _, name := range w.viewers {
		w.read[name] = map[string]int64{}
	}
	return w
}

// record keeps what each viewer is shown of the events just read, and of the match as it
// is now: each event as of its version (projections.Viewer.AsOf), and while the match is
// live, the game's view for it (projections.Viewer.View), whose plays must be its own
// seats' alone.
func (w *watch) record(ms match.State, evs []eventstore.Event) {
	w.t.Helper()
	for _, ev := range evs {
		if ev.Type == (match.MatchEnded{}).EventType() {
			w.endedAt = ev.Version
		}
	}
	for _, name := range w.viewers {
		v := projections.ViewerOf(ms, name)
		for _, ev := range evs {
			w.shown[name] = append(w.shown[name], v.AsOf(w.endedAt, ev.Version).Event(w.rules, ev))
		}
		if ms.Status != match.Live {
			continue
		}
		if gv := v.View(w.rules, w.a); gv != nil {
			strs(reflect.ValueOf(gv), func(s string) {
				if _, ok := w.read[name][s]; !ok {
					w.read[name][s] = w.version
				}
			})
			for _, p := range gv.Plays() {
				if name == "" || p.Seat < 0 || p.Seat >= len(ms.Seats) || ms.Seats[p.Seat].PlayerID != name {
					w.t.Fatalf("seed %d: version %d: %q's view lists a play of seat %d: %+v", w.seed, w.version, name, p.Seat, p)
				}
			}
		}
	}
	w.unchanged("the views of the match")
}

// finish checks a finished match: what each viewer was shown against the truth revealed
// at the end, the verifier's verdict on the stream, and the verifier's verdict on the
// stream with a secret stored public.
func (w *watch) finish(ms match.State) {
	w.t.Helper()
	truth := w.tb.Events()
	if w.endedAt == 0 {
		w.t.Fatalf("seed %d: the match is %s without a MatchEnded", w.seed, ms.Status)
	}
	for _, name := range w.viewers {
		w.checkEvents(name, ms, truth)
		w.checkViews(name, ms, truth)
	}
	report := w.tb.Verify()
	if !reflect.DeepEqual(report.Result, ms.Result) {
		w.t.Fatalf("seed %d: verify reads the result %+v, the match has %+v", w.seed, report.Result, ms.Result)
	}
	w.fairness(truth)
	// A secret stored for everyone to see, re-hashed, is a leak the verifier names.
	tried := map[string]bool{}
	for i, ev := range truth {
		if ev.Visibility == visibility.Public || match.IsLifecycle(ev.Type) || tried[ev.Type] {
			continue
		}
		tried[ev.Type] = true
		forged := slices.Clone(truth)
		forged[i].Visibility = visibility.Public
		if r := w.tb.VerifyEvents(Rehash(forged, i)); r.OK() {
			w.t.Fatalf("seed %d: verify accepts version %d (%s), visible to %q, stored public", w.seed, ev.Version, ev.Type, ev.Visibility)
		}
	}
}

// checkEvents compares each event a viewer was shown while the match was live with the
// truth: in full and exactly when its visibility lets the viewer see it; otherwise
// redacted, with no command ID, and at most a shadow: some of the truth's fields with
// the same values, never all of them.
func (w *watch) checkEvents(name string, ms match.State, truth []eventstore.Event) {
	w.t.Helper()
	shown := w.shown[name]
	if len(shown) != len(truth) && len(shown) != len(truth)-1 { // the seed's reveal may follow the end
		w.t.Fatalf("seed %d: %q was shown %d events, the stream has %d", w.seed, name, len(shown), len(truth))
	}
	for i, got := range shown {
		want := truth[i]
		if got.Version != want.Version || got.Type != w.shownType(want, got.Redacted) || got.Hash != want.Hash || got.Visibility != want.Visibility {
			w.t.Fatalf("seed %d: %q was shown version %d as %s %q %s; the store has version %d %s %q %s", w.seed, name,
				got.Version, got.Type, got.Visibility, got.Hash, want.Version, want.Type, want.Visibility, want.Hash)
		}
		may := want.Version >= w.endedAt || w.maySee(name, ms, want.Visibility)
		switch {
		case may && (got.Redacted || !bytes.Equal(got.Payload, want.Payload) || got.CommandID != want.CommandID):
			w.t.Fatalf("seed %d: %q may see version %d (%s, %q) and was shown %s (redacted %v), the truth is %s",
				w.seed, name, want.Version, want.Type, want.Visibility, got.Payload, got.Redacted, want.Payload)
		case !may && (!got.Redacted || got.CommandID != ""):
			w.t.Fatalf("seed %d: %q may not see version %d (%s, %q) and was shown it: %s", w.seed, name, want.Version, want.Type, want.Visibility, got.Payload)
		case !may && len(got.Payload) > 0:
			var shadow, whole map[string]any
			if err := json.Unmarshal(got.Payload, &shadow); err != nil {
				w.t.Fatalf("seed %d: %q: version %d's shadow is not an object: %s", w.seed, name, want.Version, got.Payload)
			}
			if err := json.Unmarshal(want.Payload, &whole); err != nil {
				w.t.Fatal(err)
			}
			for k, v := range shadow {
				if tv, ok := whole[k]; !ok || !reflect.DeepEqual(tv, v) {
					w.t.Fatalf("seed %d: %q: version %d (%s) shows %s=%v, which the truth %s does not hold", w.seed, name, want.Version, want.Type, k, v, want.Payload)
				}
			}
			if len(shadow) >= len(whole) {
				w.t.Fatalf("seed %d: %q: version %d (%s) is redacted but shows everything: %s", w.seed, name, want.Version, want.Type, got.Payload)
			}
		}
	}
}

// shownType is the type an event is shown under: its own, or when it is redacted, its
// shadow's (game.Shadowed), which may stand in its place under another type.
func (w *watch) shownType(ev eventstore.Event, redacted bool) string {
	if !redacted {
		return ev.Type
	}
	d, err := match.Decode(w.rules, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return ev.Type
	}
	if sh, ok := d.(game.Shadowed); ok {
		return sh.Shadow().EventType()
	}
	return ev.Type
}

// checkViews compares what a viewer read of the live match with the truth: no string
// that only events hidden from it hold (a card in another seat's hand or in a deck, a
// trap) may appear in its view before something it may see has shown that string. A
// value also shown publicly cannot be told apart, and numbers are not compared: the
// check finds the secrets a view names, not those it encodes.
func (w *watch) checkViews(name string, ms match.State, truth []eventstore.Event) {
	w.t.Helper()
	hidden := map[string]string{} // a string of a hidden payload -> the event that holds it
	for _, ev := range truth {
		if ev.Version < w.endedAt && !w.maySee(name, ms, ev.Visibility) {
			collect(hidden, ev.Payload, fmt.Sprintf("version %d (%s, %s)", ev.Version, ev.Type, ev.Visibility))
		}
	}
	seen := map[string]int64{} // a string of an event shown to the viewer -> the first version that showed it
	for _, got := range w.shown[name] {
		collect(seen, got.Payload, got.Version)
	}
	for s, at := range w.read[name] {
		from, secret := hidden[s]
		if shown, ok := seen[s]; secret && (!ok || shown > at) {
			w.t.Fatalf("seed %d: at version %d %q read %q in its view, which only %s holds, hidden from it", w.seed, at, name, s, from)
		}
	}
}

// maySee is the rule of secrecy, written here again rather than asked of the redaction
// it checks: while a match is live, a viewer sees what is public, what is for a seat it
// holds, and what is for a team one of its seats is on; nobody sees what is the
// server's alone.
func (w *watch) maySee(name string, ms match.State, vis visibility.Visibility) bool {
	if vis == visibility.Public {
		return true
	}
	for seat, s := range ms.Seats {
		if name == "" || s.PlayerID != name {
			continue
		}
		if vis == visibility.Seat(seat) || (seat < len(ms.Plan.Teams) && vis == visibility.Team(ms.Plan.Teams[seat])) {
			return true
		}
	}
	return false
}

// collect adds every string of a JSON document to into, each with where it was found
// unless it is there already.
func collect[W any](into map[string]W, raw []byte, where W) {
	if len(raw) == 0 {
		return
	}
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			if _, ok := into[x]; !ok && x != "" {
				into[x] = where
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
}

// strs calls visit with every string a view holds, in every field, exported or not: a
// view's unexported fields are as public as the rest (game.Viewed), since a client may be
// shown whatever Plays computes from them. Pointers, interfaces, slices and maps are
// followed; what cannot hold a string is skipped.
func strs(v reflect.Value, visit func(string)) {
	if !holdsStrings(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			visit(v.String())
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			strs(v.Elem(), visit)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			strs(v.Field(i), visit)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			strs(v.Index(i), visit)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			strs(it.Key(), visit)
			strs(it.Value(), visit)
		}
	}
}

// stringTypes caches holdsStrings by type.
var stringTypes sync.Map // reflect.Type -> bool

// holdsStrings reports whether a value of type t may hold a string: a position made of
// numbers is skipped whole rather than walked square by square.
func holdsStrings(t reflect.Type) bool {
	if v, ok := stringTypes.Load(t); ok {
		return v.(bool)
	}
	stringTypes.Store(t, true) // a type that refers to itself may hold one: walk it
	var holds bool
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		holds = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		holds = holdsStrings(t.Elem())
	case reflect.Map:
		holds = holdsStrings(t.Key()) || holdsStrings(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			holds = holds || holdsStrings(t.Field(i).Type)
		}
	}
	stringTypes.Store(t, holds)
	return holds
}
