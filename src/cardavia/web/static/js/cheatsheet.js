// The cheat sheet at the table: the game's combinations, what beats what, the bomb ladder
// and (Guandan) this deal's level and wild card, drawn with small cards.
import { RANKS } from "./cards.js";
import { rankLabel, t } from "./i18n.js";
import { EXAMPLES, cardRow, exampleFigure, exampleName } from "./examples.js";
import { h } from "./view.js";

/** Single-card order, high → low: Guandan's level rank sits under the jokers (G-4.4). */
export function singleOrder(game, level) {
  if (game !== "guandan") return EXAMPLES.runfast.order;
  const rest = [...RANKS].reverse().filter((r) => r !== level).map((r) => `${r}s`);
  return ["RJ", "BJ", `${level}s`, ...rest].join(" ");
}

export function renderCheatSheet(root, game, level, onClose = null) {
  const ex = EXAMPLES[game];
  const lv = game === "guandan" ? (level || "2") : null;
  const head = h("div", { class: "cheat-head" }, h("h3", { text: t("cheat.title") }));
  if (onClose) {
    const close = h("button", { type: "button", class: "chip", "data-testid": "cheat-close", text: t("action.close") });
    close.addEventListener("click", onClose);
    head.append(close);
  }
  const parts = [head];
  if (lv) {
    parts.push(h("div", { class: "cheat-level", "data-testid": "cheat-level" },
      cardRow(`${lv}h`, game, lv, { label: t("cheat.wildCard", { level: rankLabel(lv) }) }),
      h("p", { text: t("cheat.level", { level: rankLabel(lv) }) })));
  }
  parts.push(h("h4", { text: t("cheat.types") }));
  parts.push(h("div", { class: "cheat-examples" }, ex.types.map((e) => exampleFigure(e, game, null))));
  parts.push(h("p", { class: "cheat-rule", text: t(`cheat.${game}.beats`) }));
  parts.push(h("h4", { text: t("cheat.order") }));
  parts.push(cardRow(singleOrder(game, lv), game, null, { label: t("cheat.order") }));
  parts.push(h("h4", { text: t("cheat.bombs") }));
  const ladder = h("ol", { class: "cheat-ladder", "data-testid": "cheat-ladder" });
  for (const e of ex.bombs) ladder.append(h("li", {}, cardRow(e[2], game, null, { label: exampleName(e) }), h("span", { text: exampleName(e) })));
  parts.push(ladder);
  parts.push(h("p", { class: "cheat-rule", text: t(`cheat.${game}.bombs`) }));
  root.replaceChildren(...parts);
}
