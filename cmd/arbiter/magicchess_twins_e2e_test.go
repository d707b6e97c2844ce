package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/magicchess"
)

// magicTwinFields selects every field of a doubles match of Ajedrez Mágico: both boards,
// and the state with every field, the team's signals included.
const magicTwinFields = `boards{board fen whiteInHand blackInHand seats toAct inCheck moves
	clock{control initialMs incrementMs seats{seat remainingMs} running since} phase reaction{window seat triggers card answersFrom closes answering}}
	state{... on MagicChessState{board{fen inCheck legalMoves marks{square kind seat note}} moves phase
	reaction{window seat triggers card answersFrom closes answering} hand{slot playable targets reason card{id}}
	seats{seat handSize deckSize discardPile{id} played{card{id} count}} boards{board fen whiteInHand blackInHand seats toAct inCheck moves phase}
	signals{seat signal}}}`

// magicSignalsOf is what a reader of a doubles match sees of its team's signals.
type magicSignalsOf struct {
	State struct {
		Signals []struct {
			Seat   int
			Signal string
		}
	}
}

// magicSignals is the match query's magicSignalsOf.
type magicSignals struct{ Match magicSignalsOf }

// A team's signals leave no trace outside the team (magic-2026.4): two twin servers
// (twins_e2e_test.go) host the same doubles match, request for request, except that on
// the first Ann (seat 0) and Dee (seat 3), partners, signal each other: Ann in the
// planning, Dee in her turn on board B, Ann out of hers (Bob is to move on board A: a
// signal is game.Aside). Everything Bob and Cid (the other team, one on each board) and a
// spectator read of each twin is the same, byte for byte, until the end: the whole match
// as a query reads it (version, events with their versions, positions, times and hashes,
// both boards, the state with every field), the receipt, the ndjson export, matchEvents
// from the start and resumed, matchUpdates over both websocket protocols, and the paced
// replay once over. Dee receives Ann's signals (matchUpdates and match), and each
// partner's team receipt covers the team's hidden stream. The match ends by Bob's
// resignation, which from magic-2026.4 on is his team's loss on both boards.
func TestASignalLeavesNoTraceOutsideItsTeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tw := startTwins(t, ctx, games(), magicTwinFields, "the signals")
	tokens := tw.register("ann", "bob", "cid", "dee")
	ann, bob, cid, dee := tokens[0], tokens[1], tokens[2], tokens[3]
	tw.create(ann, `mutation{createMatch(input:{game:MAGIC_CHESS, options:[{key:"boards", value:"2"}]}){match{id}}}`)
	for seat, tok := range tokens {
		tw.cmd(tok, `mutation($m:ID!,$s:Int,$k:ID){joinMatch(matchId:$m, seat:$s, commandId:$k){seat}}`, map[string]any{"s": seat})
	}
	var rv struct{ Match struct{ RulesVersion string } }
	tw.each(bob, `query($m:ID!){match(id:$m){rulesVersion}}`, tw.vars, &rv)
	if rv.Match.RulesVersion != magicchess.RulesVersion {
		t.Fatalf("the match plays rules %s", rv.Match.RulesVersion)
	}
	tw.watch(twinWatcher{"bob", bob}, twinWatcher{"cid", cid}, twinWatcher{"spectator", ""})
	// Dee's own updates on the first twin, where her partner signals.
	deeUpdates := tw.srv[0].subscribeRaw(t, ctx, "graphql-transport-ws", dee, tw.updatesSub(), tw.vars)
	const signal = `mutation($m:ID!,$s:MagicSignal!,$k:ID){signal(matchId:$m, signal:$s, commandId:$k){match{version}}}`
	sent := 0
	signalOn := func(tok, sig string) {
		t.Helper()
		before := tw.version(bob)
		sent++
		var a struct {
			Signal struct{ Match struct{ Version int } }
		}
		tw.on(0, tok, signal, map[string]any{"s": sig, "k": "signal-" + sig}, &a)
		if a.Signal.Match.Version != before {
			t.Fatalf("the signal %s answers version %d; the match was at %d", sig, a.Signal.Match.Version, before)
		}
	}

	tw.compare("in the planning")
	signalOn(ann, "SAVE_READY")
	tw.compare("after a signal in the planning")
	for _, tok := range tokens {
		tw.cmd(tok, `mutation($m:ID!,$k:ID){act(matchId:$m, action:{choose:{option:"ready"}}, commandId:$k){match{version}}}`, nil)
	}
	const move = `mutation($m:ID!,$v:String!,$b:Int,$k:ID){playMove(matchId:$m, move:$v, board:$b, commandId:$k){match{version}}}`
	tw.cmd(ann, move, map[string]any{"v": "e4", "b": 0})
	tw.cmd(cid, move, map[string]any{"v": "d4", "b": 1})
	tw.compare("before the signals in play")
	var toAct struct{ Match struct{ ToAct []int } }
	tw.each(bob, `query($m:ID!){match(id:$m){toAct}}`, tw.vars, &toAct)
	if !slices.Equal(toAct.Match.ToAct, []int{1, 3}) {
		t.Fatalf("to act: %v, want Bob on board A and Dee on board B", toAct.Match.ToAct)
	}
	resumeAt := tw.version(bob)
	signalOn(dee, "CARD_NEXT") // in her turn
	tw.compare("after Dee's signal in her turn")
	signalOn(ann, "HAND_LOW") // out of her turn: Bob is to move on board A
	tw.compare("after Ann's signal out of her turn")
	tw.resume(resumeAt - 2)

	// Dee receives them: her updates and her match; on the twin without, she has none.
	want := []struct {
		Seat   int
		Signal string
	}{{0, "SAVE_READY"}, {3, "CARD_NEXT"}, {0, "HAND_LOW"}}
	for got := false; !got; {
		select {
		case data := <-deeUpdates:
			var u struct{ MatchUpdates magicSignalsOf }
			if err := json.Unmarshal(data, &u); err != nil {
				t.Fatal(err)
			}
			got = slices.Equal(u.MatchUpdates.State.Signals, want)
		case <-ctx.Done():
			t.Fatalf("Dee's matchUpdates never delivered her team's signals %v", want)
		}
	}
	for i, n := range []int{len(want), 0} {
		var s magicSignals
		tw.srv[i].must(t, dee, `query($m:ID!){match(id:$m){state{... on MagicChessState{signals{seat signal}}}}}`, tw.vars, &s)
		if len(s.Match.State.Signals) != n || n > 0 && !slices.Equal(s.Match.State.Signals, want) {
			t.Fatalf("Dee reads the signals %+v on twin %d", s.Match.State.Signals, i)
		}
	}
	// Each partner's team receipt covers the team's hidden stream: the three signals on the
	// first twin, none on the second; the other team's is alike on both, and empty.
	for _, tok := range []string{ann, dee} {
		if r0, _ := tw.teamReceipt(0, tok); r0.Size != sent {
			t.Fatalf("team 0's receipt covers %d events; %d signals were sent", r0.Size, sent)
		}
		if r1, _ := tw.teamReceipt(1, tok); r1.Size != 0 {
			t.Fatalf("team 0's receipt without signals covers %d events", r1.Size)
		}
	}
	for _, tok := range []string{bob, cid} {
		b0, _ := tw.teamReceipt(0, tok)
		if b1, _ := tw.teamReceipt(1, tok); b0 != b1 || b0.Size != 0 {
			t.Fatalf("team 1's receipt differs between the twins or is not empty: %+v, %+v", b0, b1)
		}
	}
	if _, code := tw.teamReceipt(0, ""); code != "FORBIDDEN" {
		t.Fatalf("a spectator's team receipt: %q, want FORBIDDEN", code)
	}

	// Play goes on; then Bob resigns: his team loses, the match ends on both boards.
	tw.cmd(bob, move, map[string]any{"v": "e5", "b": 0})
	tw.cmd(dee, move, map[string]any{"v": "d5", "b": 1})
	tw.compare("after the next moves")
	live, end := tw.resign(bob, cid)
	var boards struct {
		Match struct{ Boards []struct{ Phase string } }
	}
	tw.each(cid, `query($m:ID!){match(id:$m){boards{phase}}}`, tw.vars, &boards)
	if b := boards.Match.Boards; end.Status != "FINISHED" || !slices.Equal(end.Result.Winners, []int{0, 3}) || end.Result.Reason != "resignation" ||
		len(b) != 2 || b[0].Phase != "over" || b[1].Phase != "over" {
		t.Fatalf("after Bob resigned the match is %+v, its boards %+v: his resignation gives Ann and Dee the match on both boards", end, b)
	}
	tw.drain(end.Version, live)

	// Over: every secret is revealed (the hands, and the signals with them), on the first
	// twin alone.
	for i, n := range []int{len(want), 0} {
		var s magicSignals
		tw.srv[i].must(t, "", `query($m:ID!){match(id:$m){state{... on MagicChessState{signals{seat signal}}}}}`, tw.vars, &s)
		if len(s.Match.State.Signals) != n {
			t.Fatalf("the finished match on twin %d shows the signals %+v", i, s.Match.State.Signals)
		}
	}
	// verify re-derives the match from its streams, and the store still holds what team
	// 0's receipt signed.
	tw.verifyTeamReceipt(dee, 0, sent)
}
