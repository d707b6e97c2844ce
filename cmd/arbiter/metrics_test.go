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
