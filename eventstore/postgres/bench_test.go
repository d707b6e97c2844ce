package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/internal/sqlstore"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
	"github.com/arbiter-games/arbiter/internal/cputime"
)

// Run with: ARBITER_PG_URL=... go test -run '^$' -bench . -benchtime 5000x ./eventstore/postgres

func BenchmarkAppend(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkAppend(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}

func BenchmarkReadAll(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkReadAll(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) })
}

// BenchmarkAppendLoad is the engine's target: 1,000 matches, 20,000 appends/s in all.
func BenchmarkAppendLoad(b *testing.B) {
	url := serverURL(b)
	conformance.BenchmarkAppendLoad(b, func(b *testing.B) eventstore.Store { return open(b, url, freshSchema(b, url)) }, 1000, 20000)
}

// BenchmarkAgainstAPlainLoop measures the adapter's overhead (issue 18): Arbiter's appends
// against a plain loop that inserts the same rows into the same table definition with the
// same transaction sizes. One op is one append. 1,000 streams append one to three events
// each (two on average, as moves do), every stream as soon as its last append returned,
// through one store or two (two server processes on one schema, streams split between
// them). The plain loop then takes every stored row back, and inserts them into a fresh
// copy of the table, one multi-row INSERT per transaction (BEGIN, INSERT, COMMIT in one
// pipelined round trip), in transactions of the sizes the stores' commits had, from one
// connection per node, the nodes' loops running at once. It reports both phases' wall
// time and the process's CPU time (the client's: the server's work is left out), and
// their ratios.
func BenchmarkAgainstAPlainLoop(b *testing.B) {
	url := serverURL(b)
	// The benchmark creates and drops schemas: refuse anything but a PostgreSQL URL, so
	// that a stray variable pointing elsewhere is not written to.
	if cfg, err := pgx.ParseConfig(url); err != nil || !(strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")) {
		b.Fatalf("ARBITER_PG_URL must be a postgres:// or postgresql:// URL (got %q, %v)", url, err)
	} else if cfg.Host == "" {
		b.Fatalf("ARBITER_PG_URL %q names no host", url)
	}
	for _, nodes := range []int{1, 2} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) { againstAPlainLoop(b, url, nodes) })
	}
}

func againstAPlainLoop(b *testing.B, url string, nodes int) {
	const streams = 1000
	ctx := context.Background()
	schema := freshSchema(b, url)
	stores := make([]*postgres.Store, nodes)
	commits := make([][]eventstore.Commit, nodes)
	for n := range stores {
		stores[n] = open(b, url, schema)
		defer stores[n].Close()
		stores[n].ObserveCommits(func(c eventstore.Commit) { commits[n] = append(commits[n], c) })
	}
	per := max(b.N/streams, 1)

	b.ResetTimer()
	start, cpu0 := time.Now(), cputime.Used()
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	for w := range streams {
		wg.Go(func() {
			s, stream := stores[w%nodes], fmt.Sprintf("match-%04d", w)
			var version int64
			for i := range per {
				evs := make([]eventstore.Proposed, 1+i%3)
				for j := range evs {
					evs[j] = moveEvent(stream, version+int64(j)+1)
				}
				if _, err := s.Append(ctx, stream, version, evs...); err != nil {
					errs <- err
					return
				}
				version += int64(len(evs))
			}
		})
	}
	wg.Wait()
	adapter, adapterCPU := time.Since(start), cputime.Used()-cpu0
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	for _, s := range stores {
		// Every append is acknowledged, so every commit was observed; stop before reading.
		s.ObserveCommits(nil)
	}

	rows, err := stores[0].ReadAll(ctx, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	chunks, err := splitLikeCommits(rows, commits)
	if err != nil {
		b.Fatal(err)
	}
	plainSchema := freshSchema(b, url)
	open(b, url, plainSchema).Close() // the same tables and indexes, empty
	conns := make([]*pgx.Conn, nodes)
	for n := range conns {
		cfg, err := pgx.ParseConfig(url)
		if err != nil {
			b.Fatal(err)
		}
		cfg.RuntimeParams["search_path"] = plainSchema
		if conns[n], err = pgx.ConnectConfig(ctx, cfg); err != nil {
			b.Fatal(err)
		}
		defer conns[n].Close(ctx)
	}

	start, cpu0 = time.Now(), cputime.Used()
	plainErrs := make([]error, nodes)
	for n := range nodes {
		wg.Go(func() { plainErrs[n] = plainLoop(ctx, conns[n], chunks[n]) })
	}
	wg.Wait()
	plain, plainCPU := time.Since(start), cputime.Used()-cpu0
	if err := errors.Join(plainErrs...); err != nil {
		b.Fatal(err)
	}
	var stored int64
	if err := conns[0].QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&stored); err != nil || stored != int64(len(rows)) {
		b.Fatalf("the plain loop stored %d rows of %d (%v)", stored, len(rows), err)
	}

	var ncommits int
	for _, cs := range commits {
		ncommits += len(cs)
	}
	b.ReportMetric(float64(streams*per)/adapter.Seconds(), "appends/s")
	b.ReportMetric(float64(len(rows))/float64(ncommits), "rows/commit")
	b.ReportMetric(adapter.Seconds(), "arbiter-s")
	b.ReportMetric(plain.Seconds(), "plain-s")
	b.ReportMetric(adapter.Seconds()/plain.Seconds(), "time-ratio")
	b.ReportMetric(float64(adapterCPU)/float64(max(plainCPU, 1)), "cpu-ratio")
	b.ReportMetric(float64(adapterCPU)/float64(time.Microsecond)/float64(len(rows)), "arbiter-cpu-µs/row")
	b.ReportMetric(float64(plainCPU)/float64(time.Microsecond)/float64(len(rows)), "plain-cpu-µs/row")
	b.ReportMetric(0, "ns/op")
}

// moveEvent is an event the size of a chess move's (about 120 bytes of JSON payload).
func moveEvent(stream string, version int64) eventstore.Proposed {
	return eventstore.Proposed{
		ID: fmt.Sprintf("%s-%d", stream, version), Type: "MovePlayed", SchemaVersion: 1,
		Payload:   fmt.Appendf(nil, `{"seat":%d,"uci":"e2e4","san":"e4","piece":1,"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 %d"}`, version%2, version),
		CommandID: fmt.Sprintf("%s-cmd-%d", stream, version), Actor: "player:" + stream,
	}
}

// splitLikeCommits cuts rows, in position order, into transactions of the sizes the
// nodes' commits had: node n's loop gets one chunk per commit of node n, the chunks
// taken from rows in turn across the nodes (the same rows and the same sizes, though
// not every row in the very transaction it had).
func splitLikeCommits(rows []eventstore.Event, commits [][]eventstore.Commit) ([][][]eventstore.Event, error) {
	chunks := make([][][]eventstore.Event, len(commits))
	next := make([]int, len(commits))
	for len(rows) > 0 {
		moved := false
		for n, cs := range commits {
			if next[n] == len(cs) {
				continue
			}
			k := cs[next[n]].Events
			next[n]++
			if k > len(rows) {
				return nil, fmt.Errorf("the commits hold more events than the %d rows stored", len(rows))
			}
			chunks[n] = append(chunks[n], rows[:k])
			rows, moved = rows[k:], true
		}
		if !moved {
			return nil, fmt.Errorf("%d rows stored beyond the commits observed", len(rows))
		}
	}
	return chunks, nil
}

// plainLoop inserts each chunk in a transaction of its own: BEGIN, one INSERT of every
// row, COMMIT, pipelined in one round trip.
func plainLoop(ctx context.Context, conn *pgx.Conn, chunks [][]eventstore.Event) error {
	var args []any
	for _, rows := range chunks {
		args = args[:0]
		var q strings.Builder
		q.WriteString(`INSERT INTO events (` + sqlstore.Columns + `) VALUES `)
		for i, e := range rows {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(")
			for c := range 14 {
				if c > 0 {
					q.WriteString(", ")
				}
				fmt.Fprintf(&q, "$%d", 14*i+c+1)
			}
			q.WriteString(")")
			args = sqlstore.AppendArgs(args, e)
		}
		var batch pgx.Batch
		batch.Queue(`BEGIN`)
		batch.Queue(q.String(), args...)
		batch.Queue(`COMMIT`)
		if err := conn.SendBatch(ctx, &batch).Close(); err != nil {
			return fmt.Errorf("plain insert of %d rows: %w", len(rows), err)
		}
	}
	return nil
}
