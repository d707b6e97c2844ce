package game

// Remembering is implemented by a game whose players make choices before a match that
// they may want again in the next one (Solwaris's grimoire, per class). Remembered returns
// the choices a public event of the game fixes for good (nil for an event that fixes
// none), so that a read model keeps each player's last choice per key without knowing the
// game. Only public events are asked: a choice still secret is not remembered.
type Remembering interface {
	Remembered(e Event) []Choice
}

// Choice is what a seat chose under one of its game's keys (a Solwaris class): the values
// it took (the variants), in the game's order.
type Choice struct {
	Seat   int
	Key    string
	Values []string
}
