package solwaris

import (
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The grimoires locked are remembered under their class, a seat given the default at the
// deadline is not (it chose nothing), and no other event fixes a choice: the secret
// GrimoireChosen included.
func TestRememberedIsTheLockedGrimoires(t *testing.T) {
	s := opened(t, "caveau")
	s, chosen := act(t, s, 0, ChooseGrimoire{Class: "guerrier", Variants: []string{"ancrage"}})
	if got := (Rules{}).Remembered(chosen[0].Event); got != nil {
		t.Fatalf("a choice before the lock is remembered: %+v", got)
	}
	_, evs := act(t, s, 1, ChooseGrimoire{Class: "arcaniste"})
	got := (Rules{}).Remembered(evs[len(evs)-1].Event)
	want := []game.Choice{{Seat: 0, Key: "guerrier", Values: []string{"ancrage"}}, {Seat: 1, Key: "arcaniste"}}
	if len(got) != 2 || !reflect.DeepEqual(got[0], want[0]) || got[1].Seat != 1 || got[1].Key != "arcaniste" || len(got[1].Values) != 0 {
		t.Fatalf("remembered %+v, want %+v", got, want)
	}
	auto := GrimoiresLocked{Grimoires: []Grimoire{{Seat: 0, Class: "guerrier", Variants: []string{"ancrage"}}, {Seat: 1, Class: DefaultClass()}}, Auto: []int{1}}
	if got := (Rules{}).Remembered(auto); len(got) != 1 || got[0].Seat != 0 {
		t.Fatalf("a default grimoire is remembered: %+v", got)
	}
}
