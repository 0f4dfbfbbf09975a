// Example cards of each game's combinations and bombs, drawn with our SVG cards: the
// illustrated introductions (/learn) and the cheat sheet at the table use them.
import { cards, isWild, miniCard, tableCard } from "./cards.js";
import { comboName } from "./i18n.js";
import { h } from "./view.js";

/** The name of an example ([type, rank, cards]) in the page's language. */
export function exampleName([type, rank, texts]) {
  return comboName({ type, rank, size: texts.split(/\s+/).length });
}

/** A labelled example: its name above its cards. */
export function exampleFigure(example, game, level, big = false) {
  return h("figure", { class: "example", "data-type": example[0] },
    cardRow(example[2], game, level, { big, label: exampleName(example) }),
    h("figcaption", { text: exampleName(example) }));
}

/** Combination types, lowest bomb to highest, with example cards (the level is 2 in
 * Guandan's examples, so 2♥ is wild). */
export const EXAMPLES = {
  guandan: {
    types: [
      ["single", "K", "Kd"], ["pair", "7", "7s 7h"], ["triple", "9", "9c 9d 9s"], ["full_house", "J", "Jd Jc Js 5h 5c"],
      ["straight", "7", "3c 4d 5s 6c 7d"], ["pair_run", "5", "3s 3h 4c 4d 5s 5h"], ["triple_run", "8", "7s 7h 7c 8d 8s 8h"],
    ],
    bombs: [
      ["bomb", "6", "6s 6h 6c 6d"], ["bomb", "7", "7s 7h 7c 7d 7s"], ["straight_flush", "9", "5h 6h 7h 8h 9h"],
      ["bomb", "8", "8s 8h 8c 8d 8s 8c"], ["joker_bomb", null, "BJ BJ RJ RJ"],
    ],
    order: "RJ BJ 2s As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s",
    wild: "7s 7h 7c 2h",
  },
  runfast: {
    types: [
      ["single", "K", "Kd"], ["pair", "7", "7s 7h"], ["triple", "9", "9c 9d 9s"], ["straight", "7", "3h 4s 5c 6d 7s"],
      ["pair_run", "T", "9s 9h Ts Tc"],
    ],
    bombs: [["bomb", "4", "4s 4h 4c 4d"], ["bomb", "K", "Ks Kh Kc Kd"], ["ace_bomb", "A", "As Ac Ad"]],
    order: "2s As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s",
    heavenly: "3s 3h 3c 3d",
  },
};

/** A row of cards (`texts`: space-separated card names), wild hearts marked. */
export function cardRow(texts, game, level, { big = false, label = "" } = {}) {
  const list = cards(texts.split(/\s+/).filter(Boolean));
  const make = big ? tableCard : miniCard;
  return h("span", { class: `card-row${big ? " big" : ""}`, role: "img", "aria-label": label || null },
    list.map((c) => make(c, { wild: isWild(c, game, level) })));
}

/** Draw every `[data-cards]` element under `root` (the server writes the card names). */
export function drawCards(root, game) {
  for (const el of root.querySelectorAll("[data-cards]")) {
    const row = cardRow(el.dataset.cards, game, el.dataset.level || (game === "guandan" ? "2" : null), { big: el.dataset.big === "1", label: el.dataset.label || "" });
    el.replaceChildren(row);
  }
}
