// Package arena is the ground Solwaris is fought on: cells and their names ("a1" is the
// top left cell, rows going down the page), the nine maps (embedded data, checked at
// load), distance, line of sight (with its rule at a corner), walking, spell ranges and
// zones, and the path of a push. It is pure: no clock, no randomness, no I/O beyond its
// embedded map file. It knows the ground only; what stands on it (fighters, summons,
// charges, traps) belongs to the game, which passes the cells that block passage to the
// functions that need them. docs/games/solwaris.md ("Arena") states each rule in full.
package arena
