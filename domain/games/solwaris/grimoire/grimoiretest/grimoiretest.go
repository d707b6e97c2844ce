// Package grimoiretest builds Solwaris catalogs for tests: the embedded catalog with some
// spells or passives changed, for a figure, an effect or a blow that no class of part 1
// has (a trap, a zone that strikes its own caster). One helper serves every package's
// tests, so that each edits the catalog's JSON the same way and the loader checks it.
package grimoiretest

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
)

// Derive is the embedded catalog with each spell and passive passed through edit (its
// JSON object, by its ID), then loaded: the test fails if the loader refuses it.
func Derive(t testing.TB, edit func(id string, obj map[string]any)) *grimoire.Catalog {
	t.Helper()
	var classes []map[string]any
	if err := json.Unmarshal(grimoire.EmbeddedJSON(), &classes); err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		for _, list := range []string{"spells", "passives"} {
			for _, obj := range c[list].([]any) {
				obj := obj.(map[string]any)
				edit(obj["id"].(string), obj)
			}
		}
	}
	data, err := json.Marshal(classes)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := grimoire.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Spell is the embedded catalog with the fields of the spell id set as fields gives them
// (the catalog's JSON names: "effects", "zone", "maxRange"...), each replacing the spell's
// own. The test fails if no spell has that ID.
func Spell(t testing.TB, id string, fields map[string]any) *grimoire.Catalog {
	t.Helper()
	found := false
	cat := Derive(t, func(got string, obj map[string]any) {
		if got == id {
			for k, v := range fields {
				obj[k] = v
			}
			found = true
		}
	})
	if !found {
		t.Fatalf("no spell %s in the catalog", id)
	}
	return cat
}
