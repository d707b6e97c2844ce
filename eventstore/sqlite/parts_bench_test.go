package sqlite

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// BenchmarkWriterParts: the writer's fixed cost per transaction (write.go, run), part by
// part, in the CPU of the writer's thread (system calls included), on a file that holds a
// signed head. Each op is one part; "rollback" parts undo what they did so that the file
// stays as it was. The "database-sql" and "driver" pairs compare a statement through
// database/sql with the same statement as the writer runs it, through the driver's own
// interfaces (raw.go), from the same values: the difference is database/sql's layer.
//
//	go test -run '^$' -bench WriterParts -benchtime 2000x ./eventstore/sqlite
func BenchmarkWriterParts(b *testing.B) {
	key, err := serverkey.Generate()
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "events.db"), WithSigner(key))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	commitBatch(b, s, newMoveLoad(loadStreams, false).batch(64))
	w := s.w
	// The head as run stores it, signed once (the signature is measured on its own), at a
	// new time each op: SQLite writes no page for an UPDATE that changes no byte of it.
	sig := eventstore.SignHead(key, w.head, w.headHash, time.Now()).Signature
	setHead := func() error {
		w.arg(w.head)
		w.arg(w.headHash)
		w.arg(time.Now().UnixNano())
		w.arg(sig)
		_, err := w.exec(w.setHead)
		return err
	}
	begin := func() error { _, err := w.exec(w.begin); return err }
	rollback := func() error { _, err := w.exec(w.rollback); return err }
	commit := func() error { _, err := w.exec(w.commit); return err }
	dataVersion, err := w.conn.PrepareContext(context.Background(), `PRAGMA data_version`)
	if err != nil {
		b.Fatal(err)
	}
	defer dataVersion.Close()
	viaSQL := func() error { var v int64; return dataVersion.QueryRow().Scan(&v) }
	// A move's row, the next event of the store as the load makes them.
	e := eventstore.Seal("match-parts", 0, "", w.head+1, w.headHash, time.Now(), newMoveLoad(1, false).batch(1)[0].Events)[0]
	insert, err := w.inserts.get(w, 1)
	if err != nil {
		b.Fatal(err)
	}
	insertSQL, err := w.conn.PrepareContext(context.Background(), w.inserts.prefix+"(?"+strings.Repeat(", ?", 14)+")")
	if err != nil {
		b.Fatal(err)
	}
	defer insertSQL.Close()
	values := make([]any, 15)
	insertViaSQL := func() error {
		for i, a := range w.rows.append(w.args, 0, e, 1, 0) {
			values[i] = a.Value
		}
		clear(w.args[:15])
		_, err := insertSQL.Exec(values...)
		return err
	}
	insertViaDriver := func() error {
		w.args = w.rows.append(w.args, 0, e, 1, 0)
		_, err := w.exec(insert)
		return err
	}
	parts := []struct {
		name  string
		steps []func() error
	}{
		{"begin+rollback", []func() error{begin, rollback}},
		{"begin+data_version+rollback", []func() error{begin, w.external, rollback}},
		{"begin+set_head+rollback", []func() error{begin, setHead, rollback}},
		{"begin+set_head+commit", []func() error{begin, setHead, commit}},
		{"sign", []func() error{func() error { eventstore.SignHead(key, w.head, w.headHash, time.Now()); return nil }}},
		{"data_version/database-sql", []func() error{viaSQL}},
		{"data_version/driver", []func() error{w.external}},
		{"begin+insert+rollback/database-sql", []func() error{begin, insertViaSQL, rollback}},
		{"begin+insert+rollback/driver", []func() error{begin, insertViaDriver, rollback}},
	}
	for _, p := range parts {
		b.Run(p.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			cpu := threadCPU()
			for range b.N {
				for _, step := range p.steps {
					if err := step(); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu = threadCPU() - cpu
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/1000/float64(b.N), "cpu-µs/op")
		})
	}
}
