package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// TestTailsFollowTheLiveStreams: under a steady churn of streams (live matches, each
// appended to a fixed number of times and then never again, as in bench soak), the cache
// of tails holds the streams of the last two generations, not every stream written: after
// many times more streams than maxTails it holds no more than the streams appended to in
// two generations. Each append names its expected version, so a tail the cache got wrong
// would fail it.
func TestTailsFollowTheLiveStreams(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "events.db"), WithCheckpoints(1<<30, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const (
		live       = 256  // streams appended to at once, one append each per transaction
		appends    = 8    // per stream, then it ends
		generation = 2048 // appends: shorter than a server's, for fewer transactions
		streams    = 5 * generation / appends
	)
	s.w.tails.generation = generation
	// Each generation touches about generation/appends streams (those started in it)
	// plus the live ones: two generations hold at most twice that.
	bound := 2 * (generation/appends + live)
	if bound >= maxTails {
		t.Fatalf("the test's churn (%d streams per two generations) would not show the bound of %d", bound, maxTails)
	}
	slot := make([]int, live)      // the stream each slot appends to
	version := make([]int64, live) // its next expected version
	for i := range slot {
		slot[i] = i
	}
	next, most := live, 0
	for next < streams {
		reqs := make([]*groupcommit.Request, 0, live)
		for k := range live {
			reqs = append(reqs, &groupcommit.Request{Ctx: context.Background(), Stream: fmt.Sprintf("match-%d", slot[k]), Expected: version[k],
				Events: []eventstore.Proposed{{ID: fmt.Sprintf("e-%d-%d", slot[k], version[k]), Type: "MovePlayed", SchemaVersion: 1, Payload: []byte(`{}`), Time: time.Unix(0, 0)}}})
			if version[k]++; version[k] == appends {
				slot[k], version[k] = next, 0
				next++
			}
		}
		commitBatch(t, s, reqs)
		most = max(most, s.w.tails.len())
	}
	if next <= bound {
		t.Fatalf("only %d streams written: the bound of %d shows nothing", next, bound)
	}
	if most > bound {
		t.Fatalf("after %d streams the cache held up to %d tails, above the %d of two generations' streams", next, most, bound)
	}
	if most < generation/appends {
		t.Fatalf("the cache held at most %d tails: a generation's %d streams were not kept", most, generation/appends)
	}
	t.Logf("%d streams written, %d appends; the cache held at most %d tails (bound %d, maxTails %d)", next, next*appends, most, bound, maxTails)
}
