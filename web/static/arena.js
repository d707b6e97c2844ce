// arena.js: Solwaris's arena: the grid of cells (rows from the top, "a1" the top left),
// the fighters with their points, bonuses and the traps you may see, and the acting seat's
// choices: its class, its start cell, the auction, a walk to a reachable cell and a spell
// on one of its targets. A full board with art and animations can take this one's place.
import { h, fill } from "./dom.js";
import { gql } from "./api.js";

const col = (x) => (x < 26 ? String.fromCharCode(97 + x) : String.fromCharCode(96 + Math.floor(x / 26)) + String.fromCharCode(97 + (x % 26)));
const cellKind = (c) => (c === "." ? "free" : c === "~" ? "void" : c === "A" || c === "B" ? "zone zone-" + c : "wall");

let classes = null; // the class list, asked once

export class ArenaView {
  constructor(ctx) {
    this.ctx = ctx;
    this.spell = null;
    this.grid = h("div", { class: "arena" });
    this.panel = h("div", { class: "side" });
    this.el = h("div", { class: "solwaris" }, this.grid, this.panel);
  }

  update(m) {
    this.m = m;
    const st = m.state;
    if (!st) return;
    const myTurn = this.ctx.playing && m.status === "LIVE" && m.toAct.includes(m.mySeat);
    const fighters = new Map(st.fighters.filter((f) => f.cell).map((f) => [f.cell, f]));
    const acting = st.fighters.find((f) => f.id === st.acting);
    const reach = new Map(myTurn ? (st.reachable || []).map((r) => [r.cell, r.cost]) : []);
    const place = new Set((myTurn && st.placementCells) || []);
    const aim = new Set(this.spell ? (st.targets || []).find((t) => t.spell === this.spell)?.cells || [] : []);
    const bonuses = new Map(st.bonuses.map((b) => [b.cell, b.kind]));
    const traps = new Map(st.traps.map((t) => [t.cell, t]));
    this.grid.style.gridTemplateColumns = `repeat(${st.width}, 1fr)`;
    const cells = [];
    st.cells.forEach((row, y) => [...row].forEach((c, x) => {
      const name = col(x) + (y + 1);
      const f = fighters.get(name);
      const cls = ["cell", cellKind(c)];
      if (f) cls.push("fighter", "team-" + f.team, f.id === st.acting ? "acting" : "");
      if (reach.has(name) || place.has(name)) cls.push("dest");
      if (aim.has(name)) cls.push("target");
      cells.push(h("button", {
        type: "button", class: cls.join(" "), "data-cell": name,
        title: [name, f && `${f.class} ${f.hp}/${f.maxHp} HP ${f.ap} AP ${f.mp} MP ${f.statuses.join(" ")}`, bonuses.get(name) && "bonus " + bonuses.get(name), traps.get(name) && "trap"].filter(Boolean).join(", "),
        onclick: () => this.click(name, { reach, place, aim, acting }),
      }, f ? f.class.slice(0, 2) : bonuses.has(name) ? "+" : traps.has(name) ? "^" : ""));
    }));
    fill(this.grid, cells);
    this.renderPanel(st, myTurn, acting);
  }

  click(cell, { reach, place, aim, acting }) {
    if (place.has(cell)) return this.ctx.act({ placeFighter: { cell } });
    if (aim.has(cell)) {
      const spell = this.spell;
      this.spell = null;
      return this.ctx.act({ castSpell: { spell, cell } });
    }
    if (reach.has(cell) && acting) this.ctx.act({ moveFighter: { path: walk(acting.cell, cell, reach) } });
  }

  async renderPanel(st, myTurn, acting) {
    const n = (this.renders = (this.renders || 0) + 1); // a later update's panel wins
    const names = this.ctx.names();
    const rows = st.fighters.map((f) => h("li", { class: "team-" + f.team },
      `${names[f.seat] || "seat " + f.seat}: ${f.class}${f.hero ? "" : " (summon)"} ${f.hp}/${f.maxHp} HP, ${f.ap} AP, ${f.mp} MP${f.armour ? ", armour " + f.armour : ""}${f.statuses.length ? ", " + f.statuses.join(" ") : ""}`));
    const act = [];
    if (myTurn && st.phase === "grimoire") {
      classes ||= gql("{ solwarisClasses { id nameEn } }").then((d) => d.solwarisClasses);
      const list = await classes.catch(() => []);
      if (n !== this.renders) return;
      const pick = h("select", { name: "class" }, list.map((c) => h("option", { value: c.id }, c.nameEn)));
      act.push(pick, h("button", { type: "button", "data-action": "chooseGrimoire", onclick: () => this.ctx.act({ chooseGrimoire: { class: pick.value } }) }, "Choose this class"));
    }
    if (myTurn && st.phase === "placement") act.push("Click a lit cell of your zone to start there.");
    if (myTurn && st.phase === "auction") {
      act.push(`Price ${st.auction?.price ?? 0}, your purse ${st.purse}. `,
        h("button", { type: "button", "data-action": "bid", onclick: () => this.ctx.mutate("bid") }, "Bid +100"),
        h("button", { type: "button", "data-action": "passBid", onclick: () => this.ctx.mutate("passBid") }, "Pass"));
    }
    if (myTurn && st.phase === "play") {
      act.push(h("p", {}, "Click a lit cell to walk there, or a spell then a red cell."),
        (st.targets || []).map((t) => h("button", { type: "button", "data-spell": t.spell, class: this.spell === t.spell ? "chosen" : "", onclick: () => { this.spell = this.spell === t.spell ? null : t.spell; this.update(this.m); } }, t.spell)),
        h("button", { type: "button", "data-action": "endTurn", onclick: () => this.ctx.mutate("endTurn") }, "End the turn"));
    }
    fill(this.panel, h("p", { class: "phase", "data-phase": st.phase }, `${st.map}, ${st.phase}, round ${st.turn}${acting ? ", acting: " + acting.class : ""}${st.reason ? ", " + st.reason : ""}`), h("ul", { class: "fighters" }, rows), h("div", { class: "actions" }, act));
  }
}

// walk finds a path of adjacent cells from a fighter's cell to a reachable one, through
// cells the API lists as reachable (a breadth-first search, so the shortest).
function walk(from, to, reach) {
  const parse = (c) => { const [, l, n] = c.match(/^([a-z]+)(\d+)$/); return [l.length === 1 ? l.charCodeAt(0) - 97 : (l.charCodeAt(0) - 96) * 26 + l.charCodeAt(1) - 97, Number(n) - 1]; };
  const name = ([x, y]) => col(x) + (y + 1);
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const c = queue.shift();
    if (c === to) break;
    const [x, y] = parse(c);
    for (const n of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
      if (n[0] < 0 || n[1] < 0) continue;
      const nn = name(n);
      if (reach.has(nn) && !prev.has(nn)) { prev.set(nn, c); queue.push(nn); }
    }
  }
  const path = [];
  for (let c = to; c && c !== from; c = prev.get(c)) path.unshift(c);
  return path;
}
