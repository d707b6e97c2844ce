package chess

// Clone returns a copy of the game that shares no mutable memory with g: playing a move on
// either leaves the other as it was. The history slices are clipped to their length, so the
// first append on either side copies them instead of writing into shared storage.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = g.moves[:len(g.moves):len(g.moves)]
	c.hashes = g.hashes[:len(g.hashes):len(g.hashes)]
	return &c
}
