package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// A migration from one schema version to the next (a migration value: to3 here, to4 in
// migrate4.go) runs in place, when this build first opens the file, before any append.
// The first, from version 2 (streams by name, IDs and hashes as text) to 3 (row.go), is
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

// indexesV3 are the indexes of schema version 3, built at the end of this migration: the
// next one, to version 4, reads the stream index while it computes prev.
const indexesV3 = idIndex + `CREATE UNIQUE INDEX events_by_stream ON events (stream_id, version);`

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

// copyChunk copies the events after ?1, up to ?2 of them.
var copyChunk = `
INSERT INTO events_v3 (` + columnsV3 + `)
SELECT position, (SELECT id FROM streams WHERE name = stream), version,
	CASE WHEN id GLOB '` + uuidGlob + `' THEN unhex(replace(id, '-', '')) ELSE id END,
	type, schema_version, payload, command_id, actor, visibility, time_ns, ` +
	storedHashSQL("prev_hash") + `, ` + storedHashSQL("hash") + `, ` + storedHashSQL("global_hash") + `
FROM events WHERE position > ?1 ORDER BY position LIMIT ?2`

// to3 is the migration from schema version 2 to 3.
var to3 = migration{
	version: 3,
	table:   "events_v3",
	create:  streamsTable + eventsTable("events_v3", false),
	// New names get their IDs in the order of their first event, so that the newest
	// streams, the live ones, stay together at the end of the (stream_id, version) index.
	before: []string{`INSERT OR IGNORE INTO streams (name) SELECT stream FROM
		(SELECT stream, position FROM events WHERE position > ?1 ORDER BY position LIMIT ?2) ORDER BY position`},
	copy: copyChunk,
	swap: `DROP TABLE events; ALTER TABLE events_v3 RENAME TO events;` + indexesV3 + `UPDATE schema_version SET version = 3;`,
}

// migration is one of the migrations from a schema version to the next, in the steps
// described at the top of this file.
type migration struct {
	version int    // the version it migrates to
	table   string // the new table of events
	create  string // creates the new tables, if they are not yet
	// A chunk's transaction runs before, then copy (each with the arguments the position
	// after which to copy and migrateChunk), then after (with the position only).
	before []string
	copy   string
	after  []string
	swap   string // the last transaction's, once it found every event copied
}

func (m migration) run(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	began := time.Now()
	var total int64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&total); err != nil {
		return fmt.Errorf("count the events: %w", err)
	}
	log.Info("sqlite: migrating the file to schema version "+strconv.Itoa(m.version), "events", total)
	if _, err := db.ExecContext(ctx, m.create); err != nil {
		return fmt.Errorf("create the new tables: %w", err)
	}
	for {
		n, copied, err := m.copyChunk(ctx, db)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		log.Info("sqlite: migrating: events copied", "copied", copied, "of", total)
	}
	log.Info("sqlite: migrating: every event copied, building the indexes", "events", total, "took", time.Since(began).Round(time.Millisecond))
	if err := m.swapTables(ctx, db); err != nil {
		return err
	}
	log.Info("sqlite: migrated the file to schema version "+strconv.Itoa(m.version), "events", total, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// copyChunk copies one chunk and reports how many events it copied, and how many are
// copied in all.
func (m migration) copyChunk(ctx context.Context, db *sql.DB) (n, copied int64, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	var after int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position), 0) FROM `+m.table).Scan(&after); err != nil {
		return 0, 0, fmt.Errorf("read how far the copy went: %w", err)
	}
	for _, q := range m.before {
		if _, err := tx.ExecContext(ctx, q, after, migrateChunk); err != nil {
			return 0, 0, fmt.Errorf("prepare the copy of the events after position %d: %w", after, err)
		}
	}
	res, err := tx.ExecContext(ctx, m.copy, after, migrateChunk)
	if err != nil {
		return 0, 0, fmt.Errorf("copy the events after position %d: %w", after, err)
	}
	if n, err = res.RowsAffected(); err != nil {
		return 0, 0, err
	}
	for _, q := range m.after {
		if _, err := tx.ExecContext(ctx, q, after); err != nil {
			return 0, 0, fmt.Errorf("index the events after position %d: %w", after, err)
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+m.table).Scan(&copied); err != nil {
		return 0, 0, err
	}
	if migrateHook != nil {
		migrateHook("copy")
	}
	return n, copied, tx.Commit()
}

// swapTables puts the copy in the old table's place, if it holds every event.
func (m migration) swapTables(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The copy holds only rows of the old table, one per position: as many rows, the same.
	var old, copied int64
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM `+m.table+`)`).Scan(&old, &copied); err != nil {
		return fmt.Errorf("compare the copy: %w", err)
	}
	if old != copied {
		return fmt.Errorf("%d of %d events were copied", copied, old)
	}
	if _, err := tx.ExecContext(ctx, m.swap); err != nil {
		return fmt.Errorf("put the new table in place: %w", err)
	}
	if migrateHook != nil {
		migrateHook("swap")
	}
	return tx.Commit()
}
