package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetricsEndpoint scrapes /metrics of a real server after a few commands: moves
// counted by outcome, matches by status, the read side caught up.
func TestMetricsEndpoint(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	srv.play(t, white, id, "e4")
	srv.play(t, white, id, "e5") // not White's turn
	srv.play(t, black, id, "e4") // illegal for Black
	resp, err := http.Get(srv.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := string(body)
	for _, want := range []string{
		`arbiter_command_seconds_count{kind="act",outcome="ok"} 1` + "\n",
		`arbiter_command_seconds_count{kind="act",outcome="not_your_turn"} 1` + "\n",
		`arbiter_command_seconds_count{kind="act",outcome="illegal_move"} 1` + "\n",
		`arbiter_command_seconds_count{kind="join",outcome="ok"} 2` + "\n",
		`arbiter_command_seconds_count{kind="create",outcome="ok"} 1` + "\n",
		`arbiter_matches{status="LIVE"} 1` + "\n",
		"arbiter_read_lag_events 0\n",
		"arbiter_subscriptions 0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, out)
		}
	}
}

// TestRateLimit: a server with --rate 1 --burst 5 lets a caller's first five requests
// through and refuses the rest of a flood with RATE_LIMITED, and another caller still
// gets in.
func TestRateLimit(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--rate", "1", "--burst", "5")
	refused := 0
	for i := range 20 {
		r := srv.post(t, "ann.not-a-real-token", `{games{id}}`, nil)
		switch {
		case r.code() == "RATE_LIMITED":
			refused++
			if i < 5 {
				t.Fatalf("request %d of a burst of 5 refused", i+1)
			}
		case len(r.Errors) > 0 && r.code() != "UNAUTHENTICATED":
			t.Fatalf("request %d: %+v", i+1, r.Errors)
		}
	}
	if refused < 10 {
		t.Fatalf("%d of 20 requests at once refused at 1 per second with bursts of 5", refused)
	}
	if r := srv.post(t, "bob.another-token", `{games{id}}`, nil); r.code() == "RATE_LIMITED" {
		t.Fatalf("another caller is limited too: %+v", r.Errors)
	}
}
