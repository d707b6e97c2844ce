package magicchess

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
)

// The catalog is data: catalog.json lists the 40 cards with their names and texts in
// Spanish (the game's language) and English, the window in which each is used, its
// duration in its owner's turns and its targets. It is read and checked when the package
// loads, so a catalog and a rules version that disagree never start.

//go:embed catalog.json
var catalogJSON []byte

// The windows in which a card is used (rule 9), as the catalog and the API spell them.
const (
	Before   = "before"   // before moving: the card is the turn
	During   = "during"   // during the move: the card, then a move in the same turn
	Close    = "close"    // at the close of the turn: the card, a move, then its effect
	Reaction = "reaction" // a reaction in the opponent's turn (advanced mode)
)

// Entry is a card of the catalog as Ajedrez Mágico knows it.
type Entry struct {
	ID       string `json:"id"`
	NameEs   string `json:"nameEs"`
	NameEn   string `json:"nameEn"`
	Group    string `json:"group"`    // board, lasting, movement, close, mate-save, reaction
	Window   string `json:"window"`   // Before, During, Close or Reaction
	Duration int    `json:"duration"` // in its owner's turns, counted at the end of each; 0 for none
	Targets  string `json:"targets"`  // one word per target, "none" for none
	// Reaction is, for a reaction card, the kind rule 17 allows it: "cancel" (the card just
	// laid), "prevent" (an effect or its immediate consequences), "save-king", "take-back"
	// (the opponent's last move).
	Reaction string `json:"reaction"`
	// UndoesCapture is, for a reaction to a move, that it brings back the piece the move
	// captured (Rewind, Deflection): in doubles that piece then does not pass to the
	// partner's pocket, as it does when the window closes otherwise (doubles.go).
	UndoesCapture bool   `json:"undoesCapture,omitempty"`
	TextEs        string `json:"textEs"`
	TextEn        string `json:"textEn"`
}

// CardCount is the size of the catalog: one copy of each card, one deck for the table.
const CardCount = 40

var (
	groups      = []string{"board", "lasting", "movement", "close", "mate-save", "reaction"}
	windows     = []string{Before, During, Close, Reaction}
	reactions   = []string{"cancel", "prevent", "save-king", "take-back"}
	targetKinds = []string{"own-piece", "own-pawn", "own-king", "enemy-piece", "enemy-pawn", "empty-square"}
)

// entries (in catalog.json's order) and byID are the catalog, loaded before any init
// function runs (the effects are checked against it in one).
var entries, byID = load()

func load() ([]Entry, map[string]Entry) {
	es, err := readCatalog(catalogJSON)
	if err != nil {
		panic("magicchess: catalog.json: " + err.Error())
	}
	m := map[string]Entry{}
	for _, e := range es {
		m[e.ID] = e
	}
	return es, m
}

// readCatalog decodes the catalog, refusing unknown fields, and checks it: 40 unique
// cards with both names and texts, a known group, window and target words, a duration
// only where a card lasts, every reaction with its kind and every kind of rule 17 served,
// and a mate save among the cards of the classic deck.
func readCatalog(data []byte) ([]Entry, error) {
	var es []Entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&es); err != nil {
		return nil, err
	}
	if len(es) != CardCount {
		return nil, fmt.Errorf("%d cards, the game has %d", len(es), CardCount)
	}
	seen, kinds, saves := map[string]bool{}, map[string]bool{}, 0
	for _, e := range es {
		switch {
		case e.ID == "" || seen[e.ID]:
			return nil, fmt.Errorf("card ID %q is empty or not unique", e.ID)
		case e.NameEs == "" || e.NameEn == "" || e.TextEs == "" || e.TextEn == "":
			return nil, fmt.Errorf("%s: a name or a text is missing", e.ID)
		case !slices.Contains(groups, e.Group):
			return nil, fmt.Errorf("%s: unknown group %q", e.ID, e.Group)
		case !slices.Contains(windows, e.Window):
			return nil, fmt.Errorf("%s: unknown window %q", e.ID, e.Window)
		case e.Duration < 0 || e.Duration > 0 && e.Group != "lasting" && e.Window != Close:
			return nil, fmt.Errorf("%s: a duration of %d turns, which only a lasting or closing card has", e.ID, e.Duration)
		case (e.Window == Reaction) != (e.Reaction != ""):
			return nil, fmt.Errorf("%s: a reaction kind %q in window %s", e.ID, e.Reaction, e.Window)
		case e.Reaction != "" && !slices.Contains(reactions, e.Reaction):
			return nil, fmt.Errorf("%s: unknown reaction kind %q", e.ID, e.Reaction)
		case (e.Window == Reaction) != (e.Group == "reaction"):
			return nil, fmt.Errorf("%s: group %s in window %s", e.ID, e.Group, e.Window)
		case e.UndoesCapture && e.Window != Reaction:
			return nil, fmt.Errorf("%s: undoes a capture, which only a reaction does", e.ID)
		}
		if e.Targets != "none" {
			for _, w := range strings.Fields(e.Targets) {
				if !slices.Contains(targetKinds, w) {
					return nil, fmt.Errorf("%s: unknown target %q", e.ID, w)
				}
			}
		}
		seen[e.ID] = true
		kinds[e.Reaction] = true
		if e.Group == "mate-save" {
			saves++
		}
	}
	for _, k := range reactions {
		if !kinds[k] {
			return nil, fmt.Errorf("no reaction of the kind %q", k)
		}
	}
	if saves == 0 {
		return nil, fmt.Errorf("no card saves from mate")
	}
	return es, nil
}

// words are the kinds of a card's targets, in order (none for "none").
func (e Entry) words() []string {
	if e.Targets == "none" {
		return nil
	}
	return strings.Fields(e.Targets)
}

// Entries lists the catalog's 40 entries in catalog.json's order.
func Entries() []Entry { return slices.Clone(entries) }

// Lookup is the catalog's entry of a card.
func Lookup(id string) (Entry, bool) {
	e, ok := byID[id]
	return e, ok
}

// Catalog lists the 40 cards in catalog.json's order, in the card kit's shape (the
// Spanish names and texts in the kit's Es fields).
func (Rules) Catalog() []cards.Card {
	out := make([]cards.Card, len(entries))
	for i, e := range entries {
		out[i] = cards.Card{ID: e.ID, NameEs: e.NameEs, NameEn: e.NameEn, Group: e.Group, Copies: 1,
			Targets: e.Targets, TextEs: e.TextEs, TextEn: e.TextEn}
	}
	return out
}

// classicDeck is the table's deck in classic mode, in catalog order before the shuffle:
// every card but the reactions, which have no window when nobody may answer (rule 10c).
func classicDeck() []string {
	var out []string
	for _, e := range entries {
		if e.Window != Reaction {
			out = append(out, e.ID)
		}
	}
	return out
}

// deckOf is the table's deck of a mode, in catalog order before the shuffle: the advanced
// mode deals all forty cards, reactions included.
func deckOf(mode string) []string {
	if mode != Advanced {
		return classicDeck()
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.ID)
	}
	return out
}
