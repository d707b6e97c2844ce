package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
)

// Two processes on one schema: a subscription of the second that would poll once an hour
// receives the first's appends through NOTIFY, and again after its listening connection
// was killed by the server.
func TestAppendsOfAnotherProcessArriveByNotify(t *testing.T) {
	url := serverURL(t)
	schema := freshSchema(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	writer := open(t, url, schema)
	defer writer.Close()
	reader, err := postgres.Open(ctx, url, postgres.WithSchema(schema), postgres.WithPoll(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	sub, err := reader.Subscribe(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	appendOne := func(stream string) {
		t.Helper()
		if _, err := writer.Append(ctx, stream, 0, eventstore.Proposed{ID: stream + "-1", Type: "Happened", SchemaVersion: 1, Payload: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	receive := func(stream string) {
		t.Helper()
		select {
		case ev, ok := <-sub.Events():
			if !ok || ev.Stream != stream {
				t.Fatalf("received %+v (open %v), want the append to %s: %v", ev, ok, stream, sub.Err())
			}
		case <-ctx.Done():
			t.Fatalf("the append to %s never arrived: without NOTIFY the reader polls once an hour", stream)
		}
	}
	appendOne("first")
	receive("first")

	// The server ends every LISTEN connection of the schema's channel: the reader listens
	// again, and catches up on what it missed.
	conn := connect(t, url)
	deadline := time.Now().Add(20 * time.Second)
	for killed := false; !killed; {
		var n int
		listening := `LISTEN ` + pgx.Identifier{postgres.ChannelOf(reader)}.Sanitize()
		if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1`, listening).Scan(&n); err != nil {
			t.Fatal(err)
		}
		killed = n > 0
		if time.Now().After(deadline) {
			t.Fatal("no listening connection found to kill")
		}
	}
	appendOne("second")
	receive("second")
}
