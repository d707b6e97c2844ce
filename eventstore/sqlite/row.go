package sqlite

import (
	"database/sql/driver"
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

// columnsV3 are the columns of an event of schema version 3, in the order of rowArgs.append.
const columnsV3 = "position, stream_id, version, id, type, schema_version, payload, command_id, actor, visibility, time_ns, prev_hash, hash, global_hash"

// insertColumns lists the columns an INSERT writes, in the order of rowArgs.append.
const insertColumns = columnsV3 + ", prev"

// selectColumns reads an event with its stream's name, in the order of scanEvent, from
// fromEvents. The join is an outer one so that an event whose stream is missing (a file
// changed by hand) fails the read rather than vanishing from it.
const (
	selectColumns = "e.position, s.name, e.version, e.id, e.type, e.schema_version, e.payload, e.command_id, e.actor, e.visibility, e.time_ns, e.prev_hash, e.hash, e.global_hash"
	fromEvents    = "events e LEFT JOIN streams s ON s.id = e.stream_id"
)

// rowBlobs is the room a row needs for its ID and its three hashes in their stored form.
const rowBlobs = 16 + 3*32

// rowArgs are the arguments of the writer's INSERTs of events, built in place statement
// after statement. The stored forms of the ID and the hashes are written over the same
// bytes each time, at the same place for a given row and column, and so are boxed once:
// making an any of a []byte allocates its slice header, four per row.
type rowArgs struct {
	blobs []byte // rowBlobs a row: id, prev_hash, hash, global_hash
	boxed []any  // 4 a row: the slices of blobs, boxed
}

func newRowArgs(rows int) *rowArgs {
	r := &rowArgs{blobs: make([]byte, rows*rowBlobs), boxed: make([]any, 0, 4*rows)}
	for row := range rows {
		at := row * rowBlobs
		for _, n := range [...]int{16, 32, 32, 32} {
			r.boxed = append(r.boxed, r.blobs[at:at+n:at+n])
			at += n
		}
	}
	return r
}

// append appends to args the values of e's row, the row-th of its statement, its stream
// interned as streamID and prev the position of the stream's previous event, in the order
// of insertColumns. The driver copies what it binds: the blobs may be written over once
// the statement ran.
func (r *rowArgs) append(args []driver.NamedValue, row int, e eventstore.Event, streamID, prev int64) []driver.NamedValue {
	at, boxed := row*rowBlobs, r.boxed[4*row:4*row+4]
	var id any = boxed[0]
	if !storeID(r.blobs[at:at+16:at+16], e.ID) {
		id = e.ID
	}
	var hashes [3]any
	for i, h := range [...]string{e.PrevHash, e.Hash, e.GlobalHash} {
		hashes[i] = boxed[1+i]
		if from := at + 16 + 32*i; !decodeHex(r.blobs[from:from+32:from+32], h) {
			hashes[i] = h
		}
	}
	// The driver binds int64, string and []byte as they are, and refuses an int.
	for _, v := range [...]any{e.Position, streamID, e.Version, id, e.Type, int64(e.SchemaVersion), e.Payload,
		e.CommandID, e.Actor, e.Visibility.String(), e.Time.UnixNano(), hashes[0], hashes[1], hashes[2], prev} {
		args = append(args, driver.NamedValue{Ordinal: len(args) + 1, Value: v})
	}
	return args
}

// storedID returns the stored form of an event ID: see the top of this file.
func storedID(id string) any {
	if b := make([]byte, 16); storeID(b, id) {
		return b
	}
	return id
}

// storeID writes into dst, 16 bytes, the bytes id encodes, if it is in the form stored as
// bytes, and reports whether it was.
func storeID(dst []byte, id string) bool {
	return len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' &&
		decodeHex(dst[0:4], id[0:8]) && decodeHex(dst[4:6], id[9:13]) && decodeHex(dst[6:8], id[14:18]) &&
		decodeHex(dst[8:10], id[19:23]) && decodeHex(dst[10:16], id[24:36])
}

// decodeHex writes into dst the bytes s encodes, if s is 2*len(dst) lowercase hex digits,
// and reports whether it was.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	var bad byte
	for i := range dst {
		hi, lo := hexValue[s[2*i]], hexValue[s[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&0x0f
	}
	return bad&0xf0 == 0
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
