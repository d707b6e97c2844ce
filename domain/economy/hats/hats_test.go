package hats_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/economy/hats"
	"github.com/arbiter-games/arbiter/domain/game"
)

func TestTheCatalog(t *testing.T) {
	if len(hats.Catalog) < 5 {
		t.Fatalf("%d hats", len(hats.Catalog))
	}
	seen := map[string]bool{}
	var last int64
	for _, h := range hats.Catalog {
		if seen[h.ID] || h.Fr == "" || h.En == "" || h.Price <= 0 || h.Price < last {
			t.Errorf("hat %+v: a new ID, both names and a price, cheapest first", h)
		}
		seen[h.ID], last = true, h.Price
	}
	if _, err := hats.Find("sombrero"); game.CodeOf(err) != game.NotFound {
		t.Errorf("a hat not in the catalog: %v", err)
	}
}

func TestWearingAHatOwned(t *testing.T) {
	var p hats.Profile
	if _, err := hats.Wear(p, nil, "beret"); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("wearing a hat not owned: %v", err)
	}
	if _, err := hats.Wear(p, []string{"beret"}, "sombrero"); game.CodeOf(err) != game.NotFound {
		t.Fatalf("wearing a hat not in the catalog: %v", err)
	}
	evs, err := hats.Wear(p, []string{"beret", "tricorne"}, "beret")
	if err != nil || len(evs) != 1 {
		t.Fatalf("wearing the beret: %v %v", evs, err)
	}
	p = hats.Evolve(p, evs[0])
	if evs, err := hats.Wear(p, []string{"beret"}, "beret"); err != nil || len(evs) != 0 {
		t.Fatalf("wearing it again decided %v %v", evs, err)
	}
	if err := hats.Audit(p, []string{"beret"}, hats.HatWorn{Hat: "beret"}); err == nil {
		t.Fatal("the audit let the worn hat be worn again")
	}
	if err := hats.Audit(p, []string{"beret"}, hats.HatWorn{Hat: "tricorne"}); err == nil {
		t.Fatal("the audit let a hat not owned be worn")
	}
	evs, _ = hats.Wear(p, nil, "")
	if p = hats.Evolve(p, evs[0]); p.Worn != "" {
		t.Fatalf("taken off: %+v", p)
	}
}
