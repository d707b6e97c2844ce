package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
)

// solwarisState is what the duel's bots read of a match: the Solwaris state as each sees it.
type solwarisState struct {
	Match struct {
		Status string
		ToAct  []int
		Result *struct {
			Winners []int
			Reason  string
		}
		State struct {
			Phase    string
			Acting   int
			Turn     int
			Purse    int
			Fighters []struct {
				ID, Seat, Team, HP, MP int
				Cell                   string
			}
			Auction *struct {
				ToBid, Price int
			}
			PlacementCells []string
			Reachable      []struct {
				Cell string
				Cost int
			}
			Targets []struct {
				Spell string
				Cells []string
			}
		}
	}
}

const solwarisStateQuery = `query($m:ID!){match(id:$m){status toAct result{winners reason} state{... on SolwarisState{
	phase acting turn purse fighters{id seat team hp mp cell} auction{toBid price}
	placementCells reachable{cell cost} targets{spell cells}}}}}`

// A Guerrier against an Arcaniste on each arena, played to its end over GraphQL by two bots
// that read their legal actions from the API (the start cells they may take, the cells
// they may reach, each spell's legal targets); the first bidder buys the initiative with
// coins of its real wallet, which the settlement takes; verify re-derives the duel.
func TestSolwarisDuelOverGraphQL(t *testing.T) {
	maps := []string{}
	for _, m := range arena.Maps() {
		maps = append(maps, m.ID)
	}
	if testing.Short() {
		maps = maps[:1]
	}
	for _, id := range maps {
		t.Run(id, func(t *testing.T) { solwarisDuel(t, id) })
	}
}

func solwarisDuel(t *testing.T, mapID string) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "ann")
	_, bob := srv.register(t, "bob")
	tokens := []string{ann, bob}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation($map:String!){createMatch(input:{game:SOLWARIS, options:[{key:"map", value:$map}]}){match{id}}}`,
		map[string]any{"map": mapID}, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	payer := -1
	var st solwarisState
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatalf("the duel has not ended after %d requests: %+v", step, st.Match.State)
		}
		acted := false
		for seat, tok := range tokens {
			srv.must(t, tok, solwarisStateQuery, map[string]any{"m": id}, &st)
			if st.Match.Status == "FINISHED" {
				break
			}
			if q, vars := solwarisBot(seat, &st); q != "" {
				vars["m"] = id
				if r := srv.post(t, tok, q, vars); len(r.Errors) > 0 {
					t.Fatalf("seat %d: %s %v: %+v (state %+v)", seat, q, vars, r.Errors, st.Match.State)
				}
				if strings.Contains(q, "bid(") {
					payer = seat
				}
				acted = true
				break
			}
		}
		if st.Match.Status == "FINISHED" {
			break
		}
		if !acted {
			t.Fatalf("the match is %s and no seat has anything to do: %+v", st.Match.Status, st.Match.State)
		}
	}
	if st.Match.Result == nil || st.Match.Result.Reason == "" {
		t.Fatalf("finished without a result: %+v", st.Match)
	}
	t.Logf("%s: %s after %d rounds, winners %v", mapID, st.Match.Result.Reason, st.Match.State.Turn, st.Match.Result.Winners)

	// The settlement takes the price from the payer's wallet, and nothing from the other's.
	for seat, tok := range tokens {
		want := 1000
		if seat == payer {
			want -= 100
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			var w struct {
				Me struct {
					Wallet struct {
						Balance int
						Held    []struct{ MatchID string }
					}
				}
			}
			srv.must(t, tok, `{me{wallet{balance held{matchId}}}}`, nil, &w)
			if w.Me.Wallet.Balance == want && len(w.Me.Wallet.Held) == 0 {
				break
			}
			if time.Now().After(deadline) { // the settlement process has a reason to end: the match is over
				t.Fatalf("seat %d's wallet after the duel: %+v, want a balance of %d and nothing held", seat, w.Me.Wallet, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	srv.stop(t)
	if last, out := lastLine(t, "verify", "--db", db, "--match", id); !strings.HasPrefix(last, "1 matches") || strings.Contains(out, "MISMATCH") {
		t.Fatalf("verify:\n%s", out)
	}
	// The replay draws the arena and its fighters.
	if _, out := lastLine(t, "replay", "--db", db, "--match", id); !strings.Contains(out, mapID+", phase over") || !strings.Contains(out, "0 seat 0 guerrier") {
		t.Fatalf("replay:\n%s", out)
	}
}

// solwarisBot is what a seat does in state st, as a GraphQL mutation and its variables,
// or "" when it has nothing to do: it picks its class, takes the first start cell it is
// offered, buys the initiative at the first price, then casts a spell on an enemy when
// one is a legal target, walks towards the nearest enemy when it can come closer, and
// ends its turn.
func solwarisBot(seat int, st *solwarisState) (string, map[string]any) {
	s := st.Match.State
	if !slices.Contains(st.Match.ToAct, seat) {
		return "", nil
	}
	switch s.Phase {
	case "grimoire":
		class := []string{"guerrier", "arcaniste"}[seat]
		return `mutation($m:ID!,$c:String!){chooseGrimoire(matchId:$m, class:$c){version}}`, map[string]any{"c": class}
	case "placement":
		if len(s.PlacementCells) == 0 {
			return "", nil
		}
		return `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"c": s.PlacementCells[len(s.PlacementCells)/2]}
	case "auction":
		if s.Auction.Price == 0 && s.Purse >= 100 {
			return `mutation($m:ID!){bid(matchId:$m){version}}`, map[string]any{}
		}
		return `mutation($m:ID!){passBid(matchId:$m){version}}`, map[string]any{}
	case "play":
		me := s.Fighters[s.Acting]
		var enemies []string
		for _, f := range s.Fighters {
			if f.Team != me.Team && f.HP > 0 && f.Cell != "" {
				enemies = append(enemies, f.Cell)
			}
		}
		for _, sp := range s.Targets {
			for _, c := range sp.Cells {
				if slices.Contains(enemies, c) {
					return `mutation($m:ID!,$s:String!,$c:String!){castSpell(matchId:$m, spell:$s, cell:$c){version}}`, map[string]any{"s": sp.Spell, "c": c}
				}
			}
		}
		best, bestCell := nearest(me.Cell, enemies), ""
		for _, r := range s.Reachable {
			if d := nearest(r.Cell, enemies); d < best {
				best, bestCell = d, r.Cell
			}
		}
		if bestCell != "" {
			return `mutation($m:ID!,$p:[String!]!){act(matchId:$m, action:{moveFighter:{path:$p}}){version}}`, map[string]any{"p": walk(s.Reachable, bestCell)}
		}
		return `mutation($m:ID!){endTurn(matchId:$m){version}}`, map[string]any{}
	}
	return "", nil
}

// walk is a path to cell read off the reachable cells and their costs: back from cell,
// each step to a neighbour that costs one MP less.
func walk(reach []struct {
	Cell string
	Cost int
}, cell string) []string {
	cost := map[string]int{}
	for _, r := range reach {
		cost[r.Cell] = r.Cost
	}
	path := []string{cell}
	for c := cell; cost[c] > 1; {
		at, _ := arena.ParseCell(c)
		for _, d := range []arena.Dir{arena.North, arena.East, arena.South, arena.West} {
			if n := at.Step(d).String(); cost[n] == cost[c]-1 {
				c = n
				break
			}
		}
		path = append([]string{c}, path...)
	}
	return path
}

// nearest is the distance from cell to the nearest of cells.
func nearest(cell string, cells []string) int {
	from, _ := arena.ParseCell(cell)
	best := 1 << 30
	for _, c := range cells {
		to, _ := arena.ParseCell(c)
		best = min(best, arena.Distance(from, to))
	}
	return best
}

// namesNone fails t when raw, shown at where to a client that may not know them, names
// any of secrets as a JSON string: the outside check of the Solwaris secrets tests.
func namesNone(t *testing.T, where string, raw []byte, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(string(raw), `"`+s+`"`) {
			t.Fatalf("%s names %q: %s", where, s, raw)
		}
	}
}

// A grimoire and a start cell chosen are hidden from the other side and from spectators
// until both sides have chosen, on every surface: the state, the events read, the events
// streamed over a websocket. The chooser sees its own.
func TestSolwarisBlindChoicesOverGraphQL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "ann")
	_, bob := srv.register(t, "bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, options:[{key:"map", value:"caveau"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	streams := map[string]<-chan wsEvent{
		"bob":       srv.subscribe(t, ctx, "graphql-transport-ws", bob, id, 0),
		"spectator": srv.subscribe(t, ctx, "graphql-ws", "", id, 0),
	}
	vars := map[string]any{"m": id}
	srv.must(t, ann, `mutation($m:ID!){chooseGrimoire(matchId:$m, class:"guerrier", variants:["ancrage"]){version}}`, vars, nil)
	var st solwarisState
	srv.must(t, ann, solwarisStateQuery, vars, &st)
	secrets := []string{"guerrier", "ancrage"}
	// What ann chose and where she stands are the secrets, until bob has chosen and placed.
	check := func(stage string) {
		t.Helper()
		for name, tok := range map[string]string{"bob": bob, "spectator": ""} {
			var d struct {
				Match struct {
					Events []struct {
						Type     string
						Data     json.RawMessage
						Redacted bool
					}
					State json.RawMessage
				}
			}
			srv.must(t, tok, `query($m:ID!){match(id:$m){events{type data redacted} state{... on SolwarisState{grimoires{seat class variants} fighters{seat cell class}}}}}`, vars, &d)
			namesNone(t, stage+": "+name+"'s state", d.Match.State, secrets)
			for _, e := range d.Match.Events {
				namesNone(t, stage+": "+name+"'s "+e.Type, e.Data, secrets)
			}
		}
	}
	check("grimoire chosen")
	srv.must(t, bob, `mutation($m:ID!){chooseGrimoire(matchId:$m, class:"arcaniste"){version}}`, vars, nil)
	// Both grimoires are locked and shown: the start cells are the secrets now.
	srv.must(t, ann, solwarisStateQuery, vars, &st)
	cell := st.Match.State.PlacementCells[0]
	srv.must(t, ann, `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"m": id, "c": cell}, nil)
	secrets = []string{cell}
	srv.must(t, ann, solwarisStateQuery, vars, &st)
	if st.Match.State.Fighters[0].Cell != cell {
		t.Fatalf("ann does not see her own start cell: %+v", st.Match.State.Fighters)
	}
	check("placed")
	// The streams showed each secret event redacted, to its shadow.
	for name, events := range streams {
		seen := 0
		for seen < 2 {
			select {
			case e := <-events:
				if e.Type != "GrimoireChosen" && e.Type != "PlacementChosen" {
					continue
				}
				if strings.Contains(string(e.Data), "guerrier") || strings.Contains(string(e.Data), `"`+cell+`"`) {
					t.Fatalf("%s was streamed %s as %s (redacted %v)", name, e.Type, e.Data, e.Redacted)
				}
				if e.Redacted { // ann's, shown as its shadow; bob's own are shown whole
					seen++
				}
			case <-ctx.Done():
				t.Fatalf("%s's stream: %v before both choices of ann arrived", name, ctx.Err())
			}
		}
	}
	srv.must(t, bob, solwarisStateQuery, vars, &st)
	srv.must(t, bob, `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"m": id, "c": st.Match.State.PlacementCells[0]}, nil)
	srv.must(t, bob, solwarisStateQuery, vars, &st)
	if st.Match.State.Phase != "auction" || st.Match.State.Fighters[0].Cell != cell {
		t.Fatalf("once both are placed bob sees %+v", st.Match.State)
	}
}
