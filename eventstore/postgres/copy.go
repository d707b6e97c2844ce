package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
)

// copyEvents is the COPY of a batch's events, in PostgreSQL's binary COPY format.
const copyEvents = `COPY events (` + sqlstore.Columns + `) FROM STDIN (FORMAT binary)`

// copyHeader opens a binary COPY stream: the signature, no flags, no header extension.
var copyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// write ends the append transaction in one round trip: the events, the signed head, the
// NOTIFY and COMMIT go to the server as one simple-protocol message, a COPY followed by
// three statements, with the COPY's data behind it. The server runs the statements after
// the COPY once its data is in, and answers them all at once; an error in any of them
// leaves the transaction failed, and the caller rolls it back. The head's values are
// written into the statement as literals (the simple protocol takes no parameters).
//
// The events are encoded by the adapter itself, into one buffer, rather than through
// pgx.CopyFrom: that boxes each of the 14 values in an interface and looks up an encoder
// for each, which cost about half the client's CPU per row on the write path (issue 18).
// The column types are fixed by the schema (tables), so every value's wire form is known:
// bigint and integer big-endian, text and bytea their bytes. buf is reused across
// batches; write returns it, grown as needed.
func (s *Store) write(ctx context.Context, conn *pgxpool.Conn, buf []byte, events []eventstore.Event, h eventstore.Head) ([]byte, error) {
	buf, err := appendCopy(buf[:0], events)
	if err != nil {
		return buf, fmt.Errorf("insert events: %w", err)
	}
	sql := copyEvents + `; UPDATE head SET position = ` + strconv.FormatInt(h.Position, 10) +
		`, hash = ` + quoteText(h.Hash) +
		`, signed_ns = ` + strconv.FormatInt(h.Time.UnixNano(), 10) +
		`, signature = ` + quoteBytes(h.Signature) +
		// Delivered at COMMIT to every process listening on this schema.
		`; NOTIFY ` + pgx.Identifier{s.channel()}.Sanitize() +
		`; COMMIT`
	// pgconn's CopyFrom reads the answers up to ReadyForQuery and returns the last
	// statement's tag; COMMIT of a transaction that failed answers ROLLBACK.
	tag, err := conn.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(buf), sql)
	if err != nil {
		return buf, fmt.Errorf("insert events, update head, commit: %w", err)
	}
	if tag.String() != "COMMIT" {
		return buf, fmt.Errorf("commit: the server answered %q", tag)
	}
	return buf, nil
}

// quoteText returns s as an SQL string literal. The escape form (E'...') reads the same
// whatever the server's standard_conforming_strings.
func quoteText(s string) string {
	return `E'` + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + `'`
}

// quoteBytes returns b as an SQL bytea value, NULL if b is nil.
func quoteBytes(b []byte) string {
	if b == nil {
		return `NULL`
	}
	return `decode('` + hex.EncodeToString(b) + `', 'hex')`
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
