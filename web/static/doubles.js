// doubles.js: Ajedrez Mágico's doubles (option boards "2"): both boards of the table, the
// seat's own board first (board A first to a spectator), each with its two seats and their
// clocks, the pieces each side holds in hand for drops, and the cards face up on it; your
// hand, and your moves, drops and cards on your own board; and your team's signals. What
// the page receives is what the API lets this viewer see: a hand to its seat alone, the
// signals to the team alone (a spectator's are always empty, and it is shown none).
import { h, fill } from "./dom.js";
import { Board } from "./board.js";
import { Hand } from "./cards.js";
import { Clocks } from "./clock.js";
import { fenPieces, uciMoves, marksOf } from "./chess.js";

const LETTERS = "AB";
const GLYPHS = { Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F\uFE0E" };
const NAMES = { Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };

// SIGNALS are the team channel's fixed messages (MagicSignal), as a person reads them.
export const SIGNALS = {
  SAVE_READY: "I hold a mate save",
  NO_SAVE: "I hold no mate save",
  CARD_NEXT: "I will lay a card on my next turn",
  HAND_LOW: "I hold two cards or fewer",
  HAND_EMPTY: "I hold no card",
};

// legalMoves: the API's legal moves on a board, drops ("N@f3") as moves from the hand
// ("N@") to their square.
function legalMoves(list) {
  return list.map((u) => {
    const [piece, square] = u.split("@");
    return square ? { from: piece + "@", to: square, notation: u, label: "" } : uciMoves([u])[0];
  });
}

// DoublesView draws a doubles match; ctx is match.js's (act, run, names, playing).
export class DoublesView {
  constructor(ctx) {
    this.ctx = ctx;
    this.hand = new Hand(ctx, () => this.paint());
    this.tables = [0, 1].map((i) => new TableBoard(ctx, i, this.hand));
    this.boards = h("div", { class: "table-boards" });
    this.signals = h("section", { class: "signals", "aria-label": "Team signals", hidden: true });
    this.el = h("div", { class: "doubles" }, this.boards, this.hand.el, this.signals);
  }

  update(m) {
    this.m = m;
    this.hand.update(m);
    this.paint();
    this.paintSignals();
  }

  paint() {
    const m = this.m;
    const mine = m.mySeat != null ? m.boards.find((b) => b.seats.includes(m.mySeat)) : null;
    const order = [...m.boards].sort((a, b) => (b === mine) - (a === mine) || a.board - b.board);
    fill(this.boards, order.map((b) => this.tables[b.board].el));
    for (const b of order) this.tables[b.board].update(m, b, b === mine && this.ctx.playing);
  }

  // paintSignals shows a seated player its team's channel and the signals it may send; a
  // spectator, or a player of the other team watching, sees no part of it.
  paintSignals() {
    const m = this.m;
    const seated = this.ctx.playing && m.mySeat != null;
    this.signals.hidden = !seated;
    if (!seated) {
      fill(this.signals);
      return;
    }
    const names = this.ctx.names();
    const said = (m.state?.signals || []).map((s) =>
      h("li", { "data-seat": s.seat, "data-signal-sent": s.signal }, h("b", {}, s.seat === m.mySeat ? "You" : names[s.seat] || "seat " + s.seat), ": ", SIGNALS[s.signal] || s.signal));
    const send = Object.entries(SIGNALS).map(([key, text]) =>
      h("button", { type: "button", "data-signal": key, disabled: m.status === "FINISHED", onclick: () => this.send(key) }, text));
    fill(this.signals,
      h("h2", {}, "Team signals"),
      said.length ? h("ol", { class: "signal-list", "aria-live": "polite" }, said) : h("p", { class: "note" }, "No signal yet: your partner's show here."),
      h("div", { class: "send-signal", role: "group", "aria-label": "Send your partner a signal" }, send));
  }

  send(signal) {
    this.ctx.run("mutation($m: ID!, $s: MagicSignal!, $c: ID) { signal(matchId: $m, signal: $s, commandId: $c) { version } }", { s: signal });
  }

  stop() {
    for (const t of this.tables) t.clocks.stop();
  }
}

// TableBoard is one board of the table: its heading, seats and clocks, the pieces in hand,
// and the board itself, played on when it is the viewer's own.
class TableBoard {
  constructor(ctx, index, hand) {
    this.ctx = ctx;
    this.hand = hand;
    this.clocks = new Clocks();
    this.title = h("h2");
    this.seats = h("ul", { class: "seats" });
    this.pockets = h("div", { class: "pockets" });
    this.board = new Board(8, {
      onMove: (notation) => ctx.act({ move: { notation } }),
      onTarget: (sq) => this.hand.pick(sq),
    });
    this.el = h("section", { class: "table-board", "data-board": index, "aria-label": "Board " + LETTERS[index] },
      this.title, this.seats, this.pockets, this.board.el);
  }

  update(m, b, own) {
    const names = this.ctx.names();
    this.el.dataset.phase = b.phase;
    this.el.dataset.last = b.moves.at(-1) || "";
    this.el.classList.toggle("own", own);
    fill(this.title, `Board ${LETTERS[b.board]}`, own ? " · yours" : "", b.phase === "over" ? "" : ` · ${b.phase}`);
    fill(this.seats, b.seats.map((seat, i) => {
      const t = h("span", { class: "time" });
      this.clocks.bind(seat, t);
      return h("li", { "data-seat": seat, class: b.toAct === seat && m.status === "LIVE" ? "to-act" : "" },
        i ? "Black: " : "White: ", h("b", {}, names[seat] || "free seat"), seat === m.mySeat ? " (you)" : "", " ", t);
    }));
    this.clocks.update(b.clock);

    const myTurn = own && m.status === "LIVE" && b.toAct === m.mySeat;
    const targets = own ? this.hand.targets() : new Set();
    const legal = myTurn && !targets.size ? legalMoves(m.state?.board?.legalMoves || []) : [];
    const drops = new Set(legal.filter((x) => x.from.endsWith("@")).map((x) => x.from[0]));
    fill(this.pockets, [["white", b.whiteInHand], ["black", b.blackInHand]].map(([colour, held]) =>
      h("p", { class: "pocket", "data-colour": colour, "data-held": held },
        `${colour === "white" ? "White" : "Black"} holds: `,
        held ? [...held].map((p) => drops.has(p)
          ? h("button", { type: "button", class: "drop", "data-drop": p, "aria-label": `drop a ${NAMES[p]}`, onclick: () => this.board.select(p + "@") }, GLYPHS[p])
          : h("span", { class: "held", title: NAMES[p], "aria-label": NAMES[p] }, GLYPHS[p] || p)) : "nothing")));

    const { pieces, kings, turn } = fenPieces(b.fen);
    this.board.render({
      pieces,
      flipped: b.seats[1] === m.mySeat,
      legal,
      targets,
      check: new Set(b.inCheck && kings[turn] ? [kings[turn]] : []),
      marks: marksOf(b.marks),
    });
  }
}
