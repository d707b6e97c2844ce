package singlewriter

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/projections"
)

// Ratings is the players' ratings (projections.Ratings) as a table, and the leaderboards
// read from it: one row per player and rating key.
type Ratings struct {
	r *projections.Ratings
}

// NewRatings returns the model for the games of reg.
func NewRatings(reg *game.Registry) *Ratings {
	r := projections.NewRatings(reg)
	r.TrackChanges()
	return &Ratings{r: r}
}

// ArchiveRecords drops a rated match's ruling record from the model's memory once the
// match has been over for d, as the node's own model does (projections.Ratings.ArchiveRecords):
// a ruling on an older match reads it back from store.
func (m *Ratings) ArchiveRecords(d time.Duration, store projections.RecordReader) {
	m.r.ArchiveRecords(d, store)
}

// Name implements Model.
func (m *Ratings) Name() string { return "ratings" }

// Tables implements Model.
func (m *Ratings) Tables() string {
	return `CREATE TABLE IF NOT EXISTS ratings (
	player text             NOT NULL,
	key    text             NOT NULL,
	game   text             NOT NULL,
	rating double precision NOT NULL,
	games  integer          NOT NULL,
	wins   integer          NOT NULL,
	losses integer          NOT NULL,
	draws  integer          NOT NULL,
	PRIMARY KEY (player, key)
);
-- epoch: the lease epoch of the writer that last wrote the row (checkpoints.epoch).
ALTER TABLE ratings ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (key, rating DESC, player);`
}

// Apply implements Model.
func (m *Ratings) Apply(ev eventstore.Event) error { return m.r.Apply(ev) }

// Flush implements Model: the rows of every player whose ratings changed.
func (m *Ratings) Flush(ctx context.Context, tx pgx.Tx, epoch int64) error {
	players := m.r.TakeChanged()
	if tx == nil || len(players) == 0 {
		return nil
	}
	var b pgx.Batch
	for _, p := range players {
		for _, x := range m.r.Of(p) {
			b.Queue(`INSERT INTO ratings (player, key, game, rating, games, wins, losses, draws, epoch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
				ON CONFLICT (player, key) DO UPDATE SET game = $3, rating = $4, games = $5, wins = $6, losses = $7, draws = $8, epoch = $9`,
				p, x.Key, x.Game, x.Rating, x.Games, x.Wins, x.Losses, x.Draws, epoch)
		}
	}
	if err := tx.SendBatch(ctx, &b).Close(); err != nil {
		return fmt.Errorf("writing the ratings of %d players: %w", len(players), err)
	}
	return nil
}

// Querier is a pgx connection, pool or transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Leaderboard returns the best limit ratings under key (a game's ID, or a key the game
// names, such as a Solwaris class), from the table in schema, in the order of
// projections.Ratings.Leaderboard (ties by player ID, byte by byte): any node, or any
// program reading the database, may read it, whichever node writes it.
func Leaderboard(ctx context.Context, q Querier, schema, key string, limit int) ([]projections.Standing, error) {
	rows, err := q.Query(ctx, `SELECT player, game, key, rating, games, wins, losses, draws FROM `+
		pgx.Identifier{schema, "ratings"}.Sanitize()+` WHERE key = $1 ORDER BY rating DESC, player COLLATE "C" LIMIT $2`, key, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (projections.Standing, error) {
		var e projections.Standing
		err := row.Scan(&e.Player, &e.Game, &e.Key, &e.Rating.Rating, &e.Games, &e.Wins, &e.Losses, &e.Draws)
		return e, err
	})
}
