package solwaris

// The actions of Solwaris, each the game's own type (Action.Do). The API's mutations
// (chooseGrimoire, placeFighter, bid, passBid, moveFighter, castSpell, endTurn) build
// them; cells are named as arena.Cell.String writes them.
type (
	// ChooseGrimoire picks the seat's class and the variants it takes (IDs of variant
	// spells or of the variant passive); every other slot keeps its original.
	ChooseGrimoire struct {
		Class    string   `json:"class"`
		Variants []string `json:"variants"`
	}
	// PlaceFighter picks the seat's start cell, in its team's start zone.
	PlaceFighter struct {
		Cell string `json:"cell"`
	}
	// Bid buys the initiative at the price reached plus BidStep.
	Bid struct{}
	// PassBid lets the other team's bid (or the seed's designation) stand.
	PassBid struct{}
	// MoveFighter walks the acting fighter along Path, one adjacent cell a step.
	MoveFighter struct {
		Path []string `json:"path"`
	}
	// CastSpell casts the acting fighter's Spell on Cell.
	CastSpell struct {
		Spell string `json:"spell"`
		Cell  string `json:"cell"`
	}
	// EndTurn ends the acting fighter's turn.
	EndTurn struct{}
)

// ActionName implements game.Named.
func (ChooseGrimoire) ActionName() string { return "grimoire to choose" }
func (PlaceFighter) ActionName() string   { return "fighter to place" }
func (Bid) ActionName() string            { return "bids" }
func (PassBid) ActionName() string        { return "bids to pass" }
func (MoveFighter) ActionName() string    { return "fighter to move" }
func (CastSpell) ActionName() string      { return "spells" }
func (EndTurn) ActionName() string        { return "turns to end" }

// The kinds of plays a view lists (game.Play.Kind).
const (
	KindGrimoire = "grimoire"
	KindPlace    = "place"
	KindBid      = "bid"
	KindPass     = "pass"
	KindStep     = "move"
	KindSpell    = "spell"
	KindEndTurn  = "endTurn"
)
