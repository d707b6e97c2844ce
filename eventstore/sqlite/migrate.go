package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// The migration from schema version 2 (streams by name, IDs and hashes as text) to 3
// (row.go) runs in place, when this build first opens the file, before any append. It is
// made of transactions that each leave a file that opens:
//
//  1. create the streams table and events_v3, the new table without its indexes;
//  2. copy the events in position order, migrateChunk at a time, each chunk in a
//     transaction of its own that also interns the chunk's new stream names: a process
//     killed in the middle resumes after the last chunk it committed, and the WAL never
//     holds more than a chunk;
//  3. in one last transaction, check that every event was copied, drop the old table,
//     rename events_v3 to events, build its two indexes and record version 3.
//
// Until step 3 commits, the file is of version 2 with two more tables, which a build of
// version 2 opens and ignores. Each step logs its progress.

// migrateChunk is how many events a step-2 transaction copies: about 10 MB of WAL.
var migrateChunk = 20_000

// migrateHook, when set (by tests), is called inside each transaction of the migration
// before it commits, with the step's name: "copy" or "swap".
var migrateHook func(step string)

// uuidGlob matches the IDs storedID stores as 16 bytes, the same test in SQL.
var uuidGlob = strings.Repeat("[0-9a-f]", 8) + "-" + strings.Repeat("[0-9a-f]", 4) + "-" + strings.Repeat("[0-9a-f]", 4) + "-" +
	strings.Repeat("[0-9a-f]", 4) + "-" + strings.Repeat("[0-9a-f]", 12)

// storedHashSQL is storedHash in SQL, for a column of version 2.
func storedHashSQL(col string) string {
	return fmt.Sprintf(`CASE WHEN length(%[1]s) = 64 AND %[1]s NOT GLOB '*[^0-9a-f]*' THEN unhex(%[1]s) ELSE %[1]s END`, col)
}

// copyChunk copies the events after the last one copied, up to migrateChunk of them.
var copyChunk = `
INSERT INTO events_v3 (` + insertColumns + `)
SELECT position, (SELECT id FROM streams WHERE name = stream), version,
	CASE WHEN id GLOB '` + uuidGlob + `' THEN unhex(replace(id, '-', '')) ELSE id END,
	type, schema_version, payload, command_id, actor, visibility, time_ns, ` +
	storedHashSQL("prev_hash") + `, ` + storedHashSQL("hash") + `, ` + storedHashSQL("global_hash") + `
FROM events WHERE position > ?1 ORDER BY position LIMIT ?2`

func migrate(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	began := time.Now()
	var total int64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&total); err != nil {
		return fmt.Errorf("count the events: %w", err)
	}
	log.Info("sqlite: migrating the file to schema version 3", "events", total)
	if _, err := db.ExecContext(ctx, streamsTable+eventsTable("events_v3")); err != nil {
		return fmt.Errorf("create the new tables: %w", err)
	}
	for {
		n, copied, err := migrateCopy(ctx, db)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		log.Info("sqlite: migrating: events copied", "copied", copied, "of", total)
	}
	log.Info("sqlite: migrating: every event copied, building the indexes", "events", total, "took", time.Since(began).Round(time.Millisecond))
	if err := migrateSwap(ctx, db); err != nil {
		return err
	}
	log.Info("sqlite: migrated the file to schema version 3", "events", total, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// migrateCopy copies one chunk and reports how many events it copied, and how many are
// copied in all.
func migrateCopy(ctx context.Context, db *sql.DB) (n, copied int64, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	var after int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position), 0) FROM events_v3`).Scan(&after); err != nil {
		return 0, 0, fmt.Errorf("read how far the copy went: %w", err)
	}
	// New names get their IDs in the order of their first event, so that the newest
	// streams, the live ones, stay together at the end of the (stream_id, version) index.
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO streams (name) SELECT stream FROM
		(SELECT stream, position FROM events WHERE position > ?1 ORDER BY position LIMIT ?2) ORDER BY position`, after, migrateChunk); err != nil {
		return 0, 0, fmt.Errorf("intern the stream names after position %d: %w", after, err)
	}
	res, err := tx.ExecContext(ctx, copyChunk, after, migrateChunk)
	if err != nil {
		return 0, 0, fmt.Errorf("copy the events after position %d: %w", after, err)
	}
	if n, err = res.RowsAffected(); err != nil {
		return 0, 0, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM events_v3`).Scan(&copied); err != nil {
		return 0, 0, err
	}
	if migrateHook != nil {
		migrateHook("copy")
	}
	return n, copied, tx.Commit()
}

// migrateSwap puts the copy in the old table's place, if it holds every event.
func migrateSwap(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The copy holds only rows of the old table, one per position: as many rows, the same.
	var old, copied int64
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM events_v3)`).Scan(&old, &copied); err != nil {
		return fmt.Errorf("compare the copy: %w", err)
	}
	if old != copied {
		return fmt.Errorf("%d of %d events were copied", copied, old)
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE events; ALTER TABLE events_v3 RENAME TO events;`+indexes+
		`UPDATE schema_version SET version = 3;`); err != nil {
		return fmt.Errorf("put the new table in place: %w", err)
	}
	if migrateHook != nil {
		migrateHook("swap")
	}
	return tx.Commit()
}
