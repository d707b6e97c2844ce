package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arbiter-games/arbiter/bus"
)

// jetStream connects to the NATS server of the tests and removes the named streams when
// the test ends: the broker outlives the test.
func jetStream(t *testing.T, streams ...string) (string, nats.JetStreamContext) {
	t.Helper()
	url := needServer(t, "ARBITER_NATS_URL")
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	js, err := nc.JetStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, s := range streams {
			_ = js.DeleteStream(s)
		}
		nc.Close()
	})
	return url, js
}

// TestServeOnAnotherStoresStream: a server whose topic's stream (derived from the topic,
// no stream= given) exists but holds another store's topic refuses to start, saying
// which stream and what to do, instead of serving with a relay that can publish nothing.
func TestServeOnAnotherStoresStream(t *testing.T) {
	suffix := time.Now().UnixNano()
	mine, theirs := fmt.Sprintf("arbiter.test.mine.%d", suffix), fmt.Sprintf("arbiter.test.theirs.%d", suffix)
	url, js := jetStream(t, bus.StreamFor(mine))
	if _, err := js.AddStream(&nats.StreamConfig{Name: bus.StreamFor(mine), Subjects: []string{theirs}, MaxAge: time.Hour}); err != nil {
		t.Fatal(err)
	}
	out := bootRefused(t, filepath.Join(t.TempDir(), "arbiter.db"), "--bus", url+"?topic="+mine)
	for _, want := range []string{"the JetStream stream " + bus.StreamFor(mine) + " holds " + theirs, "not the topic " + mine, "?stream=NAME"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve's refusal lacks %q: %s", want, out)
		}
	}
}

// TestReadyzSaysWhenTheBusDoesNotPublish: a server on NATS (its stream derived from its
// topic) is ready; once its stream is gone, its relay cannot publish the next move, and
// /readyz says so (503) while the move itself is stored and /healthz stays ok.
func TestReadyzSaysWhenTheBusDoesNotPublish(t *testing.T) {
	topic := fmt.Sprintf("arbiter.test.ready.%d", time.Now().UnixNano())
	url, js := jetStream(t, bus.StreamFor(topic))
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"), "--bus", url+"?topic="+topic)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := srv.newMatch(t, white, black, false)
	if code, body := srv.ready(t); code != http.StatusOK {
		t.Fatalf("/readyz on a working bus: %d %q", code, body)
	}
	if err := js.DeleteStream(bus.StreamFor(topic)); err != nil {
		t.Fatal(err)
	}
	if r := srv.play(t, white, id, "e4"); len(r.Errors) > 0 {
		t.Fatalf("e4: %+v", r.Errors)
	}
	// The relay retries the publish until it goes through, which it cannot: wait for the
	// first failure to show.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, ctx, "/readyz to answer 503 naming the topic the relay cannot publish to", func() bool {
		code, body := srv.ready(t)
		return code == http.StatusServiceUnavailable && strings.Contains(body, "not ready: the event bus does not publish") && strings.Contains(body, topic)
	})
	if resp, err := http.Get(srv.url + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %v %v", resp, err)
	}
	if log := srv.stderr.String(); strings.Contains(log, "relay.go:") {
		t.Errorf("the relay's warning carries a stack trace:\n%s", log)
	}
}
