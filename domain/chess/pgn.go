package chess

import (
	"sort"
	"strconv"
	"strings"
)

// Portable Game Notation: export with the Seven Tag Roster, import of the main line.

// Tags are the tag pairs of a PGN game, by name.
type Tags map[string]string

// sevenTagRoster are the tags every exported game carries, in order, with the values
// the PGN standard prescribes when unknown.
var sevenTagRoster = [...][2]string{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

// WritePGN writes a game: the Seven Tag Roster first (with "?" for missing values), then
// SetUp and FEN when start is not the standard starting position, then the other tags
// by name, then the moves in SAN. Without a Result tag, the result is taken from the
// game's outcome ("*" while it goes on). An illegal move is a *PGNError.
func WritePGN(tags Tags, start Position, moves []Move) (string, error) {
	return WriteAnnotatedPGN(tags, start, moves, nil)
}

// WriteAnnotatedPGN is WritePGN with comments: comments[i], when not empty, follows the
// i-th move in braces (such as "[%clk 0:04:57]"); comments may be shorter than moves.
func WriteAnnotatedPGN(tags Tags, start Position, moves []Move, comments []string) (string, error) {
	g := NewGame(start)
	sans := make([]string, len(moves))
	for i, m := range moves {
		sans[i] = g.pos.SAN(m)
		if err := g.Play(m); err != nil {
			return "", &PGNError{Ply: i + 1, Reason: err.Error(), Err: err}
		}
	}
	all := Tags{}
	for k, v := range tags {
		all[k] = v
	}
	if _, ok := all["Result"]; !ok {
		all["Result"] = resultOf(g.Outcome())
	}
	var b strings.Builder
	written := map[string]bool{}
	writeTag := func(name, value string) {
		b.WriteString("[" + name + ` "` + tagEscaper.Replace(value) + "\"]\n")
		written[name] = true
	}
	for _, t := range sevenTagRoster {
		v, ok := all[t[0]]
		if !ok || v == "" {
			v = t[1]
		}
		writeTag(t[0], v)
	}
	if fen := start.FEN(); fen != StartFEN {
		writeTag("SetUp", "1")
		writeTag("FEN", fen)
	}
	var rest []string
	for k := range all {
		if !written[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		writeTag(k, all[k])
	}
	b.WriteByte('\n')

	// Movetext, wrapped before 80 columns as the standard asks.
	col := 0
	word := func(w string) {
		if col > 0 && col+1+len(w) > 79 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	comment := func(i int) bool {
		if i >= len(comments) || comments[i] == "" {
			return false
		}
		word("{" + strings.ReplaceAll(comments[i], "}", ")") + "}")
		return true
	}
	turn, number := start.turn, int(start.fullmove)
	commented := false // the standard numbers Black's move again after a comment
	for i, san := range sans {
		if turn == White {
			word(strconv.Itoa(number) + ". " + san)
		} else if i == 0 || commented {
			word(strconv.Itoa(number) + "... " + san)
		} else {
			word(san)
		}
		commented = comment(i)
		if turn == Black {
			number++
		}
		turn = turn.Other()
	}
	word(all["Result"])
	b.WriteByte('\n')
	return b.String(), nil
}

// tagEscaper escapes a tag value the PGN way: only backslash and quote.
var tagEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func resultOf(o Outcome) string {
	switch {
	case !o.Over:
		return "*"
	case o.Winner == White:
		return "1-0"
	case o.Winner == Black:
		return "0-1"
	}
	return "1/2-1/2"
}

// ParsePGN reads the first game of a PGN text: its tags, its start position (from the
// FEN tag, or the standard one) and the moves of its main line. Comments, variations,
// NAGs, move numbers and annotation glyphs are skipped. A bad tag, FEN or move is a
// *PGNError (wrapping the *FENError or *MoveError).
func ParsePGN(s string) (Tags, Position, []Move, error) {
	tags := Tags{}
	i := 0
	for {
		for i < len(s) && (isSpace(s[i]) || s[i] == '%' && (i == 0 || s[i-1] == '\n')) {
			if s[i] == '%' { // escape line
				i = skipTo(s, i, '\n')
			}
			i++
		}
		if i >= len(s) || s[i] != '[' {
			break
		}
		end := i + 1
		for end < len(s) && s[end] != ']' {
			if s[end] == '\\' {
				end++
			} else if s[end] == '"' {
				for end++; end < len(s) && s[end] != '"'; end++ {
					if s[end] == '\\' {
						end++
					}
				}
			}
			end++
		}
		if end >= len(s) {
			return nil, Position{}, nil, &PGNError{Reason: "unterminated tag"}
		}
		name, value, ok := parseTag(s[i+1 : end])
		if !ok {
			return nil, Position{}, nil, &PGNError{Reason: "malformed tag " + strconv.Quote(s[i:end+1])}
		}
		tags[name] = value
		i = end + 1
	}

	start := StartingPosition()
	if fen, ok := tags["FEN"]; ok {
		p, err := ParseFEN(fen)
		if err != nil {
			return nil, Position{}, nil, &PGNError{Reason: err.Error(), Err: err}
		}
		start = p
	}
	pos := start
	var moves []Move
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c):
			i++
		case c == '{':
			i = skipTo(s, i, '}') + 1
		case c == ';':
			i = skipTo(s, i, '\n') + 1
		case c == '(':
			i = skipVariation(s, i)
		case c == '[': // the next game's tags
			return tags, start, moves, nil
		default:
			end := i
			for end < len(s) && !isSpace(s[end]) && strings.IndexByte("{};()[", s[end]) < 0 {
				end++
			}
			tok := s[i:end]
			i = end
			if tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
				return tags, start, moves, nil // the result ends the game
			}
			switch tok = strings.TrimLeft(tok, "0123456789"); {
			case tok == "" || tok[0] == '$' || strings.Trim(tok, ".!?") == "":
				continue // move number, NAG, glyph
			}
			tok = strings.TrimLeft(tok, ".")
			m, err := pos.ParseMove(tok)
			if err != nil {
				return nil, Position{}, nil, &PGNError{Ply: len(moves) + 1, Reason: err.Error(), Err: err}
			}
			pos.Play(m)
			moves = append(moves, m)
		}
	}
	return tags, start, moves, nil
}

// parseTag reads `Name "value"` with the PGN escapes \" and \\.
func parseTag(t string) (name, value string, ok bool) {
	t = strings.TrimSpace(t)
	sp := strings.IndexAny(t, " \t")
	if sp <= 0 {
		return "", "", false
	}
	name, q := t[:sp], strings.TrimSpace(t[sp:])
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", "", false
	}
	var v strings.Builder
	for j := 1; j < len(q)-1; j++ {
		if q[j] == '\\' && j+1 < len(q)-1 {
			j++
		}
		v.WriteByte(q[j])
	}
	return name, v.String(), true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipTo is the index of the first c at or after i, or len(s).
func skipTo(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// skipVariation is the index just past the variation opening at s[i], nested
// variations and comments included.
func skipVariation(s string, i int) int {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '{':
			i = skipTo(s, i, '}')
		case ';':
			i = skipTo(s, i, '\n')
		}
		i++
	}
	return i
}
