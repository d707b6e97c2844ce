// cards.js: the hand of a card game (UnfairChess, Ajedrez Mágico). Your cards show with
// the playable ones lit; choosing one shows its legal targets on the board as red squares,
// one target at a time, until a whole choice of the API's list is picked and the card is
// played. Others' hands show only their sizes.
import { h, fill } from "./dom.js";

const isSquare = (t) => /^[a-p]\d{1,2}$/.test(t);

export class Hand {
  constructor(ctx, repaint) {
    this.ctx = ctx;
    this.repaint = repaint;
    this.chosen = null; // {slot, choices, picked}
    this.el = h("div", { class: "hand" });
  }

  update(m) {
    this.m = m;
    const st = m.state || {};
    if (this.chosen && !(st.hand || []).some((c) => c.slot === this.chosen.slot && c.playable)) this.chosen = null;
    this.render();
  }

  // targets: the squares the chosen card may aim at next.
  targets() {
    if (!this.chosen) return new Set();
    const { choices, picked } = this.chosen;
    return new Set(this.next(choices, picked).filter(isSquare));
  }

  next(choices, picked) {
    return choices.filter((c) => c.length > picked.length && picked.every((t, i) => c[i] === t)).map((c) => c[picked.length]);
  }

  choose(card) {
    if (this.chosen?.slot === card.slot) {
      this.chosen = null;
    } else if (card.targets.some((c) => c.length === 0)) {
      this.play(card.slot, []);
      return;
    } else {
      this.chosen = { slot: card.slot, choices: card.targets, picked: [] };
    }
    this.render();
    this.repaint();
  }

  pick(target) {
    const c = this.chosen;
    if (!c) return;
    c.picked.push(target);
    if (c.choices.some((x) => x.length === c.picked.length && x.every((t, i) => t === c.picked[i]))) {
      this.chosen = null;
      this.play(c.slot, c.picked);
    }
    this.render();
    this.repaint();
  }

  play(slot, targets) {
    this.ctx.act({ playCard: { slot, targets } });
  }

  render() {
    const st = this.m?.state || {};
    if (!st.seats) {
      fill(this.el);
      return;
    }
    const names = this.ctx.names();
    const sizes = h("ul", { class: "hand-sizes" }, st.seats.map((s) =>
      h("li", { "data-seat": s.seat }, `${names[s.seat] || "seat " + s.seat}: ${s.handSize} in hand, ${s.deckSize} in deck`)));
    const mine = st.hand || [];
    const cards = mine.map((c) =>
      h("button", {
        type: "button",
        class: "card" + (c.playable ? " playable" : "") + (this.chosen?.slot === c.slot ? " chosen" : ""),
        disabled: !c.playable || this.m.status !== "LIVE",
        title: c.playable ? c.card.text : c.reason || c.card.text,
        "data-card": c.card.id,
        "data-slot": c.slot,
        onclick: () => this.choose(c),
      }, h("b", {}, c.card.name), h("small", {}, c.card.cost === "ADDS_TO_MOVE" ? "then move" : "")));
    // Targets that are not squares (a hand slot) are picked here, not on the board.
    const other = this.chosen ? this.next(this.chosen.choices, this.chosen.picked).filter((t) => !isSquare(t)) : [];
    fill(this.el,
      mine.length ? h("div", { class: "cards" }, cards) : "",
      other.length ? h("div", { class: "picker" }, "Target: ", [...new Set(other)].map((t) => h("button", { type: "button", "data-target": t, onclick: () => this.pick(t) }, t))) : "",
      this.chosen ? h("p", { class: "note" }, "Click a red square to aim the card; click the card again to put it back.") : "",
      sizes);
  }
}
