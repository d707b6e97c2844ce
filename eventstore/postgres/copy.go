package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// copyEvents is the COPY of a batch's events, in PostgreSQL's binary COPY format.
const copyEvents = `COPY events (` + sqlstore.Columns + `) FROM STDIN (FORMAT binary)`

// copyHeader opens a binary COPY stream: the signature, no flags, no header extension.
var copyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// copyRows stores events with one COPY. It encodes the rows itself, into one buffer,
// rather than through pgx.CopyFrom: that boxes each of the 14 values in an interface and
// looks up an encoder for each, which cost about half the client's CPU per row on the
// write path (issue 18). The column types are fixed by the schema (tables), so every
// value's wire form is known: bigint and integer big-endian, text and bytea their bytes.
// buf is reused across batches; copyRows returns it, grown as needed.
func copyRows(ctx context.Context, conn *pgxpool.Conn, buf []byte, events []eventstore.Event) ([]byte, error) {
	buf, err := appendCopy(buf[:0], events)
	if err != nil {
		return buf, fmt.Errorf("insert events: %w", err)
	}
	if _, err := conn.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(buf), copyEvents); err != nil {
		return buf, fmt.Errorf("insert events: %w", err)
	}
	return buf, nil
}

// appendCopy appends events as a whole binary COPY stream (header, one tuple each in
// the order of sqlstore.Columns, trailer) to buf. A schema version beyond the integer
// column's range is refused, as pgx refuses it, rather than stored cut short.
func appendCopy(buf []byte, events []eventstore.Event) ([]byte, error) {
	buf = append(buf, copyHeader...)
	for i := range events {
		e := &events[i]
		if e.SchemaVersion > math.MaxInt32 || e.SchemaVersion < math.MinInt32 {
			return buf, fmt.Errorf("event %q: schema version %d is out of the integer column's range", e.ID, e.SchemaVersion)
		}
		buf = binary.BigEndian.AppendUint16(buf, 14) // the number of columns
		buf = appendInt8(buf, e.Position)
		buf = appendText(buf, e.Stream)
		buf = appendInt8(buf, e.Version)
		buf = appendText(buf, e.ID)
		buf = appendText(buf, e.Type)
		buf = binary.BigEndian.AppendUint32(buf, 4)
		buf = binary.BigEndian.AppendUint32(buf, uint32(int32(e.SchemaVersion)))
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(e.Payload)))
		buf = append(buf, e.Payload...)
		buf = appendText(buf, e.CommandID)
		buf = appendText(buf, e.Actor)
		buf = appendText(buf, e.Visibility.String())
		buf = appendInt8(buf, e.Time.UnixNano())
		buf = appendText(buf, e.PrevHash)
		buf = appendText(buf, e.Hash)
		buf = appendText(buf, e.GlobalHash)
	}
	return binary.BigEndian.AppendUint16(buf, 0xffff), nil // the trailer: a tuple of -1 columns
}

// appendInt8 appends a bigint field: its length, then its value.
func appendInt8(buf []byte, v int64) []byte {
	buf = binary.BigEndian.AppendUint32(buf, 8)
	return binary.BigEndian.AppendUint64(buf, uint64(v))
}

// appendText appends a text field: its length, then its UTF-8 bytes (the server checks
// the encoding, as it does for any text it is sent).
func appendText(buf []byte, s string) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}
