// A light, client-side reading of a selection so the Play button can say why not before
// anything is sent. The server stays the judge: it re-validates every play (protocol.md).
// Mirrors cardavia.rules.guandan.combos.readings_of (G-5) and the Run Fast types;
// tests/browser compare both on random selections.
import { rankSymbol, rankValue } from "./cards.js";

// ---------------------------------------------------------------------------- Guandan

const SF_TIER = 11;
const JOKER_TIER = 22;
const SEQ = {
  straight: [5, 1, 5],
  straight_flush: [5, 1, 5],
  pair_run: [3, 2, 3],
  triple_run: [2, 3, 2],
};
const TYPE_ORDER = [
  "single", "pair", "triple", "full_house", "straight", "pair_run", "triple_run",
  "bomb", "straight_flush", "joker_bomb", "ace_bomb", "heavenly_bomb",
];

function groupPower(rank, level) {
  if (rank === level) return 15;
  if (rank === 15) return 16;
  if (rank === 16) return 17;
  return rank;
}

function gdTierPower(type, rank, size, level) {
  if (type === "bomb") return [2 * size, groupPower(rank, level)];
  if (type === "straight_flush") return [SF_TIER, rank];
  if (type === "joker_bomb") return [JOKER_TIER, 0];
  if (type in SEQ) return [0, rank];
  return [0, groupPower(rank, level)];
}

function window_(top, length) {
  const out = [];
  for (let r = top - length + 1; r <= top; r++) out.push(r === 1 ? 14 : r);
  return out;
}

/** Every distinct (type, rank) reading of Guandan cards at `level` (rank value), weakest first. */
export function guandanReadings(cs, level) {
  const n = cs.length;
  if (!n) return [];
  let wilds = 0, bj = 0, rj = 0;
  const rc = new Map();
  const suits = new Set();
  for (const c of cs) {
    if (!c.joker && c.suit === "h" && c.value === level) wilds++;
    else if (c.text === "BJ") bj++;
    else if (c.text === "RJ") rj++;
    else {
      rc.set(c.value, (rc.get(c.value) || 0) + 1);
      suits.add(c.suit);
    }
  }
  const jokers = bj + rj;
  const found = [];
  // matching-rank groups
  const hearts = (r, k) => new Array(Math.max(0, k)).fill(`${rankSymbol(r)}h`);
  if (jokers) {
    if (n === 1) found.push(["single", bj ? 15 : 16, []]);
    else if (n === 2 && (bj === 2 || rj === 2)) found.push(["pair", bj ? 15 : 16, []]);
    else if (n === 4 && bj === 2 && rj === 2) found.push(["joker_bomb", null, []]);
  } else if (rc.size <= 1) {
    const rank = rc.size ? [...rc.keys()][0] : level;
    const missing = hearts(rank, wilds);
    if (n === 1) found.push(["single", rank, missing]);
    else if (n === 2) found.push(["pair", rank, missing]);
    else if (n === 3) found.push(["triple", rank, missing]);
    else if (n >= 4 && n <= 10) found.push(["bomb", rank, missing]);
  }
  // full house
  if (n === 5) {
    if (jokers) {
      if ((bj === 2 || rj === 2) && jokers === 2 && rc.size === 1) {
        const t = [...rc.keys()][0];
        found.push(["full_house", t, hearts(t, wilds)]);
      }
    } else if (rc.size === 2) {
      const [a, b] = [...rc.keys()];
      for (const [t, q] of [[a, b], [b, a]]) {
        if (rc.get(t) <= 3 && rc.get(q) <= 2) found.push(["full_house", t, [...hearts(t, 3 - rc.get(t)), ...hearts(q, 2 - rc.get(q))]]);
      }
    } else if (rc.size === 1 && wilds === 2) {
      const t = [...rc.keys()][0];
      const q = [level, 2, 3].find((r) => r !== t);
      found.push(["full_house", t, hearts(q, 2)]);
    }
  }
  // sequences (natural ranks, ace low or high, never jokers)
  if ((n === 5 || n === 6) && !jokers) {
    for (const [type, [length, copies, lowTop]] of Object.entries(SEQ)) {
      if (length * copies !== n) continue;
      if (type === "straight_flush" && suits.size !== 1) continue;
      for (let top = lowTop; top <= 14; top++) {
        const w = window_(top, length);
        let ok = true;
        for (const r of rc.keys()) if (!w.includes(r)) ok = false;
        for (const r of w) if ((rc.get(r) || 0) > copies) ok = false;
        if (!ok) continue;
        const flush = type === "straight_flush" ? [...suits][0] : null;
        const missing = [];
        for (const r of w) {
          for (let k = copies - (rc.get(r) || 0); k > 0; k--) missing.push(`${rankSymbol(r)}${flush || "h"}`);
        }
        // a plain straight of hearts only must not look like a straight flush
        if (type === "straight" && missing.length && suits.size === 1 && suits.has("h")) {
          for (let i = 0; i < missing.length; i++) missing[i] = `${missing[i][0]}s`;
        }
        found.push([type, top, missing]);
      }
    }
  }
  const seen = new Map();
  for (const [type, rank, missing] of found) {
    const key = `${type}:${rank}`;
    if (seen.has(key)) continue;
    const [tier, power] = gdTierPower(type, rank || 0, n, level);
    const fill = missing[Symbol.iterator]();
    const as = cs.map((c) => (!c.joker && c.suit === "h" && c.value === level ? fill.next().value : c.text));
    seen.set(key, { type, rank: rank === null ? null : rankSymbol(rank), size: n, tier, power, cards: cs.map((c) => c.text), as });
  }
  return [...seen.values()].sort(compareStrength);
}

function compareStrength(a, b) {
  return a.tier - b.tier || a.power - b.power || a.size - b.size
    || TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type);
}

// ---------------------------------------------------------------------------- Run Fast

function rfPower(rank) {
  return rank === 2 ? 15 : rank; // 2 > A > K … > 3
}

const RF_TIER = { bomb: 1, ace_bomb: 2, heavenly_bomb: 3 };

function rfCombo(type, rank, size) {
  const tier = RF_TIER[type] || 0;
  return { type, rank: rank === null ? null : rankSymbol(rank), size, tier, power: rfPower(rank || 0) };
}

/** Every reading of Run Fast cards; `opening` = the first play of the deal. */
export function runfastReadings(cs, opening = false) {
  const n = cs.length;
  if (!n) return [];
  const rc = new Map();
  for (const c of cs) rc.set(c.value, (rc.get(c.value) || 0) + 1);
  const out = [];
  if (rc.size === 1) {
    const rank = [...rc.keys()][0];
    if (n === 1) out.push(rfCombo("single", rank, 1));
    else if (n === 2) out.push(rfCombo("pair", rank, 2));
    else if (n === 3) {
      if (rank === 14) out.push(rfCombo("ace_bomb", 14, 3));
      else out.push(rfCombo("triple", rank, 3));
    } else if (n === 4) {
      out.push(rfCombo(opening && rank === 3 ? "heavenly_bomb" : "bomb", rank, 4));
    }
  }
  const ranks = [...rc.keys()].sort((a, b) => a - b);
  const consecutive = ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
  const no2 = !rc.has(2);
  if (no2 && consecutive && ranks.length >= 5 && [...rc.values()].every((k) => k === 1)) {
    out.push(rfCombo("straight", ranks[ranks.length - 1], n));
  }
  if (no2 && consecutive && ranks.length >= 2 && [...rc.values()].every((k) => k === 2)) {
    out.push(rfCombo("pair_run", ranks[ranks.length - 1], n));
  }
  return out;
}

// ---------------------------------------------------------------------------- both

/** The comparison key of a combo JSON from the server (it carries type, rank, size). */
export function keyOf(combo, game, level) {
  const rank = combo.rank === null || combo.rank === undefined ? null : rankValue(combo.rank);
  if (game === "guandan") {
    const [tier, power] = gdTierPower(combo.type, rank || 0, combo.size, level);
    return { ...combo, tier, power };
  }
  return { ...combo, tier: RF_TIER[combo.type] || 0, power: rfPower(rank || 0) };
}

export function beats(play, prev) {
  if (play.tier) return !prev.tier || play.tier > prev.tier || (play.tier === prev.tier && play.power > prev.power);
  if (prev.tier) return false;
  return play.type === prev.type && play.size === prev.size && play.power > prev.power;
}

/**
 * Check a selection against the observation: {ok, legal: [readings], reason, vars}.
 * `reason` is a catalog key (the UI translates it).
 */
export function checkSelection(selected, obs) {
  if (!obs || obs.phase !== "play") return { ok: false, legal: [], reason: "why.notPlaying" };
  if (obs.turn !== obs.seat) return { ok: false, legal: [], reason: "why.notYourTurn" };
  if (!selected.length) return { ok: false, legal: [], reason: "why.selectCards" };
  const game = obs.game;
  const level = obs.level ? rankValue(obs.level) : null;
  const readings = game === "guandan"
    ? guandanReadings(selected, level)
    : runfastReadings(selected, !!obs.opening);
  if (!readings.length) return { ok: false, legal: [], reason: "why.notCombination" };
  if (obs.must_include && !selected.some((c) => c.text === obs.must_include)) {
    return { ok: false, legal: [], reason: "why.mustInclude", vars: { card: obs.must_include } };
  }
  if (!obs.top) return { ok: true, legal: readings, reason: null };
  const prev = keyOf(obs.top, game, level);
  const legal = readings.filter((r) => beats(r, prev));
  if (!legal.length) return { ok: false, legal: [], reason: "why.doesNotBeat", vars: { combo: obs.top } };
  return { ok: true, legal, reason: null };
}

/** Every reading of a selection, legal now or not (to name it before it is played). */
export function readingsOf(selected, obs) {
  if (!obs || !selected.length) return [];
  return obs.game === "guandan"
    ? guandanReadings(selected, obs.level ? rankValue(obs.level) : null)
    : runfastReadings(selected, !!obs.opening);
}
