package sqlite

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"
)

// rawRow.Scan stores what the writer reads as database/sql would, and refuses what does
// not fit rather than converting it: a wrong column count, a value or a destination of a
// type it does not take; a query's error, sql.ErrNoRows included, comes through.
func TestRawRowScan(t *testing.T) {
	var (
		i64  int64
		n    int
		s, h string
		b    []byte
	)
	row := rawRow{vals: []driver.Value{int64(7), int64(3), []byte("txt"), []byte("blob"), make([]byte, 32)}}
	if err := row.Scan(&i64, &n, &s, &b, textHash{&h}); err != nil {
		t.Fatal(err)
	}
	if i64 != 7 || n != 3 || s != "txt" || string(b) != "blob" || len(h) != 64 {
		t.Fatalf("scanned %d, %d, %q, %q, %q", i64, n, s, b, h)
	}
	if err := (rawRow{vals: []driver.Value{"s", nil}}).Scan(&b, &b); err != nil || b != nil {
		t.Fatalf("a string then NULL into []byte: %q, %v", b, err)
	}
	for name, c := range map[string]struct {
		row  rawRow
		dest []any
	}{
		"a column too few":          {rawRow{vals: []driver.Value{int64(1), int64(2)}}, []any{&i64}},
		"text into an integer":      {rawRow{vals: []driver.Value{"7"}}, []any{&i64}},
		"an integer into text":      {rawRow{vals: []driver.Value{int64(7)}}, []any{&s}},
		"NULL into an integer":      {rawRow{vals: []driver.Value{nil}}, []any{&n}},
		"a float into an integer":   {rawRow{vals: []driver.Value{1.5}}, []any{&i64}},
		"a destination not handled": {rawRow{vals: []driver.Value{int64(1)}}, []any{new(float64)}},
	} {
		if err := c.row.Scan(c.dest...); err == nil {
			t.Errorf("%s: scanned without an error", name)
		}
	}
	if err := (rawRow{err: sql.ErrNoRows}).Scan(&i64); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("no row: %v, want sql.ErrNoRows", err)
	}
}
