package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBenchSpectators runs the load tool against a real server: two live matches with ten
// websocket spectators each, ten moves, for each kind of subscription. Every spectator
// must receive every move, once and in order, and the server must have counted the
// connections the tool held open.
func TestBenchSpectators(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "a.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, kind := range []string{"events", "updates"} {
		t.Run(kind, func(t *testing.T) {
			res, err := benchSpectators(ctx, spectatorConfig{URL: srv.url, Kind: kind, Spectators: 10, Matches: 2, Moves: 10, Rate: 50, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			const want = 2 * 10 * 10 // matches x spectators x moves
			if res.Expected != want || res.Delivered != want || res.Delivery.N != want {
				t.Errorf("%d deliveries expected, %d received, %d timed; want %d of each", res.Expected, res.Delivered, res.Delivery.N, want)
			}
			if res.Faults() != 0 || res.Ended != 0 {
				t.Errorf("gaps %d, duplicates %d, out of order %d, missing %d, ended %d (%s)", res.Gaps, res.Duplicates, res.Reordered, res.Missing, res.Ended, res.EndedBy)
			}
			if res.PlayMove.N != 20 || res.Connections != 20 {
				t.Errorf("%d moves timed over %d connections, want 20 and 20", res.PlayMove.N, res.Connections)
			}
			if opened := res.After.Subscriptions - res.Before.Subscriptions; opened != 20 {
				t.Errorf("the server counted %g more subscriptions once they were open, want 20", opened)
			}
			if res.Before.RSS <= 0 || res.After.RSS <= 0 {
				t.Errorf("the server's RSS was not read from /metrics: %+v, %+v", res.Before, res.After)
			}
		})
	}

	// The command itself, as a person runs it: flags, progress, report.
	var out, errs syncBuffer
	code := run(ctx, []string{"bench", "spectators", "--url", srv.url, "--spectators", "5", "--moves", "4", "--rate", "50", "--subscription", "events"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"matchEvents: 5 connections", "received 20 of 20 deliveries", "gaps 0, duplicates 0, out of order 0, missing 0", "KB per connection"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errs.String(), "playing 4 moves") {
		t.Errorf("no progress on stderr:\n%s", errs.String())
	}
}

// TestSpectatorTally checks the checker: receipts with a gap, a duplicate and a reordering
// are each counted, and a move delivered within a later update is merged, not missing.
func TestSpectatorTally(t *testing.T) {
	m := &liveMatch{version: 3, acks: []ack{{4, 100}, {5, 200}, {6, 300}, {7, 400}}}
	rec := func(vs ...int32) *spectator {
		s := &spectator{}
		for i, v := range append([]int32{3}, vs...) {
			s.receipts = append(s.receipts, receipt{version: v, at: int64(100*i + 50)})
		}
		return s
	}
	for _, c := range []struct {
		kind                                 string
		got                                  []int32
		gaps, dups, reordered, missing, merg int
	}{
		{"events", []int32{4, 5, 6, 7}, 0, 0, 0, 0, 0},
		{"events", []int32{4, 6, 7}, 1, 0, 0, 0, 1},
		{"events", []int32{4, 5, 5, 6, 7}, 0, 1, 0, 0, 0},
		{"events", []int32{4, 6, 5, 7}, 1, 0, 1, 0, 1},
		{"events", []int32{4, 5}, 0, 0, 0, 2, 0},
		{"updates", []int32{4, 6, 7}, 0, 0, 0, 0, 1},
		{"updates", []int32{7}, 0, 0, 0, 0, 3},
	} {
		t.Run(fmt.Sprint(c.kind, c.got), func(t *testing.T) {
			r := spectatorResult{Kind: c.kind}
			delays := r.tally(m, rec(c.got...), nil)
			if r.Gaps != c.gaps || r.Duplicates != c.dups || r.Reordered != c.reordered || r.Missing != c.missing || r.Merged != c.merg {
				t.Errorf("gaps %d, duplicates %d, out of order %d, missing %d, merged %d; want %d, %d, %d, %d, %d",
					r.Gaps, r.Duplicates, r.Reordered, r.Missing, r.Merged, c.gaps, c.dups, c.reordered, c.missing, c.merg)
			}
			if len(delays) != 4-c.missing || r.Delivered+r.Missing != 4 {
				t.Errorf("%d delays, %d delivered, %d missing of 4 moves", len(delays), r.Delivered, r.Missing)
			}
		})
	}
}

// TestSpectatorMessages: the client reads the version of the server's next messages
// without decoding them whole, leaves every other message to the full decoding, and
// knows a SLOW_CONSUMER error's version to subscribe again after.
func TestSpectatorMessages(t *testing.T) {
	for _, c := range []struct {
		msg string
		v   int32
		ok  bool
	}{
		{`{"payload":{"data":{"matchEvents":{"version":42,"type":"MovePlayed"}}},"id":"1","type":"next"}`, 42, true},
		{`{"payload":{"data":{"matchUpdates":{"version":7}}},"id":"12","type":"next"}`, 7, true},
		{`{"payload":{"data":{"matchUpdates":null},"errors":[{"message":"x"}]},"id":"1","type":"next"}`, 0, false},
		{`{"payload":{"data":{"matchEvents":{"type":"MovePlayed","version":42}}},"id":"1","type":"next"}`, 0, false},
		{`{"id":"1","type":"complete"}`, 0, false},
	} {
		if v, ok := nextVersion([]byte(c.msg)); v != c.v || ok != c.ok {
			t.Errorf("%s: version %d, %v; want %d, %v", c.msg, v, ok, c.v, c.ok)
		}
	}
	if v, ok := resumeAfter(json.RawMessage(`[{"message":"slow","extensions":{"code":"SLOW_CONSUMER","resumeAfter":17}}]`)); v != 17 || !ok {
		t.Errorf("SLOW_CONSUMER after 17 read as %d, %v", v, ok)
	}
	for _, other := range []string{`[{"message":"x","extensions":{"code":"INTERNAL"}}]`, `[{"message":"x","extensions":{"code":"SLOW_CONSUMER"}}]`, `{}`} {
		if _, ok := resumeAfter(json.RawMessage(other)); ok {
			t.Errorf("%s read as a SLOW_CONSUMER to resume", other)
		}
	}
}
