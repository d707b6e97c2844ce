package replay_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/replay"
)

// An export's lines give back the stored events byte for byte, so their hashes still
// chain: a payload that is not compact JSON included (written in base64), and the time
// to the nanosecond.
func TestExportRoundTripsTheHashedBytes(t *testing.T) {
	at := time.Date(2026, 12, 1, 7, 0, 0, 123456789, time.UTC)
	evs := eventstore.Seal("match-m1", 0, "", 1, "", at, []eventstore.Proposed{
		{ID: "e1", Type: "A", SchemaVersion: 1, Payload: []byte(`{"fen":"8/8/8/8/8/8/8/8 w - - 0 1","x":"<&>"}`), Actor: "system"},
		{ID: "e2", Type: "B", SchemaVersion: 2, Payload: []byte("{ \"spaced\": [1, 2] }"), CommandID: "c1", Actor: "seat:0", Visibility: visibility.Seat(1)},
	})
	var buf bytes.Buffer
	lines := []replay.ExportLine{replay.LineOf(evs[0], false), replay.LineOf(evs[1], false)}
	if err := replay.WriteExport(&buf, replay.ExportHeader{Match: "m1", Version: 2}, lines); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"x":"<&>"`) || !strings.Contains(buf.String(), `"payloadBase64":`) {
		t.Errorf("the payloads are not written as stored:\n%s", buf.String())
	}
	x, err := replay.ReadExport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := x.Events()
	if err != nil {
		t.Fatal(err)
	}
	if err := eventstore.VerifyChain(back); err != nil {
		t.Fatalf("the events read back do not chain: %v", err)
	}
	if x.Header.Format != replay.ExportFormat || !back[1].Time.Equal(evs[1].Time) || back[1].Visibility != visibility.Seat(1) {
		t.Errorf("read back %+v and %+v", x.Header, back[1])
	}

	x.Lines[1].Redacted = true
	if _, err := x.Events(); err == nil || !strings.Contains(err.Error(), "hidden") {
		t.Errorf("the events of a redacted export: %v, want a refusal", err)
	}
}

// What is not an export is refused with the line that is wrong.
func TestReadExportRefusesWhatIsNotOne(t *testing.T) {
	header := `{"format":"arbiter.match.ndjson/v1","match":"m1","version":0}` + "\n"
	for name, c := range map[string]struct{ text, want string }{
		"empty":          {"", "empty"},
		"another format": {`{"format":"other/v9"}` + "\n", `format "other/v9"`},
		"not json":       {header + "hello\n", "line 2"},
		"unknown field":  {header + `{"version":1,"owner":"mallory"}` + "\n", "line 2"},
	} {
		if _, err := replay.ReadExport(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, c.want)
		}
	}
}

// An export hiding events from its viewer still links line to line: a visible line edited,
// a hidden line's hash changed and a line dropped are each caught, at the first version
// they break, before the problem that the export hides events.
func TestAHiddenExportStillChains(t *testing.T) {
	at := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	evs := eventstore.Seal("match-m1", 0, "", 1, "", at, []eventstore.Proposed{
		{ID: "e1", Type: "A", SchemaVersion: 1, Payload: []byte(`{"n":1}`), Actor: "system"},
		{ID: "e2", Type: "B", SchemaVersion: 1, Payload: []byte(`{"secret":2}`), Actor: "seat:1", Visibility: visibility.Seat(1)},
		{ID: "e3", Type: "A", SchemaVersion: 1, Payload: []byte(`{"n":3}`), Actor: "system"},
		{ID: "e4", Type: "A", SchemaVersion: 1, Payload: []byte(`{"n":4}`), Actor: "system"},
	})
	export := func(change func([]replay.ExportLine) []replay.ExportLine) replay.Export {
		lines := make([]replay.ExportLine, len(evs))
		for i, ev := range evs {
			lines[i] = replay.LineOf(ev, i == 1)
		}
		lines[1].Payload, lines[1].CommandID = nil, ""
		lines = change(lines)
		return replay.Export{Header: replay.ExportHeader{Match: "m1", Version: lines[len(lines)-1].Version, Viewer: "player:p0", Redacted: 1}, Lines: lines}
	}
	for name, c := range map[string]struct {
		change  func([]replay.ExportLine) []replay.ExportLine
		version int64
		check   string
	}{
		"intact": {func(l []replay.ExportLine) []replay.ExportLine { return l }, 0, ""},
		"a visible line edited": {func(l []replay.ExportLine) []replay.ExportLine {
			l[2].Payload = []byte(`{"n":33}`)
			return l
		}, 3, replay.CheckChain},
		"a hidden line's hash changed": {func(l []replay.ExportLine) []replay.ExportLine {
			l[1].Hash = strings.Repeat("0", 64)
			return l
		}, 3, replay.CheckChain},
		"a line dropped": {func(l []replay.ExportLine) []replay.ExportLine { return append(l[:2:2], l[3]) }, 3, replay.CheckVersion},
	} {
		r := replay.VerifyExport(nil, export(c.change))
		last := r.Problems[len(r.Problems)-1]
		if last.Check != replay.CheckRedacted || !strings.Contains(last.Detail, "first at version 2") {
			t.Errorf("%s: the last problem is %v, want the hidden events named", name, last)
		}
		switch {
		case c.check == "" && len(r.Problems) != 1:
			t.Errorf("%s: %v, want the redaction alone", name, r.Problems)
		case c.check != "" && (len(r.Problems) != 2 || r.Problems[0].Version != c.version || r.Problems[0].Check != c.check):
			t.Errorf("%s: %v, want %s at version %d first", name, r.Problems, c.check, c.version)
		}
	}
}
