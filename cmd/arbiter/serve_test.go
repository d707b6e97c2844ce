package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// Serve's mistakes name what was wrong and what to do.
func TestServeRefusesBadFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bus", "kafka://localhost"}, "use gochannel (the default) or a nats:// URL"},
		{[]string{"--addr", busy.Addr().String()}, "choose another with --addr"},
		{[]string{"--db", "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"}, "PostgreSQL"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--rate", "-1"}, "--rate and --burst must be 0 or more"},
		{[]string{"--burst", "-3"}, "--rate and --burst must be 0 or more"},
		{[]string{"--claim-after", "0s"}, "--claim-after must be above 0"},
		{[]string{"--claim-after", "2m", "--forfeit-after", "1m"}, "--forfeit-after at least as long"},
		{[]string{"--bot-forfeit-after", "0s"}, "--bot-forfeit-after must be above 0"},
		{[]string{"--writer-lease", "4s", "--writer-renew", "2s"}, "--writer-renew must be above 0 and under half of --writer-lease"},
		{[]string{"--writer-renew", "0s"}, "--writer-renew must be above 0"},
		{[]string{"--snapshot-every", "-1"}, "--snapshot-every and --snapshot-interval must be 0"},
		{[]string{"--snapshot-interval", "-1m"}, "--snapshot-every and --snapshot-interval must be 0"},
	} {
		var stdout, stderr strings.Builder
		// --key in the test's directory: a postgres:// store's default key is ./arbiter.key.
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--key", filepath.Join(filepath.Dir(db), "arbiter.key")}, c.args...)
		if code := run(context.Background(), args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("serve %v: exit %d, stderr %q, want it to say %q", c.args, code, stderr.String(), c.want)
		}
	}
	if got := describeStore("postgres://alice:secret@db:5432/arbiter?schema=x"); strings.Contains(got, "secret") || got != "postgres://db:5432/arbiter" {
		t.Errorf("the serving line shows %q", got)
	}
}
