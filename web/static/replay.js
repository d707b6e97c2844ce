// replay.js: a finished match step by step (#/replay/ID): its events listed with their
// hashes, the board as of the chosen event (the last position an event recorded: "fen"
// for the chess games, "position" for Sovereign Chess), and a player that follows the
// replay subscription at the recorded pace, or faster, from the step shown.
import { h, fill, shortId, errorText } from "./dom.js";
import { gql } from "./api.js";
import { Socket } from "./ws.js";
import { Board } from "./board.js";
import { fenPieces } from "./chess.js";
import { sovereignPieces } from "./sovereign.js";
import { gameName, resultText } from "./match.js";

const EVENT = "version type at actor visibility data redacted hash prevHash";

export function replayPage(root, id) {
  const status = h("p", { class: "status", role: "status" });
  const title = h("h1", {}, "Replay · " + shortId(id));
  const list = h("ol", { class: "events" });
  const detail = h("pre", { class: "event-data" });
  const stage = h("div", { class: "stage" });
  const step = h("span", { class: "step" });
  const speed = h("select", { name: "speed" }, [1, 2, 4, 8, 30, 100].map((x) => h("option", { value: x }, x + "×")));
  const playBtn = h("button", { type: "button", "data-action": "play", onclick: () => (stopPlay ? pause() : play()) }, "Play");
  const section = h("section", { class: "replay", "data-match-id": id }, title, status,
    h("div", { class: "transport" },
      h("button", { type: "button", "data-action": "first", onclick: () => show(0) }, "⏮"),
      h("button", { type: "button", "data-action": "prev", onclick: () => show(at - 1) }, "◀"),
      h("button", { type: "button", "data-action": "next", onclick: () => show(at + 1) }, "▶"),
      h("button", { type: "button", "data-action": "last", onclick: () => show(events.length) }, "⏭"),
      " ", playBtn, " at ", speed, " the recorded pace ", step),
    h("div", { class: "layout" }, stage, h("aside", {}, h("h2", {}, "Events"), list, detail)));
  fill(root, section);

  let events = [];
  let at = 0; // how many events are shown: the board is as of event at (its version)
  let board = null;
  let sovereign = false;
  let socket = null;
  let stopPlay = null;

  function show(n) {
    at = Math.max(0, Math.min(events.length, n));
    section.dataset.step = at;
    step.textContent = `event ${at} of ${events.length}`;
    [...list.children].forEach((li, i) => li.classList.toggle("current", i === at - 1));
    list.children[at - 1]?.scrollIntoView({ block: "nearest" });
    const ev = events[at - 1];
    detail.textContent = ev ? `${ev.type} v${ev.version} at ${ev.at}\nby ${ev.actor}, ${ev.visibility}${ev.redacted ? " (redacted)" : ""}\nhash ${ev.hash}\nprev ${ev.prevHash}\n${JSON.stringify(ev.data, null, 1)}` : "";
    if (!board) return;
    let pos = null;
    for (let i = at - 1; i >= 0 && !pos; i--) pos = events[i].data?.fen || events[i].data?.position || null;
    board.render({ pieces: pos ? (sovereign ? sovereignPieces(pos) : fenPieces(pos).pieces) : new Map() });
    section.dataset.position = pos || "";
  }

  function play() {
    if (at >= events.length) show(0);
    socket ||= new Socket(null);
    playBtn.textContent = "Pause";
    stopPlay = socket.subscribe("subscription($m: ID!, $s: Float, $a: Int) { replay(matchId: $m, speed: $s, after: $a) { version } }",
      { m: id, s: Number(speed.value), a: events[at - 1]?.version ?? 0 }, {
        next: (d) => show(events.findIndex((e) => e.version === d.replay.version) + 1),
        error: (e) => { status.textContent = e.message; pause(); },
        complete: () => pause(),
      });
  }
  function pause() {
    stopPlay?.();
    stopPlay = null;
    playBtn.textContent = "Play";
  }

  (async () => {
    try {
      const d = await gql(`query($m: ID!) { match(id: $m) { id game status seats { seat player { name } } result { winners draw reason } events(first: 1000) { ${EVENT} } } }`, { m: id });
      const m = d.match;
      if (!m) throw new Error("there is no match " + id);
      events = m.events;
      // A long match comes in pages of 1000 events.
      while (events.length && events.length % 1000 === 0) {
        const more = await gql(`query($m: ID!, $a: Int) { match(id: $m) { events(after: $a, first: 1000) { ${EVENT} } } }`, { m: id, a: events.at(-1).version });
        if (!more.match.events.length) break;
        events = events.concat(more.match.events);
      }
      const names = Object.fromEntries(m.seats.map((s) => [s.seat, s.player?.name]));
      fill(title, `Replay · ${gameName(m.game)} · ${shortId(id)} · ${m.status.toLowerCase()} · ${resultText(m, names)}`);
      if (m.status !== "FINISHED") status.textContent = "This match is not over: a replay at pace starts once it is. ";
      status.append(h("a", { href: "#/watch/" + id }, m.status === "FINISHED" ? "Its final position" : "Watch it live"));
      if (["CHESS", "UNFAIR_CHESS", "MAGIC_CHESS", "SOVEREIGN_CHESS"].includes(m.game)) {
        sovereign = m.game === "SOVEREIGN_CHESS";
        board = new Board(sovereign ? 16 : 8, { onMove() {}, onTarget() {} });
        fill(stage, board.el);
      } else {
        fill(stage, h("p", { class: "note" }, `No board for ${gameName(m.game)}'s replay yet: its events are listed beside.`));
      }
      fill(list, events.map((e, i) => h("li", { "data-version": e.version, onclick: () => show(i + 1) },
        h("b", {}, e.type), " ", h("code", { title: e.hash }, e.hash.slice(0, 12)))));
      show(0);
    } catch (e) {
      status.textContent = errorText(e);
    }
  })();
  return () => {
    pause();
    socket?.close();
  };
}
