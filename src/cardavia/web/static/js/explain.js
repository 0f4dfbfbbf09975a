// An agent's reason in the page's language, from its language-neutral key and arguments
// (docs/protocol.md "Hints"): combos named with comboName, cards with cardShort.
import { card } from "./cards.js";
import { cardShort, comboName, has, t } from "./i18n.js";

/** The sentence of reason `key` with `args`; "" for a key the catalog does not know. */
export function reasonText(key, args = {}) {
  const k = `reasons.${key || ""}`;
  if (!key || !has(k)) return "";
  const vars = {};
  for (const [name, value] of Object.entries(args || {})) {
    if (value && typeof value === "object") vars[name] = comboName(value);
    else if (name === "card") vars[name] = cardShort(card(String(value)));
    else vars[name] = String(value);
  }
  if (vars.alt && vars.combo && vars.alt === vars.combo) vars.alt = t("reasons.sameOther", { combo: vars.alt });
  for (const n of ["delta", "base"]) {
    if (vars[n] !== undefined && !Number.isNaN(Number(vars[n]))) vars[n] = (Number(vars[n]) >= 0 ? "+" : "") + Number(vars[n]).toFixed(1);
  }
  return t(k, vars);
}

/** A play or pass of a record/history entry ({seat, pass} or {seat, cards, combo}) named,
 * or a review's return card ({seat, card, to}). */
export function moveName(entry) {
  if (entry && entry.card) return t("review.returnCard", { card: cardShort(card(entry.card)) });  // a tribute return
  if (!entry || entry.pass) return t("review.pass");
  return comboName(entry.combo);
}
