// leaderboard.js: the leaderboard page (#/leaderboard, #/leaderboard/KEY): the best ratings
// under one key, highest first, as the leaderboard query answers them. The keys are the
// API's: each hosted game's ID, and Solwaris's one per class (SOLWARIS/<class>). The table
// is read again every few seconds while shown, so a result just played appears by itself.
import { h, fill, errorText } from "./dom.js";
import { gql } from "./api.js";
import { gameName } from "./match.js";

const FIRST = 50;

export function leaderboardPage(root, key) {
  const status = h("p", { class: "status", role: "status" });
  const pick = h("select", { name: "key", id: "leaderboard-key" });
  const rows = h("tbody");
  const caption = h("caption");
  const table = h("table", { class: "matches leaderboard" }, caption,
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games", "Won", "Lost", "Drawn"].map((c) => h("th", { scope: "col" }, c)))),
    rows);
  const section = h("section", { class: "leaderboard" },
    h("h1", {}, "Leaderboard"), status,
    h("form", { class: "create", onsubmit: (e) => e.preventDefault() }, h("label", { for: "leaderboard-key" }, "Rating "), pick),
    table);
  fill(root, section);
  // Choosing a key names it in the address, so the page can be linked and reloaded.
  pick.addEventListener("change", () => { location.hash = "#/leaderboard/" + encodeURIComponent(pick.value); });

  let timer = null;
  let gone = false; // the page was left before its keys came
  async function refresh() {
    const k = pick.value;
    if (!k) return;
    try {
      const d = await gql("query($k: String!, $n: Int) { leaderboard(key: $k, first: $n) { player { id name } rating { rating games wins losses draws } } }", { k, n: FIRST }, { anonymous: true });
      if (pick.value !== k) return; // another key was chosen meanwhile
      section.dataset.key = k;
      fill(caption, `${pick.selectedOptions[0]?.textContent || k}: the best ${FIRST} ratings`);
      fill(rows, d.leaderboard.length ? d.leaderboard.map((s, i) => h("tr", { "data-player": s.player.id },
        h("td", {}, i + 1), h("th", { scope: "row" }, s.player.name), h("td", { class: "rating" }, s.rating.rating),
        h("td", {}, s.rating.games), h("td", {}, s.rating.wins), h("td", {}, s.rating.losses), h("td", {}, s.rating.draws)))
        : h("tr", {}, h("td", { colspan: 7 }, "No rated result under this key yet.")));
      status.textContent = "";
    } catch (e) {
      status.textContent = errorText(e);
    }
  }

  (async () => {
    try {
      const keys = await ratingKeys();
      fill(pick, keys.map((k) => h("option", { value: k.key }, k.label)));
      pick.value = keys.some((k) => k.key === key) ? key : keys[0]?.key || "";
    } catch (e) {
      status.textContent = errorText(e);
      return;
    }
    if (gone) return;
    refresh();
    timer = setInterval(refresh, 3000);
  })();
  return () => {
    gone = true;
    clearInterval(timer);
  };
}

// ratingKeys lists the keys ratings are kept under, as the API names them: each game's ID,
// then, for Solwaris, one key per class.
async function ratingKeys() {
  const d = await gql("{ games { id } }", {}, { anonymous: true });
  const keys = d.games.map((g) => ({ key: g.id, label: gameName(g.id) }));
  if (d.games.some((g) => g.id === "SOLWARIS")) {
    const c = await gql("{ solwarisClasses { id nameEn } }", {}, { anonymous: true });
    keys.push(...c.solwarisClasses.map((x) => ({ key: "SOLWARIS/" + x.id, label: `${gameName("SOLWARIS")}: ${x.nameEn}` })));
  }
  return keys;
}
