package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
)

// A trap laid leaves no trace outside its team, on any surface: two servers, twins
// (twins_e2e_test.go), host the same Solwaris duel, request for request, except that on
// the first ann lays a trap. Everything bob (the other team) and a spectator receive from
// each, until the match ends, is then the same, byte for byte: the whole match as a query
// reads it (its version, its events with their versions, positions, times and hashes,
// the state with every field), the receipt, the ndjson export, matchEvents from the start
// and resumed from a version after the trap over both websocket protocols, matchUpdates
// over both, and, once over, the paced replay. Only once the match is over may the trap
// show: then, as the rules say, every secret is revealed, and the finished state of the
// first shows ann's trap.
func TestATrapLeavesNoTraceOutsideItsTeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	reg := game.NewRegistry(solwaris.Rules{Catalog: trapCatalog(t)})
	tw := startTwins(t, ctx, reg, `state{`+solwarisFullState+`}`, "the trap")
	tokens := tw.register("ann", "bob")
	ann, bob := tokens[0], tokens[1]
	tw.create(ann, `mutation{createMatch(input:{game:SOLWARIS, options:[{key:"map", value:"caveau"}]}){match{id}}}`)
	id, vars := tw.id, tw.vars
	for seat, tok := range tokens {
		tw.cmd(tok, `mutation($m:ID!,$s:Int,$k:ID){joinMatch(matchId:$m, seat:$s, commandId:$k){seat}}`, map[string]any{"s": seat})
	}
	tw.watch(twinWatcher{"bob", bob}, twinWatcher{"spectator", ""})

	// To play: ann the Guerrier, bob the Arcaniste, placed near each other; ann buys the
	// initiative.
	for seat, class := range []string{"guerrier", "arcaniste"} {
		tw.cmd(tokens[seat], `mutation($m:ID!,$c:String!,$k:ID){chooseGrimoire(matchId:$m, class:$c, commandId:$k){version}}`, map[string]any{"c": class})
	}
	var st solwarisState
	tw.each(ann, solwarisStateQuery, vars, &st)
	annCell := st.Match.State.PlacementCells[0]
	tw.cmd(ann, `mutation($m:ID!,$c:String!,$k:ID){placeFighter(matchId:$m, cell:$c, commandId:$k){version}}`, map[string]any{"c": annCell})
	tw.each(bob, solwarisStateQuery, vars, &st)
	bobCell := slices.MinFunc(st.Match.State.PlacementCells, func(a, b string) int { return nearest(a, []string{annCell}) - nearest(b, []string{annCell}) })
	tw.cmd(bob, `mutation($m:ID!,$c:String!,$k:ID){placeFighter(matchId:$m, cell:$c, commandId:$k){version}}`, map[string]any{"c": bobCell})
	for tw.each(ann, solwarisStateQuery, vars, &st); st.Match.State.Phase == "auction"; tw.each(ann, solwarisStateQuery, vars, &st) {
		seat := st.Match.ToAct[0]
		q := `mutation($m:ID!,$k:ID){passBid(matchId:$m, commandId:$k){version}}`
		if seat == 0 && st.Match.State.Auction.Price == 0 {
			q = `mutation($m:ID!,$k:ID){bid(matchId:$m, commandId:$k){version}}`
		}
		tw.cmd(tokens[seat], q, nil)
	}
	if st.Match.State.Phase != "play" || st.Match.ToAct[0] != 0 {
		t.Fatalf("after the auction: %+v, to act %v", st.Match.State, st.Match.ToAct)
	}

	// ann walks towards bob until a cell two or more from both may take her trap.
	trap := ""
	for tries := 0; trap == ""; tries++ {
		tw.each(ann, solwarisStateQuery, vars, &st)
		s := st.Match.State
		annCell, bobCell = s.Fighters[0].Cell, s.Fighters[1].Cell
		for _, sp := range s.Targets {
			for _, cell := range sp.Cells {
				if sp.Spell == trapSpell && trap == "" && nearest(cell, []string{annCell}) >= 2 && nearest(cell, []string{bobCell}) >= 2 {
					trap = cell
				}
			}
		}
		if trap != "" {
			break
		}
		best, to := nearest(annCell, []string{bobCell}), ""
		for _, r := range s.Reachable {
			if d := nearest(r.Cell, []string{bobCell}); d < best && d >= 3 {
				best, to = d, r.Cell
			}
		}
		switch {
		case tries > 20:
			t.Fatalf("ann (%s) finds no cell for her trap near bob (%s): %+v", annCell, bobCell, s)
		case to != "":
			tw.cmd(ann, `mutation($m:ID!,$p:[String!]!,$k:ID){moveFighter(matchId:$m, path:$p, commandId:$k){version}}`, map[string]any{"p": walk(s.Reachable, to)})
		default:
			tw.cmd(ann, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
			tw.cmd(bob, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
		}
	}
	before := tw.version(bob)
	tw.compare("before the trap")

	// On the first twin alone, ann lays her trap; her answer is the match's version, which
	// did not move, and she sees her trap.
	var laid struct{ CastSpell struct{ Version int } }
	tw.on(0, ann, `mutation($m:ID!,$s:String!,$c:String!){castSpell(matchId:$m, spell:$s, cell:$c, commandId:"trap"){version}}`,
		map[string]any{"s": trapSpell, "c": trap}, &laid)
	if laid.CastSpell.Version != before {
		t.Fatalf("the trap's cast answers version %d; the match was at %d", laid.CastSpell.Version, before)
	}
	if traps := stateOf(t, fullState(t, tw.srv[0], ann, id)).Traps; len(traps) != 1 || traps[0].Cell != trap {
		t.Fatalf("ann does not see her trap on %s: %+v", trap, traps)
	}
	tw.compare("after the trap")
	// ann's team's receipt covers its hidden stream: the trap's two events on the first
	// twin, none on the second; bob's is his team's, alike on both; a spectator has none.
	if r0, _ := tw.teamReceipt(0, ann); r0.Size != 2 {
		t.Fatalf("ann's team receipt covers %d events; want the trap's cast and its laying", r0.Size)
	}
	if r1, _ := tw.teamReceipt(1, ann); r1.Size != 0 {
		t.Fatalf("ann's team receipt without a trap covers %d events", r1.Size)
	}
	b0, _ := tw.teamReceipt(0, bob)
	if b1, _ := tw.teamReceipt(1, bob); b0 != b1 || b0.Size != 0 {
		t.Fatalf("bob's team receipt differs between the twins or is not empty: %+v, %+v", b0, b1)
	}
	for i := range tw.srv {
		if _, code := tw.teamReceipt(i, ""); code != "FORBIDDEN" {
			t.Fatalf("a spectator's team receipt: %q, want FORBIDDEN", code)
		}
	}
	tw.resume(before - 2)

	// ann ends her turn; bob, who sees the arena as if no trap lay there, ends his; ann
	// resigns.
	tw.cmd(ann, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
	tw.compare("in bob's turn")
	tw.cmd(bob, `mutation($m:ID!,$k:ID){endTurn(matchId:$m, commandId:$k){version}}`, nil)
	tw.compare("in ann's next turn")
	live, end := tw.resign(ann, bob)
	if end.Status != "FINISHED" || !slices.Equal(end.Result.Winners, []int{1}) {
		t.Fatalf("after ann resigned the match is %s, %+v: her resignation gives bob the win", end.Status, end.Result)
	}

	// Every subscription, on each twin, up to the end.
	tw.drain(end.Version, live)

	// Over: every secret is revealed, the trap with them, on the first twin alone.
	if traps := stateOf(t, fullState(t, tw.srv[0], bob, id)).Traps; len(traps) != 1 || traps[0].Cell != trap {
		t.Fatalf("the finished match does not show ann's trap on %s: %+v", trap, traps)
	}
	if traps := stateOf(t, fullState(t, tw.srv[1], bob, id)).Traps; len(traps) != 0 {
		t.Fatalf("the twin without a trap shows %+v", traps)
	}

	// verify re-derives the duel from both streams, and the store still holds what ann's
	// team receipt signed.
	tw.verifyTeamReceipt(ann, 0, 2)
}
