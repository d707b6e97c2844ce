package main

import (
	"context"
	"strings"
	"testing"
)

// TestESDBIsSelectedByItsURL: --db esdb://... opens the EventStoreDB adapter (here on a
// port where no server answers, so that the adapter's own error shows it was the one
// chosen), and the URL's namespace parameter, which is Arbiter's, does not upset the
// client's parser.
func TestESDBIsSelectedByItsURL(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, db := range []string{
		"esdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1&namespace=arena",
		"esdb+discover://127.0.0.1:1?tls=false&maxDiscoverAttempts=1",
	} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "EventStoreDB") {
			t.Errorf("serve --db %s: exit %d, %s", db, code, stderr.String())
		}
	}
	if !isServer("esdb://a:2113,b:2113,c:2113?tls=false") || isServer("./esdb.db") {
		t.Fatal("isServer misjudges a cluster's connection string or a file")
	}
}
