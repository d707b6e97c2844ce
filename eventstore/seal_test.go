package eventstore_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// layout is the documented hash encoding (see eventstore.Hash), written here the plain
// way, field by field, so that Seal's buffers and its writing of a visibility without
// building its string are checked against what the store has always stored.
type layout []byte

func (l layout) str(s string) layout {
	return append(binary.BigEndian.AppendUint64(l, uint64(len(s))), s...)
}
func (l layout) num(v int64) layout {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(l, 8), uint64(v))
}
func (l layout) hexSHA256() string { s := sha256.Sum256(l); return hex.EncodeToString(s[:]) }

// TestSealStoresTheDocumentedHashes seals appends of events of every visibility, with
// payloads empty, small and larger than Seal's stack buffer, and checks each event's Hash
// and GlobalHash against the layout computed independently, the chains' links, and that
// the payloads were copied apart from one another.
func TestSealStoresTheDocumentedHashes(t *testing.T) {
	vis := []visibility.Visibility{visibility.Public, visibility.Server, visibility.Seat(0), visibility.Seat(12),
		visibility.Team(3), visibility.Team(1234567)}
	payloads := [][]byte{nil, []byte(`{}`), []byte(`{"fen":"` + strings.Repeat("p", 300) + `"}`),
		[]byte(`{"big":"` + strings.Repeat("q", 5000) + `"}`)}
	var proposed []eventstore.Proposed
	for i := range 12 {
		proposed = append(proposed, eventstore.Proposed{
			ID: "id-" + strings.Repeat("x", i), Type: "MovePlayed", SchemaVersion: 1 + i%2,
			Payload: bytes.Clone(payloads[i%len(payloads)]), CommandID: "cmd", Actor: "seat:1",
			Visibility: vis[i%len(vis)],
		})
	}
	proposed[3].Time = time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600))
	now := time.Unix(1796124602, 962539000)
	const lastHash, prevGlobal = "ab", "cd"
	sealed := eventstore.Seal("match-1", 7, lastHash, 100, prevGlobal, now, proposed)

	prev, global := lastHash, prevGlobal
	for i, e := range sealed {
		when := now
		if i == 3 {
			when = proposed[3].Time
		}
		want := layout(nil).str("arbiter.event.v1").str(prev).str("match-1").num(int64(8 + i)).str(proposed[i].ID).
			str("MovePlayed").num(int64(1 + i%2)).str(string(proposed[i].Payload)).str("cmd").str("seat:1").
			str(proposed[i].Visibility.String()).num(when.UnixNano()).hexSHA256()
		wantGlobal := layout(nil).str("arbiter.global.v1").str(global).num(int64(100 + i)).str(want).hexSHA256()
		if e.Hash != want || e.GlobalHash != wantGlobal || e.PrevHash != prev || e.Version != int64(8+i) || e.Position != int64(100+i) {
			t.Errorf("event %d (visibility %q, payload of %d bytes): sealed as version %d, position %d, prev %s, hash %s, global %s; want %d, %d, %s, %s, %s",
				i, proposed[i].Visibility, len(proposed[i].Payload), e.Version, e.Position, e.PrevHash, e.Hash, e.GlobalHash, 8+i, 100+i, prev, want, wantGlobal)
		}
		if !bytes.Equal(e.Payload, proposed[i].Payload) || (e.Payload == nil) != (proposed[i].Payload == nil) {
			t.Errorf("event %d: payload %q, want %q", i, e.Payload, proposed[i].Payload)
		}
		if !e.Time.Equal(when) || e.Time.Location() != time.UTC {
			t.Errorf("event %d: time %v, want %v in UTC", i, e.Time, when)
		}
		prev, global = want, wantGlobal
	}
	// The copies are the store's: the caller's buffers may change, and an append to one
	// event's payload does not reach the next event's.
	for i := range proposed {
		for k := range proposed[i].Payload {
			proposed[i].Payload[k] = '!'
		}
	}
	_ = append(sealed[1].Payload, "overwrite"...)
	for i, e := range sealed {
		if bytes.ContainsRune(e.Payload, '!') || bytes.Contains(e.Payload, []byte("overwrite")) {
			t.Errorf("event %d: payload %q changed with the caller's buffer or its neighbour's", i, e.Payload)
		}
	}
}
