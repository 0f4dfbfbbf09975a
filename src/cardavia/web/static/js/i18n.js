// The page's UI catalog (embedded by the server as JSON) and the words built from it.
const catalog = JSON.parse(document.getElementById("cardavia-i18n")?.textContent || "{}");
export const lang = document.documentElement.lang || "en";
const plurals = new Intl.PluralRules(lang);

/** One catalog string; `{name}` placeholders filled, `{n}` also picks a plural form. */
export function t(key, vars = {}) {
  let k = key;
  if (typeof vars.n === "number") {
    const form = `${key}.${plurals.select(vars.n)}`;
    if (form in catalog) k = form;
    else if (`${key}.other` in catalog) k = `${key}.other`;
  }
  let text = catalog[k];
  if (text === undefined) {
    console.warn(`cardavia: missing catalog key ${k}`);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function has(key) {
  return key in catalog;
}

/** The short visible rank: "10" for T, jokers as in the catalog. */
/** An AI level's name: a difficulty in the catalog, else the agent's own name (random,
 * a learned agent registered with `cardavia serve --agent NAME=PATH`), shown as it is. */
export function levelName(level) {
  return has(`difficulty.${level}`) ? t(`difficulty.${level}`) : String(level);
}

export function rankLabel(rank) {
  if (rank === "T") return "10";
  if (rank === "BJ" || rank === "RJ") return t(`rank.short.${rank}`);
  return rank;
}

/** The spoken rank name ("seven", "queen"). */
export function rankName(rank) {
  return t(`rank.${rank}`);
}

/** The screen-reader name of a card: "seven of hearts", "red joker"; wild cards say so. */
export function cardName(card, { wild = false } = {}) {
  const name = card.joker
    ? t(`card.${card.text}`)
    : t("card.name", { rank: rankName(card.rank), suit: t(`suit.${card.suit}`) });
  return wild ? t("card.wild", { card: name }) : name;
}

export const SUIT_SYMBOL = { s: "♠", h: "♥", c: "♣", d: "♦" };

/** A compact visible text of a card ("7♥", "10♠"; jokers by their catalog short name). */
export function cardShort(card) {
  if (card.joker) return t(`card.${card.text}`);
  return `${rankLabel(card.rank)}${SUIT_SYMBOL[card.suit]}`;
}

/** The name of a combination: "Pair of 7s"-style text from its type and main rank. */
export function comboName(combo) {
  const type = t(`combo.${combo.type}`);
  if (combo.rank === null || combo.rank === undefined || combo.type === "joker_bomb") return type;
  // jokers are named in full: "single (small joker)"
  const rank = combo.rank === "BJ" || combo.rank === "RJ" ? t(`card.${combo.rank}`) : rankLabel(combo.rank);
  if (combo.type === "bomb") return t("combo.withRankSize", { type, rank, n: combo.size });
  if (["straight", "pair_run", "triple_run", "straight_flush"].includes(combo.type)) {
    return t("combo.sequence", { type, rank, n: combo.size });
  }
  if (combo.type === "ace_bomb" || combo.type === "heavenly_bomb") return type;
  return t("combo.withRank", { type, rank });
}

/** Whose eyes the table is seen with. A solo table: seat 0's, names from the catalog. A
 * table with friends (people.js sets it): the connection's seat at the bottom (seat 0's
 * for a spectator), people by their names, AI seats by where they sit from here. */
export const perspective = { me: 0, seats: null, spectator: false, decorate: null, turnLabel: null };

export function seatCount(game) {
  return game === "guandan" ? 4 : 3;
}

/** Where `seat` sits seen from `perspective.me` (0: the bottom). */
export function relativeSeat(game, seat) {
  const n = seatCount(game);
  return (((seat - perspective.me) % n) + n) % n;
}

export function seatName(game, seat) {
  const seats = perspective.seats;
  // a spectator never sees the table "from seat 0's side": no "You", no "Partner"
  if (!seats) return perspective.spectator ? t("people.seatN", { n: seat + 1 }) : t(`seat.${game}.${seat}`);
  if (!perspective.spectator && seat === perspective.me) return t(`seat.${game}.0`);
  const info = seats.find((s) => s.seat === seat);
  if (info && info.kind === "person" && info.name) return info.name;
  if (perspective.spectator) return t("people.seatN", { n: seat + 1 });
  return t(`seat.${game}.${relativeSeat(game, seat)}`);
}

/** A phone-width label for a seat named by where it sits ("Left" for "Left opponent"),
 * or null when the seat shows a person's name or has no shorter label. */
export function seatShortName(game, seat) {
  if (perspective.spectator || seat === perspective.me) return null;
  const info = (perspective.seats || []).find((s) => s.seat === seat);
  if (info && info.kind === "person" && info.name) return null;
  const key = `seat.short.${game}.${perspective.seats ? relativeSeat(game, seat) : seat}`;
  return has(key) ? t(key) : null;
}

export function placeName(place) {
  return t(`place.${place}`);
}
