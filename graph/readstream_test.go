package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// eachEvent hands over a stream's events in order across pages, up to the version asked
// and no further, stops where its callback does, and stops short where the store does.
func TestEachEventPagesThroughAStream(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	const n = 2*catchUpPage + 10
	for i := range n {
		p := eventstore.Proposed{ID: fmt.Sprint("e", i), Type: "A", SchemaVersion: 1, Payload: []byte(`{}`), Actor: "system"}
		if _, err := store.Append(ctx, "match-m1", int64(i), p); err != nil {
			t.Fatal(err)
		}
	}
	r := &Resolver{Engine: engine.New(engine.Config{Store: store})}
	for _, c := range []struct {
		after, upTo, stopAt, want int64
	}{
		{0, n, 0, n},                             // the whole stream, three pages
		{5, catchUpPage + 7, 0, catchUpPage + 7}, // from a version to another
		{0, n + 50, 0, n},                        // the store holds fewer: short
		{0, n, catchUpPage + 1, catchUpPage},     // the callback stops: the last handed over before it
		{n, n, 0, n},                             // nothing to read
	} {
		var seen []int64
		last, err := r.eachEvent(ctx, "match-m1", c.after, c.upTo, func(ev eventstore.Event) bool {
			if ev.Version == c.stopAt {
				return false
			}
			seen = append(seen, ev.Version)
			return true
		})
		if err != nil || last != c.want {
			t.Errorf("%+v: last %d (%v), want %d", c, last, err, c.want)
		}
		for i, v := range seen {
			if v != c.after+int64(i)+1 {
				t.Fatalf("%+v: handed version %d at %d", c, v, i)
			}
		}
		if int64(len(seen)) != c.want-c.after {
			t.Errorf("%+v: handed %d events, want %d", c, len(seen), c.want-c.after)
		}
	}
}
