// lobby.js: the matches open to join and those being played, of every game; your own;
// the last finished ones to replay; and a form to create a match, alone or against the
// house bot. The lists are read again every few seconds while the lobby is shown.
import { h, fill, shortId, errorText } from "./dom.js";
import { gql, commandId } from "./api.js";
import { session } from "./session.js";
import { gameName, resultText } from "./match.js";

const ROW = "id game status rated createdAt options { key value } seats { seat player { id name } } result { winners draw reason }";
const MODES = { SOVEREIGN_CHESS: ["TWO_PLAYER", "ROYALE"], MAGIC_CHESS: ["CLASSIC", "ADVANCED"] };
const CLOCKS = ["", "1+0", "3+2", "5+3", "10+0", "15+10"];
// BOARDS: the games played on one board or two (option boards): Ajedrez Mágico's doubles.
const BOARDS = { MAGIC_CHESS: [["1", "one board"], ["2", "doubles: two boards, four players"]] };

export function lobbyPage(root) {
  const status = h("p", { class: "status", role: "status" });
  const lists = { open: h("tbody"), live: h("tbody"), mine: h("tbody"), finished: h("tbody") };
  const table = (key, caption) => h("table", { class: "matches", "data-list": key }, h("caption", {}, caption), lists[key]);
  const form = createForm(status);
  fill(root, h("section", { class: "lobby" },
    h("h1", {}, "Lobby"), status, form,
    table("open", "Open: waiting for players"), table("live", "Live: being played"),
    table("mine", "Your matches"), table("finished", "Just finished")));

  async function refresh() {
    const me = session.player();
    try {
      const d = await gql(`query($me: ID!, $mine: Boolean!) {
        open: matches(status: OPEN, first: 30) { ${ROW} }
        live: matches(status: LIVE, first: 30) { ${ROW} }
        finished: matches(status: FINISHED, first: 15) { ${ROW} }
        mine: matches(player: $me, first: 15) @include(if: $mine) { ${ROW} } }`, { me: me?.id || "", mine: !!me });
      for (const key of Object.keys(lists)) fill(lists[key], (d[key] || []).map((m) => row(m, me, status)));
      if (!d.mine) fill(lists.mine, h("tr", {}, h("td", {}, "Sign up to play: your matches will show here.")));
    } catch (e) {
      status.textContent = errorText(e);
    }
  }
  refresh();
  const timer = setInterval(refresh, 3000);
  return () => clearInterval(timer);
}

function row(m, me, status) {
  const seated = me && m.seats.some((s) => s.player?.id === me.id);
  const free = m.seats.some((s) => !s.player);
  const names = Object.fromEntries(m.seats.map((s) => [s.seat, s.player?.name]));
  const clock = m.options.find((o) => o.key === "clock")?.value;
  let action;
  if (m.status === "FINISHED") action = h("a", { href: "#/replay/" + m.id, "data-action": "replay" }, "Replay");
  else if (seated) {
    // Your own live match is also yours to watch, in another tab, as a spectator sees it.
    action = [h("a", { href: "#/match/" + m.id, "data-action": "open" }, "Play"),
      m.status === "LIVE" ? [" · ", h("a", { href: "#/watch/" + m.id, "data-action": "watch" }, "Watch")] : ""];
  }
  else if (m.status === "OPEN" && free && me) action = h("button", { type: "button", "data-action": "join", onclick: () => join(m.id, status) }, "Join");
  else action = h("a", { href: "#/watch/" + m.id, "data-action": "watch" }, "Watch");
  return h("tr", { "data-match-id": m.id, "data-game": m.game },
    h("td", {}, gameName(m.game)),
    h("td", {}, m.seats.map((s) => s.player?.name || "…").join(" vs ")),
    h("td", {}, [clock, m.rated ? "rated" : "friendly"].filter(Boolean).join(", ")),
    h("td", {}, m.status === "FINISHED" ? resultText(m, names) : shortId(m.id)),
    h("td", {}, action));
}

async function join(id, status) {
  try {
    await gql("mutation($m: ID!, $c: ID) { joinMatch(matchId: $m, commandId: $c) { seat } }", { m: id, c: commandId() });
    location.hash = "#/match/" + id;
  } catch (e) {
    status.textContent = errorText(e);
  }
}

function createForm(status) {
  const game = h("select", { name: "game" });
  const mode = h("select", { name: "mode", hidden: true, "aria-label": "Mode" });
  const boards = h("select", { name: "boards", hidden: true, "aria-label": "Boards" });
  const clock = h("select", { name: "clock" }, CLOCKS.map((c) => h("option", { value: c }, c || "no clock")));
  const rated = h("input", { type: "checkbox", name: "rated" });
  const showModes = () => {
    const modes = MODES[game.value] || [];
    fill(mode, modes.map((x) => h("option", { value: x }, x.toLowerCase().replace("_", " "))));
    mode.hidden = !modes.length;
    const choices = BOARDS[game.value] || [];
    fill(boards, choices.map(([value, text]) => h("option", { value }, text)));
    boards.hidden = !choices.length;
  };
  game.addEventListener("change", showModes);
  gql("{ games { id name } }").then((d) => {
    fill(game, d.games.map((g) => h("option", { value: g.id }, gameName(g.id))));
    showModes();
  }, (e) => { status.textContent = errorText(e); });

  async function create(withBot) {
    if (!session.token()) {
      status.textContent = "Sign up first (at the top of the page): a match needs players.";
      return;
    }
    const options = clock.value ? [{ key: "clock", value: clock.value }] : [];
    if (!boards.hidden && boards.value !== "1") options.push({ key: "boards", value: boards.value });
    const input = { game: game.value, rated: rated.checked && !withBot, options, commandId: commandId() };
    if (!mode.hidden) input.mode = mode.value;
    try {
      status.textContent = "Creating the match…";
      const d = await gql("mutation($i: CreateMatchInput!) { createMatch(input: $i) { match { id } } }", { i: input });
      const id = d.createMatch.match.id;
      await gql("mutation($m: ID!, $c: ID) { joinMatch(matchId: $m, seat: 0, commandId: $c) { seat } }", { m: id, c: commandId() });
      // The bot takes every other seat, one call each (three in Royale).
      for (let open = withBot; open;) {
        const b = await gql("mutation($m: ID!, $c: ID) { addBot(matchId: $m, commandId: $c) { match { status } } }", { m: id, c: commandId() });
        open = b.addBot.match.status === "OPEN";
      }
      location.hash = "#/match/" + id;
    } catch (e) {
      status.textContent = errorText(e);
    }
  }
  return h("form", { class: "create", onsubmit: (e) => e.preventDefault() },
    h("h2", {}, "New match"),
    h("label", {}, "Game ", game), " ", mode, " ", boards, " ",
    h("label", {}, "Clock ", clock), " ",
    h("label", {}, rated, " rated"), " ",
    h("button", { type: "button", "data-action": "create", onclick: () => create(false) }, "Create and wait for an opponent"), " ",
    h("button", { type: "button", "data-action": "bot", onclick: () => create(true) }, "Play the bot"));
}
