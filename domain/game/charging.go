package game

// Charging is a game that charges its seats coins during play (Solwaris's initiative
// auction). A match of such a game moves coins: each seat is funded from its player's
// wallet before it is taken (see docs/architecture.md, "escrow and settlement"), and the
// game learns each seat's purse in Setup.Purses, so that it refuses a charge above it
// without reading a wallet.
type Charging interface {
	// MaxCharge is the most the game may charge one seat of a match with these options:
	// a seat's purse is its player's balance up to it.
	MaxCharge(opts Options) int64
	// Charged is what the game has charged each seat so far, by seat. The coins leave the
	// economy: they are paid to nobody.
	Charged(st State) []int64
}
