package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire/grimoiretest"
)

// trapSpell is the Guerrier's spell the test's catalog turns into a trap: Leap already
// aims at a free cell, as a trap does.
const trapSpell = "bond"

// trapCatalog is the embedded catalog with the Guerrier's Leap laying a trap instead (a
// cross of one cell, 8 rounds, 20 damage to whoever stands in it): no class of part 1
// lays one, and the test's server hosts this catalog alone.
func trapCatalog(t *testing.T) *grimoire.Catalog {
	t.Helper()
	return grimoiretest.Spell(t, trapSpell, map[string]any{"effects": []any{map[string]any{"kind": "trap", "to": "cell", "duration": 8, "zone": map[string]any{"kind": "cross", "size": 1},
		"effects": []any{map[string]any{"kind": "damage", "to": "all", "min": 20, "max": 20}}}}})
}

// solwarisFullState selects every field of SolwarisState.
const solwarisFullState = `... on SolwarisState{map width height cells phase deadline turn acting grimoires{seat class variants}
	fighters{id seat team class entity hero hp maxHp ap mp armour cell statuses spells} bonuses{kind cell} traps{team cell until}
	auction{designated toBid leader price closed} purse placementCells reachable{cell cost} targets{spell cells} winners reason}`

// A trap laid is its team's alone until it springs, on every surface a client reads: the
// other seat and a spectator read the whole state, the events, matchEvents and
// matchUpdates over both websocket protocols, and find no cell of the trap, no trap, no
// sign that a trap was laid and nothing computed around it: the cast and the laying are
// in ann's team's hidden stream, so no event of the match's stands for them and its
// version does not move; the state they read is the same before and after the cast (the
// caster's AP included: with grimoires public, the AP spent would name the spell); the other seat's
// reachable cells are the arena's as if no trap lay there. The layer sees it all. The other seat walks into it, and everyone sees it spring. The
// server hosts a Solwaris whose catalog has a trap-laying spell (trapCatalog).
func TestSolwarisTrapSecretOverGraphQL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reg := game.NewRegistry(solwaris.Rules{Catalog: trapCatalog(t)})
	srv := startServerIn(t, hostingGames(context.Background(), reg), filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "ann")
	_, bob := srv.register(t, "bob")
	tokens := []string{ann, bob}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, options:[{key:"map", value:"caveau"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	vars := map[string]any{"m": id}
	for seat, tok := range tokens {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	events := map[string]<-chan wsEvent{
		"bob":       srv.subscribe(t, ctx, "graphql-transport-ws", bob, id, 0),
		"spectator": srv.subscribe(t, ctx, "graphql-ws", "", id, 0),
	}
	updateQuery := `subscription($m:ID!){matchUpdates(matchId:$m){version state{` + solwarisFullState + `}}}`
	updates := map[string]<-chan json.RawMessage{
		"bob":       srv.subscribeRaw(t, ctx, "graphql-ws", bob, updateQuery, vars),
		"spectator": srv.subscribeRaw(t, ctx, "graphql-transport-ws", "", updateQuery, vars),
	}
	g := mustMap(t, "caveau")

	// To play: ann the Guerrier, bob the Arcaniste; bob starts on the cell of his zone
	// nearest to ann's; ann buys the initiative.
	for seat, class := range []string{"guerrier", "arcaniste"} {
		srv.must(t, tokens[seat], `mutation($m:ID!,$c:String!){chooseGrimoire(matchId:$m, class:$c){version}}`, map[string]any{"m": id, "c": class}, nil)
	}
	var st solwarisState
	srv.must(t, ann, solwarisStateQuery, vars, &st)
	annCell := st.Match.State.PlacementCells[0]
	srv.must(t, ann, `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"m": id, "c": annCell}, nil)
	srv.must(t, bob, solwarisStateQuery, vars, &st)
	bobCell := slices.MinFunc(st.Match.State.PlacementCells, func(a, b string) int { return nearest(a, []string{annCell}) - nearest(b, []string{annCell}) })
	srv.must(t, bob, `mutation($m:ID!,$c:String!){placeFighter(matchId:$m, cell:$c){version}}`, map[string]any{"m": id, "c": bobCell}, nil)
	for srv.must(t, ann, solwarisStateQuery, vars, &st); st.Match.State.Phase == "auction"; srv.must(t, ann, solwarisStateQuery, vars, &st) {
		seat := st.Match.ToAct[0]
		q := `mutation($m:ID!){passBid(matchId:$m){version}}`
		if seat == 0 && st.Match.State.Auction.Price == 0 {
			q = `mutation($m:ID!){bid(matchId:$m){version}}`
		}
		srv.must(t, tokens[seat], q, vars, nil)
	}
	if st.Match.State.Phase != "play" || st.Match.ToAct[0] != 0 {
		t.Fatalf("after the auction: %+v, to act %v", st.Match.State, st.Match.ToAct)
	}

	// ann walks towards bob, turn after turn, until her trap may lie two cells or more
	// from both of them, in bob's sight (so his spells may aim at it) and within his
	// walk, then lays it there.
	var trap string
	for tries := 0; trap == ""; tries++ {
		srv.must(t, ann, solwarisStateQuery, vars, &st)
		s := st.Match.State
		annCell, bobCell = s.Fighters[0].Cell, s.Fighters[1].Cell
		for _, sp := range s.Targets {
			for _, cell := range sp.Cells {
				if sp.Spell == trapSpell && inSight(g, bobCell, cell) && nearest(cell, []string{annCell}) >= 2 && nearest(cell, []string{bobCell}) >= 2 && nearest(cell, []string{bobCell}) <= 4 &&
					(trap == "" || nearest(cell, []string{bobCell}) < nearest(trap, []string{bobCell})) {
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
			srv.must(t, ann, `mutation($m:ID!,$p:[String!]!){act(matchId:$m, action:{moveFighter:{path:$p}}){version}}`, map[string]any{"m": id, "p": walk(s.Reachable, to)}, nil)
		default: // ann has walked all she may this turn; bob waits where he stands
			srv.must(t, ann, `mutation($m:ID!){endTurn(matchId:$m){version}}`, vars, nil)
			srv.must(t, bob, `mutation($m:ID!){endTurn(matchId:$m){version}}`, vars, nil)
		}
	}
	zone := crossOf(trap)
	before := map[string]json.RawMessage{}
	for name, tok := range map[string]string{"bob": bob, "spectator": ""} {
		before[name] = fullState(t, srv, tok, id)
	}
	var v struct{ Match struct{ Version int } }
	srv.must(t, bob, `query($m:ID!){match(id:$m){version}}`, vars, &v)
	beforeVersion := v.Match.Version
	var cast struct {
		CastSpell struct{ Version int }
	}
	srv.must(t, ann, `mutation($m:ID!,$s:String!,$c:String!){castSpell(matchId:$m, spell:$s, cell:$c){version}}`, map[string]any{"m": id, "s": trapSpell, "c": trap}, &cast)
	if cast.CastSpell.Version != beforeVersion {
		t.Fatalf("the trap's cast answers version %d; the match was at %d: its own stream counts the cast", cast.CastSpell.Version, beforeVersion)
	}
	castAt := cast.CastSpell.Version + 1 // the first event after the cast
	annState := decoded(t, fullState(t, srv, ann, id))
	if traps := stateOf(t, fullState(t, srv, ann, id)).Traps; len(traps) != 1 || traps[0].Cell != trap {
		t.Fatalf("ann does not see her trap on %s: %+v", trap, traps)
	}
	// The other side's and a spectator's state: the cast changed nothing, ann's AP
	// included, while ann sees her own AP spent.
	for name, tok := range map[string]string{"bob": bob, "spectator": ""} {
		after := fullState(t, srv, tok, id)
		b, a := decoded(t, before[name]), decoded(t, after)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s's state changed with the trap:\nbefore %s\nafter  %s", name, before[name], after)
		}
		if mine, theirs := annState["fighters"].([]any)[0].(map[string]any)["ap"], a["fighters"].([]any)[0].(map[string]any)["ap"]; mine != theirs.(float64)-3 {
			t.Fatalf("ann sees her AP at %v, %s at %v: the cast costs 3", mine, name, theirs)
		}
	}
	srv.must(t, ann, `mutation($m:ID!){endTurn(matchId:$m){version}}`, vars, nil)

	// bob's turn: the cells he may reach are the arena's, as if no trap lay there.
	srv.must(t, bob, solwarisStateQuery, vars, &st)
	s := st.Match.State
	if st.Match.ToAct[0] != 1 || s.Fighters[1].Cell != bobCell {
		t.Fatalf("bob's turn: %+v", st.Match)
	}
	from, _ := arena.ParseCell(bobCell)
	at, _ := arena.ParseCell(annCell)
	want := map[string]int{}
	for _, r := range g.Reachable(from, s.Fighters[1].MP, []arena.Cell{at}) {
		want[r.Cell.String()] = r.Cost
	}
	got := map[string]int{}
	for _, r := range s.Reachable {
		got[r.Cell] = r.Cost
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bob may reach %v, the arena without a trap %v", got, want)
	}
	// And the cells each of his spells may be cast on are the arena's, as if no trap lay there.
	for _, sp := range s.Targets {
		if w := trapFreeTargets(t, g, sp.Spell, from, at); !slices.Equal(sp.Cells, w) {
			t.Fatalf("bob may cast %s on %v, the arena without a trap %v", sp.Spell, sp.Cells, w)
		}
	}
	// Everything bob and the spectator were shown until now held nothing of the trap.
	var last struct {
		Match struct {
			Events []struct{ Version int }
		}
	}
	srv.must(t, bob, `query($m:ID!){match(id:$m){events{version}}}`, vars, &last)
	hidden := last.Match.Events[len(last.Match.Events)-1].Version
	for name, tok := range map[string]string{"bob": bob, "spectator": ""} {
		var d struct {
			Match struct {
				Events []wsEvent
			}
		}
		srv.must(t, tok, `query($m:ID!){match(id:$m){events{version type data hash redacted visibility}}}`, vars, &d)
		for _, e := range d.Match.Events {
			if e.Version >= castAt {
				noTrap(t, name+"'s events", e, zone, castAt)
			}
		}
	}

	// bob walks into the trap's zone: it springs, and everyone sees it.
	step := ""
	for _, r := range s.Reachable {
		if slices.Contains(zone, r.Cell) && (step == "" || r.Cost < got[step]) {
			step = r.Cell
		}
	}
	if step == "" {
		t.Fatalf("bob (%s) cannot reach the trap's zone %v: %v", bobCell, zone, got)
	}
	srv.must(t, bob, `mutation($m:ID!,$p:[String!]!){act(matchId:$m, action:{moveFighter:{path:$p}}){version}}`, map[string]any{"m": id, "p": walk(s.Reachable, step)}, nil)
	var end struct {
		Match struct{ Version int }
	}
	srv.must(t, ann, `query($m:ID!){match(id:$m){version}}`, vars, &end)
	for name, tok := range map[string]string{"ann": ann, "bob": bob, "spectator": ""} {
		var d struct {
			Match struct {
				Events []wsEvent
				State  json.RawMessage
			}
		}
		srv.must(t, tok, `query($m:ID!){match(id:$m){events{version type data redacted} state{`+solwarisFullState+`}}}`, vars, &d)
		if traps := stateOf(t, d.Match.State).Traps; len(traps) != 1 || traps[0].Cell != trap {
			t.Fatalf("%s does not see the sprung trap on %s: %s", name, trap, d.Match.State)
		}
		if !slices.ContainsFunc(d.Match.Events, func(e wsEvent) bool {
			return e.Type == "TrapTriggered" && !e.Redacted && strings.Contains(string(e.Data), `"`+step+`"`)
		}) {
			t.Fatalf("%s reads no TrapTriggered on %s: %+v", name, step, d.Match.Events)
		}
	}

	// The streams, read up to the walk's events, held nothing of the trap either.
	for name, ch := range events {
		for seen := 0; seen < end.Match.Version; {
			select {
			case e := <-ch:
				seen = e.Version
				if e.Version >= castAt && e.Version <= hidden {
					noTrap(t, name+"'s matchEvents", e, zone, castAt)
				}
			case <-ctx.Done():
				t.Fatalf("%s's matchEvents: %v before version %d", name, ctx.Err(), end.Match.Version)
			}
		}
	}
	for name, ch := range updates {
		for seen := 0; seen < end.Match.Version; {
			select {
			case data := <-ch:
				var state json.RawMessage
				seen, state = solwarisUpdate(t, data)
				if seen >= castAt && seen <= hidden {
					noTrapInState(t, fmt.Sprintf("%s's matchUpdates at version %d", name, seen), state, zone)
				}
			case <-ctx.Done():
				t.Fatalf("%s's matchUpdates: %v before version %d", name, ctx.Err(), end.Match.Version)
			}
		}
	}
}

// trapFreeTargets is the cells a fighter on from may cast spell on at the start of its
// turn, read off the arena alone, the other fighter standing on other.
func trapFreeTargets(t *testing.T, g *arena.Map, spell string, from, other arena.Cell) []string {
	t.Helper()
	sp, err := grimoire.SpellByID(spell)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range g.Targets(from, arena.Range{Min: sp.MinRange, Max: sp.MaxRange, Straight: sp.Straight, Sight: sp.Sight}) {
		taken := c == from || c == other
		if sp.Target == grimoire.TargetAny || (sp.Target == grimoire.TargetFree) != taken {
			out = append(out, c.String())
		}
	}
	return out
}

// fullState is every field of the match's state as tok's holder reads it.
func fullState(t *testing.T, srv *server, tok, id string) json.RawMessage {
	t.Helper()
	var d struct {
		Match struct{ State json.RawMessage }
	}
	srv.must(t, tok, `query($m:ID!){match(id:$m){state{`+solwarisFullState+`}}}`, map[string]any{"m": id}, &d)
	return d.Match.State
}

func decoded(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func stateOf(t *testing.T, raw json.RawMessage) (s struct{ Traps []struct{ Cell string } }) {
	t.Helper()
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// noTrap checks an event from the cast on shown to a client that may not see the trap:
// no event stands for the cast or the laying (they are in ann's team's hidden stream, not
// the match's: TestATrapLeavesNoTraceOutsideItsTeam shows that nothing counts them), none
// names the trap spell, nor a cell of the trap's zone but the bonuses drawn (public,
// drawn wherever a trap lies).
func noTrap(t *testing.T, where string, e wsEvent, zone []string, cast int) {
	t.Helper()
	if e.Redacted || e.Type == "Concealed" {
		t.Fatalf("%s: version %d is shown as %s %s (redacted %v)", where, e.Version, e.Type, e.Data, e.Redacted)
	}
	if e.Type == "SpellCast" || e.Type == "TrapLaid" || strings.Contains(string(e.Data), `"`+trapSpell+`"`) {
		t.Fatalf("%s: version %d shows the trap's cast: %s %s", where, e.Version, e.Type, e.Data)
	}
	if e.Type != "BonusesSpawned" {
		namesNone(t, where+": "+e.Type, e.Data, zone)
	}
}

// noTrapInState checks a state shown to a client that may not see the trap: no trap, and
// no cell of its zone outside the public bonuses and the viewer's own reach and targets
// (which bob's reachable check above holds to the arena's).
func noTrapInState(t *testing.T, where string, raw json.RawMessage, zone []string) {
	t.Helper()
	m := decoded(t, raw)
	if traps, _ := m["traps"].([]any); len(traps) != 0 {
		t.Fatalf("%s: traps %v", where, traps)
	}
	delete(m, "bonuses")
	delete(m, "reachable")
	delete(m, "targets")
	rest, _ := json.Marshal(m)
	namesNone(t, where, rest, zone)
}

// crossOf is the cells of a cross of one cell around cell.
func crossOf(cell string) []string {
	c, _ := arena.ParseCell(cell)
	out := []string{cell}
	for _, d := range []arena.Dir{arena.North, arena.East, arena.South, arena.West} {
		out = append(out, c.Step(d).String())
	}
	return out
}

func inSight(g *arena.Map, a, b string) bool {
	from, _ := arena.ParseCell(a)
	to, _ := arena.ParseCell(b)
	return g.Sight(from, to)
}

func mustMap(t *testing.T, id string) *arena.Map {
	t.Helper()
	m, err := arena.ByID(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
