// Rendering of the public table: seats, the trick, scores, the log, the end-of-deal summary.
import { cards, isWild, miniCard, rankSymbol, sortHand, tableCard } from "./cards.js";
import { cardShort, comboName, levelName, perspective, placeName, relativeSeat, seatName, seatShortName, t } from "./i18n.js";

const POSITIONS = {
  guandan: ["bottom", "right", "top", "left"],
  runfast: ["bottom", "right", "left"],
};

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "id" || k === "lang") {
      node.setAttribute(k, v === true ? "" : String(v));
    } else node[k] = v;
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Mini cards of a play; wild hearts marked. */
export function playCards(texts, game, level) {
  return h("span", { class: "play-cards" }, cards(texts).map((c) => miniCard(c, { wild: isWild(c, game, level) })));
}

function lastActions(obs) {
  const last = new Map();
  for (const a of obs.trick || []) last.set(a.seat, a);
  return last;
}

function seatKind(seatInfo) {
  if (!seatInfo || seatInfo.kind === "person") return null;
  const level = seatInfo.difficulty ? levelName(seatInfo.difficulty) : "";
  return t("seat.aiLevel", { level });
}

/** A seat box's name: on a phone a seat named by where it sits shows its short label. */
function seatLabel(game, seat) {
  const full = seatName(game, seat);
  const brief = seatShortName(game, seat);
  if (!brief) return h("bdi", { class: "seat-name", text: full });
  return h("bdi", { class: "seat-name", title: full },
    h("span", { class: "name-long", text: full }), h("span", { class: "name-short", "aria-hidden": "true", text: brief }));
}

export function seatPosition(game, seat) {
  return POSITIONS[game]?.[relativeSeat(game, seat)] || "top";
}

/** The team of the bottom seat (0 or 1) in Guandan. */
export function myTeam() {
  return perspective.me % 2;
}

/** A Guandan team (0: seats 0 and 2, 1: seats 1 and 3) by name: "your team" / "opponents"
 * seen from a seat; for a spectator, who sits on no side, its two seats ("Ann & Seat 3"). */
export function teamName(game, team) {
  if (perspective.spectator) return t("team.of", { a: seatName(game, team), b: seatName(game, team + 2) });
  return t(team === myTeam() ? "scores.usTeam" : "scores.themTeam");
}

/**
 * The seats: the opponents (and partner) around the felt in `root`, your own plate in
 * `mine`. Card backs and counts; a "pass" tag after a pass in this trick; the places; a
 * warning at two cards or fewer (报牌); at the end of a deal every seat's leftover cards
 * face up (`leftovers[seat]`, card texts; null while unknown). `cantBeat` shows the
 * "can't beat" moment before an automatic pass.
 */
export function renderSeats(root, mine, obs, seatsInfo, { leftovers = null, cantBeat = false } = {}) {
  const game = obs.game;
  const last = lastActions(obs);
  const out = [];
  for (let seat = 0; seat < obs.n_seats; seat++) {
    const pos = seatPosition(game, seat);
    const count = obs.hand_sizes[seat];
    const place = obs.places.indexOf(seat);
    const isTurn = obs.phase === "play" && obs.turn === seat;
    const action = last.get(seat);
    const info = (seatsInfo || []).find((s) => s.seat === seat);
    const team = game === "guandan" ? (seat % 2 === myTeam() ? "us" : "them") : null;
    const box = h("section", {
      class: `seat pos-${pos}${isTurn ? " turn" : ""}${team ? ` team-${team}` : ""}${place >= 0 ? " finished" : ""}`,
      "data-seat": seat,
      "data-testid": `seat-${seat}`,
      "aria-label": seatName(game, seat),
    });
    box.append(h("div", { class: "seat-head" },
      seatLabel(game, seat),
      seatKind(info) ? h("span", { class: "seat-kind", text: seatKind(info) }) : null,
    ));
    const status = h("div", { class: "seat-status" });
    const over = obs.phase === "over";
    if (over && leftovers && leftovers[seat]) {
      const cs = sortHand(cards(leftovers[seat]), game, obs.level);
      const wrap = h("div", { class: "leftover", "data-testid": `leftover-${seat}`, role: "img", "aria-label": t("seat.leftover", { n: cs.length }) });
      if (cs.length) wrap.append(...cs.map((c) => miniCard(c, { wild: isWild(c, game, obs.level) })));
      else wrap.append(h("span", { class: "leftover-none", text: t("seat.noneLeft") }));
      status.append(wrap);
    } else if (seat !== obs.seat && count > 0) {
      const fan = h("span", { class: "fan", "aria-hidden": "true" });
      for (let i = 0; i < Math.min(count, 8); i++) fan.append(h("span", { class: "back" }));
      status.append(fan);
    }
    if (!(over && leftovers && leftovers[seat] && !count)) status.append(h("span", { class: "count", "data-testid": `count-${seat}`, text: t("seat.cards", { n: count }) }));
    if (place >= 0) status.append(h("span", { class: "badge place", text: placeName(place + 1) }));
    else if (count > 0 && count <= 2 && obs.phase === "play") status.append(h("span", { class: "badge warn", "data-testid": `warn-${seat}`, text: t("seat.warn", { n: count }) }));
    if (isTurn && !(seat === obs.seat && cantBeat)) status.append(h("span", { class: "badge turn-badge", "data-testid": `turn-${seat}`, text: turnBadge(seat, obs) }));
    if (seat === obs.seat && cantBeat) status.append(h("span", { class: "pass-tag cant-beat", "data-testid": "cant-beat", text: t("seat.cantBeat") }));
    if (action && action.pass) status.append(h("span", { class: "pass-tag", "data-testid": `seat-${seat}-pass`, text: t("seat.passed") }));
    box.append(status);
    if (perspective.decorate) perspective.decorate(box, seat, obs);
    if (seat === (obs.seat ?? perspective.me)) mine.replaceChildren(box);
    else out.push(box);
  }
  root.replaceChildren(...out);
}

/** Whose turn it is, on the seat: yours, an AI thinking, or (a table with friends) the
 * person the table waits for, or the bot playing for them (perspective.turnLabel). */
function turnBadge(seat, obs) {
  if (seat === obs.seat) return t("seat.yourTurn");
  return (perspective.turnLabel && perspective.turnLabel(seat)) || t("seat.thinking");
}

const BOMBS = new Set(["bomb", "straight_flush", "joker_bomb", "ace_bomb", "heavenly_bomb"]);
export function isBomb(combo) {
  return !!combo && BOMBS.has(combo.type);
}

/**
 * The current trick in the middle of the felt: the plays of this trick with full-size cards
 * (the last three; the top play highlighted and named with who played it). Before a lead:
 * who leads.
 */
export function renderTrick(root, obs) {
  const plays = (obs.trick || []).filter((a) => !a.pass);
  const shown = plays.slice(-3);
  const parts = [];
  shown.forEach((a, i) => {
    const top = i === shown.length - 1;
    const cardsBox = h("div", { class: "trick-cards" }, sortHand(cards(a.cards), obs.game, obs.level).map((c) => tableCard(c, { wild: isWild(c, obs.game, obs.level) })));
    const label = `${seatName(obs.game, a.seat)} · ${comboName(a.combo)}`;
    parts.push(h("div", {
      class: `trick-play${top ? " top" : " older"}${isBomb(a.combo) ? " is-bomb" : ""}`,
      "data-seat": a.seat, "data-testid": top ? "trick-top" : "trick-play",
      role: "group", "aria-label": top ? t("table.topPlay", { combo: label }) : label,
    }, cardsBox, h("p", { class: "trick-label", text: label })));
  });
  if (!shown.length && obs.phase === "play" && obs.turn !== null) {
    parts.push(h("p", { class: "trick-note", text: t("table.leads", { seat: seatName(obs.game, obs.turn) }) }));
  }
  root.replaceChildren(...parts);
}

/** The always-visible score line: Guandan levels and the deal's level (wild card);
 * Run Fast running totals. */
export function renderScoreboard(root, obs, match) {
  if (obs.game === "guandan") {
    const levels = match?.levels || obs.team_levels || ["2", "2"];
    const lv = obs.level || match?.deal_level || "2";
    const us = myTeam();
    root.replaceChildren(
      h("span", { class: "sb-item" }, h("bdi", { text: teamName(obs.game, us) }), " ", h("strong", { text: levelText(levels[us]) })),
      h("span", { class: "sb-item" }, h("bdi", { text: teamName(obs.game, 1 - us) }), " ", h("strong", { text: levelText(levels[1 - us]) })),
      h("span", { class: "sb-item", "data-testid": "deal-level" }, `${t("table.dealLevel", { level: levelText(lv) })} · ${t("table.wildNote", { card: cardShort(cards([`${lv}h`])[0]) })}`),
    );
  } else {
    const totals = match?.totals || new Array(obs.n_seats).fill(0);
    root.replaceChildren(h("span", { class: "sb-item" }, `${t("scores.totals")}:`),
      h("table", { "data-testid": "totals" }, h("tbody", {}, h("tr", {}, totals.map((v, seat) => [
        h("th", { scope: "col", text: seatName(obs.game, seat) }), h("td", { text: signed(v) })])))));
  }
}

/** The end-of-deal summary in the middle of the table (nothing while playing). */
export function renderCenter(root, obs, match) {
  root.replaceChildren(...(obs.phase === "over" ? [renderSummary(obs, match)] : []));
}

/** A level for display: accepts a symbol ("T") or a rank value (10); T shows as 10. */
function levelText(level) {
  const symbol = typeof level === "number" ? rankSymbol(level) : level;
  return symbol === "T" ? "10" : symbol;
}

export function renderSummary(obs, match) {
  const box = h("div", { class: "summary", "data-testid": "summary", role: "region", "aria-label": t("summary.title") });
  const over = obs.game === "guandan" && match && match.match_winner !== null && match.match_winner !== undefined;
  box.append(h("h2", { text: over ? t("summary.matchOver") : t("summary.title") }));
  if (obs.game === "guandan") {
    const places = h("ol", { class: "places" });
    const order = [...obs.places];
    for (let s = 0; s < obs.n_seats; s++) if (!order.includes(s)) order.push(s);
    for (const seat of order) places.append(h("li", { text: seatName(obs.game, seat) }));
    box.append(places);
    // match.last_settlement carries level symbols; the raw result carries rank values
    const s = match?.last_settlement && match.last_settlement.deal === obs.deal_index ? match.last_settlement : obs.result || {};
    const team = s.winner_team;
    const game = obs.game;
    const side = perspective.spectator;  // a spectator: the teams by their seats, not "us" and "them"
    if (team !== undefined && team !== null) {
      box.append(h("p", { text: side ? t("summary.teamWins", { team: teamName(game, team), n: s.advance })
        : t(team === myTeam() ? "summary.weWin" : "summary.theyWin", { n: s.advance }) }));
    }
    if (s.levels && s.levels.length === 2) {
      box.append(h("p", { text: side
        ? t("summary.teamLevels", { a: teamName(game, 0), x: levelText(s.levels[0]), b: teamName(game, 1), y: levelText(s.levels[1]) })
        : t("summary.levels", { us: levelText(s.levels[myTeam()]), them: levelText(s.levels[1 - myTeam()]) }) }));
    }
    if (over) {
      box.append(h("p", { class: "match-result", text: side ? t("summary.teamWinsMatch", { team: teamName(game, match.match_winner) })
        : t(match.match_winner === myTeam() ? "summary.matchWon" : "summary.matchLost") }));
    }
    else if (s.next_level !== undefined && s.next_level !== null) box.append(h("p", { text: t("summary.nextLevel", { level: levelText(s.next_level) }) }));
  } else {
    const s = match?.last_settlement && match.last_settlement.deal === obs.deal_index ? match.last_settlement : obs.result;
    box.append(settlementTable(obs, s));
  }
  return box;
}

/** Run Fast: the settlement of a deal line by line (R-5). */
export function settlementTable(obs, s) {
  const wrap = h("div", { class: "settlement", "data-testid": "settlement" });
  if (!s) return wrap;
  const game = obs.game;
  if (s.winner !== undefined && s.winner !== null) {
    wrap.append(h("p", { class: "winner", text: t("settle.winner", { seat: seatName(game, s.winner) }) }));
  }
  const list = h("ul", { class: "settle-lines" });
  for (const line of s.lines || []) {
    const parts = [t("settle.cardsLeft", { n: line.cards_left })];
    if (line.never_played) parts.push(t("settle.doubled"));
    if (line.holds_2s) parts.push(t("settle.twoSpades"));
    if (line.unplayed_bombs) parts.push(t("settle.bombs", { n: line.unplayed_bombs, points: 10 * line.unplayed_bombs }));
    list.append(h("li", { "data-testid": "settle-line", text: t("settle.pays", { seat: seatName(game, line.seat), n: line.pays, parts: parts.join(", ") }) }));
  }
  for (const seat of s.bomb_bonuses || []) {
    list.append(h("li", { "data-testid": "settle-line", text: t("settle.bombBonus", { seat: seatName(game, seat) }) }));
  }
  wrap.append(list);
  if (s.scores) {
    const table = h("table", { class: "scores-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("settle.seat") }), h("th", { scope: "col", text: t("settle.deal") }))),
      h("tbody", {}, s.scores.map((v, seat) => h("tr", {}, h("th", { scope: "row", text: seatName(game, seat) }), h("td", { text: signed(v) })))),
    );
    wrap.append(table);
  }
  return wrap;
}

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

export function renderScores(title, body, obs, match) {
  if (obs.game === "guandan") {
    title.textContent = t("scores.levels");
    const levels = match?.levels || obs.team_levels || ["2", "2"];
    const rows = [
      [teamName(obs.game, myTeam()), levelText(levels[myTeam()])],
      [teamName(obs.game, 1 - myTeam()), levelText(levels[1 - myTeam()])],
      [t("scores.dealLevel"), levelText(match?.deal_level || obs.level || "2")],
    ];
    body.replaceChildren(h("dl", { class: "levels" }, rows.map(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })])));
  } else {
    title.textContent = t("scores.totals");
    const totals = match?.totals || new Array(obs.n_seats).fill(0);
    body.replaceChildren(h("table", { class: "scores-table" },
      h("tbody", {}, totals.map((v, seat) => h("tr", {}, h("th", { scope: "row", text: seatName(obs.game, seat) }), h("td", { text: signed(v) })))),
    ));
  }
}

/** The game log of the deal, from the observation (so it survives reconnects). */
export function logEntries(obs) {
  const game = obs.game;
  const entries = [];
  entries.push(h("li", { class: "log-deal", text: game === "guandan"
    ? t("log.dealLevel", { n: obs.deal_index + 1, level: levelText(obs.level || "2") })
    : t("log.deal", { n: obs.deal_index + 1 }) }));
  if (obs.tribute_cancelled) entries.push(h("li", { text: t("log.antiTribute") }));
  for (const tr of obs.tributes || []) {
    entries.push(h("li", { class: "log-tribute" }, t(tr.from === obs.seat ? "log.tributeYou" : "log.tribute", { from: seatName(game, tr.from), to: seatName(game, tr.to) }), " ", playCards([tr.card], game, obs.level)));
  }
  for (const r of obs.my_returns || []) {
    entries.push(h("li", { class: "log-return" }, t(r.from === obs.seat ? "log.returnYou" : "log.return", { from: seatName(game, r.from), to: seatName(game, r.to) }), " ", playCards([r.card], game, obs.level)));
  }
  const start = game === "guandan" ? 27 : 16;
  const left = new Array(obs.n_seats).fill(start);
  let place = 0;
  for (const a of obs.history || []) {
    if (a.pass) {
      entries.push(h("li", { class: "log-pass", text: t("log.pass", { seat: seatName(game, a.seat) }) }));
      continue;
    }
    entries.push(h("li", { class: "log-play" }, `${t("log.play", { seat: seatName(game, a.seat), combo: comboName(a.combo) })} `, playCards(a.cards, game, obs.level)));
    left[a.seat] -= a.cards.length;
    if (left[a.seat] === 0) {
      place += 1;
      entries.push(h("li", { class: "log-finish", text: t("log.finished", { seat: seatName(game, a.seat), place: placeName(place) }) }));
    }
  }
  if (obs.phase === "over") entries.push(h("li", { class: "log-end", text: t("log.over") }));
  return entries;
}
