package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// migrate brings a file of an older schema version to this one, in one transaction.
//
// Version 1 had no global chain: migrating adds each event's global hash, computed from
// the events as they are, and a head, signed by signer if there is one. The chain attests
// the store from then on; whatever was changed in the file before cannot be told apart.
func migrate(ctx context.Context, db *sql.DB, from int64, signer eventstore.Signer) error {
	if from != 1 {
		return fmt.Errorf("no migration from schema version %d", from)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `ALTER TABLE events ADD COLUMN global_hash TEXT NOT NULL DEFAULT ''`); err != nil {
		return fmt.Errorf("add the global hash: %w", err)
	}
	update, err := tx.PrepareContext(ctx, `UPDATE events SET global_hash = ? WHERE position = ?`)
	if err != nil {
		return err
	}
	defer update.Close()
	var (
		pos  int64
		prev string
	)
	for {
		// Page by page: rows are read before they are updated.
		rows, err := tx.QueryContext(ctx, `SELECT position, hash FROM events WHERE position > ? ORDER BY position LIMIT 4096`, pos)
		if err != nil {
			return err
		}
		type row struct {
			pos  int64
			hash string
		}
		var page []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.pos, &r.hash); err != nil {
				rows.Close()
				return err
			}
			page = append(page, r)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			prev = eventstore.GlobalHash(prev, r.pos, r.hash)
			if _, err := update.ExecContext(ctx, prev, r.pos); err != nil {
				return fmt.Errorf("set the global hash at position %d: %w", r.pos, err)
			}
			pos = r.pos
		}
	}
	h := eventstore.SignHead(signer, pos, prev, time.Now())
	if _, err := tx.ExecContext(ctx, `DELETE FROM head`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO head (position, hash, signed_ns, signature) VALUES (?, ?, ?, ?)`,
		h.Position, h.Hash, h.Time.UnixNano(), h.Signature); err != nil {
		return fmt.Errorf("record the head: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, schemaVersion); err != nil {
		return err
	}
	return tx.Commit()
}
