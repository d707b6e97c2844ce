// app.js: the client's entry: who you play as (sign up as a guest: registerPlayer), and
// the page the address names: the lobby (#/), a match to play (#/match/ID) or watch
// (#/watch/ID), a finished match's replay (#/replay/ID), the leaderboard
// (#/leaderboard, #/leaderboard/KEY).
import { h, fill, errorText } from "./dom.js";
import { gql } from "./api.js";
import { session, randomKey } from "./session.js";
import { lobbyPage } from "./lobby.js";
import { matchPage } from "./match.js";
import { replayPage } from "./replay.js";
import { leaderboardPage } from "./leaderboard.js";

const view = document.getElementById("view");
const who = document.getElementById("who");
let leave = null; // the shown page's cleanup: its sockets and timers

function route() {
  leave?.();
  const hash = location.hash || "#/";
  const [, page, id] = hash.match(/^#\/(match|watch|replay)\/([\w-]+)$/) || [];
  const board = hash.match(/^#\/leaderboard(?:\/([^/]+))?$/);
  if (board) leave = leaderboardPage(view, decode(board[1] || ""));
  else if (page === "replay") leave = replayPage(view, id);
  else if (page) leave = matchPage(view, id, { watch: page === "watch" });
  else leave = lobbyPage(view);
}

// decode reads a key written in the address; a malformed one is no key.
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}

function header() {
  const me = session.player();
  if (me) {
    fill(who, "Playing as ", h("b", { "data-player": me.id }, me.name), " ",
      h("button", { type: "button", class: "link", onclick: () => { if (confirm("Forget this player on this browser? Its token is lost with it.")) session.clear(); } }, "sign out"));
    return;
  }
  const name = h("input", { name: "name", placeholder: "your name", maxlength: 40, required: true });
  const note = h("span", { class: "note" });
  const key = randomKey(); // one per form: a retried sign-up is the same player
  fill(who, h("form", { class: "signup", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const d = await gql("mutation($n: String!, $k: ID) { registerPlayer(name: $n, commandId: $k) { player { id name } token } }", { n: name.value.trim() || "Guest", k: key });
      session.save({ ...d.registerPlayer.player, token: d.registerPlayer.token });
    } catch (err) {
      note.textContent = errorText(err);
    }
  } }, name, h("button", { type: "submit" }, "Play as a guest"), note));
}

session.onChange(() => {
  header();
  route();
});
window.addEventListener("hashchange", route);
header();
route();
