// board.js: a board of squares (chess's 8x8, Sovereign Chess's 16x16) as a grid of
// buttons, each named by its square (data-square="e4"), played by clicking a piece and
// then its destination, or by dragging the piece there. It knows no game: a view gives it the pieces, the classes of
// squares, the legal moves (from, to and the move's notation) and the squares a card
// may target, and hears back a move or a target.
import { h, fill } from "./dom.js";

const FILES = "abcdefghijklmnop";

export class Board {
  // size: squares a side; onMove(notation) plays a move; onTarget(square) picks a target.
  constructor(size, { onMove, onTarget }) {
    this.size = size;
    this.onMove = onMove;
    this.onTarget = onTarget;
    this.selected = null;
    this.props = { pieces: new Map(), squareClass: new Map(), legal: [], targets: new Set() };
    this.squares = new Map();
    this.grid = h("div", { class: `board size-${size}`, role: "grid" });
    this.grid.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
    this.picker = h("div", { class: "picker" });
    this.el = h("div", { class: "board-wrap" }, this.grid, this.picker);
    for (let r = size; r >= 1; r--) {
      for (let f = 0; f < size; f++) {
        const sq = FILES[f] + r;
        const b = h("button", { type: "button", class: "sq " + ((f + r) % 2 ? "dark" : "light"), "data-square": sq, onclick: () => this.click(sq) });
        this.squares.set(sq, b);
      }
    }
    this.layout(false);
    // Dragging a piece to a square plays as clicking both: the press selects the piece, the
    // release over another square clicks it (the browser's own click then lands on the
    // board, not on a square, so nothing is played twice).
    this.grid.addEventListener("pointerdown", (e) => {
      const sq = e.target.closest("[data-square]")?.dataset.square;
      this.dragFrom = sq && !this.props.targets.size && this.props.legal.some((m) => m.from === sq) ? sq : null;
    });
    this.grid.addEventListener("pointerup", (e) => {
      const from = this.dragFrom;
      this.dragFrom = null;
      const to = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-square]")?.dataset.square;
      if (!from || !to || to === from) return;
      this.selected = from;
      this.click(to);
    });
  }

  layout(flipped) {
    this.flipped = flipped;
    const order = [...this.squares.values()];
    if (flipped) order.reverse();
    this.grid.replaceChildren(...order);
  }

  // render shows a position. pieces: square -> {glyph, cls, label}; squareClass: square ->
  // class; legal: [{from, to, notation, label}]; targets: the squares a card may aim at;
  // check: squares to show in check; flipped: the first rank at the top.
  render(props) {
    this.props = { squareClass: new Map(), legal: [], targets: new Set(), check: new Set(), ...props };
    if (!!props.flipped !== this.flipped) this.layout(!!props.flipped);
    if (this.selected && !this.props.legal.some((m) => m.from === this.selected)) this.selected = null;
    this.paint();
  }

  paint() {
    const { pieces, squareClass, legal, targets, check, marks } = this.props;
    const dests = new Set(legal.filter((m) => m.from === this.selected).map((m) => m.to));
    const movable = new Set(legal.map((m) => m.from));
    for (const [sq, b] of this.squares) {
      const p = pieces.get(sq);
      const cls = ["sq", b.classList.contains("dark") ? "dark" : "light"];
      if (squareClass.get(sq)) cls.push(squareClass.get(sq));
      if (p) cls.push("piece", p.cls);
      if (movable.has(sq) && !targets.size) cls.push("movable");
      if (sq === this.selected) cls.push("selected");
      if (dests.has(sq)) cls.push("dest");
      if (targets.has(sq)) cls.push("target");
      if (check.has(sq)) cls.push("check");
      b.className = cls.join(" ");
      const mark = marks?.get(sq);
      fill(b, p ? h("span", { class: "glyph" }, p.glyph) : "", mark ? h("span", { class: "mark" }, mark.text) : "");
      b.setAttribute("aria-label", [sq, p?.label, mark?.title].filter(Boolean).join(", "));
      b.title = mark?.title || "";
    }
  }

  // select picks what a move starts from without clicking a square: a piece in hand
  // ("N@", whose moves are its drops), as clicking it beside the board does.
  select(from) {
    fill(this.picker);
    this.selected = this.props.legal.some((m) => m.from === from) ? from : null;
    this.paint();
  }

  click(sq) {
    const { legal, targets } = this.props;
    fill(this.picker);
    if (targets.size) {
      if (targets.has(sq)) this.onTarget(sq);
      return;
    }
    if (this.selected) {
      const moves = legal.filter((m) => m.from === this.selected && m.to === sq);
      if (moves.length === 1) {
        this.selected = null;
        this.paint();
        this.onMove(moves[0].notation);
        return;
      }
      if (moves.length > 1) {
        // A promotion, or a castling told apart from a king's step: the player says which.
        fill(this.picker, moves.map((m) => h("button", { type: "button", "data-move": m.notation, onclick: () => { fill(this.picker); this.selected = null; this.paint(); this.onMove(m.notation); } }, m.label || m.notation)));
        return;
      }
    }
    this.selected = sq !== this.selected && legal.some((m) => m.from === sq) ? sq : null;
    this.paint();
  }
}

// squareName names a square of the board: file letter then rank, from a1.
export const squareName = (f, r) => FILES[f] + r;
