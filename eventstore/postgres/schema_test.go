package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// TestOtherSchemaVersionsAreRefused: a store whose tables are of another schema version,
// older or newer, is refused with the version it has; no migration is guessed at.
func TestOtherSchemaVersionsAreRefused(t *testing.T) {
	url := serverURL(t)
	ctx := context.Background()
	conn := connect(t, url)
	for _, v := range []int{1, 3} {
		schema := freshSchema(t, url)
		s := pgx.Identifier{schema}.Sanitize()
		if _, err := conn.Exec(ctx, `CREATE SCHEMA `+s+`;
			CREATE TABLE `+s+`.schema_version (version integer NOT NULL);
			INSERT INTO `+s+fmt.Sprintf(`.schema_version VALUES (%d)`, v)); err != nil {
			t.Fatal(err)
		}
		st, err := postgres.Open(ctx, url, postgres.WithSchema(schema))
		if err == nil {
			st.Close()
		}
		if want := fmt.Sprintf("schema version %d, this build reads 2 only", v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("opening a store of schema version %d: %v, want an error saying %q", v, err, want)
		}
	}
}
