package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// TestOtherSchemaVersionsAreRefused: a file whose tables are of a schema version this build
// neither reads nor migrates, older or newer, is refused with the version it has, and left
// as it was: no migration is guessed at.
func TestOtherSchemaVersionsAreRefused(t *testing.T) {
	for _, v := range []int{1, 5} {
		path := filepath.Join(t.TempDir(), "events.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(fmt.Sprintf(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (%d)`, v)); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s, err := sqlite.Open(context.Background(), path)
		if err == nil {
			s.Close()
		}
		if want := fmt.Sprintf("schema version %d, this build reads 4 and migrates 2 and 3", v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("opening a file of schema version %d: %v, want an error saying %q", v, err, want)
		}
		db, err = sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		var tables []string
		rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, name)
		}
		db.Close()
		if strings.Join(tables, ",") != "schema_version" {
			t.Errorf("a refused file of schema version %d now has the tables %v", v, tables)
		}
	}
}
