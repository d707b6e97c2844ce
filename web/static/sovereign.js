// sovereign.js: Sovereign Chess on 16x16: its coloured squares, the twelve armies (each
// piece drawn in its army's colour), who owns and controls each army, and its moves
// (from-to, "g15g16q" promotes, "i1k1O" castles) with the defection and the opening choice.
import { h, fill } from "./dom.js";
import { Board } from "./board.js";
import { marksOf } from "./chess.js";

const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const ROLES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const COLOURS = { w: "white", a: "ash", s: "slate", b: "black", p: "pink", r: "red", o: "orange", y: "yellow", g: "green", c: "cyan", n: "navy", v: "violet" };
const FILES = "abcdefghijklmnop";

// sovereignPieces reads the position string's board: rows from rank 16 down, each piece
// its colour's letter and its role's ("vr": a violet rook), runs of empty squares as numbers.
export function sovereignPieces(fen) {
  const pieces = new Map();
  fen.split(" ")[0].split("/").forEach((row, i) => {
    let f = 0;
    for (const [tok] of row.matchAll(/\d+|[a-z]{2}/g)) {
      if (/\d/.test(tok)) {
        f += Number(tok);
        continue;
      }
      const colour = COLOURS[tok[0]] || tok[0];
      pieces.set(FILES[f] + (16 - i), { glyph: GLYPHS[tok[1]] || tok[1], cls: "army-" + colour, label: `${colour} ${ROLES[tok[1]] || tok[1]}` });
      f++;
    }
  });
  return pieces;
}

export function sovereignMoves(list) {
  return list.map((u) => {
    const [, from, to, extra] = u.match(/^([a-p]\d{1,2})([a-p]\d{1,2})(.*)$/) || [];
    return { from, to, notation: u, label: extra === "O" ? "castle" : extra ? ROLES[extra] || extra : "move" };
  }).filter((m) => m.from);
}

export class SovereignView {
  constructor(ctx) {
    this.ctx = ctx;
    this.board = new Board(16, { onMove: (mv) => ctx.act({ move: { notation: mv } }), onTarget: () => {} });
    this.armies = h("table", { class: "armies" });
    this.defect = h("div", { class: "defect" });
    this.el = h("div", { class: "sovereign" }, this.board.el, h("div", { class: "side" }, this.armies, this.defect));
  }

  update(m) {
    const b = m.state?.board;
    if (!b) return;
    const names = this.ctx.names();
    const who = (seat) => (seat == null ? "" : names[seat] || "seat " + seat);
    const myTurn = this.ctx.playing && m.status === "LIVE" && m.toAct.includes(m.mySeat);
    const mine = b.sides.find((s) => s.seat === m.mySeat);
    this.board.render({
      pieces: sovereignPieces(b.fen),
      squareClass: new Map(b.colours.map((c) => [c.square, "tint-" + c.colour])),
      legal: myTurn ? sovereignMoves(b.legalMoves) : [],
      flipped: b.sides.length === 2 && mine?.side === 2,
      marks: marksOf(b.marks),
    });
    fill(this.armies,
      h("tr", {}, h("th", {}, "army"), h("th", {}, "owner"), h("th", {}, "controller")),
      b.armies.map((a) => h("tr", { "data-army": a.colour }, h("td", {}, h("span", { class: "swatch tint-" + a.colour }), a.colour), h("td", {}, who(a.owner)), h("td", {}, who(a.controller)))));
    if (!myTurn || m.choices.length) {
      fill(this.defect);
      return;
    }
    const colour = h("select", {}, b.armies.filter((a) => a.owner == null).map((a) => h("option", { value: a.colour }, a.colour)));
    const kingMove = h("input", { placeholder: "king's move, if needed", size: 12 });
    fill(this.defect, h("b", {}, "Defect: "), colour, kingMove,
      h("button", { type: "button", onclick: () => this.ctx.act({ defect: { colour: colour.value, kingMove: kingMove.value || null } }) }, "Defect"));
  }
}
