// The card tracker (记牌器): from the seat's own observation only — its hand and the public
// plays of this deal — how many of each rank are still unseen (in the other hands), the
// jokers, level cards and aces first; ranks where a bomb may still hide; seats at ≤ 2 cards.
import { card, RANKS } from "./cards.js";
import { rankLabel, seatName, t } from "./i18n.js";
import { h } from "./view.js";

function deckCounts(game) {
  const counts = new Map();
  if (game === "guandan") {
    for (const r of RANKS) counts.set(r, 8);
    counts.set("BJ", 2);
    counts.set("RJ", 2);
  } else {
    for (const r of RANKS) counts.set(r, 4); // 48 cards, one 2 and three aces
    counts.set("2", 1);
    counts.set("A", 3);
  }
  return counts;
}

/** Unseen copies of each rank (and of the level's wild hearts) for this seat. */
export function unseen(obs) {
  const left = deckCounts(obs.game);
  const seen = [...obs.hand];
  for (const a of obs.history || []) if (!a.pass) seen.push(...a.cards);
  let wilds = obs.game === "guandan" && obs.level ? 2 : 0;
  for (const text of seen) {
    const c = card(text);
    const key = c.joker ? c.text : c.rank;
    left.set(key, (left.get(key) || 0) - 1);
    if (wilds && !c.joker && c.suit === "h" && c.rank === obs.level) wilds -= 1;
  }
  return { left, wilds };
}

export function renderTracker(root, obs) {
  const { left, wilds } = unseen(obs);
  const game = obs.game;
  const order = game === "guandan"
    ? ["RJ", "BJ", obs.level, "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"].filter((r, i, a) => r && a.indexOf(r) === i)
    : ["2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"];
  const cells = order.map((r) => {
    const n = Math.max(0, left.get(r) || 0);
    const hot = r === "RJ" || r === "BJ" || r === obs.level || r === "A" || (game === "runfast" && r === "2");
    const bomb = !(r === "RJ" || r === "BJ") && n >= (game === "runfast" && r === "A" ? 3 : 4);
    const label = r === "RJ" || r === "BJ" ? t(`tracker.${r}`) : rankLabel(r);
    return h("span", {
      class: `tracker-cell${hot ? " hot" : ""}${bomb ? " bomb" : ""}${n === 0 ? " gone" : ""}`,
      "data-rank": r, "data-left": n, role: "listitem", "aria-label": t("tracker.cell", { rank: label, n }),
    }, h("span", { text: label }), h("b", { text: String(n) }));
  });
  const parts = [h("h3", { text: t("tracker.title") }), h("div", { class: "tracker-row", role: "list" }, cells)];
  const notes = [];
  if (game === "guandan" && obs.level) notes.push(t("tracker.wilds", { n: wilds }));
  const bombs = order.filter((r) => r !== "RJ" && r !== "BJ" && (left.get(r) || 0) >= (game === "runfast" && r === "A" ? 3 : 4));
  notes.push(bombs.length ? t("tracker.bombs", { ranks: bombs.map(rankLabel).join(" ") }) : t("tracker.noBombs"));
  if (game === "guandan" && (left.get("RJ") || 0) === 2 && (left.get("BJ") || 0) === 2) notes.push(t("tracker.jokerBomb"));
  for (let s = 0; s < obs.n_seats; s++) {
    const n = obs.hand_sizes[s];
    if (s !== obs.seat && n > 0 && n <= 2) notes.push(t("tracker.warn", { seat: seatName(game, s), n }));
  }
  parts.push(...notes.map((text) => h("p", { text })));
  root.replaceChildren(...parts);
}
