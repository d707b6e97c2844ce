package sqlite

import (
	"database/sql/driver"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// TestStoredForms: an ID or a hash is stored as bytes exactly when it is in the form that
// reads back the same, and any other value as its text, so every value has one stored form.
func TestStoredForms(t *testing.T) {
	for _, c := range []struct {
		id    string
		bytes int // 0: stored as text
	}{
		{"19d49992-c8e5-9d35-cda1-fd5764890ade", 16},
		{"19D49992-c8e5-9d35-cda1-fd5764890ade", 0},
		{"19d49992-c8e5-9d35-cda1-fd5764890adg", 0},
		{"19d49992c-8e5-9d35-cda1-fd5764890ade", 0},
		{"19d49992-c8e5-9d35-cda1-fd5764890ad", 0},
		{"loot:match-x:0", 0},
		{"", 0},
	} {
		checkForm(t, "ID", c.id, storedID(c.id), c.bytes)
	}
	hash := "e45bde70727ad0f05df27d3b76c5a9af38695bd6aab69f7e2cea48e374b01aee"
	for _, c := range []struct {
		hash  string
		bytes int
	}{
		{hash, 32},
		{hash[:63] + "E", 0},
		{hash[:63] + "g", 0},
		{hash[:62], 0},
		{hash + "00", 0},
		{"", 0},
	} {
		checkForm(t, "hash", c.hash, storedHash(c.hash), c.bytes)
	}
}

// checkForm checks that value was stored as n bytes (0: as its text) and reads back.
func checkForm(t *testing.T, what, value string, stored any, n int) {
	t.Helper()
	var back string
	var err error
	switch what {
	case "ID":
		err = textID{&back}.Scan(stored)
	default:
		err = textHash{&back}.Scan(stored)
	}
	b, isBytes := stored.([]byte)
	switch {
	case n == 0 && isBytes, n > 0 && (!isBytes || len(b) != n):
		t.Errorf("%s %q stored as %T %x, want %d bytes (0: its text)", what, value, stored, stored, n)
	case err != nil || back != value:
		t.Errorf("%s %q stored as %x reads back as %q, %v", what, value, stored, back, err)
	case n == 0 && stored != value:
		t.Errorf("%s %q stored as text %q", what, value, stored)
	}
}

// storedHash is the stored form of a hash, as storedID is of an ID.
func storedHash(h string) any {
	if b := make([]byte, 32); decodeHex(b, h) {
		return b
	}
	return h
}

// TestRowArgs: the arguments of an INSERT of several rows, built in the same rowArgs
// statement after statement, are each time the values of the rows in the order of
// insertColumns, an ID and the hashes in their stored form, whatever the rows before held.
func TestRowArgs(t *testing.T) {
	const hash = "e45bde70727ad0f05df27d3b76c5a9af38695bd6aab69f7e2cea48e374b01aee"
	event := func(i int, id, prevHash string) eventstore.Event {
		return eventstore.Event{Proposed: eventstore.Proposed{ID: id, Type: "MovePlayed", SchemaVersion: 2,
			Payload: []byte{byte(i)}, CommandID: "c", Actor: "a", Visibility: visibility.Seat(i), Time: time.Unix(0, int64(i))},
			Stream: "s", Version: int64(300 + i), Position: int64(1000 + i), PrevHash: prevHash, Hash: hash[i:] + hash[:i], GlobalHash: hash}
	}
	r := newRowArgs(3)
	for _, stmt := range [][]eventstore.Event{
		{event(0, "19d49992-c8e5-9d35-cda1-fd5764890ade", ""), event(1, "loot:x", hash), event(2, "29d49992-c8e5-9d35-cda1-fd5764890ade", hash)},
		{event(3, "loot:y", hash), event(4, "39d49992-c8e5-9d35-cda1-fd5764890ade", "")},
		{event(5, "49d49992-c8e5-9d35-cda1-fd5764890ade", hash[1:]+"0"), event(6, "59d49992-c8e5-9d35-cda1-fd5764890ade", "x")},
	} {
		var got, want []driver.NamedValue
		for row, e := range stmt {
			got = r.append(got, row, e, 7, e.Position-1)
			for _, v := range []any{e.Position, int64(7), e.Version, storedID(e.ID), e.Type, int64(e.SchemaVersion), e.Payload,
				e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(), storedHash(e.PrevHash), storedHash(e.Hash),
				storedHash(e.GlobalHash), e.Position - 1} {
				want = append(want, driver.NamedValue{Ordinal: len(want) + 1, Value: v})
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the arguments of %d rows:\n got %v\nwant %v", len(stmt), got, want)
		}
	}
}
