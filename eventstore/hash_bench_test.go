package eventstore_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

// BenchmarkSeal seals an append of two move-sized events: what the SQLite writer
// goroutine computes per append (two event hashes and two global hashes) while every
// other append waits.
func BenchmarkSeal(b *testing.B) {
	proposed := make([]eventstore.Proposed, 2)
	for i := range proposed {
		proposed[i] = eventstore.Proposed{
			ID: fmt.Sprintf("0787bca9-de53-56fe-95c3-089e93f0734%d", i), Type: "MovePlayed", SchemaVersion: 1,
			Payload:   []byte(`{"seat":0,"uci":"c2d3","san":"Qd3","piece":4,"fen":"1rb1k2r/Np1p3p/n2b1ppn/q1p1p3/2P1P2P/3Q1P2/PP1PK1P1/RNB2BR1 b - - 2 17"}`),
			CommandID: "playout-574-ply32", Actor: "player:dkuaqi3k5eky4zpk",
		}
	}
	benchSeal(b, proposed)
}

// BenchmarkSealOne seals the typical append of the load benchmark: one event with a
// 300-byte payload.
func BenchmarkSealOne(b *testing.B) {
	proposed := []eventstore.Proposed{{
		ID: "0787bca9-de53-56fe-95c3-089e93f07341", Type: "MovePlayed", SchemaVersion: 1,
		Payload:   []byte(`{"fen":"` + strings.Repeat("x", 300-10) + `"}`),
		CommandID: "playout-574-ply32", Actor: "player:dkuaqi3k5eky4zpk",
	}}
	benchSeal(b, proposed)
}

func benchSeal(b *testing.B, proposed []eventstore.Proposed) {
	b.ReportAllocs()
	now := time.Unix(1796124602, 962539000)
	prev := eventstore.Hash("", eventstore.Event{})
	for b.Loop() {
		eventstore.Seal("match-qe7f4z5iugluaofd", 38, prev, 40000, prev, now, proposed)
	}
}

// BenchmarkSignHead signs a head with Ed25519, as every transaction that appends does.
func BenchmarkSignHead(b *testing.B) {
	signer, err := serverkey.Generate()
	if err != nil {
		b.Fatal(err)
	}
	hash := eventstore.Hash("", eventstore.Event{})
	now := time.Unix(1796124602, 962539000)
	for b.Loop() {
		eventstore.SignHead(signer, 40000, hash, now)
	}
}

// BenchmarkNotify is a store's Notify after each commit with one follower that waits
// again after every wake-up, and with none.
func BenchmarkNotify(b *testing.B) {
	b.Run("followers=0", func(b *testing.B) {
		n := eventstore.NewNotifier()
		b.ReportAllocs()
		for b.Loop() {
			n.Notify()
		}
	})
	b.Run("followers=1", func(b *testing.B) {
		n := eventstore.NewNotifier()
		b.ReportAllocs()
		for b.Loop() {
			w := n.Wait()
			n.Notify()
			<-w
		}
	})
}
