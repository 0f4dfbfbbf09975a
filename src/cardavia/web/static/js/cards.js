// Cards: the notation of rules.md §0, orderings, and SVG faces drawn by code.
import { cardName, rankLabel } from "./i18n.js";

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const SUITS = ["s", "h", "c", "d"];
const RANK_VALUE = Object.fromEntries(RANKS.map((r, i) => [r, i + 2]));
RANK_VALUE.BJ = 15;
RANK_VALUE.RJ = 16;

export function rankValue(symbol) {
  return RANK_VALUE[symbol];
}

export function rankSymbol(value) {
  if (value === 15) return "BJ";
  if (value === 16) return "RJ";
  return RANKS[value - 2];
}

const cache = new Map();

/** Parse "7h" / "BJ" into a frozen card object {text, rank, suit, value, code, joker}. */
export function card(text) {
  let c = cache.get(text);
  if (c) return c;
  if (text === "BJ" || text === "RJ") {
    c = { text, rank: text, suit: null, value: RANK_VALUE[text], code: text === "BJ" ? 52 : 53, joker: true };
  } else {
    const rank = text[0];
    const suit = text[1];
    const value = RANK_VALUE[rank];
    if (!value || !SUITS.includes(suit) || text.length !== 2) throw new Error(`bad card ${text}`);
    c = { text, rank, suit, value, code: (value - 2) * 4 + SUITS.indexOf(suit), joker: false };
  }
  Object.freeze(c);
  cache.set(text, c);
  return c;
}

export function cards(texts) {
  return (texts || []).map(card);
}

/** Whether the card is a wild heart of the Guandan level rank (G-2.2). */
export function isWild(c, game, level) {
  return game === "guandan" && !c.joker && c.suit === "h" && c.rank === level;
}

/** Single-card strength for sorting: G-4.4 for Guandan, R-3.2 for Run Fast. */
export function strength(c, game, level) {
  if (game === "guandan") {
    if (c.text === "RJ") return 17;
    if (c.text === "BJ") return 16;
    if (c.rank === level) return 15;
    return c.value;
  }
  if (c.rank === "2") return 15;
  return c.value;
}

/** Sort low → high by strength, suits s h c d within a rank. */
export function sortHand(list, game, level) {
  return [...list].sort(
    (a, b) => strength(a, game, level) - strength(b, game, level) || a.code - b.code,
  );
}

/**
 * Group a hand into the combinations it naturally holds: wild cards, jokers, bombs,
 * triples, pairs and singles (same-rank groups, strongest groups first within a kind).
 */
export function groupHand(list, game, level) {
  const wild = [];
  const byRank = new Map();
  for (const c of sortHand(list, game, level)) {
    if (isWild(c, game, level)) { wild.push(c); continue; }
    const key = c.joker ? c.text : c.rank;
    if (!byRank.has(key)) byRank.set(key, []);
    byRank.get(key).push(c);
  }
  const groups = { wild: [], jokers: [], bomb: [], triple: [], pair: [], single: [] };
  const bj = byRank.get("BJ") || [];
  const rj = byRank.get("RJ") || [];
  if (bj.length === 2 && rj.length === 2) {
    groups.jokers.push([...bj, ...rj]);
    byRank.delete("BJ");
    byRank.delete("RJ");
  }
  for (const [key, cs] of byRank) {
    const aceBomb = game === "runfast" && key === "A" && cs.length === 3;
    const kind = cs.length >= 4 || aceBomb ? "bomb" : cs.length === 3 ? "triple" : cs.length === 2 ? "pair" : "single";
    groups[kind].push(cs);
  }
  if (wild.length) groups.wild.push(wild);
  return Object.entries(groups)
    .filter(([, gs]) => gs.length)
    .map(([kind, gs]) => ({ kind, cards: gs.flat() }));
}

/** By suit: spades, hearts, clubs, diamonds (low → high in each), then wild cards and jokers. */
export function sortBySuit(list, game, level) {
  const suitOrder = (c) => (c.joker ? 5 : isWild(c, game, level) ? 4 : SUITS.indexOf(c.suit));
  return [...list].sort((a, b) => suitOrder(a) - suitOrder(b) || strength(a, game, level) - strength(b, game, level) || a.code - b.code);
}

/** Natural rank of a card in a sequence (ace high); 0 for cards that never sit in one. */
function seqRank(c, game) {
  if (c.joker) return 0;
  if (game === "runfast" && c.rank === "2") return 0;
  return c.value;
}

/**
 * Lay a hand out "by combinations" (理牌): the joker bomb and bombs, straight flushes,
 * straights, triples, pairs and singles, wild cards apart. A greedy client-side plan:
 * bombs first, then five-card flushes and straights from what is left (only where they do
 * not break a pair or better), then same-rank groups.
 */
export function arrangeCombos(list, game, level) {
  const wild = [];
  const rest = [];
  for (const c of sortHand(list, game, level)) (isWild(c, game, level) ? wild : rest).push(c);
  const groups = [];
  const take = (pool, cs) => { for (const c of cs) pool.splice(pool.indexOf(c), 1); };
  // the joker bomb (Guandan: all four jokers)
  const jokers = rest.filter((c) => c.joker);
  if (game === "guandan" && jokers.length === 4) { groups.push({ kind: "jokers", cards: jokers }); take(rest, jokers); }
  // bombs: 4+ of a rank (Run Fast: also three aces)
  const byRank = (pool) => {
    const m = new Map();
    for (const c of pool) { const k = c.joker ? c.text : c.rank; if (!m.has(k)) m.set(k, []); m.get(k).push(c); }
    return m;
  };
  for (const [key, cs] of byRank(rest)) {
    if (cs.length >= 4 || (game === "runfast" && key === "A" && cs.length === 3)) { groups.push({ kind: "bomb", cards: cs }); take(rest, cs); }
  }
  // five-card runs of one suit (Guandan straight flushes), then plain straights, from cards
  // that are singles in what is left (a straight never breaks a pair or triple)
  const runs = (flush) => {
    for (;;) {
      const counts = byRank(rest);
      let found = null;
      for (let top = 14; top >= 5 && !found; top--) {
        const window = [];
        for (let r = top - 4; r <= top; r++) window.push(r === 1 ? 14 : r);
        if (game === "runfast" && top === 5) continue; // R-4: no A-2-3-4-5 (2 is high)
        const suits = flush ? SUITS : [null];
        for (const suit of suits) {
          const pick = [];
          for (const r of window) {
            const c = rest.find((x) => seqRank(x, game) === r && (!suit || x.suit === suit) && !pick.includes(x));
            const n = (counts.get(RANKS[r - 2]) || []).length;
            if (!c || (!flush && n > 1)) break;
            pick.push(c);
          }
          if (pick.length === 5) { found = pick; break; }
        }
      }
      if (!found) return;
      groups.push({ kind: flush ? "straight_flush" : "straight", cards: found });
      take(rest, found);
    }
  };
  if (game === "guandan") runs(true);
  runs(false);
  const same = { triple: [], pair: [], single: [] };
  for (const [, cs] of byRank(rest)) same[cs.length >= 3 ? "triple" : cs.length === 2 ? "pair" : "single"].push(...cs);
  for (const kind of ["triple", "pair", "single"]) if (same[kind].length) groups.push({ kind, cards: same[kind] });
  if (wild.length) groups.push({ kind: "wild", cards: wild });
  return groups;
}

// ---------------------------------------------------------------------------- SVG faces

const NS = "http://www.w3.org/2000/svg";
const SUIT_PATHS = {
  h: "M50 90C22 68 4 50 4 30 4 15 15 5 28 5c10 0 18 6 22 15 4-9 12-15 22-15 13 0 24 10 24 25 0 20-18 38-46 60z",
  d: "M50 4 88 50 50 96 12 50z",
  s: "M50 4C60 22 96 40 96 62c0 13-10 22-22 22-9 0-16-4-20-11 1 11 5 18 13 24H33c8-6 12-13 13-24-4 7-11 11-20 11C14 84 4 75 4 62 4 40 40 22 50 4z",
  c: "M50 6a20 20 0 0 1 17 31 20 20 0 1 1-8 37c1 9 5 16 11 22H30c6-6 10-13 11-22a20 20 0 1 1-8-37A20 20 0 0 1 50 6z",
};
const STAR = "M50 4 61 38h36L68 59l11 35-29-21-29 21 11-35L3 38h36z";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function glyph(parent, suit, x, y, size) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 100})` }, parent);
  el("path", { d: suit ? SUIT_PATHS[suit] : STAR, class: "glyph" }, g);
  return g;
}

/** An SVG card face (decorative; the surrounding button carries the accessible name). */
export function cardFace(c, { wild = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "paper" }, svg);
  if (c.joker) {
    glyph(svg, null, 12, 24, 36);
    const label = el("text", { x: 5, y: 14, class: "index joker-index" }, svg);
    label.textContent = rankLabel(c.text);
  } else {
    const label = el("text", { x: 5, y: 17, class: "index" }, svg);
    label.textContent = rankLabel(c.rank);
    glyph(svg, c.suit, 5, 21, 12);
    glyph(svg, c.suit, 22, 40, 32);
  }
  if (wild) {
    // on the corner a fan leaves visible (the left strip), under the index
    const badge = el("g", { class: "wild-mark", "data-testid": "wild-badge" }, svg);
    el("circle", { cx: 11, cy: 45, r: 7.5, class: "wild-badge" }, badge);
    glyph(badge, null, 5, 39, 12).classList.add("wild-star");
  }
  return svg;
}

/** A card button for your hand (data-card is the stable test hook). */
export function cardButton(c, { wild = false, index = 0 } = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `card ${c.joker ? `joker ${c.text === "RJ" ? "red" : "black"}` : `suit-${c.suit}`}`;
  if (wild) {
    b.classList.add("wild");
    b.dataset.wild = "true";
  }
  b.dataset.card = c.text;
  b.dataset.index = String(index);
  b.setAttribute("aria-pressed", "false");
  b.setAttribute("aria-label", cardName(c, { wild }));
  b.appendChild(cardFace(c, { wild }));
  return b;
}

/** A full-size, non-interactive card on the table (the trick); data-card names it. */
export function tableCard(c, { wild = false } = {}) {
  const span = document.createElement("span");
  span.className = `tcard ${c.joker ? `joker ${c.text === "RJ" ? "red" : "black"}` : `suit-${c.suit}`}`;
  if (wild) span.classList.add("wild");
  span.dataset.card = c.text;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(c, { wild }));
  span.appendChild(cardFace(c, { wild }));
  return span;
}

/** A small, non-interactive card (plays on the table, log, replay). */
export function miniCard(c, { wild = false } = {}) {
  const span = document.createElement("span");
  span.className = `mini ${c.joker ? `joker ${c.text === "RJ" ? "red" : "black"}` : `suit-${c.suit}`}`;
  if (wild) span.classList.add("wild");
  span.dataset.card = c.text;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(c, { wild }));
  span.appendChild(cardFace(c, { wild }));
  return span;
}
