package game

// Auditor is implemented by a game that can re-check its own recorded events. Arbiter does
// not store the commands that caused events, so a verifier cannot decide them again; what
// it can do is ask the rules whether each recorded event is exactly what they would have
// recorded from the state before it (in chess: that a move's SAN and resulting FEN follow
// from its UCI). An event that Audit accepts is then folded with Evolve as usual.
type Auditor interface {
	// Audit returns nil when e is what the rules record in state before, or an error that
	// says which field differs, what was recorded and what the rules give.
	Audit(before State, e Event) error
}
