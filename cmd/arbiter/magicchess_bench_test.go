package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// BenchmarkMagicChessMoves is the cost of a move of Ajedrez Mágico on one board through
// the engine on an SQLite file, under magic-2026.3 and magic-2026.4 side by side: a match
// of 2026.4 keeps hidden streams (game.Covering, for doubles' covert signals), so the
// engine reads its teams' hidden streams back after each append, which 2026.3 does not.
// One op is one durable move, knights shuffling; a match drawn by the 75-move rule is
// followed by a new one.
func BenchmarkMagicChessMoves(b *testing.B) {
	old, _ := magicchess.Rules{}.Under("magic-2026.3")
	for _, r := range []game.Rules{old, magicchess.Rules{}} {
		b.Run(r.Info().RulesVersion, func(b *testing.B) {
			ctx := context.Background()
			store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(r)})
			n := 0
			meta := func(p engine.Player) engine.Meta {
				n++
				return engine.Meta{CommandID: fmt.Sprintf("c%d", n), Actor: "player:" + p.ID}
			}
			var players [2]engine.Player
			for i := range players {
				if players[i], _, err = e.RegisterPlayer(ctx, fmt.Sprintf("p%d", i), fmt.Sprintf("bench-registration-of-player-%016d", i)); err != nil {
					b.Fatal(err)
				}
			}
			act := func(id string, seat int, do any) {
				s := seat
				if _, err := e.Handle(ctx, id, match.Act{PlayerID: players[seat].ID, Seat: &s, Do: do}, meta(players[seat])); err != nil {
					b.Fatal(err)
				}
			}
			start := func() string {
				ack, err := e.Create(ctx, engine.CreateMatch{Game: magicchess.ID, Options: game.Options{"clock": "off"}, By: players[0].ID}, meta(players[0]))
				if err != nil {
					b.Fatal(err)
				}
				for seat, p := range players {
					s := seat
					if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p.ID, Name: p.Name, Seat: &s}, meta(p)); err != nil {
						b.Fatal(err)
					}
				}
				for seat := range players {
					act(ack.MatchID, seat, game.Choose{Option: "ready"})
				}
				return ack.MatchID
			}
			shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
			id := start()
			b.ResetTimer()
			for i := range b.N {
				ply := i % 140 // within the 75-move rule's 150 plies
				if ply == 0 && i > 0 {
					b.StopTimer()
					id = start()
					b.StartTimer()
				}
				act(id, ply%2, game.Move{Notation: shuffle[ply%4]})
			}
		})
	}
}
