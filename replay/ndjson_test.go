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
