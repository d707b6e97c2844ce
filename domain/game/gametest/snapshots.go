package gametest

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Folded is one match as its game folded it: States[i] is the state after Events[:i+1],
// so States[0] is the state after the opening event.
type Folded struct {
	Events []game.Event
	States []game.State
}

// Add folds e into the last state and records both.
func (f *Folded) Add(rules game.Rules, e game.Event) game.State {
	var st game.State
	if n := len(f.States); n > 0 {
		st = f.States[n-1]
	}
	st = rules.Evolve(st, e)
	f.Events, f.States = append(f.Events, e), append(f.States, st)
	return st
}

// Snapshots checks a game's stored form (game.Snapshotting) at every state of a match:
// the state read back from its bytes writes the same bytes, reports the same Status, shows
// every viewer the same View (and the same plays), decides each of probes(state) alike,
// shares no memory with the bytes it was read from, and folding the rest of the match on
// it gives, event by event, the states the match had, while the state it was written from
// stays as it was. rules are the rules the match was folded with (a pinned version's).
func Snapshots(t *testing.T, rules game.Rules, m Folded, viewers []game.Viewpoint, probes func(st game.State) []game.Action) {
	t.Helper()
	sn, ok := rules.(game.Snapshotting)
	if !ok {
		t.Fatalf("%s does not implement game.Snapshotting", rules.Info().ID)
	}
	encoded := make([][]byte, len(m.States))
	for i, st := range m.States {
		b, err := sn.EncodeState(st)
		if err != nil {
			t.Fatalf("state %d: EncodeState: %v", i, err)
		}
		encoded[i] = b
	}
	for i, st := range m.States {
		b := bytes.Clone(encoded[i])
		d, err := sn.DecodeState(b)
		if err != nil {
			t.Fatalf("state %d (%d bytes): DecodeState of its own form: %v", i, len(b), err)
		}
		for j := range b { // the bytes are the caller's: the state must not keep them
			b[j] ^= 0xff
		}
		if again := mustEncode(t, sn, d); !bytes.Equal(again, encoded[i]) {
			t.Fatalf("state %d: the state read back writes other bytes:\n%x\n%x", i, encoded[i], again)
		}
		sameState(t, i, rules, st, d, viewers, probes)
		if i+1 < len(m.States) { // a fork of the match's state leaves the one read back alone
			rules.Evolve(st, m.Events[i+1])
			if got := mustEncode(t, sn, d); !bytes.Equal(got, encoded[i]) {
				t.Fatalf("state %d read back changed when the match's state was folded on", i)
			}
		}
		for j := i + 1; j < len(m.States); j++ {
			d = rules.Evolve(d, m.Events[j])
			if got := mustEncode(t, sn, d); !bytes.Equal(got, encoded[j]) {
				t.Fatalf("state %d read back, then folded to state %d, differs from the match's:\n%x\n%x", i, j, encoded[j], got)
			}
			if j == i+1 || j == len(m.States)-1 {
				sameState(t, j, rules, m.States[j], d, viewers, probes)
			}
		}
		if got := mustEncode(t, sn, st); !bytes.Equal(got, encoded[i]) {
			t.Fatalf("state %d changed when the state read back from it was folded on", i)
		}
	}
}

func mustEncode(t *testing.T, sn game.Snapshotting, st game.State) []byte {
	t.Helper()
	b, err := sn.EncodeState(st)
	if err != nil {
		t.Fatalf("EncodeState: %v", err)
	}
	return b
}

// sameState checks that want and got, the states of the match and read back at state i,
// behave alike.
func sameState(t *testing.T, i int, rules game.Rules, want, got game.State, viewers []game.Viewpoint, probes func(st game.State) []game.Action) {
	t.Helper()
	if w, g := rules.Status(want), rules.Status(got); !reflect.DeepEqual(w, g) {
		t.Fatalf("state %d: Status %+v, read back %+v", i, w, g)
	}
	if v, ok := rules.(game.Viewed); ok {
		for _, p := range viewers {
			w, g := v.View(want, p), v.View(got, p)
			if !reflect.DeepEqual(w, g) {
				t.Fatalf("state %d: View for %+v\n%+v\nread back\n%+v", i, p, w, g)
			}
			if w != nil && !reflect.DeepEqual(w.Plays(), g.Plays()) {
				t.Fatalf("state %d: the plays for %+v differ once read back", i, p)
			}
		}
	}
	if r, ok := rules.(game.Recorded); ok && !reflect.DeepEqual(r.MoveList(want), r.MoveList(got)) {
		t.Fatalf("state %d: MoveList %v, read back %v", i, r.MoveList(want), r.MoveList(got))
	}
	if b, ok := rules.(game.Boarded); ok && !reflect.DeepEqual(b.Board(want), b.Board(got)) {
		t.Fatalf("state %d: Board %+v, read back %+v", i, b.Board(want), b.Board(got))
	}
	if probes == nil {
		return
	}
	for _, a := range probes(want) {
		we, werr := rules.Decide(want, a)
		ge, gerr := rules.Decide(got, a)
		if !reflect.DeepEqual(we, ge) || !sameError(werr, gerr) {
			t.Fatalf("state %d: Decide %+v gives %+v, %v; read back %+v, %v", i, a, we, werr, ge, gerr)
		}
	}
}

// sameError compares two rejections by their text and code.
func sameError(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	var ea, eb *game.Error
	return a.Error() == b.Error() && errors.As(a, &ea) == errors.As(b, &eb) && (ea == nil || ea.Code == eb.Code)
}

// BenchmarkSnapshots measures a game's stored form at the last state of m: writing it,
// reading it back, and, for comparison, folding the same match from its stored events as
// a boot without a snapshot does (each payload decoded by the game's codec, then evolved).
// Each reports the bytes it reads: the form's, or all the payloads'.
func BenchmarkSnapshots(b *testing.B, rules game.Rules, m Folded) {
	sn := rules.(game.Snapshotting)
	st := m.States[len(m.States)-1]
	enc, err := sn.EncodeState(st)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := sn.EncodeState(st); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(enc)), "bytes/state")
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := sn.DecodeState(enc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(enc)), "bytes/state")
	})
	type stored struct {
		typ     string
		payload []byte
	}
	var events []stored
	size := 0
	for _, e := range m.Events {
		p, err := game.Encode(e)
		if err != nil {
			b.Fatal(err)
		}
		events = append(events, stored{e.EventType(), p})
		size += len(p)
	}
	codec := rules.Events()
	b.Run("fold", func(b *testing.B) {
		for b.Loop() {
			var s game.State
			for _, e := range events {
				ev, err := codec.Decode(e.typ, codec.Schema(e.typ), e.payload)
				if err != nil {
					b.Fatal(err)
				}
				s = rules.Evolve(s, ev)
			}
		}
		b.ReportMetric(float64(size), "bytes/state")
		b.ReportMetric(float64(len(events)), "events")
	})
}
