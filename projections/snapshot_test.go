package projections

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"encoding/json"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/snapshot"
)

// corpusStore is an SQLite file holding one match of each match ID of the archived corpus
// (every game this build hosts), their events interleaved one by one, so that at most
// positions several matches of several games are under way.
func corpusStore(t *testing.T) (*sqlite.Store, int64) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join("..", "testdata", "corpus")
	var m struct {
		Entries []struct{ File, Match string }
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	var exports [][]exportLine
	seen := map[string]bool{}
	for _, e := range m.Entries {
		if seen[e.Match] {
			continue
		}
		seen[e.Match] = true
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		var lines []exportLine
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n"))[1:] { // after the header
			var l exportLine
			if err := json.Unmarshal(line, &l); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, l)
		}
		exports = append(exports, lines)
	}
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for more := true; more; {
		more = false
		for i, lines := range exports {
			if len(lines) == 0 {
				continue
			}
			// Up to three events of a stream at a time: fewer commits, still interleaved.
			n := 1
			for n < min(3, len(lines)) && lines[n].Stream == lines[0].Stream {
				n++
			}
			var evs []eventstore.Proposed
			for _, l := range lines[:n] {
				vis, err := visibility.Parse(l.Visibility)
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, eventstore.Proposed{ID: l.ID, Type: l.Type, SchemaVersion: l.SchemaVersion,
					Payload: []byte(l.Payload), CommandID: l.CommandID, Actor: l.Actor, Visibility: vis, Time: l.Time})
			}
			if _, err := store.Append(ctx, lines[0].Stream, lines[0].Version-1, evs...); err != nil {
				t.Fatal(err)
			}
			exports[i], more = lines[n:], true
		}
	}
	head, err := store.HeadPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return store, head
}

// exportLine is the part of a line of an export (replay.ExportLine, which this package's
// tests cannot import) that makes its event again.
type exportLine struct {
	Stream, ID, Type, CommandID, Actor, Visibility string
	Version                                        int64
	SchemaVersion                                  int
	Payload                                        json.RawMessage
	Time                                           time.Time
}

// readSide is every model a server folds, as startApp wires them but for the settlement
// process (package settlement, which imports this one: its own tests cover its form).
// Finished matches are archived after archive (never when negative), read back from store.
func readSide(reg *game.Registry, archive time.Duration, store eventstore.Store) []Stored {
	return []Stored{NewMatches(reg, ArchiveAfter(archive, store)), NewCardsPlayed(reg), NewEconomy(reg), NewChoices(reg), NewDisputes()}
}

// upTo is a store that ends at a position: the store as it stood then.
type upTo struct {
	eventstore.Store
	head int64
}

func (s upTo) HeadPosition(context.Context) (int64, error) { return s.head, nil }

func (s upTo) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	evs, err := s.Store.ReadAll(ctx, after, limit)
	for i, ev := range evs {
		if ev.Position > s.head {
			return evs[:i], err
		}
	}
	return evs, err
}

func digests(ms []Stored) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name()+": "+m.Digest())
	}
	return out
}

func projs(ms []Stored) []Projection {
	out := make([]Projection, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// Folded up to a position, written down, read back into new models and fed the rest of
// the store, every model ends where a fold from zero ends, at every position of a store
// of every game; and what it reads back writes down the same bytes.
func TestSnapshotAndTailFoldAsFromZero(t *testing.T) {
	store, head := corpusStore(t)
	for _, c := range []struct {
		name    string
		reg     *game.Registry
		same    bool          // a model read back writes the same bytes
		archive time.Duration // ArchiveAfter
	}{
		{"the games as they are", game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}), true, -1},
		// Every finished match in the archive's index, none in memory.
		{"the games as they are, archived", game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}), true, 0},
		// Its stored states are keys of a table, new at each write.
		{"a chess that stores every other state", game.NewRegistry(&storingChess{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{}), false, -1},
	} {
		reg := c.reg
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			whole := readSide(reg, c.archive, store)
			if err := Rebuild(ctx, store, nil, projs(whole)...); err != nil {
				t.Fatal(err)
			}
			want := digests(whole)
			// About 15 positions, each one after a different number of events of each
			// match: a snapshot at every position takes minutes.
			for cut := int64(0); cut <= head; cut += head/15 + 1 {
				before := readSide(reg, c.archive, store)
				if err := Rebuild(ctx, upTo{store, cut}, nil, projs(before)...); err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				if _, err := WriteSnapshot(ctx, store, dir, before...); err != nil {
					t.Fatal(err)
				}
				after := readSide(reg, c.archive, store)
				used, refused, err := LoadSnapshot(ctx, store, dir, func() []Stored { return after })
				if err != nil || used == "" || len(refused) > 0 {
					t.Fatalf("at %d: used %q, refused %v, err %v", cut, used, refused, err)
				}
				for i := range before {
					if !c.same {
						break
					}
					if a, b := storedForm(t, before[i]), storedForm(t, after[i]); !reflect.DeepEqual(a, b) {
						t.Errorf("at %d: %s reads back as another model:\n%+v\n%+v", cut, before[i].Name(), a, b)
					}
				}
				if err := Rebuild(ctx, store, nil, projs(after)...); err != nil {
					t.Fatal(err)
				}
				if got := digests(after); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("snapshot at %d, then the tail:\n%s\nfrom zero:\n%s", cut, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}

// storedForm is what m writes down, read back into its stored form's type (gob writes a
// map in no set order: the bytes of one model may differ from one write to the next).
func storedForm(t *testing.T, m Stored) any {
	t.Helper()
	_, data, err := m.Save()
	if err != nil {
		t.Fatal(err)
	}
	var v any
	switch m.(type) {
	case *Matches:
		v = &StoredMatches{}
	case *CardsPlayed:
		v = &StoredCards{}
	case *Economy:
		var s StoredEconomy
		if err := decode(data, &s); err != nil {
			t.Fatal(err)
		}
		var r StoredRatings
		if err := decode(s.Ratings, &r); err != nil {
			t.Fatal(err)
		}
		s.Ratings = nil
		return []any{s, r}
	case *Choices:
		v = &StoredChoices{}
	case *Disputes:
		v = &StoredDisputes{}
	}
	if err := decode(data, v); err != nil {
		t.Fatal(err)
	}
	return v
}

// storingChess is classic chess whose states can be "stored": a stored state is a key of
// a table this test keeps (the states are values, never changed once folded), and every
// other one cannot be read back (game.ErrStateFormat), so that both the stored and the
// folded-again paths are taken.
type storingChess struct {
	classic.Rules
	mu     sync.Mutex
	states []game.State
}

func (c *storingChess) EncodeState(st game.State) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.states = append(c.states, st)
	return []byte{byte(len(c.states) % 2), byte(len(c.states) >> 16), byte(len(c.states) >> 8), byte(len(c.states))}, nil
}

func (c *storingChess) DecodeState(b []byte) (game.State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := int(b[1])<<16 | int(b[2])<<8 | int(b[3])
	if b[0] == 1 || n == 0 || n > len(c.states) {
		return nil, errors.New("not stored: " + game.ErrStateFormat.Error())
	}
	return c.states[n-1], nil
}

// A snapshot written by a model that did not archive (ArchiveAfter negative: its archive
// queue is empty), read by one that does, archives the matches that were over before the
// snapshot as a fold from zero with archiving on archives them: none keeps its board for
// ever.
func TestSnapshotOfAModelThatDidNotArchiveIsArchivedAfter(t *testing.T) {
	ctx := context.Background()
	store, _ := corpusStore(t)
	reg := game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
	zero := readSide(reg, 0, store)
	if err := Rebuild(ctx, store, nil, projs(zero)...); err != nil {
		t.Fatal(err)
	}
	_, want := zero[0].(*Matches).Count()
	if want == 0 {
		t.Fatal("the corpus has no finished match to archive")
	}
	kept := readSide(reg, -1, store)
	if err := Rebuild(ctx, store, nil, projs(kept)...); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := WriteSnapshot(ctx, store, dir, kept...); err != nil {
		t.Fatal(err)
	}
	after := readSide(reg, 0, store)
	if used, refused, err := LoadSnapshot(ctx, store, dir, func() []Stored { return after }); err != nil || used == "" || len(refused) > 0 {
		t.Fatalf("used %q, refused %v, err %v", used, refused, err)
	}
	m := after[0].(*Matches)
	if next := m.Archive(time.Now()); !next.IsZero() {
		t.Errorf("a match still waits to be archived at %v, with ArchiveAfter 0", next)
	}
	if _, got := m.Count(); got != want {
		t.Fatalf("%d matches archived after the snapshot, %d by a fold from zero", got, want)
	}
	if got, want := digests(after), digests(zero); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("archived after the snapshot:\n%s\nfrom zero:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Two snapshots, the newest refused (damaged; or, past every check made before reading
// it, holding a game this build does not play, found as the models read it): the models
// start from the older one, made anew when they had begun to read the newest, and fold on
// as from zero; with both refused, they are left empty and fold from zero.
func TestARefusedNewestSnapshotFallsBackToTheOlder(t *testing.T) {
	ctx := context.Background()
	store, head := corpusStore(t)
	reg := game.NewRegistry(classic.Rules{}, magicchess.Rules{}, solwaris.Rules{}, sovereignchess.Rules{}, unfair.Rules{})
	zero := readSide(reg, -1, store)
	if err := Rebuild(ctx, store, nil, projs(zero)...); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(digests(zero), "\n")
	dir := t.TempDir()
	var paths []string // oldest first
	for _, at := range []int64{head / 3, 2 * head / 3} {
		ms := readSide(reg, -1, store)
		if err := Rebuild(ctx, upTo{store, at}, nil, projs(ms)...); err != nil {
			t.Fatal(err)
		}
		p, err := WriteSnapshot(ctx, store, dir, ms...)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	good := [2][]byte{must[[]byte](t)(os.ReadFile(paths[0])), must[[]byte](t)(os.ReadFile(paths[1]))}
	damage := func(b []byte) []byte {
		b = bytes.Clone(b)
		b[len(b)/2] ^= 0x20
		return b
	}
	for _, c := range []struct {
		name      string
		files     func() [2][]byte
		used      string // "" for a fold from zero
		reason    string
		remade    bool // the models were made anew
		remadeOld bool
	}{
		{"the newest damaged", func() [2][]byte { return [2][]byte{good[0], damage(good[1])} }, paths[0], "SHA-256 does not match", false, false},
		{"the newest of a game not played", func() [2][]byte { return [2][]byte{good[0], unplayable(t, good[1])} }, paths[0], "does not play", true, false},
		{"both of a game not played", func() [2][]byte { return [2][]byte{unplayable(t, good[0]), unplayable(t, good[1])} }, "", "does not play", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := c.files()
			for i, p := range paths {
				if err := os.WriteFile(p, files[i], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var made [][]Stored
			used, refused, err := LoadSnapshot(ctx, store, dir, func() []Stored {
				made = append(made, readSide(reg, -1, store))
				return made[len(made)-1]
			})
			if err != nil || used != c.used {
				t.Fatalf("used %q, want %q (err %v, refused %v)", used, c.used, err, refused)
			}
			if len(refused) == 0 || refused[0].Path != paths[1] || !strings.Contains(refused[0].Reason, c.reason) {
				t.Fatalf("refused %v, want the newest, saying %q", refused, c.reason)
			}
			if wantMade := 1 + btoi(c.remade) + btoi(c.remadeOld); len(made) != wantMade {
				t.Fatalf("the models were made %d times, want %d", len(made), wantMade)
			}
			ms := made[len(made)-1]
			if used == "" {
				for _, m := range ms {
					if m.Checkpoint() != 0 {
						t.Fatalf("no snapshot used, and %s is at %d, not empty", m.Name(), m.Checkpoint())
					}
				}
			}
			if err := Rebuild(ctx, store, nil, projs(ms)...); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(digests(ms), "\n"); got != want {
				t.Fatalf("folded on:\n%s\nfrom zero:\n%s", got, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// must is v, or the test's end with err.
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// unplayable is the snapshot file b with its matches' last view of a game no build plays,
// its checksum made anew: every check before the models read it passes.
func unplayable(t *testing.T, b []byte) []byte {
	t.Helper()
	s := must[snapshot.Snapshot](t)(snapshot.Decode("forged", b))
	for i, part := range s.Models {
		if part.Name != "matches" {
			continue
		}
		var sm StoredMatches
		if err := decode(part.Data, &sm); err != nil {
			t.Fatal(err)
		}
		if len(sm.Views) == 0 {
			t.Fatal("the snapshot holds no match")
		}
		sm.Views[len(sm.Views)-1].State.Game = "no-such-game"
		s.Models[i].Data = must[[]byte](t)(encode(&sm))
	}
	var out bytes.Buffer
	if err := snapshot.Encode(&out, s); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
