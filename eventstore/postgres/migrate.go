package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
)

// migrate brings a store of an older schema version to this one, inside init's
// transaction, which holds the append lock.
//
// Version 1 had no global chain: migrating adds each event's global hash, computed from
// the events as they are, and signs the head with signer if there is one. The chain
// attests the store from then on; whatever was changed before cannot be told apart.
func migrate(ctx context.Context, tx pgx.Tx, from int64, signer eventstore.Signer) error {
	if from != 1 {
		return fmt.Errorf("no migration from schema version %d", from)
	}
	for _, q := range []string{
		`ALTER TABLE events ADD COLUMN IF NOT EXISTS global_hash text NOT NULL DEFAULT ''`,
		`ALTER TABLE head ADD COLUMN IF NOT EXISTS hash text NOT NULL DEFAULT ''`,
		`ALTER TABLE head ADD COLUMN IF NOT EXISTS signed_ns bigint NOT NULL DEFAULT 0`,
		`ALTER TABLE head ADD COLUMN IF NOT EXISTS signature bytea`,
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			return err
		}
	}
	var (
		pos  int64
		prev string
	)
	for {
		rows, err := tx.Query(ctx, `SELECT position, hash FROM events WHERE position > $1 ORDER BY position LIMIT 4096`, pos)
		if err != nil {
			return err
		}
		var positions []int64
		var globals []string
		var p int64
		var h string
		if _, err := pgx.ForEachRow(rows, []any{&p, &h}, func() error {
			prev = eventstore.GlobalHash(prev, p, h)
			positions, globals = append(positions, p), append(globals, prev)
			return nil
		}); err != nil {
			return err
		}
		if len(positions) == 0 {
			break
		}
		if _, err := tx.Exec(ctx, `UPDATE events SET global_hash = u.g FROM unnest($1::bigint[], $2::text[]) AS u(p, g)
			WHERE events.position = u.p`, positions, globals); err != nil {
			return fmt.Errorf("set the global hashes after position %d: %w", pos, err)
		}
		pos = positions[len(positions)-1]
	}
	// The head row's position is the counter appends continue from, whatever the last
	// event is; the signed head names the last event.
	head := eventstore.SignHead(signer, pos, prev, time.Now())
	if _, err := tx.Exec(ctx, `UPDATE head SET hash = $1, signed_ns = $2, signature = $3`, head.Hash, head.Time.UnixNano(), head.Signature); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE schema_version SET version = $1`, schemaVersion)
	return err
}
