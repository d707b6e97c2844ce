package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/eventstore"
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

// A Guerrier against an Arcaniste on each arena, staked 200 coins a seat, played to its
// end over GraphQL by two bots that read their legal actions from the API (the start
// cells they may take, the cells they may reach, each spell's legal targets); both stakes
// and purses are held from real wallets, the first bidder buys the initiative with them,
// and the settlement pays the stake to the winner and takes the price from the payer;
// `arbiter verify` re-derives the duel and every wallet, and `arbiter replay --at` draws
// the arena as it stood after a step.
func TestSolwarisDuelOverGraphQL(t *testing.T) {
	maps := []string{}
	for _, m := range arena.Maps() {
		maps = append(maps, m.ID)
	}
	// Under the race detector, the first map only, as with -short: what the detector
	// watches, the server's goroutines (the engine, the read side, the settlement), runs
	// alike on every map, and the maps differ only in the rules, pure, which the plain run
	// plays on each. Nine duels were 43 s of CI's race step, against 6 s without it.
	if testing.Short() || raceDetector {
		maps = maps[:1]
	}
	for _, id := range maps {
		t.Run(id, func(t *testing.T) { solwarisDuel(t, id) })
	}
}

// duelStake is the coins each seat of the duel stakes.
const duelStake = 200

// solwarisPlayed is what a finished solwarisDuel leaves: its store, match and players.
type solwarisPlayed struct {
	db, id  string
	tokens  []string
	winners []int
	payer   int // the seat that bought the initiative, -1 for none
	draws   int // the draws of loot the duel calls for
}

func solwarisDuel(t *testing.T, mapID string) solwarisPlayed {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "ann")
	_, bob := srv.register(t, "bob")
	d := solwarisPlayed{db: db, tokens: []string{ann, bob}, payer: -1}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation($map:String!,$stake:String!){createMatch(input:{game:SOLWARIS, rated:true, options:[{key:"map", value:$map}, {key:"stake", value:$stake}]}){match{id}}}`,
		map[string]any{"map": mapID, "stake": strconv.Itoa(duelStake)}, &c)
	id := c.CreateMatch.Match.ID
	d.id = id
	// Each seat is funded from its wallet: the stake, and a purse for the auction of what
	// the balance allows up to the game's ceiling.
	held := duelStake + min(1000-duelStake, solwaris.MaxBid)
	for seat, tok := range d.tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
		if w := srv.wallet(t, tok); w.Balance != 1000-held || len(w.Held) != 1 || w.Held[0].MatchID != id || w.Held[0].Amount != held {
			t.Fatalf("seat %d's wallet once seated: %+v, want %d held for %s", seat, w, held, id)
		}
	}
	var st solwarisState
	var stepAt int    // the version after seat 0's first step
	var stepTo string // where it took ann's fighter
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatalf("the duel has not ended after %d requests: %+v", step, st.Match.State)
		}
		acted := false
		for seat, tok := range d.tokens {
			srv.must(t, tok, solwarisStateQuery, map[string]any{"m": id}, &st)
			if st.Match.Status == "FINISHED" {
				break
			}
			if q, vars := solwarisBot(seat, &st); q != "" {
				vars["m"] = id
				r := srv.post(t, tok, q, vars)
				if len(r.Errors) > 0 {
					t.Fatalf("seat %d: %s %v: %+v (state %+v)", seat, q, vars, r.Errors, st.Match.State)
				}
				if strings.Contains(q, "bid(") {
					d.payer = seat
				}
				if p, ok := vars["p"].([]string); ok && seat == 0 && stepAt == 0 {
					var v struct{ MoveFighter struct{ Version int } }
					if err := json.Unmarshal(r.Data, &v); err != nil || v.MoveFighter.Version == 0 {
						t.Fatalf("moveFighter answered %s (%v)", r.Data, err)
					}
					stepAt, stepTo = v.MoveFighter.Version, p[len(p)-1]
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
	d.winners = st.Match.Result.Winners
	t.Logf("%s: %s after %d rounds, winners %v, initiative bought by seat %d", mapID, st.Match.Result.Reason, st.Match.State.Turn, d.winners, d.payer)

	// The settlement pays the loser's stake to the winner (a draw moves no stake) and
	// takes the initiative's price from the payer alone.
	for seat, tok := range d.tokens {
		want := 1000
		if seat == d.payer {
			want -= solwaris.BidStep
		}
		if len(d.winners) == 1 && d.winners[0] == seat {
			want += duelStake
		} else if len(d.winners) == 1 {
			want -= duelStake
		}
		w := srv.settledTo(t, tok, want)
		if last := w.Entries[len(w.Entries)-1]; last.Reason != "settled" || last.MatchID == nil || *last.MatchID != id || last.Amount != want-(1000-held) {
			t.Fatalf("seat %d's last wallet entry: %+v, want the settlement of %s bringing the balance to %d", seat, last, id, want)
		}
	}
	// The settlement process records the winner's draw of a Cristal légendaire (a ranked
	// victory's loot: the duel is rated) on its loot stream, once: as many draws as the
	// match's facts give (progress.DrawsLoot).
	d.draws = lootSeats(t, db, id)
	for deadline := time.Now().Add(20 * time.Second); lootDraws(t, db) != d.draws; {
		if time.Now().After(deadline) {
			t.Fatalf("%d draws of loot recorded, want %d", lootDraws(t, db), d.draws)
		}
		time.Sleep(50 * time.Millisecond) // the settlement process appends them: polled with a deadline
	}
	srv.stop(t)
	if n := lootDraws(t, db); n != d.draws {
		t.Fatalf("%d draws of loot after the server stopped, want %d", n, d.draws)
	}
	// verify re-derives the whole store: the match, and every wallet with its holds and
	// settlements against the match's result and what its auction charged.
	last, out := lastLine(t, "verify", "--db", db)
	if !strings.HasSuffix(last, "all ok") || strings.Contains(out, "FAIL") || !strings.Contains(out, "ok   wallets: 2 re-derived, 2 holds over 1 matches that move coins, 0 step(s) pending") ||
		!strings.Contains(out, "ok   "+id+" SOLWARIS ") {
		t.Fatalf("verify:\n%s", out)
	}
	// The replay draws the arena and its fighters, at the end and after ann's first step.
	if _, out := lastLine(t, "replay", "--db", db, "--match", id); !strings.Contains(out, mapID+", phase over") || !strings.Contains(out, "0 seat 0 guerrier") {
		t.Fatalf("replay:\n%s", out)
	}
	if stepAt == 0 {
		t.Fatalf("ann never stepped")
	}
	_, out = lastLine(t, "replay", "--db", db, "--match", id, "--at", strconv.Itoa(stepAt))
	if !strings.Contains(out, mapID+", phase play, round ") || !strings.Contains(out, "0 seat 0 guerrier "+stepTo+" ") || drawnAt(t, out, mapID, stepTo) != '0' {
		t.Fatalf("replay --at %d, after ann's step to %s:\n%s", stepAt, stepTo, out)
	}
	return d
}

// drawnAt is the character a replay's drawing of an arena shows on cell: the drawing is
// the arena's rows, just above the line that names the arena and the phase.
func drawnAt(t *testing.T, out, mapID, cell string) byte {
	t.Helper()
	lines := strings.Split(out, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, mapID+", phase ") })
	c, err := arena.ParseCell(cell)
	g := mustMap(t, mapID)
	if at < 0 || err != nil || at < g.Grid.Height() {
		t.Fatalf("no drawing of %s with %s in:\n%s", mapID, cell, out)
	}
	row := lines[at-g.Grid.Height()+c.Y]
	if c.X >= len(row) {
		t.Fatalf("row %d of the drawing is %q", c.Y, row)
	}
	return row[c.X]
}

// A Solwaris wallet is re-derived by verify: after a staked duel, the payer's settlement
// rewritten to charge it nothing for the initiative, with every hash recomputed, is
// caught by the wallets' check (and by the signed head, which the key alone could remake).
func TestVerifyCatchesATamperedSolwarisSettlement(t *testing.T) {
	d := solwarisDuel(t, "caveau")
	if d.payer < 0 {
		t.Fatal("nobody bought the initiative") // the bots bid at the first price
	}
	charged, won := int64(solwaris.BidStep), int64(0)
	switch {
	case len(d.winners) == 1 && d.winners[0] == d.payer:
		won = duelStake
	case len(d.winners) == 1:
		charged += duelStake
	}
	from := fmt.Sprintf(`"charged":%d,`, charged) // the other seat's settlement charges 0 or the stake alone
	if !rewriteConsistently(t, d.db, func(e *eventstore.Event) bool {
		if e.Type != "HoldSettled" || !strings.Contains(string(e.Payload), from) {
			return false
		}
		e.Payload = []byte(strings.Replace(string(e.Payload), from, fmt.Sprintf(`"charged":%d,`, charged-solwaris.BidStep), 1))
		return true
	}) {
		t.Fatalf("no settlement charging %d in the store", charged)
	}
	verifyFails(t, d.db, "FAIL wallets", fmt.Sprintf("of seat %d is settled charging %d and paying %d; the result says %d and %d", d.payer, charged-solwaris.BidStep, won, charged, won),
		"coins were made or lost")
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
			return `mutation($m:ID!,$p:[String!]!){moveFighter(matchId:$m, path:$p){version}}`, map[string]any{"p": walk(s.Reachable, bestCell)}
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
// until both sides have chosen, on every surface: every field of the state, the events
// read, the events streamed (matchEvents) and the states streamed (matchUpdates) over
// both websocket protocols. The chooser sees its own.
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
	updateQuery := `subscription($m:ID!){matchUpdates(matchId:$m){version state{` + solwarisFullState + `}}}`
	updates := map[string]<-chan json.RawMessage{
		"bob":       srv.subscribeRaw(t, ctx, "graphql-ws", bob, updateQuery, vars),
		"spectator": srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", updateQuery, vars),
	}
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
			srv.must(t, tok, `query($m:ID!){match(id:$m){events{type data redacted} state{`+solwarisFullState+`}}}`, vars, &d)
			namesNone(t, stage+": "+name+"'s state", d.Match.State, secrets)
			for _, e := range d.Match.Events {
				namesNone(t, stage+": "+name+"'s "+e.Type, e.Data, secrets)
			}
		}
	}
	check("grimoire chosen")
	var locked struct{ ChooseGrimoire struct{ Version int } }
	srv.must(t, bob, `mutation($m:ID!){chooseGrimoire(matchId:$m, class:"arcaniste"){version}}`, vars, &locked)
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
	var placed struct{ PlaceFighter struct{ Version int } }
	srv.must(t, bob, `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"m": id, "c": st.Match.State.PlacementCells[0]}, &placed)
	srv.must(t, bob, solwarisStateQuery, vars, &st)
	if st.Match.State.Phase != "auction" || st.Match.State.Fighters[0].Cell != cell {
		t.Fatalf("once both are placed bob sees %+v", st.Match.State)
	}
	// Every state streamed before a reveal held nothing of the secret it reveals, and
	// the state streamed at the reveal shows it.
	for name, ch := range updates {
		revealed := false
		for seen := 0; seen < placed.PlaceFighter.Version; {
			select {
			case data := <-ch:
				var state json.RawMessage
				seen, state = solwarisUpdate(t, data)
				where := fmt.Sprintf("%s's matchUpdates at version %d", name, seen)
				if seen < locked.ChooseGrimoire.Version {
					namesNone(t, where, state, []string{"guerrier", "ancrage"})
				}
				if seen < placed.PlaceFighter.Version {
					namesNone(t, where, state, []string{cell})
				} else {
					revealed = strings.Contains(string(state), `"cell":"`+cell+`"`)
				}
			case <-ctx.Done():
				t.Fatalf("%s's matchUpdates: %v before version %d", name, ctx.Err(), placed.PlaceFighter.Version)
			}
		}
		if !revealed {
			t.Fatalf("%s's matchUpdates never showed ann's start cell %s once both were placed", name, cell)
		}
	}
}

// The catalogs a client builds its screens from, executed on a real server: every arena
// with its cells (Caveau's 149 playable cells and Grande Plaine's 476 counted on the rows
// served), and every field of both classes, their spells and passives, as the embedded
// catalog has them.
func TestSolwarisCatalogsOverGraphQL(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	var d struct {
		Arenas []struct {
			ID, Name      string
			Width, Height int
			PlayableCells int
			Cells         []string
		}
		SolwarisClasses []struct {
			ID, NameFr, NameEn         string
			AP, MP, APResist, MPResist int
			Spells                     []map[string]any
			Passives                   []map[string]any
		}
	}
	srv.must(t, "", `{arenas{id name width height playableCells cells}
		solwarisClasses{id nameFr nameEn ap mp apResist mpResist
			spells{id slot variant nameFr nameEn cost minRange maxRange straight sight textFr textEn}
			passives{id variant nameFr nameEn textFr textEn}}}`, nil, &d)
	if len(d.Arenas) != len(arena.Maps()) {
		t.Fatalf("%d arenas served, %d in the rotation", len(d.Arenas), len(arena.Maps()))
	}
	playable := map[string]int{}
	for _, a := range d.Arenas {
		n := 0
		for _, row := range a.Cells {
			if len(row) != a.Width {
				t.Fatalf("%s: row %q is not %d cells wide", a.ID, row, a.Width)
			}
			n += strings.Count(row, ".") + strings.Count(row, "A") + strings.Count(row, "B")
		}
		if len(a.Cells) != a.Height || n != a.PlayableCells || a.Name == "" {
			t.Fatalf("%s (%q): %d rows for a height of %d, %d playable cells drawn for %d served", a.ID, a.Name, len(a.Cells), a.Height, n, a.PlayableCells)
		}
		playable[a.ID] = n
	}
	if playable["caveau"] != 149 || playable["grande-plaine"] != 476 {
		t.Fatalf("playable cells: %v", playable)
	}

	if len(d.SolwarisClasses) != len(grimoire.Classes()) {
		t.Fatalf("%d classes served", len(d.SolwarisClasses))
	}
	for i, c := range grimoire.Classes() {
		got := d.SolwarisClasses[i]
		if got.ID != c.ID || got.NameFr != c.NameFr || got.NameEn != c.NameEn || got.AP != c.AP || got.MP != c.MP || got.APResist != c.APResist || got.MPResist != c.MPResist {
			t.Fatalf("class %d served as %+v, the catalog has %+v", i, got, c)
		}
		if len(got.Spells) != 2*grimoire.Slots || len(got.Passives) != 2 {
			t.Fatalf("%s: %d spells and %d passives", c.ID, len(got.Spells), len(got.Passives))
		}
		for k, sp := range c.Spells {
			want := map[string]any{"id": sp.ID, "slot": float64(sp.Slot), "variant": sp.Variant, "nameFr": sp.NameFr, "nameEn": sp.NameEn,
				"cost": float64(sp.Cost), "minRange": float64(sp.MinRange), "maxRange": float64(sp.MaxRange), "straight": sp.Straight,
				"sight": sp.Sight, "textFr": sp.TextFr, "textEn": sp.TextEn}
			if !reflect.DeepEqual(got.Spells[k], want) || sp.NameFr == "" || sp.TextEn == "" {
				t.Fatalf("%s's spell %d served as %v, the catalog has %v", c.ID, k, got.Spells[k], want)
			}
		}
		for k, p := range c.Passives {
			want := map[string]any{"id": p.ID, "variant": p.Variant, "nameFr": p.NameFr, "nameEn": p.NameEn, "textFr": p.TextFr, "textEn": p.TextEn}
			if !reflect.DeepEqual(got.Passives[k], want) || p.TextFr == "" {
				t.Fatalf("%s's passive %d served as %v, the catalog has %v", c.ID, k, got.Passives[k], want)
			}
		}
	}
	byID := map[string]int{}
	for _, c := range d.SolwarisClasses {
		byID[c.ID] = c.AP
	}
	if byID["guerrier"] != 12 || byID["arcaniste"] != 14 {
		t.Fatalf("AP by class: %v", byID)
	}
}

// solwarisUpdate reads a matchUpdates payload: its version and its state.
func solwarisUpdate(t *testing.T, data json.RawMessage) (int, json.RawMessage) {
	t.Helper()
	var u struct {
		MatchUpdates struct {
			Version int
			State   json.RawMessage
		}
	}
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	return u.MatchUpdates.Version, u.MatchUpdates.State
}
