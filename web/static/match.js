// match.js: one match's page, to play it (#/match/ID, as your player) or watch it
// (#/watch/ID, as a spectator: no token, so hands show as sizes only). The match comes
// from the matchUpdates subscription over graphql-ws, sent at once and after every change;
// the game's view (chess.js, sovereign.js, arena.js) draws its state and sends actions.
import { h, fill, shortId, errorText } from "./dom.js";
import { gql, commandId } from "./api.js";
import { Socket } from "./ws.js";
import { session } from "./session.js";
import { Clocks } from "./clock.js";
import { ChessView } from "./chess.js";
import { SovereignView } from "./sovereign.js";
import { ArenaView } from "./arena.js";
import { DoublesView } from "./doubles.js";

const HAND = "hand { slot playable targets reason card { id name ... on UnfairChessCard { cost } } } seats { seat handSize deckSize }";
const MARKS = "marks { square kind seat note }";

// MATCH is what the page shows of a match, for every game.
export const MATCH = `
  id game status rated version turn toAct choices mySeat phase drawOfferBy
  options { key value }
  seats { seat team awaySince player { id name } }
  moves
  result { winner winners draw reason }
  clock { control seats { seat remainingMs } running since }
  rematch { id }
  boards { board fen whiteInHand blackInHand seats toAct inCheck phase moves ${MARKS}
    clock { control seats { seat remainingMs } running since } }
  state {
    __typename
    ... on ChessState { board { fen inCheck legalMoves } }
    ... on UnfairChessState { board { fen inCheck legalMoves ${MARKS} } ${HAND} }
    ... on MagicChessState { board { fen inCheck legalMoves ${MARKS} } ${HAND} signals { seat signal } }
    ... on SovereignChessState { board { fen legalMoves checked interregnum ${MARKS}
        colours { square colour } armies { colour owner controller } sides { side seat colour } } }
    ... on SolwarisState { map width height cells phase turn acting purse reason
        fighters { id seat team class hero hp maxHp ap mp armour cell statuses }
        bonuses { kind cell } traps { team cell until } auction { designated toBid leader price closed }
        placementCells reachable { cell cost } targets { spell cells } }
  }`;

// views: each game's state type and the view that draws it; a game without one here shows
// its moves and events, and a note saying so (its board has a clear place: add it here).
const views = {
  ChessState: ChessView,
  UnfairChessState: ChessView,
  MagicChessState: ChessView,
  SovereignChessState: SovereignView,
  SolwarisState: ArenaView,
};

export const gameName = (g) => ({ CHESS: "Chess", UNFAIR_CHESS: "UnfairChess", SOVEREIGN_CHESS: "Sovereign Chess", MAGIC_CHESS: "Ajedrez Mágico", SOLWARIS: "Solwaris" })[g] || g;

export function resultText(m, names) {
  const r = m.result;
  if (!r) return "";
  if (r.reason === "aborted" || r.reason === "cancelled") return r.reason === "aborted" ? "Aborted: no result" : "Cancelled";
  if (r.draw) return `Draw (${r.reason})`;
  if (!r.winners.length) return `Over: ${r.reason}`;
  return `${r.winners.map((s) => names[s] || "seat " + s).join(" and ")} won (${r.reason})`;
}

export function matchPage(root, id, { watch }) {
  const playing = !watch && !!session.token();
  const conn = h("span", { class: "conn" });
  const socket = new Socket(watch ? null : session.token(), (s) => { conn.textContent = s === "open" ? "" : `connection: ${s}`; });
  const clocks = new Clocks();
  const status = h("p", { class: "status", role: "status" });
  const title = h("h1");
  const seats = h("ul", { class: "seats" });
  const controls = h("div", { class: "controls" });
  const result = h("p", { class: "result" });
  const moves = h("ol", { class: "moves" });
  const links = h("p", { class: "links" });
  const stage = h("div", { class: "stage" });
  const section = h("section", { class: "match", "data-match-id": id },
    title, h("p", {}, conn), status,
    h("div", { class: "layout" }, stage, h("aside", {}, seats, controls, result, h("h2", {}, "Moves"), moves, links)));
  fill(root, section);

  let m = null;
  let view = null;
  let poll = null;
  const names = () => Object.fromEntries((m?.seats || []).map((s) => [s.seat, s.player?.name]));
  const say = (text, bad = false) => { status.textContent = text; status.classList.toggle("bad", bad); };

  // run sends a mutation as this page's player and shows its refusal, if any.
  async function run(query, vars = {}) {
    try {
      const d = await gql(query, { m: id, c: commandId(), ...vars });
      say("");
      return d;
    } catch (e) {
      say(errorText(e), true);
      return null;
    }
  }
  const ctx = {
    playing,
    names,
    act: (action) => run("mutation($m: ID!, $a: ActionInput!, $c: ID) { act(matchId: $m, action: $a, commandId: $c) { version } }", { a: action }),
    run,
    mutate: (name) => run(`mutation($m: ID!, $c: ID) { ${name}(matchId: $m, commandId: $c) { version } }`),
  };
  const button = (label, name, attrs = {}) => h("button", { type: "button", "data-action": name, onclick: () => ctx.mutate(name), ...attrs }, label);

  async function join(seat) {
    const d = await run("mutation($m: ID!, $c: ID, $s: Int) { joinMatch(matchId: $m, commandId: $c, seat: $s) { seat } }", { s: seat });
    if (d) restart(); // seated now: see the match as its player
  }
  async function addBot() {
    await run("mutation($m: ID!, $c: ID) { addBot(matchId: $m, commandId: $c) { seat } }");
  }
  async function rematch() {
    const d = await run(`mutation($m: ID!, $c: ID) { rematch(matchId: $m, commandId: $c) { match { id } } }`);
    if (d) location.hash = "#/match/" + d.rematch.match.id;
  }

  function render() {
    const n = names();
    section.dataset.status = m.status;
    section.dataset.version = m.version;
    fill(title, `${gameName(m.game)} · ${shortId(m.id)} · ${m.status.toLowerCase()}${m.rated ? " · rated" : ""}${watch || m.mySeat == null ? " · watching" : ""}`);
    fill(seats, m.seats.map((s) => {
      const t = h("span", { class: "time" });
      clocks.bind(s.seat, t);
      return h("li", { "data-seat": s.seat, class: m.toAct.includes(s.seat) && m.status === "LIVE" ? "to-act" : "" },
        h("b", {}, s.player?.name || "free seat"), s.seat === m.mySeat ? " (you)" : "", s.awaySince ? " · away" : "",
        m.drawOfferBy === s.seat ? " · offers a draw" : "", " ", t);
    }));
    clocks.update(m.clock);
    const mine = m.mySeat != null && playing;
    const ctl = [];
    if (m.status === "OPEN") {
      const free = m.seats.filter((s) => !s.player);
      if (!mine && !watch && session.token() && free.length) ctl.push(h("button", { type: "button", "data-action": "join", onclick: () => join(null) }, "Join"));
      if (mine && free.length) ctl.push(h("button", { type: "button", "data-action": "addBot", onclick: addBot }, "Add the bot"), button("Leave", "leaveMatch"), button("Cancel", "cancelMatch"));
      if (!session.token() && !watch) ctl.push("Sign up above to join.");
      if (mine) ctl.push(h("p", { class: "note" }, "Waiting for players: send this page's address to a friend, or add the bot."));
    }
    if (m.status === "LIVE" && mine) {
      if (m.toAct.includes(m.mySeat)) for (const c of m.choices) ctl.push(h("button", { type: "button", "data-choice": c, onclick: () => ctx.act({ choose: { option: c } }) }, c));
      if (m.drawOfferBy != null && m.drawOfferBy !== m.mySeat) ctl.push(button("Accept the draw", "acceptDraw"), button("Decline", "declineDraw"));
      else ctl.push(button("Offer a draw", "offerDraw", { disabled: m.drawOfferBy === m.mySeat }));
      ctl.push(button("Resign", "resign"));
      if (m.seats.some((s) => s.awaySince && s.seat !== m.mySeat)) ctl.push(button("Claim the win", "claimVictory"));
      ctl.push(button("Claim a draw", "claimDraw"));
    }
    if (m.status === "FINISHED" && mine) {
      ctl.push(h("button", { type: "button", "data-action": "rematch", onclick: rematch }, m.rematch ? "Join the rematch" : "Rematch"));
    }
    fill(controls, ctl);
    fill(result, resultText(m, n));
    fill(moves, m.moves.map((mv) => h("li", {}, mv)));
    moves.scrollTop = moves.scrollHeight;
    fill(links,
      m.status === "FINISHED" ? h("a", { href: "#/replay/" + m.id, "data-link": "replay" }, "Replay") : h("a", { href: "#/watch/" + m.id }, "Watch link"),
      " · ", h("a", { href: `/matches/${m.id}.ndjson` }, "events (ndjson)"),
      m.game === "CHESS" || m.game === "UNFAIR_CHESS" ? [" · ", h("a", { href: `/matches/${m.id}.pgn` }, "PGN")] : "");
    // Ajedrez Mágico's doubles: both boards (Match.boards), not the one of the state.
    const View = m.boards?.length ? DoublesView : views[m.state?.__typename];
    if (!View) {
      view = null;
      const taken = m.seats.filter((s) => s.player).length;
      fill(stage, h("p", { class: "note" }, !m.state
        ? `Waiting for players: ${taken} of ${m.seats.length} seats taken.`
        : `No board for ${gameName(m.game)} yet: its moves are listed beside, its events in the replay.`));
      return;
    }
    if (!(view instanceof View)) {
      view?.stop?.();
      view = new View(ctx);
      fill(stage, view.el);
    }
    view.update(m);
  }

  let stop = null;
  function restart() {
    stop?.();
    stop = socket.subscribe(`subscription($m: ID!) { matchUpdates(matchId: $m) { ${MATCH} } }`, { m: id }, {
      next: (d) => {
        m = d.matchUpdates;
        render();
      },
      error: (e) => say(e.message, true),
      complete: () => {
        // Over: the last state is shown. A player may hear of the other's rematch.
        if (m?.status === "FINISHED" && m.mySeat != null && playing) {
          poll = setInterval(async () => {
            const d = await gql(`query($m: ID!) { match(id: $m) { rematch { id } } }`, { m: id }).catch(() => null);
            if (d?.match?.rematch && !m.rematch) {
              m.rematch = d.match.rematch;
              render();
            }
          }, 3000);
        }
      },
    });
  }
  restart();
  return () => {
    stop?.();
    socket.close();
    clocks.stop();
    view?.stop?.();
    clearInterval(poll);
  };
}
