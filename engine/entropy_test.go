package engine_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// countingRandom is crypto/rand counting the bytes read, so that a test sees what the
// engine drew.
type countingRandom struct {
	mu sync.Mutex
	n  int
}

func (c *countingRandom) Read(p []byte) (int, error) {
	c.mu.Lock()
	c.n += len(p)
	c.mu.Unlock()
	return rand.Read(p)
}

func (c *countingRandom) read() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// A join that brings no entropy gets the server's, drawn for the decision that records it:
// the same join sent again (a retry under its command ID) is answered from the commands
// seen and draws nothing, so the server's randomness goes only into events. (Twin servers
// fed one random stream told the retry apart: the next player's entropy differed.)
func TestARetriedJoinDrawsNoEntropy(t *testing.T) {
	ctx := context.Background()
	random := &countingRandom{}
	e := engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(classic.Rules{}), Random: random})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID}, engine.Meta{CommandID: "create"})
	if err != nil {
		t.Fatal(err)
	}
	join := match.Join{PlayerID: "white", Name: "white"}
	before := random.read()
	first, err := e.Handle(ctx, ack.MatchID, join, engine.Meta{Actor: "player:white", CommandID: "join"})
	if err != nil {
		t.Fatal(err)
	}
	if drawn := random.read() - before; drawn != 32 {
		t.Fatalf("the join drew %d bytes, want the 32 of its entropy", drawn)
	}
	before = random.read()
	again, err := e.Handle(ctx, ack.MatchID, join, engine.Meta{Actor: "player:white", CommandID: "join"})
	if err != nil {
		t.Fatal(err)
	}
	if drawn := random.read() - before; drawn != 0 {
		t.Errorf("the join sent again drew %d bytes, want none", drawn)
	}
	if !again.Duplicate || again.LastVersion != first.LastVersion {
		t.Errorf("the join sent again answered %+v, want the first outcome %+v as a duplicate", again, first)
	}
}
