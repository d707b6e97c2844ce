package sqlite

import (
	"encoding/hex"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// The stored form of an event (schema version 4). Every append writes its row into the
// table and its ID into the index events_by_id, and commits each page it changed whole to
// the WAL, so the form is as narrow as an exact one can be, where it counts for the pages
// an append dirties:
//
//   - the stream is a small integer, interned in the streams table in order of first use,
//     so the live matches, the newest streams, have the highest IDs and their rows in
//     heads share a few pages;
//   - an event ID in the lowercase UUID form the engine makes is stored as its 16 bytes,
//     any other ID as its text: an ID has exactly one stored form, so the UNIQUE index on
//     id refuses exactly the IDs it refused as text;
//   - a hash (prev_hash, hash, global_hash) of 64 lowercase hex digits is stored as its
//     32 bytes, any other value (the empty prev_hash of a stream's first event, or a value
//     written by hand) as its text.
//
// Reading gives back the strings, byte for byte: the hashes are computed over the events'
// fields, never over this form, so the chains and the signed head are unchanged.
//
// No index on (stream_id, version) (schema version 3 had one): with a thousand live
// streams every append landed in a leaf of its own of that index, and each dirty leaf cost
// a whole page of WAL per transaction, then again at the checkpoint, two thirds of the
// pages an append wrote (docs/benchmarks.md, "Schema 4"). Instead each row carries prev,
// the position of its stream's previous event (0 for the first), so a stream is a chain
// read backwards from its head; heads holds each stream's last version and the position
// of its last event, written once per transaction for every stream it appended to; and
// marks holds the position of every markEvery-th version, so that a page read far below
// the head starts at the first mark above it rather than at the head: a read of limit
// events walks at most limit+markEvery rows.

// markEvery is the distance between two versions of a stream that marks holds.
const markEvery = 64

// columnsV3 are the columns of an event of schema version 3, in the order of appendArgs.
const columnsV3 = "position, stream_id, version, id, type, schema_version, payload, command_id, actor, visibility, time_ns, prev_hash, hash, global_hash"

// insertColumns lists the columns an INSERT writes, in the order of appendArgs.
const insertColumns = columnsV3 + ", prev"

// selectColumns reads an event with its stream's name, in the order of scanEvent, from
// fromEvents. The join is an outer one so that an event whose stream is missing (a file
// changed by hand) fails the read rather than vanishing from it.
const (
	selectColumns = "e.position, s.name, e.version, e.id, e.type, e.schema_version, e.payload, e.command_id, e.actor, e.visibility, e.time_ns, e.prev_hash, e.hash, e.global_hash"
	fromEvents    = "events e LEFT JOIN streams s ON s.id = e.stream_id"
)

// appendArgs appends the values of e's row, its stream interned as streamID and prev the
// position of the stream's previous event, in the order of insertColumns. Blobs are cut from *scratch, which the caller keeps for the statement:
// the driver copies bound values, so scratch may be reused once the statement ran.
func appendArgs(args []any, scratch *[]byte, e eventstore.Event, streamID, prev int64) []any {
	return append(args, e.Position, streamID, e.Version, storedID(scratch, e.ID), e.Type, e.SchemaVersion, e.Payload,
		e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(),
		storedHash(scratch, e.PrevHash), storedHash(scratch, e.Hash), storedHash(scratch, e.GlobalHash), prev)
}

// storedID returns the stored form of an event ID: see the top of this file.
func storedID(scratch *[]byte, id string) any {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return id
	}
	start := len(*scratch)
	for _, part := range [...]string{id[0:8], id[9:13], id[14:18], id[19:23], id[24:36]} {
		if !appendHex(scratch, part) {
			*scratch = (*scratch)[:start]
			return id
		}
	}
	return (*scratch)[start:len(*scratch):len(*scratch)]
}

// storedHash returns the stored form of a hash: see the top of this file.
func storedHash(scratch *[]byte, h string) any {
	start := len(*scratch)
	if len(h) != 64 || !appendHex(scratch, h) {
		*scratch = (*scratch)[:start]
		return h
	}
	return (*scratch)[start:len(*scratch):len(*scratch)]
}

// appendHex appends the bytes that s, an even number of lowercase hex digits, encodes,
// and reports whether s was that; if not, what it appended is to be dropped.
func appendHex(dst *[]byte, s string) bool {
	var bad byte
	for i := 0; i+1 < len(s); i += 2 {
		hi, lo := hexValue[s[i]], hexValue[s[i+1]]
		bad |= hi | lo
		*dst = append(*dst, hi<<4|lo&0x0f)
	}
	return bad&0xf0 == 0 && len(s)%2 == 0
}

// hexValue maps a lowercase hex digit to its value and any other byte to 0xff.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()

// textID reads an id column into the string it stores (sql.Scanner).
type textID struct{ s *string }

func (t textID) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*t.s = v
	case []byte:
		if len(v) != 16 {
			return fmt.Errorf("an event ID stored as %d bytes, not 16", len(v))
		}
		x := hex.EncodeToString(v)
		*t.s = x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
	default:
		return fmt.Errorf("an event ID stored as %T", src)
	}
	return nil
}

// textHash reads a hash column into the string it stores (sql.Scanner).
type textHash struct{ s *string }

func (t textHash) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*t.s = v
	case []byte:
		if len(v) != 32 {
			return fmt.Errorf("a hash stored as %d bytes, not 32", len(v))
		}
		*t.s = hex.EncodeToString(v)
	default:
		return fmt.Errorf("a hash stored as %T", src)
	}
	return nil
}

// scanEvent reads one row of selectColumns.
func scanEvent(row sqlstore.Scanner) (eventstore.Event, error) { return sqlstore.Scan(storedRow{row}) }

// storedRow is a row of selectColumns as sqlstore.Scan reads one of sqlstore.Columns: the
// same columns in the same order, the ID and the hashes in their stored form.
type storedRow struct{ sqlstore.Scanner }

func (r storedRow) Scan(dest ...any) error {
	dest[3] = textID{dest[3].(*string)}
	for i := 11; i <= 13; i++ {
		dest[i] = textHash{dest[i].(*string)}
	}
	return r.Scanner.Scan(dest...)
}
