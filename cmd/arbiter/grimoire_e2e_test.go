package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

type rememberedGrimoire struct {
	Class    string
	Variants []string
}

// grimoiresOf reads a player's remembered grimoires as me { grimoires }.
func (s *server) grimoiresOf(t *testing.T, token string) []rememberedGrimoire {
	t.Helper()
	var d struct {
		Me struct{ Grimoires []rememberedGrimoire }
	}
	s.must(t, token, `{me{grimoires{class variants}}}`, nil, &d)
	return d.Me.Grimoires
}

// lockedGrimoires reads the grimoires a match has locked, by seat.
func (s *server) lockedGrimoires(t *testing.T, token, id string) []rememberedGrimoire {
	t.Helper()
	var d struct {
		Match struct {
			State struct {
				Phase     string
				Grimoires []struct {
					Seat     int
					Class    string
					Variants []string
				}
			}
		}
	}
	s.must(t, token, `query($m:ID!){match(id:$m){state{... on SolwarisState{phase grimoires{seat class variants}}}}}`, map[string]any{"m": id}, &d)
	if d.Match.State.Phase == "grimoire" {
		t.Fatalf("match %s is still in the grimoire phase", id)
	}
	out := make([]rememberedGrimoire, len(d.Match.State.Grimoires))
	for _, g := range d.Match.State.Grimoires {
		out[g.Seat] = rememberedGrimoire{Class: g.Class, Variants: g.Variants}
	}
	return out
}

// choose sends chooseGrimoire, with the variants argument left out when variants is nil.
func (s *server) choose(t *testing.T, token, id, class string, variants []string) {
	t.Helper()
	if variants == nil {
		s.must(t, token, `mutation($m:ID!,$c:String!){chooseGrimoire(matchId:$m, class:$c){version}}`, map[string]any{"m": id, "c": class}, nil)
		return
	}
	s.must(t, token, `mutation($m:ID!,$c:String!,$v:[String!]){chooseGrimoire(matchId:$m, class:$c, variants:$v){version}}`,
		map[string]any{"m": id, "c": class, "v": variants}, nil)
}

func sameGrimoires(got, want []rememberedGrimoire) bool {
	norm := func(gs []rememberedGrimoire) []rememberedGrimoire {
		out := []rememberedGrimoire{}
		for _, g := range gs {
			if len(g.Variants) == 0 {
				g.Variants = nil
			}
			out = append(out, g)
		}
		return out
	}
	return reflect.DeepEqual(norm(got), norm(want))
}

// Each player's grimoire is remembered per class once a match locks it, and chooseGrimoire
// without variants takes it back in the next match: Ann's variants are hers alone, Bob's
// his; a choice not yet locked is not remembered; variants: [] still takes the originals;
// a server restarted on the same file remembers the same; act(chooseGrimoire) recalls as
// the named mutation does.
func TestGrimoireRememberedPerPlayerAndClass(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "ann")
	bobID, bob := srv.register(t, "bob")
	guerrier, err := grimoire.ClassByID("guerrier")
	if err != nil {
		t.Fatal(err)
	}
	arcaniste, err := grimoire.ClassByID("arcaniste")
	if err != nil {
		t.Fatal(err)
	}
	annVariants := []string{guerrier.Spell(1, true).ID, guerrier.Passive(true).ID}
	bobVariants := []string{arcaniste.Spell(2, true).ID}

	first := srv.createAndSeat(t, "SOLWARIS", ann, bob)
	srv.choose(t, ann, first, "guerrier", annVariants)
	if got := srv.grimoiresOf(t, ann); len(got) != 0 {
		t.Fatalf("Ann's grimoire is remembered before the lock: %+v", got)
	}
	srv.choose(t, bob, first, "arcaniste", bobVariants)
	if got, want := srv.grimoiresOf(t, ann), []rememberedGrimoire{{"guerrier", annVariants}}; !sameGrimoires(got, want) {
		t.Fatalf("Ann remembers %+v, want %+v", got, want)
	}
	if got, want := srv.grimoiresOf(t, bob), []rememberedGrimoire{{"arcaniste", bobVariants}}; !sameGrimoires(got, want) {
		t.Fatalf("Bob remembers %+v, want %+v", got, want)
	}
	if r := srv.post(t, ann, `query($p:ID!){player(id:$p){grimoires{class}}}`, map[string]any{"p": bobID}); r.code() != "FORBIDDEN" {
		t.Fatalf("Ann reads Bob's grimoires: %s %+v", r.Data, r.Errors)
	}

	// Without variants, Ann's Guerrier comes as she locked it; Bob never locked a
	// Guerrier, so his comes with its originals.
	second := srv.createAndSeat(t, "SOLWARIS", ann, bob)
	srv.choose(t, ann, second, "guerrier", nil)
	srv.choose(t, bob, second, "guerrier", nil)
	if got, want := srv.lockedGrimoires(t, ann, second), []rememberedGrimoire{{"guerrier", annVariants}, {"guerrier", nil}}; !sameGrimoires(got, want) {
		t.Fatalf("the second match locked %+v, want %+v", got, want)
	}

	// variants: [] takes the originals, and is what Ann remembers next; Bob's Arcaniste
	// comes back with his variant.
	third := srv.createAndSeat(t, "SOLWARIS", ann, bob)
	srv.choose(t, ann, third, "guerrier", []string{})
	srv.choose(t, bob, third, "arcaniste", nil)
	if got, want := srv.lockedGrimoires(t, bob, third), []rememberedGrimoire{{"guerrier", nil}, {"arcaniste", bobVariants}}; !sameGrimoires(got, want) {
		t.Fatalf("the third match locked %+v, want %+v", got, want)
	}
	annWant := []rememberedGrimoire{{"guerrier", nil}}
	bobWant := []rememberedGrimoire{{"arcaniste", bobVariants}, {"guerrier", nil}}
	if got := srv.grimoiresOf(t, ann); !sameGrimoires(got, annWant) {
		t.Fatalf("Ann remembers %+v, want %+v", got, annWant)
	}
	if got := srv.grimoiresOf(t, bob); !sameGrimoires(got, bobWant) {
		t.Fatalf("Bob remembers %+v, want %+v", got, bobWant)
	}

	// The memory is rebuilt from the store: a restarted server remembers the same.
	srv.stop(t)
	srv = startServer(t, db)
	if got := srv.grimoiresOf(t, ann); !sameGrimoires(got, annWant) {
		t.Fatalf("after a restart, Ann remembers %+v, want %+v", got, annWant)
	}
	if got := srv.grimoiresOf(t, bob); !sameGrimoires(got, bobWant) {
		t.Fatalf("after a restart, Bob remembers %+v, want %+v", got, bobWant)
	}
	fourth := srv.createAndSeat(t, "SOLWARIS", ann, bob)
	srv.choose(t, bob, fourth, "arcaniste", nil)
	srv.choose(t, ann, fourth, "guerrier", nil)
	if got, want := srv.lockedGrimoires(t, ann, fourth), []rememberedGrimoire{{"guerrier", nil}, {"arcaniste", bobVariants}}; !sameGrimoires(got, want) {
		t.Fatalf("after a restart, the match locked %+v, want %+v", got, want)
	}

	// act(chooseGrimoire) recalls as the named mutation does: Bob's Arcaniste without
	// variants (and with variants: null) comes with his; Ann's variants: [] are the originals.
	act := `mutation($m:ID!,$a:ActionInput!){act(matchId:$m, action:$a){version}}`
	for _, bobAction := range []map[string]any{{"class": "arcaniste"}, {"class": "arcaniste", "variants": nil}} {
		fifth := srv.createAndSeat(t, "SOLWARIS", ann, bob)
		srv.must(t, ann, act, map[string]any{"m": fifth, "a": map[string]any{"chooseGrimoire": map[string]any{"class": "guerrier", "variants": annVariants}}}, nil)
		srv.must(t, bob, act, map[string]any{"m": fifth, "a": map[string]any{"chooseGrimoire": bobAction}}, nil)
		if got, want := srv.lockedGrimoires(t, ann, fifth), []rememberedGrimoire{{"guerrier", annVariants}, {"arcaniste", bobVariants}}; !sameGrimoires(got, want) {
			t.Fatalf("act(chooseGrimoire: %v) locked %+v, want %+v", bobAction, got, want)
		}
	}
	sixth := srv.createAndSeat(t, "SOLWARIS", ann, bob)
	srv.must(t, ann, `mutation($m:ID!){act(matchId:$m, action:{chooseGrimoire:{class:"guerrier", variants:[]}}){version}}`, map[string]any{"m": sixth}, nil)
	srv.must(t, bob, `mutation($m:ID!){act(matchId:$m, action:{chooseGrimoire:{class:"guerrier"}}){version}}`, map[string]any{"m": sixth}, nil)
	if got, want := srv.lockedGrimoires(t, ann, sixth), []rememberedGrimoire{{"guerrier", nil}, {"guerrier", nil}}; !sameGrimoires(got, want) {
		t.Fatalf("act(chooseGrimoire) with variants: [] locked %+v, want %+v", got, want)
	}
}
