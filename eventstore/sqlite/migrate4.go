package sqlite

import "strconv"

// The migration from schema version 3 to 4 (row.go: prev, heads and marks instead of the
// index on (stream_id, version)) runs in place when this build first opens the file, after
// the migration from version 2 if the file is older, in the steps of migrate.go:
//
//  1. create events_v4, the new table without its index, and the tables heads and marks;
//  2. copy the events in position order, migrateChunk at a time, each chunk in a
//     transaction of its own that also writes the heads and marks of the chunk's events:
//     prev is read from the old index, which still exists, and a process killed in the
//     middle resumes after the last chunk it committed;
//  3. in one last transaction, check that every event was copied, drop the old table and
//     its indexes, rename events_v4 to events, build its index and record version 4.
//
// Until step 3 commits, the file is of version 3 with three more tables, which a build of
// version 3 opens and ignores. Each step logs its progress.

// copyChunk4 copies the events after ?1, up to ?2 of them, with their prev.
var copyChunk4 = `
INSERT INTO events_v4 (` + insertColumns + `)
SELECT ` + columnsV3 + `, COALESCE((SELECT p.position FROM events p WHERE p.stream_id = e.stream_id AND p.version = e.version - 1), 0)
FROM events e WHERE e.position > ?1 ORDER BY e.position LIMIT ?2`

// chunkHeads4 and chunkMarks4 write the heads and marks of the events copied after ?1.
// A stream's head is its event of the highest version in the chunk (SQLite gives a bare
// column the value of the row where MAX was found), which is above its head so far.
var (
	chunkHeads4 = `
INSERT INTO heads (stream_id, version, position)
SELECT stream_id, MAX(version), position FROM events_v4 WHERE position > ?1 GROUP BY stream_id
ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, position = excluded.position`
	chunkMarks4 = `
INSERT INTO marks (stream_id, version, position)
SELECT stream_id, version, position FROM events_v4 WHERE position > ?1 AND version % ` + strconv.Itoa(markEvery) + ` = 0`
)

// to4 is the migration from schema version 3 to 4.
var to4 = migration{
	version: 4,
	table:   "events_v4",
	create:  eventsTable("events_v4", true) + streamTables,
	copy:    copyChunk4,
	after:   []string{chunkHeads4, chunkMarks4},
	swap:    `DROP TABLE events; ALTER TABLE events_v4 RENAME TO events;` + idIndex + `UPDATE schema_version SET version = 4;`,
}
