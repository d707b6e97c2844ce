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

// Recalling is implemented by an action that may leave its choice out, to take its
// player's last one back (Solwaris's chooseGrimoire without variants): Recalls is the key
// the action recalls under in its game (the game's ID), ok false when the action names
// its choice itself; Recall is the action with values, the player's last choice under that key (nil when the player has
// none). The API answers it from its read model of Remembering games, the same for every
// way the action is sent, so that a shorthand mutation and the generic one agree.
type Recalling interface {
	Recalls() (gameID, key string, ok bool)
	Recall(values []string) any
}
