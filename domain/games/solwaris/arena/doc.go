// Package arena is the ground Solwaris is fought on: cells and their names, the nine
// maps (embedded data, checked at load), distance, line of sight, walking, spell ranges
// and zones, and the path of a push. It is pure: no clock, no randomness, no I/O beyond
// its embedded map file. It knows the ground only; what stands on it (fighters, summons,
// charges, traps) belongs to the game, which passes the cells that block passage to the
// functions that need them.
//
// # Cells
//
// A cell is named by its column letters and its row number, counted from the top left
// corner: "a1" is the top left cell, "b1" its right neighbour, "a2" the cell below it
// (rows go down the page as the maps are drawn, not up as in chess). Columns after "z"
// are "aa" to "az". The name is one token without separator, so it needs no quoting in
// GraphQL lists or URLs, letters then digits can never be read two ways, and it names
// any cell of an arena up to MaxSide (52) cells a side; the widest map, the Grande
// Plaine, is 31 columns (a to ae).
//
// # Line of sight
//
// Sight from a to b is the segment from the centre of a to the centre of b. It is
// blocked when the segment passes through the inside of an obstacle cell other than a
// and b. Void and whatever stands on the cells never block. Touching a cell only on its
// border is not passing through it; since centres sit in the middle of cells, the only
// border a segment can touch without entering is a corner point. When the segment goes
// exactly through a corner shared by four cells, it enters two of them (diagonal
// neighbours) and grazes the other two: it is blocked there only if both grazed cells
// are obstacles (sight slips past the corner of one obstacle, but not between two
// obstacles that meet at a corner). The rule does not depend on which end looks, so
// sight is symmetric. An end cell off the grid has no sight; a cell sees itself.
package arena
