package magicchess

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// TestStoredCorpusStates: every state of every Ajedrez Mágico match of the corpus
// (testdata/corpus: recorded matches of each rules version, one board and doubles, in the
// export format), folded by the rules of its version, writes a form that reads back,
// writes the same bytes again, and reports the same Status and spectator's View. The
// invariants DecodeState checks must hold for what real matches reached, not only for
// this package's random ones.
func TestStoredCorpusStates(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "corpus", "magic-*.ndjson"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Ajedrez Mágico match in the corpus: %v", err)
	}
	tables := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			version, events := corpusEvents(t, file)
			r := Rules{}
			if version != RulesVersion {
				r = rulesOf(t, version)
			}
			var st game.State
			for i, e := range events {
				st = r.Evolve(st, e)
				b, err := r.EncodeState(st)
				if err != nil {
					t.Fatalf("event %d (%s): %v", i, e.EventType(), err)
				}
				back, err := r.DecodeState(b)
				if err != nil {
					t.Fatalf("event %d (%s): %v", i, e.EventType(), err)
				}
				if again, _ := r.EncodeState(back); !bytes.Equal(again, b) {
					t.Fatalf("event %d (%s): the state read back writes other bytes", i, e.EventType())
				}
				if !reflect.DeepEqual(r.Status(st), r.Status(back)) || !reflect.DeepEqual(r.View(st, game.Viewpoint{}), r.View(back, game.Viewpoint{})) {
					t.Fatalf("event %d (%s): the state read back shows otherwise", i, e.EventType())
				}
			}
			if _, ok := st.(Table); ok {
				tables++
			}
		})
	}
	if tables == 0 {
		t.Error("no doubles match in the corpus")
	}
}

// corpusEvents reads an exported match: its rules version, and its game's events in the
// file's order (the match's stream, then its teams' hidden streams).
func corpusEvents(t *testing.T, file string) (string, []game.Event) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var header struct{ RulesVersion string }
	var events []game.Event
	for first := true; sc.Scan(); first = false {
		if first {
			if err := json.Unmarshal(sc.Bytes(), &header); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var line struct {
			Type          string
			SchemaVersion int
			Payload       json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if !codec.Knows(line.Type) {
			continue // the match's own events: seats, seeds, the result
		}
		e, err := codec.Decode(line.Type, line.SchemaVersion, line.Payload)
		if err != nil {
			t.Fatalf("%s: %v", line.Type, err)
		}
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(header.RulesVersion, "magic-") || len(events) == 0 {
		t.Fatalf("%s: rules %q, %d events", file, header.RulesVersion, len(events))
	}
	return header.RulesVersion, events
}
