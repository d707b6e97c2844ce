package graph

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// createMatch's options are a list the caller sizes: more than maxMatchOptions is refused
// as bad input naming the bound, before any is read, and stores nothing; up to the bound,
// the game reads them (and refuses the keys it does not know).
func TestTooManyMatchOptionsAreRefused(t *testing.T) {
	store := memstore.New()
	r := &Resolver{Engine: engine.New(engine.Config{Store: store, Games: game.NewRegistry(classic.Rules{})})}
	defer r.Close()
	h := Handler(r, Limits{Log: slog.New(slog.DiscardHandler)})
	create := func(n int) string { // the options in a variable: no token limit counts them
		opts := make([]string, n)
		for i := range opts {
			opts[i] = fmt.Sprintf(`{"key": "k%d", "value": "v"}`, i)
		}
		_, body := post(t, h, "192.0.2.7:40000", `{"query": "mutation($o: [OptionInput!]) { createMatch(input: {game: CHESS, options: $o}) { match { id } } }", "variables": {"o": [`+strings.Join(opts, ", ")+`]}}`)
		return body
	}
	if body := create(20_000); !strings.Contains(body, `"BAD_USER_INPUT"`) || !strings.Contains(body, "20000 options: at most 16") {
		t.Errorf("20000 options: %s", body)
	}
	if body := create(maxMatchOptions); !strings.Contains(body, `"BAD_USER_INPUT"`) || !strings.Contains(body, `no option`) {
		t.Errorf("%d options: %s, want the game's refusal of an unknown key", maxMatchOptions, body)
	}
	if head, err := store.HeadPosition(context.Background()); err != nil || head != 0 {
		t.Fatalf("the refusals stored events: head %d, %v", head, err)
	}
}
