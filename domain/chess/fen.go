package chess

import (
	"strconv"
	"strings"
)

// ParseFEN reads a position in Forsyth-Edwards Notation. The two clock fields may be
// left out (EPD style, as in the perft tables); they then default to "0 1". A FEN that
// is not a legal chess position is rejected with a *FENError naming the field: one king
// per side, no pawn on the first or last rank, the side not to move not in check,
// castling rights only with king and rook at home, an en-passant square only behind a
// pawn that may just have moved two squares. An en-passant square no pawn can legally
// use is accepted and dropped (see Position.FEN). A bughouse FEN carries the pieces in
// hand after the board, "[QNn]" or as a ninth rank "/QNn", and promoted pieces as "Q~"
// (see Position.FEN); the position then has pockets, even empty ones ("[]").
func ParseFEN(fen string) (Position, error) {
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return Position{}, &FENError{"fen", fen, "want 6 space-separated fields (or 4, without the clocks)"}
	}
	var p Position
	p.ep = NoSquare
	board, pockets, withPockets, err := splitPockets(fields[0])
	if err != nil {
		return Position{}, err
	}
	if err := p.parseBoard(board); err != nil {
		return Position{}, err
	}
	if withPockets {
		if err := p.parsePockets(pockets); err != nil {
			return Position{}, err
		}
	} else if p.promoted != 0 {
		return Position{}, &FENError{"board", board, `a promoted piece ("~") only in a FEN with pockets`}
	}
	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return Position{}, &FENError{"turn", fields[1], `want "w" or "b"`}
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return Position{}, err
	}
	p.fullmove = 1
	if len(fields) == 6 {
		h, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return Position{}, &FENError{"halfmove", fields[4], "want a number of plies, 0 to 65535"}
		}
		f, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil {
			return Position{}, &FENError{"fullmove", fields[5], "want a move number, 1 to 65535"}
		}
		p.halfmove, p.fullmove = int32(h), max(int32(f), 1) // some tools write 0
	}
	if err := p.validate(); err != nil {
		return Position{}, &FENError{"board", fields[0], err.Reason}
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return Position{}, err
	}
	p.hash = p.computeHash()
	return p, nil
}

func (p *Position) parseBoard(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return &FENError{"board", s, "want 8 ranks separated by '/'"}
	}
	for i, row := range ranks {
		rank, file := 7-i, 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			r := roleFromLetter(c)
			if r == NoRole {
				return &FENError{"board", s, "unknown piece letter " + strconv.QuoteRune(rune(c))}
			}
			if file > 7 {
				return &FENError{"board", s, "rank " + strconv.Itoa(rank+1) + " has more than 8 squares"}
			}
			color := White
			if c >= 'a' {
				color = Black
			}
			p.nextID++
			p.place(NewSquare(file, rank), color, r, p.nextID)
			file++
			if j+1 < len(row) && row[j+1] == '~' { // a promoted pawn, in bughouse FEN
				if r == Pawn || r == King {
					return &FENError{"board", s, `only a knight, bishop, rook or queen can be promoted ("~")`}
				}
				p.promoted |= NewSquare(file-1, rank).bb()
				j++
			}
		}
		if file != 8 {
			return &FENError{"board", s, "rank " + strconv.Itoa(rank+1) + " does not have 8 squares"}
		}
	}
	// IDs were given from a8 to h1 as the FEN reads; renumber a1..h8 as documented, so
	// that the IDs of a position do not depend on how it was written.
	var id PieceID
	for b := p.occupied(); b != 0; b &= b - 1 {
		id++
		p.ids[b.first()] = id
	}
	return nil
}

// splitPockets separates the board from the pockets of a bughouse FEN, written either
// "board[QRn]" (lichess, Fairy-Stockfish, python-chess) or as a ninth rank, "board/QRn"
// (older crazyhouse tools, the shakmaty perft tables).
func splitPockets(s string) (board, pockets string, ok bool, err error) {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if !strings.HasSuffix(s, "]") || strings.Count(s, "[") != 1 || strings.Count(s, "]") != 1 {
			return "", "", false, &FENError{"pockets", s, `want the pockets in brackets after the board, "[QNnp]"`}
		}
		return s[:i], s[i+1 : len(s)-1], true, nil
	}
	if strings.Count(s, "/") == 8 {
		i := strings.LastIndexByte(s, '/')
		return s[:i], s[i+1:], true, nil
	}
	return s, "", false, nil
}

// parsePockets reads the pieces in hand, upper case White's, lower case Black's, in any
// order, and enables pockets.
func (p *Position) parsePockets(s string) error {
	p.EnablePockets()
	for i := 0; i < len(s); i++ {
		r := roleFromLetter(s[i])
		if r < Pawn || r > Queen {
			return &FENError{"pockets", s, "want letters from PNBRQ and pnbrq (no king in hand)"}
		}
		c := White
		if s[i] >= 'a' {
			c = Black
		}
		if err := p.AddToPocket(Piece{c, r}); err != nil {
			return &FENError{"pockets", s, err.(*PositionError).Reason}
		}
	}
	return nil
}

func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	for i := 0; i < len(s); i++ {
		var cr CastlingRights
		switch s[i] {
		case 'K':
			cr = WhiteKingSide
		case 'Q':
			cr = WhiteQueenSide
		case 'k':
			cr = BlackKingSide
		case 'q':
			cr = BlackQueenSide
		default:
			return &FENError{"castling", s, `want "-" or letters from "KQkq"`}
		}
		if p.castling&cr != 0 {
			return &FENError{"castling", s, "right repeated"}
		}
		p.castling |= cr
	}
	if lost := p.castling &^ p.possibleCastling(); lost != 0 {
		return &FENError{"castling", s, "right " + lost.String() + " without king and rook on their home squares"}
	}
	return nil
}

// possibleCastling is the set of rights the board allows: king and rook at home.
func (p *Position) possibleCastling() CastlingRights {
	var cr CastlingRights
	for _, c := range castleSquares {
		color := White
		if c.kingFrom == E8 {
			color = Black
		}
		if p.Pieces(color, King).Has(c.kingFrom) && p.Pieces(color, Rook).Has(c.rookFrom) {
			cr |= c.right
		}
	}
	return cr
}

func (p *Position) parseEnPassant(s string) error {
	if s == "-" {
		return nil
	}
	ep, ok := ParseSquare(s)
	if !ok {
		return &FENError{"en passant", s, `want "-" or a square`}
	}
	// The pawn that just moved two squares belongs to the side not to move and stands
	// one rank beyond ep; ep and the square it came from are empty.
	wantRank, pushed, origin := 5, ep-8, ep+8
	if p.turn == Black {
		wantRank, pushed, origin = 2, ep+8, ep-8
	}
	if ep.Rank() != wantRank {
		return &FENError{"en passant", s, "square on the wrong rank for the side to move"}
	}
	if !p.Pieces(p.turn^1, Pawn).Has(pushed) || p.roles[ep] != NoRole || p.roles[origin] != NoRole {
		return &FENError{"en passant", s, "no pawn can just have moved two squares past it"}
	}
	if p.enPassantLegal(ep) {
		p.ep = ep
	}
	return nil
}

// FEN writes the position in Forsyth-Edwards Notation. The en-passant field names a
// square only when an en-passant capture is legal (as lichess does), so FEN strings of
// the same position compare equal. A position with pockets writes them in brackets after
// the board, White's then Black's, queens first ("...RNBQKBNR[QNPn] w"), and marks its
// promoted pieces with "~" ("Q~"): the form lichess, Fairy-Stockfish and python-chess
// read and write.
func (p Position) FEN() string {
	var buf [96]byte // the longest FEN with pockets is under 96 bytes: one allocation
	return string(p.AppendFEN(buf[:0]))
}

// AppendFEN appends the position's FEN to b: a caller can write it into memory of its
// own, or with other text into one string (a move's SAN and the FEN after it).
func (p Position) AppendFEN(b []byte) []byte {
	// The board is read from the mailbox and the letters from fenLetters: a move's event
	// carries the FEN after it, so this runs for every move played.
	black := p.byColor[Black]
	for rank := 7; rank >= 0; rank-- {
		empty := byte(0)
		for s := NewSquare(0, rank); s < NewSquare(0, rank)+8; s++ {
			r := p.roles[s]
			if r == NoRole {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, '0'+empty)
				empty = 0
			}
			b = append(b, fenLetters[black>>s&1][r])
			if p.promoted.Has(s) {
				b = append(b, '~')
			}
		}
		if empty > 0 {
			b = append(b, '0'+empty)
		}
		if rank > 0 {
			b = append(b, '/')
		}
	}
	if p.HasPockets() {
		b = append(b, '[')
		b = append(b, p.Pocket(White).fen(White)...)
		b = append(b, p.Pocket(Black).fen(Black)...)
		b = append(b, ']')
	}
	b = append(b, ' ', "wb"[p.turn], ' ')
	b = p.castling.appendFEN(b)
	b = append(b, ' ')
	if p.ep < NoSquare {
		b = append(b, 'a'+byte(p.ep.File()), '1'+byte(p.ep.Rank()))
	} else {
		b = append(b, '-')
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.halfmove), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(p.fullmove), 10)
}

// fenLetters is the FEN letter of each piece, by color (White, Black) and role.
var fenLetters = [2][King + 1]byte{{' ', 'P', 'N', 'B', 'R', 'Q', 'K'}, {' ', 'p', 'n', 'b', 'r', 'q', 'k'}}

// String is the FEN castling field: "KQkq", "Kq", "-".
func (cr CastlingRights) String() string { return string(cr.appendFEN(nil)) }

func (cr CastlingRights) appendFEN(b []byte) []byte {
	if cr == 0 {
		return append(b, '-')
	}
	for i, c := range "KQkq" {
		if cr&(1<<i) != 0 {
			b = append(b, byte(c))
		}
	}
	return b
}

// String is the FEN of the position.
func (p Position) String() string { return p.FEN() }
