// chess.js: the 8x8 games (chess, UnfairChess, Ajedrez Mágico): the position from its FEN,
// the legal moves the API lists (UCI), the marks on squares and, in the card games, the
// hand (cards.js). White sits at seat 0 and at the bottom, unless you play Black.
import { h, fill } from "./dom.js";
import { Board } from "./board.js";
import { Hand } from "./cards.js";

const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

// fenPieces reads a FEN's placement: square -> {glyph, cls, label}, and where each king is.
export function fenPieces(fen) {
  const pieces = new Map();
  const kings = {};
  const rows = fen.split(" ")[0].split("[")[0].split("/");
  rows.forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (c >= "1" && c <= "9") {
        f += Number(c);
        continue;
      }
      const white = c === c.toUpperCase();
      const role = c.toLowerCase();
      const sq = "abcdefgh"[f] + (8 - i);
      pieces.set(sq, { glyph: GLYPHS[role] || c, cls: white ? "white" : "black", label: `${white ? "white" : "black"} ${NAMES[role] || c}` });
      if (role === "k") kings[white ? "w" : "b"] = sq;
      f++;
    }
  });
  return { pieces, kings, turn: fen.split(" ")[1] };
}

// uciMoves turns the API's UCI moves into the board's: a promotion is labelled by its piece.
export function uciMoves(list) {
  return list.map((u) => ({ from: u.slice(0, 2), to: u.slice(2, 4), notation: u, label: u.length > 4 ? NAMES[u[4]] : "" }));
}

// marksOf shows the marks on squares (poison, shield, a card face up...): a letter each,
// the whole in the title.
export function marksOf(marks = []) {
  const out = new Map();
  for (const m of marks) {
    const prev = out.get(m.square);
    const title = [m.kind, m.seat != null ? `seat ${m.seat}` : "", m.note || ""].filter(Boolean).join(" ");
    out.set(m.square, { text: (prev ? prev.text : "") + m.kind[0].toUpperCase(), title: prev ? prev.title + "; " + title : title });
  }
  return out;
}

// ChessView shows an 8x8 game; ctx.act(action) sends an action, ctx.playing tells
// whether this page plays a seat.
export class ChessView {
  constructor(ctx) {
    this.ctx = ctx;
    this.board = new Board(8, {
      onMove: (uci) => ctx.act({ move: { notation: uci } }),
      onTarget: (sq) => this.hand.pick(sq),
    });
    this.hand = new Hand(ctx, () => this.paint());
    this.el = h("div", { class: "chess" }, this.board.el, this.hand.el);
  }

  update(m) {
    this.m = m;
    this.hand.update(m);
    this.paint();
  }

  paint() {
    const m = this.m;
    const b = m.state?.board;
    if (!b) {
      this.board.render({ pieces: new Map() });
      return;
    }
    const { pieces, kings, turn } = fenPieces(b.fen);
    const myTurn = this.ctx.playing && m.status === "LIVE" && m.toAct.includes(m.mySeat);
    const targets = this.hand.targets();
    this.board.render({
      pieces,
      flipped: m.mySeat === 1,
      legal: myTurn && !targets.size ? uciMoves(b.legalMoves || []) : [],
      targets,
      check: new Set(b.inCheck && kings[turn] ? [kings[turn]] : []),
      marks: marksOf(b.marks),
    });
  }
}

// A plain node to show what a view cannot draw yet.
export const placeholder = (text) => fill(h("div", { class: "note" }), text);
