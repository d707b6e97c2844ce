package chess

// IDs are what a FEN does not hold of a position: the stable ID of the piece on each
// square, and the highest ID issued in its lineage (which a piece that left the board may
// still hold in events). A stored game state writes them beside the FEN.

// IDs returns the ID of the piece on each occupied square, from a1 to h8, and the highest
// ID issued.
func (p Position) IDs() (ids []PieceID, last PieceID) {
	for b := p.occupied(); b != 0; b &= b - 1 {
		ids = append(ids, p.ids[b.first()])
	}
	return ids, p.nextID
}

// WithIDs returns p with the IDs of its pieces set, as IDs returned them: one for each
// occupied square from a1 to h8, each above 0, none twice, none above last. IDs do not
// enter the hash, so a position parsed from its FEN and given its IDs back is the position
// written.
func (p Position) WithIDs(ids []PieceID, last PieceID) (Position, error) {
	if len(ids) != p.occupied().Count() {
		return p, &PositionError{"as many IDs as pieces are needed"}
	}
	seen := make(map[PieceID]bool, len(ids))
	i := 0
	for b := p.occupied(); b != 0; b &= b - 1 {
		id := ids[i]
		if id == 0 || id > last || seen[id] {
			return p, &PositionError{"a piece ID that is zero, above the last issued, or given twice"}
		}
		seen[id] = true
		p.ids[b.first()] = id
		i++
	}
	p.nextID = last
	return p, nil
}
