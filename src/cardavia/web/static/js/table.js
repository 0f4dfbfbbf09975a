// The Table view: joins the table over the WebSocket, renders every state, sends your moves.
import { card, cards, isWild, sortHand } from "./cards.js";
import { cue, flourish, flyIn, motionOn, sweep } from "./fx.js";
import { layoutHand, moveFocus, renderHand, updateSelection, wireHand } from "./hand.js";
import { cardName, cardShort, comboName, has, perspective, seatName, t } from "./i18n.js";
import { connectTable, tokenKey, watchKey } from "./net.js";
import { createPeople } from "./people.js";
import { createReplay } from "./replay.js";
import { checkSelection, readingsOf } from "./rules.js";
import { setSound, sound, soundOn } from "./sound.js";
import { renderTracker } from "./tracker.js";
import { renderCheatSheet } from "./cheatsheet.js";
import { reasonText } from "./explain.js";
import { h, isBomb, logEntries, renderCenter, renderScoreboard, renderScores, renderSeats, renderTrick } from "./view.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const tableId = root.dataset.tableId;
const ui = {
  hand: $("hand"), play: $("play"), pass: $("pass"), hint: $("hint"), why: $("why"), error: $("error"),
  next: $("next-deal"), restart: $("new-game"), ret: $("return-confirm"), banner: $("turn-banner"),
  conn: $("conn"), seats: $("seats"), center: $("center"), log: $("log"), tribute: $("tribute-bar"),
  info: $("selection-info"), chooser: $("chooser"), me: $("me"), mySeat: $("my-seat"),
  trick: $("trick"), scoreboard: $("scoreboard"), tracker: $("tracker"), trackerToggle: $("tracker-toggle"),
  flourish: $("flourish"), drawer: $("side"), drawerToggle: $("drawer-toggle"), drawerClose: $("drawer-close"),
  speed: $("ai-speed"), autoPass: $("auto-pass"), sound: $("sound"), soundToggle: $("sound-toggle"),
  chooserOptions: $("chooser-options"), chooserCancel: $("chooser-cancel"),
  scoresTitle: $("scores-title"), scoresBody: $("scores-body"),
  resign: $("resign"), resignBox: $("resign-box"), resignConfirm: $("resign-confirm"),
  resignCancel: $("resign-cancel"), closedNote: $("closed-note"),
  cheat: $("cheat"), cheatToggle: $("cheat-toggle"), whyBox: $("why-box"),
  people: $("people"), reactions: $("reactions"), closeTable: $("close-table"), resignQuestion: $("resign-question"),
  watchingNote: $("watching-note"), leftNote: $("left-note"),
};

const SPEEDS = ["slow", "normal", "fast", "instant"];
const SORTS = ["rank", "suit", "combos"];
const S = {
  msg: null, obs: null, match: null, seats: null,
  order: [], selected: new Set(), focus: 0, mode: "rank", manual: null,
  pending: false, restartArmed: false, handKey: "", handContent: "", logKey: "", logCount: 0,
  closed: false, resigning: false,
  prev: null, trickKey: "", flyFrom: null, leftovers: null, cantBeat: false, autoSeq: -1, autoTimer: null,
  speed: "normal", autoPass: null, tracker: false, rendered: false,
};
const baseTitle = document.title;
let socket = null;
const replay = createReplay($("replay"), tableId);
const people = createPeople({
  root, panel: ui.people, reactions: ui.reactions, tableId,
  send: (msg) => send(msg),
  rerender: () => { if (S.obs) { S.trickKey = ""; S.logKey = ""; render(); } },  // names may have changed
  phase: () => (S.obs ? S.obs.phase : null),
});
let watching = false;

// A small surface for tests and debugging: the last state message, timings, send().
window.cardavia = { state: null, timings: { plays: [] }, tableId, hints: 0, lastHint: null };

function setState(name) {
  root.dataset.state = name;
}

function uiState(obs, match) {
  if (S.closed) return "closed";
  if (obs.phase === "tribute") return "tribute";
  if (obs.phase === "play") return "playing";
  if (obs.game === "guandan" && match && match.match_winner !== null && match.match_winner !== undefined) return "match-over";
  return "deal-over";
}

function selectedCards() {
  return [...S.selected].sort((a, b) => a - b).map((i) => S.order[i]).filter(Boolean);
}

function showError(text) {
  ui.error.textContent = text || "";
}

// ---------------------------------------------------------------------------- rendering

function render(msg = null) {
  const obs = S.obs;
  if (!obs) return;
  const prev = S.prev;
  const state = uiState(obs, S.match);
  setState(state);
  root.dataset.game = obs.game;
  root.dataset.turn = obs.phase === "play" && !S.closed ? (obs.turn === obs.seat ? "me" : "other") : "none";
  // A closed table is a still picture: nobody's turn any more.
  // … and so is a table waiting for its players
  const shown = S.closed || people.waitingText() ? { ...obs, turn: null } : obs;
  renderSeats(ui.seats, ui.mySeat, shown, S.seats, { leftovers: S.leftovers, cantBeat: S.cantBeat });
  decorateWhy(obs);
  if (S.cheat) renderCheatSheet(ui.cheat, obs.game, obs.level, () => setCheat(false));
  // the trick: only rebuilt when it changed (a flight in progress keeps its elements)
  const trickKey = JSON.stringify([obs.deal_index, obs.phase, obs.trick, S.closed ? null : obs.turn]);
  if (trickKey !== S.trickKey) {
    const oldPlays = [...ui.trick.querySelectorAll(".trick-play")];
    const ended = prev && prev.deal_index === obs.deal_index && (prev.trick || []).some((a) => !a.pass)
      && (obs.trick || []).length < (prev.trick || []).length;
    if (ended && prev.top_seat !== null && prev.top_seat !== undefined) sweep(oldPlays, seatRect(prev.top_seat));
    S.trickKey = trickKey;
    renderTrick(ui.trick, shown);
    animateEvent(msg, obs);
  }
  renderCenter(ui.center, shown, S.match);
  renderScoreboard(ui.scoreboard, obs, S.match);
  renderScores(ui.scoresTitle, ui.scoresBody, obs, S.match);
  renderTribute(obs);
  renderLog(obs);
  renderMyHand(obs);
  if (S.tracker) renderTracker(ui.tracker, obs);
  if (S.closed) showClosed();
  renderControls();
  const myTurn = !S.closed && obs.phase === "play" && obs.turn === obs.seat;
  ui.banner.textContent = bannerText(obs, state);
  ui.banner.classList.toggle("mine", myTurn || (!S.closed && (obs.return_options || []).length > 0));
  document.title = myTurn ? `● ${t("seat.yourTurn")} · ${baseTitle}` : baseTitle;
  const wasMyTurn = prev && prev.phase === "play" && prev.turn === prev.seat && prev.deal_index === obs.deal_index;
  if (myTurn && !wasMyTurn && S.rendered) { cue(ui.me); sound("turn"); }
  keepFocus();
  S.prev = obs;
  S.rendered = true;
  scheduleAutoPass();
}

/** The screen rectangle of a seat (your own plate for your seat). */
function seatRect(seat) {
  const el = document.querySelector(`[data-testid="seat-${seat}"]`);
  return el ? el.getBoundingClientRect() : null;
}

/** Motion and sound for the event of a state frame: cards fly in, bombs flourish. */
function animateEvent(msg, obs) {
  const ev = msg && msg.event;
  if (!ev) return;
  if (ev.event === "played") {
    const top = ui.trick.querySelector('.trick-play.top');
    const bomb = isBomb(ev.combo);
    sound(bomb ? "bomb" : "play");
    if (!top || !motionOn()) return;
    const els = [...top.querySelectorAll(".tcard")];
    let from = seatRect(ev.seat);
    if (ev.seat === obs.seat && S.flyFrom) {
      // your own cards fly from where they sat in your hand
      const pool = [...S.flyFrom];
      from = els.map((el) => {
        const i = pool.findIndex((p) => p.card === el.dataset.card);
        return i >= 0 ? pool.splice(i, 1)[0].rect : null;
      }).filter(Boolean);
      if (!from.length) from = seatRect(ev.seat);
    }
    S.flyFrom = null;
    flyIn(els, from);
    if (bomb) flourish(ui.flourish, top, comboName(ev.combo));
  } else if (ev.event === "passed") {
    sound("pass");
  }
}

/** Keyboard focus never falls to the page: after a pass, a play or on load it goes back to
 * the hand (unless you are busy elsewhere: the drawer, the settings, a dialog). */
function keepFocus() {
  const a = document.activeElement;
  const lost = !a || a === document.body || a === document.documentElement || a.disabled || !a.isConnected
    || (a.closest && a.closest("#actions") && a.hidden);
  if (!lost || !ui.chooser.hidden || !ui.resignBox.hidden) return;
  const b = ui.hand.querySelector('button.card[tabindex="0"]') || ui.hand.querySelector("button.card");
  if (b) b.focus({ preventScroll: true });
}

/** Auto-pass: when nothing in your hand beats the table, show "can't beat" for a moment,
 * then pass for you (on by default in Run Fast, where that pass is forced). */
function scheduleAutoPass() {
  const obs = S.obs;
  const seqNow = S.msg ? S.msg.seq : -1;
  const forced = !S.closed && obs.phase === "play" && obs.turn === obs.seat && !!obs.top
    && obs.can_pass && obs.has_reply === false;
  if (!forced || !S.autoPass || S.pending) {
    if (S.cantBeat && !forced) { S.cantBeat = false; }
    return;
  }
  if (S.autoSeq === seqNow) return;
  S.autoSeq = seqNow;
  S.cantBeat = true;
  renderSeats(ui.seats, ui.mySeat, obs, S.seats, { leftovers: S.leftovers, cantBeat: true });
  clearTimeout(S.autoTimer);
  const delay = S.speed === "instant" ? 250 : S.speed === "fast" ? 450 : 800;
  S.autoTimer = setTimeout(() => {
    S.cantBeat = false;
    if (S.msg && S.msg.seq === seqNow && S.autoPass && !ui.pass.disabled) {
      window.cardavia.autoPasses = (window.cardavia.autoPasses || 0) + 1;
      pass();
    }
  }, delay);
}

function bannerText(obs, state) {
  if (state === "closed") return t("table.closed");
  const waiting = people.waitingText();
  if (waiting) return waiting;
  if (state === "match-over") return t("summary.matchOver");
  if (state === "deal-over") return t("summary.title");
  if (state === "tribute") {
    return (obs.return_options || []).length ? t("tribute.chooseReturn", { seat: seatName(obs.game, returnTarget(obs)) }) : t("tribute.waiting");
  }
  if (obs.turn === obs.seat) return obs.top ? t("turn.yoursFollow") : t("turn.yoursLead");
  if (obs.turn !== null) return t("turn.other", { seat: seatName(obs.game, obs.turn) });
  return "";
}

function returnTarget(obs) {
  const mine = (obs.pending_returns || []).find((p) => p.from === obs.seat);
  return mine ? mine.to : 0;
}

function renderTribute(obs) {
  const bar = ui.tribute;
  const firstTrick = (obs.history || []).length === (obs.trick || []).length;
  const show = obs.game === "guandan" && (obs.phase === "tribute"
    || (((obs.tributes || []).length || obs.tribute_cancelled) && firstTrick && obs.phase === "play"));
  bar.hidden = !show;
  if (!show) return;
  const items = [];
  if (obs.tribute_cancelled) items.push(h("p", { text: t("log.antiTribute") }));
  for (const tr of obs.tributes || []) {
    items.push(h("p", { class: "tribute-item" }, t(tr.from === obs.seat ? "log.tributeYou" : "log.tribute", { from: seatName(obs.game, tr.from), to: seatName(obs.game, tr.to) }), " ", h("strong", { text: cardShort(card(tr.card)), "aria-label": cardName(card(tr.card)) })));
  }
  for (const r of obs.my_returns || []) {
    items.push(h("p", { class: "tribute-item" }, t(r.from === obs.seat ? "log.returnYou" : "log.return", { from: seatName(obs.game, r.from), to: seatName(obs.game, r.to) }), " ", h("strong", { text: cardShort(card(r.card)), "aria-label": cardName(card(r.card)) })));
  }
  if ((obs.return_options || []).length) {
    items.push(h("p", { class: "tribute-ask", text: t("tribute.chooseReturn", { seat: seatName(obs.game, returnTarget(obs)) }) }));
  } else if (obs.phase === "tribute") {
    for (const p of obs.pending_returns || []) {
      items.push(h("p", { text: t(p.from === obs.seat ? "tribute.pendingYou" : "tribute.pending", { from: seatName(obs.game, p.from), to: seatName(obs.game, p.to) }) }));
    }
  }
  bar.replaceChildren(...items);
}

function renderLog(obs) {
  const key = `${obs.deal_index}|${(obs.tributes || []).length}|${(obs.my_returns || []).length}|${obs.tribute_cancelled}`;
  const entries = logEntries(obs);
  if (key === S.logKey && entries.length >= S.logCount) {
    // append only what is new (the log of a deal only grows)
    for (const e of entries.slice(S.logCount)) ui.log.append(e);
  } else {
    ui.log.replaceChildren(...entries);
  }
  S.logKey = key;
  S.logCount = entries.length;
  ui.log.scrollTop = ui.log.scrollHeight;
}

function renderMyHand(obs) {
  const hand = cards(obs.hand);
  const eligible = obs.phase === "tribute" && (obs.return_options || []).length ? new Set(obs.return_options) : null;
  const received = receivedCards(obs);
  const content = `${obs.deal_index}|${obs.hand.join(",")}|${eligible ? "r" : ""}|${obs.level}|${received.join(",")}`;
  const key = `${content}|${S.mode}|${(S.manual || []).join(",")}`;
  if (key !== S.handKey) {
    // Same cards shown another way (arranged): keep the selection. New cards: start afresh.
    const keep = content === S.handContent ? selectedCards().map((c) => c.text) : [];
    S.handKey = key;
    S.handContent = content;
    S.order = renderHand(ui.hand, { hand, game: obs.game, level: obs.level, mode: S.mode, manual: S.manual, selected: new Set(), eligible, received, focusIndex: S.focus });
    const used = new Set();
    for (const text of keep) {
      const i = S.order.findIndex((c, j) => c.text === text && !used.has(j));
      if (i >= 0) used.add(i);
    }
    S.selected = used;
    updateSelection(ui.hand, S.selected);
  }
  ui.hand.setAttribute("aria-label", t("table.handLabel", { n: hand.length }));
}

/** The cards received in tribute (or as a return), highlighted until your first play. */
function receivedCards(obs) {
  if (obs.game !== "guandan" || (obs.history || []).some((a) => a.seat === obs.seat)) return [];
  return [
    ...(obs.tributes || []).filter((tr) => tr.to === obs.seat).map((tr) => tr.card),
    ...(obs.my_returns || []).filter((r) => r.to === obs.seat).map((r) => r.card),
  ];
}

/** The name of a selection before it is played: "pair (7)", "straight (to K), wild as J♠";
 * several readings are all named (the chooser will ask). */
function selectionName(sel, obs) {
  const readings = readingsOf(sel, obs);
  if (!readings.length) return t("table.selected", { n: sel.length });
  const names = readings.map((r) => {
    const stand = [];
    (r.cards || []).forEach((c, i) => {
      if (r.as && r.as[i] && r.as[i] !== c) stand.push(cardShort(card(r.as[i])));
    });
    return stand.length ? t("table.wildAs", { combo: comboName(r), cards: stand.join(" ") }) : comboName(r);
  });
  return names.length > 1 ? t("table.readings", { list: names.join(" / ") }) : names[0];
}

function renderControls() {
  const obs = S.obs;
  if (!obs) return;
  if (S.closed || S.left) {
    renderClosedControls();
    return;
  }
  const friends = people.active();
  ui.watchingNote.hidden = !people.spectator();
  ui.resignQuestion.textContent = t(friends ? "people.leaveQuestion" : "resign.question");
  ui.closeTable.hidden = !(friends && people.isCreator());
  ui.restart.hidden = friends && !people.isCreator();
  const myTurn = obs.phase === "play" && obs.turn === obs.seat;
  const sel = selectedCards();
  const check = checkSelection(sel, obs);
  ui.play.disabled = !check.ok || S.pending;
  ui.pass.disabled = !myTurn || !obs.can_pass || S.pending;
  const owesReturn = obs.phase === "tribute" && (obs.return_options || []).length > 0;
  ui.hint.disabled = !(myTurn || owesReturn) || S.pending;
  let why = "";
  if (myTurn && !check.ok && check.reason !== "why.selectCards") {
    why = t(check.reason, { card: check.vars?.card ? cardShort(card(check.vars.card)) : "", combo: check.vars?.combo ? comboName(check.vars.combo) : "" });
  } else if (myTurn && !sel.length) {
    if (!obs.top) why = obs.must_include ? t("why.mustInclude", { card: cardShort(card(obs.must_include)) }) : t("why.lead");
    else if (obs.has_reply === false) why = t("why.cantBeat");
    else if (!obs.can_pass) why = t("why.mustBeat");
  }
  if (S.hintText && myTurnOrReturn(obs)) why = S.hintText;
  ui.why.textContent = why;
  ui.play.title = why;
  ui.info.textContent = sel.length ? selectionName(sel, obs) : "";
  // tribute: return a card
  const returning = obs.phase === "tribute" && (obs.return_options || []).length > 0;
  ui.ret.hidden = !returning;
  if (returning) {
    const chosen = sel.length === 1 && obs.return_options.includes(sel[0].text) ? sel[0] : null;
    ui.ret.disabled = !chosen || S.pending;
    ui.ret.textContent = chosen
      ? t("tribute.confirm", { card: cardShort(chosen), seat: seatName(obs.game, returnTarget(obs)) })
      : t("tribute.pick");
  }
  const over = obs.phase === "over";
  ui.next.hidden = !over;
  ui.next.textContent = root.dataset.state === "match-over" ? t("action.newMatch") : t("action.nextDeal");
  for (const b of [ui.play, ui.pass]) b.hidden = over || returning;
  ui.hint.hidden = over;
  if (S.restartArmed || obs.game !== "guandan") ui.restart.textContent = S.restartArmed ? t("action.restartConfirm") : t("action.newSession");
  else if (ui.restart.dataset.label !== t("action.restart")) {
    // a phone shows the short label ("Restart"); the long one stays the button's name
    ui.restart.replaceChildren(h("span", { class: "name-long", text: t("action.restart") }),
      h("span", { class: "name-short", "aria-hidden": "true", text: t("action.restartShort") }));
  }
  ui.restart.dataset.label = S.restartArmed || obs.game !== "guandan" ? "" : t("action.restart");
  for (const b of document.querySelectorAll("[data-sort]")) b.setAttribute("aria-pressed", b.dataset.sort === S.mode ? "true" : "false");
  ui.resign.disabled = S.resigning;
  ui.resignConfirm.disabled = S.resigning;
}

function myTurnOrReturn(obs) {
  return (obs.phase === "play" && obs.turn === obs.seat) || (obs.return_options || []).length > 0;
}

/** The table takes no more actions: every game control is disabled and hidden. */
function renderClosedControls() {
  for (const b of [ui.play, ui.pass, ui.hint, ui.ret, ui.next, ui.restart, ui.resign, ui.resignConfirm]) {
    b.disabled = true;
    b.hidden = true;
  }
  if (!ui.resignBox.hidden) closeResign(false);
  ui.why.textContent = "";
  ui.play.title = "";
  ui.info.textContent = "";
}

/** The closed table's notice, with the way to a new game: a link to the lobby that takes
 * over the `new-game` hook of Restart (a closed table cannot restart). */
function showClosed() {
  if (!ui.closedNote.hidden) return;
  const link = h("a", { href: "/", id: "new-table", class: "button primary", "data-testid": "new-game", text: t("table.newGame") });
  if (people.active() && !people.isCreator()) ui.closedNote.querySelector("p:not(.closed-title)").textContent = t("people.closedByHost");
  ui.restart.remove();
  ui.closedNote.append(h("p", {}, link));
  ui.closedNote.hidden = false;
  // the controls in use are about to go: their focus moves to the way forward
  const active = document.activeElement;
  if (S.resigning || (active && active.closest && active.closest("#actions, #resign-box"))) link.focus();
  S.resigning = false;
  // the lobby no longer offers to resume this table (its token stays: a reload shows it closed)
  try {
    if (localStorage.getItem("cardavia.lastTable") === tableId) localStorage.removeItem("cardavia.lastTable");
  } catch { /* ignore */ }
}

// ---------------------------------------------------------------------------- actions

function send(msg) {
  if (!socket) return;
  socket.send(msg);
}

function toggle(index) {
  const obs = S.obs;
  if (!obs || S.closed) return;
  if (obs.phase === "tribute") {
    S.selected = S.selected.has(index) ? new Set() : new Set([index]);
  } else if (S.selected.has(index)) S.selected.delete(index);
  else S.selected.add(index);
  showError("");
  S.hintText = "";
  updateSelection(ui.hand, S.selected);
  renderControls();
}

function clearSelection() {
  S.selected = new Set();
  updateSelection(ui.hand, S.selected);
  renderControls();
}

function sendPlay(interpretation) {
  const sel = selectedCards();
  const msg = { type: "play", cards: sel.map((c) => c.text) };
  if (interpretation) msg.interpretation = interpretation;
  S.flyFrom = [...S.selected].map((i) => {
    const b = ui.hand.querySelector(`button.card[data-index="${i}"]`);
    return b ? { card: b.dataset.card, rect: b.getBoundingClientRect() } : null;
  }).filter(Boolean);
  S.pending = true;
  window.cardavia.timings.playSentAt = performance.now();
  renderControls();
  send(msg);
}

function play() {
  const obs = S.obs;
  if (!obs || ui.play.disabled) return;
  window.cardavia.timings.clickAt = performance.now();
  const check = checkSelection(selectedCards(), obs);
  if (!check.ok) return;
  if (check.legal.length > 1) {
    openChooser(check.legal);
    return;
  }
  sendPlay(null);
}

function openChooser(options) {
  const buttons = options.map((o) => {
    const b = h("button", { type: "button", class: "option", "data-testid": "interpretation-option", "data-type": o.type, "data-rank": o.rank ?? "" }, h("span", { text: comboName(o) }));
    if (o.as && o.cards && o.as.join() !== o.cards.join()) {
      const asText = sortHand(cards(o.as), S.obs.game, S.obs.level).map((c) => cardShort(c)).join(" ");
      b.append(h("span", { class: "option-as", text: t("chooser.as", { cards: asText }) }));
    }
    b.addEventListener("click", () => {
      closeChooser();
      sendPlay({ type: o.type, rank: o.rank ?? null });
    });
    return b;
  });
  ui.chooserOptions.replaceChildren(...buttons);
  ui.chooser.hidden = false;
  ui.chooser.dataset.open = "true";
  buttons[0]?.focus();
}

function closeChooser() {
  ui.chooser.hidden = true;
  delete ui.chooser.dataset.open;
  ui.play.focus();
}

function pass() {
  if (ui.pass.disabled) return;
  clearTimeout(S.autoTimer);
  S.pending = true;
  renderControls();
  send({ type: "pass" });
  keepFocus();
}

function hint() {
  if (ui.hint.disabled) return;
  send({ type: "hint" });
}

function confirmReturn() {
  const sel = selectedCards();
  if (ui.ret.disabled || sel.length !== 1) return;
  S.pending = true;
  renderControls();
  send({ type: "return", card: sel[0].text });
}

function restart() {
  const obs = S.obs;
  const needsConfirm = obs && obs.phase !== "over";
  if (needsConfirm && !S.restartArmed) {
    S.restartArmed = true;
    renderControls();
    setTimeout(() => { S.restartArmed = false; renderControls(); }, 4000);
    return;
  }
  S.restartArmed = false;
  send({ type: "restart" });
}

// Resign: an inline confirmation (no window.confirm) opened by the Resign button.
function openResign() {
  if (S.closed || ui.resign.disabled) return;
  ui.resignBox.hidden = false;
  ui.resign.setAttribute("aria-expanded", "true");
  ui.resignCancel.focus();
}

function closeResign(refocus = true) {
  const inside = ui.resignBox.contains(document.activeElement);
  ui.resignBox.hidden = true;
  ui.resign.setAttribute("aria-expanded", "false");
  if (refocus && inside && !ui.resign.hidden) ui.resign.focus();
}

function confirmResign() {
  if (S.closed || ui.resignConfirm.disabled) return;
  S.resigning = true;
  renderControls();
  send({ type: "resign" });
}

// ---------------------------------------------------------------------------- messages

function onMessage(msg) {
  if (msg.type === "state") {
    const t0 = performance.now();
    S.msg = msg;
    S.obs = msg.observation;
    perspective.me = S.obs.seat === null ? 0 : S.obs.seat;
    perspective.spectator = S.obs.seat === null;
    S.closed = msg.phase === "closed";
    S.match = msg.match || null;
    if (msg.seats) S.seats = msg.seats;
    S.pending = false;
    S.hintText = "";
    clearTimeout(S.autoTimer);
    if (S.cantBeat && S.prev && msg.seq !== S.autoSeq) S.cantBeat = false;
    if (S.obs.phase !== "over") S.leftovers = null;
    if (S.prev && S.prev.deal_index !== S.obs.deal_index) S.manual = S.mode === "manual" ? null : S.manual;
    if (S.mode === "manual" && !S.manual) S.mode = savedSort();
    window.cardavia.state = msg;
    noteWhy(msg);
    showError("");
    if (S.obs.phase !== "play" && ui.chooser.dataset.open) closeChooser();
    if (!S.autoPassLoaded) loadAutoPass(S.obs.game);
    setRulesLinks(S.obs.game);
    render(msg);
    announce(msg);
    const t1 = performance.now();
    const tm = window.cardavia.timings;
    tm.lastRenderMs = t1 - t0;
    if (tm.firstStateMs === undefined) tm.firstStateMs = t1; // ms since navigation start
    if (tm.clickAt !== undefined) {
      tm.plays.push(t1 - tm.clickAt);
      tm.clickAt = undefined;
    }
    // the finished deals of this match (a restart numbers from 0 again: the list follows);
    // players see the finished hands, spectators only where the creator shows them
    const mayRead = !watching || people.spectatorHands();
    if (mayRead) replay.load(S.obs.phase === "over" ? S.obs.deal_index + 1 : S.obs.deal_index);
    if (mayRead && S.obs.phase === "over" && !S.leftovers) showLeftovers();
    if (!watching && S.obs.phase === "over") addReviewLink(S.obs);
    root.dispatchEvent(new CustomEvent("cardavia:state", { detail: msg }));
  } else if (msg.type === "error") {
    S.pending = false;
    S.resigning = false;
    if (msg.code === "ambiguous" && Array.isArray(msg.options) && msg.options.length) {
      openChooser(msg.options);
    } else if (msg.code === "auth" || msg.code === "not_found") {
      refuse();
    } else {
      showError(errorText(msg));
    }
    renderControls();
  } else if (msg.type === "hint") {
    applyHint(msg);
  } else if (msg.type === "left") {
    // you left a table with friends: the AI has your seat now
    if (socket) socket.close();
    S.left = true;
    ui.leftNote.hidden = false;
    try { localStorage.removeItem(tokenKey(tableId)); } catch { /* ignore */ }
    if (S.obs) render();
  } else if (people.onMessage(msg) && S.obs) {
    renderControls();
  }
}

function errorText(msg) {
  const key = `error.${msg.code}`;
  const general = t(has(key) ? key : "error.generic");
  // The server's sentence is English; show it in English pages, keep it as a tooltip elsewhere.
  ui.error.title = msg.message || "";
  if (document.documentElement.lang === "en" && msg.message) return msg.message;
  return general;
}

/** The hint's explanation in the page's language (" — …"), from its language-neutral key
 * and arguments: combos named with comboName, cards with cardShort; nothing for an unknown key. */
function hintReason(msg) {
  const key = `reasons.${msg.reason_key || ""}`;
  if (!msg.reason_key || !has(key)) return "";
  const vars = {};
  for (const [name, value] of Object.entries(msg.reason_args || {})) {
    if (value && typeof value === "object") vars[name] = comboName(value);
    else if (name === "card") vars[name] = cardShort(card(String(value)));
    else vars[name] = String(value);
  }
  const obs = S.obs;
  if (msg.reason_key === "block_opponent" && obs) {
    // the count that matters is the opponent closest to going out, not the top player's
    const opp = [];
    for (let s = 0; s < obs.n_seats; s++) {
      const theirs = obs.game !== "guandan" || s % 2 !== obs.seat % 2;
      if (s !== obs.seat && theirs && obs.hand_sizes[s] > 0) opp.push(obs.hand_sizes[s]);
    }
    if (opp.length) vars.n = String(Math.min(...opp));
  }
  if (vars.alt && vars.combo && vars.alt === vars.combo) vars.alt = t("reasons.sameOther", { combo: vars.alt });
  for (const k of ["delta", "base"]) {
    // the search's figures are average results per deal; shown as signed numbers with one decimal
    if (vars[k] !== undefined && !Number.isNaN(Number(vars[k]))) vars[k] = (Number(vars[k]) >= 0 ? "+" : "") + Number(vars[k]).toFixed(1);
  }
  return ` — ${t(key, vars)}`;
}

function applyHint(msg) {
  window.cardavia.lastHint = msg;
  window.cardavia.hints = (window.cardavia.hints || 0) + 1;
  const because = hintReason(msg);
  if (msg.pass || !msg.cards) {
    // "Hint: pass. — why" reads badly: the sentence's own full stop goes when a reason follows
    S.hintText = (because ? t("hint.pass").replace(/[.。।]\s*$/u, "") : t("hint.pass")) + because;
    ui.why.textContent = S.hintText;
    ui.pass.focus();
    return;
  }
  const used = new Set();
  for (const text of msg.cards) {
    const i = S.order.findIndex((c, j) => c.text === text && !used.has(j));
    if (i >= 0) used.add(i);
  }
  S.selected = used;
  updateSelection(ui.hand, S.selected);
  S.hintText = msg.combo
    ? t("hint.play", { combo: comboName(msg.combo) }) + because
    : t("hint.return", { card: cardShort(card(msg.cards[0])) }) + because;
  renderControls();
}

let lastAnnounced = "";
function announce(msg) {
  const ev = msg.event;
  if (!ev || !S.obs) return;
  const game = S.obs.game;
  let text = "";
  if (ev.event === "played" && ev.seat !== S.obs.seat) text = t("log.play", { seat: seatName(game, ev.seat), combo: comboName(ev.combo) });
  else if (ev.event === "passed" && ev.seat !== S.obs.seat) text = t("log.pass", { seat: seatName(game, ev.seat) });
  if (text && text !== lastAnnounced) {
    lastAnnounced = text;
    ui.info.textContent = text;
  }
}

function refuse() {
  setState("error");
  ui.conn.textContent = t("table.refused");
  ui.banner.replaceChildren(h("a", { href: "/", text: t("table.backToLobby") }));
  if (socket) socket.close();
}

function onStatus(status) {
  ui.conn.textContent = status === "open" ? "" : t(`conn.${status}`);
  ui.conn.dataset.status = status;
  if (status === "open" && !watching) send({ type: "set_pace", speed: S.speed });
  if (status === "open" && S.resigning) {
    // a resign lost with the connection: the state frame on reconnect says whether it counted
    S.resigning = false;
    renderControls();
  }
  if (status === "refused") refuse();
}

// ---------------------------------------------------------------------------- wiring

wireHand(ui.hand, {
  onToggle: toggle,
  onFocus: (i) => { S.focus = i; },
  onPlay: play,
  onClear: clearSelection,
  onMove: moveCard,
});

/** Reorder the hand by hand: the card at display index `from` goes to `to`. */
function moveCard(from, to) {
  const texts = S.order.map((c) => c.text);
  const selectedTexts = new Map();
  for (const i of S.selected) selectedTexts.set(i, texts[i]);
  const [moved] = texts.splice(from, 1);
  texts.splice(to, 0, moved);
  // the selection follows its cards
  const old = [...S.selected];
  const indexes = S.order.map((_, i) => i);
  const [mi] = indexes.splice(from, 1);
  indexes.splice(to, 0, mi);
  S.selected = new Set(old.map((i) => indexes.indexOf(i)));
  S.manual = texts;
  S.mode = "manual";
  S.focus = to;
  const keep = S.selected;
  S.handKey = "";
  if (S.obs) {
    renderMyHand(S.obs);
    S.selected = keep;
    updateSelection(ui.hand, S.selected);
    moveFocus(ui.hand, to, ui.hand.contains(document.activeElement));
    renderControls();
  }
}

function savedSort() {
  try {
    const v = localStorage.getItem("cardavia.sort") || (localStorage.getItem("cardavia.grouped") === "1" ? "combos" : "rank");
    return SORTS.includes(v) ? v : "rank";
  } catch { return "rank"; }
}

for (const b of document.querySelectorAll("[data-sort]")) {
  b.addEventListener("click", () => {
    S.mode = b.dataset.sort;
    S.manual = null;
    try { localStorage.setItem("cardavia.sort", S.mode); } catch { /* ignore */ }
    S.handKey = "";
    if (S.obs) { renderMyHand(S.obs); renderControls(); }
  });
}

function openDrawer(open) {
  ui.drawer.hidden = !open;
  ui.drawerToggle.setAttribute("aria-expanded", open ? "true" : "false");
  if (open) ui.drawerClose.focus();
  else if (ui.drawer.contains(document.activeElement) || document.activeElement === document.body) ui.drawerToggle.focus();
}
ui.drawerToggle.addEventListener("click", () => openDrawer(ui.drawer.hidden));
ui.drawerClose.addEventListener("click", () => openDrawer(false));
ui.drawer.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { ev.preventDefault(); ev.stopPropagation(); openDrawer(false); }
});

ui.trackerToggle.addEventListener("click", () => {
  S.tracker = !S.tracker;
  ui.cheat.hidden = !S.cheat;
  ui.cheatToggle.setAttribute("aria-pressed", S.cheat ? "true" : "false");
  ui.tracker.hidden = !S.tracker;
  ui.trackerToggle.setAttribute("aria-pressed", S.tracker ? "true" : "false");
  try { localStorage.setItem("cardavia.tracker", S.tracker ? "1" : "0"); } catch { /* ignore */ }
  if (S.tracker && S.obs) renderTracker(ui.tracker, S.obs);
});

function setSpeed(speed, tell = true) {
  S.speed = SPEEDS.includes(speed) ? speed : "normal";
  ui.speed.value = S.speed;
  try { localStorage.setItem("cardavia.speed", S.speed); } catch { /* ignore */ }
  if (tell) send({ type: "set_pace", speed: S.speed });
}
ui.speed.addEventListener("change", () => setSpeed(ui.speed.value));

function autoPassKey(game) {
  return `cardavia.autoPass.${game}`;
}
/** Auto-pass is remembered per game: on by default in Run Fast, off in Guandan. */
function loadAutoPass(game) {
  if (!game) return;
  let v = null;
  try { v = localStorage.getItem(autoPassKey(game)); } catch { /* ignore */ }
  S.autoPass = v === null ? game === "runfast" : v === "1";
  S.autoPassLoaded = true;
  ui.autoPass.checked = S.autoPass;
}
ui.autoPass.addEventListener("change", () => {
  S.autoPass = ui.autoPass.checked;
  const game = S.obs?.game || root.dataset.game;
  try { localStorage.setItem(autoPassKey(game), S.autoPass ? "1" : "0"); } catch { /* ignore */ }
  if (S.obs) scheduleAutoPass();
});

function showSound() {
  ui.sound.checked = soundOn();
  ui.soundToggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
}
ui.sound.addEventListener("change", () => { setSound(ui.sound.checked); showSound(); });
ui.soundToggle.addEventListener("click", () => { setSound(!soundOn()); showSound(); });

function setRulesLinks(game) {
  for (const a of [document.getElementById("tab-rules"), document.getElementById("rules-link")]) {
    if (a && game) a.href = `/rules/${game}`;
  }
  for (const a of [document.getElementById("tab-learn"), document.getElementById("learn-link")]) {
    if (a && game) a.href = `/learn/${game}`;
  }
}

// ---------------------------------------------------------------------------- why did the AI do that?

/** The reason each AI seat gave for its latest play or pass (from the frames' events, and
 * on (re)connect from the state frame's `reasons`: public only, the server keeps no
 * combination the AI did not play). */
const whys = new Map();
function noteWhy(msg) {
  for (const r of msg.reasons || []) {
    if (r.seat !== S.obs.seat) whys.set(r.seat, { deal: S.obs.deal_index, pass: r.pass, combo: r.combo || null, reason: r.reason || null });
  }
  const ev = msg.event;
  if (!ev || !["played", "passed"].includes(ev.event) || ev.seat === S.obs.seat) return;
  whys.set(ev.seat, { deal: S.obs.deal_index, pass: ev.event === "passed", combo: ev.combo || null, reason: ev.reason || null });
}

/** A "why?" button on every AI seat whose latest action of this trick is known. */
function decorateWhy(obs) {
  const inTrick = new Set((obs.trick || []).map((a) => a.seat));
  for (const [seat, w] of whys) {
    if (w.deal !== obs.deal_index || !inTrick.has(seat)) continue;
    const box = ui.seats.querySelector(`[data-testid="seat-${seat}"] .seat-head`);
    if (!box) continue;
    const b = h("button", { type: "button", class: "chip why-btn", "data-testid": `why-${seat}`, "aria-controls": "why-box", text: t("why.button"), title: t("why.title", { seat: seatName(obs.game, seat) }) });
    b.addEventListener("click", () => showWhy(seat));
    box.append(b);
  }
}

function showWhy(seat) {
  const w = whys.get(seat);
  const obs = S.obs;
  if (!w || !obs) return;
  const what = w.pass ? t("log.pass", { seat: seatName(obs.game, seat) }) : t("log.play", { seat: seatName(obs.game, seat), combo: comboName(w.combo) });
  const because = w.reason ? reasonText(w.reason.key, w.reason.args) : "";
  const close = h("button", { type: "button", class: "chip", "data-testid": "why-close", text: t("action.close") });
  close.addEventListener("click", () => { ui.whyBox.hidden = true; });
  ui.whyBox.replaceChildren(h("p", { "data-testid": "why-text" }, h("strong", { text: what }), because ? ` — ${because}` : ` — ${t("why.unknown")}`), close);
  ui.whyBox.hidden = false;
}

// ---------------------------------------------------------------------------- cheat sheet & review link

function setCheat(on) {
  S.cheat = on;
  ui.cheat.hidden = !S.cheat;
  ui.cheatToggle.setAttribute("aria-pressed", S.cheat ? "true" : "false");
  try { localStorage.setItem("cardavia.cheat", S.cheat ? "1" : "0"); } catch { /* ignore */ }
  if (S.cheat && S.obs) renderCheatSheet(ui.cheat, S.obs.game, S.obs.level, () => setCheat(false));
  if (!S.cheat) ui.cheatToggle.focus();
}
ui.cheatToggle.addEventListener("click", () => setCheat(!S.cheat));

/** After a deal: a link to its replay with the expert's review (the replay page finds the
 * table's last finished deal: this one). */
function addReviewLink(obs) {
  const box = ui.center.querySelector('[data-testid="summary"]');
  if (!box || box.querySelector('[data-testid="review-link"]') || obs.phase !== "over") return;
  box.append(h("p", {}, h("a", { href: `/replay?table=${encodeURIComponent(tableId)}&deal=last`, "data-testid": "review-link", text: t("review.open") })));
}

/** End of the deal: every seat's leftover cards, from the finished deal's public record. */
async function showLeftovers() {
  const obs = S.obs;
  const hands = await replay.finalHands(obs.deal_index);
  if (!hands || S.obs !== obs) return;
  S.leftovers = hands;
  renderSeats(ui.seats, ui.mySeat, obs, S.seats, { leftovers: hands });
}

window.addEventListener("resize", () => layoutHand(ui.hand));
ui.play.addEventListener("click", play);
ui.pass.addEventListener("click", pass);
ui.hint.addEventListener("click", hint);
ui.ret.addEventListener("click", confirmReturn);
ui.next.addEventListener("click", () => send({ type: "next_deal" }));
ui.restart.addEventListener("click", restart);
ui.chooserCancel.addEventListener("click", closeChooser);
ui.resign.addEventListener("click", () => {
  if (ui.resignBox.hidden) openResign();
  else closeResign();
});
ui.resignCancel.addEventListener("click", () => closeResign());
ui.resignConfirm.addEventListener("click", confirmResign);
ui.closeTable.addEventListener("click", () => {
  if (S.closed) return;
  S.resigning = true;
  renderControls();
  send({ type: "close" });
});
ui.chooser.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { ev.preventDefault(); closeChooser(); return; }
  if (ev.key === "Tab") {
    // keep focus inside the dialog
    const items = [...ui.chooser.querySelectorAll("button")];
    const i = items.indexOf(document.activeElement);
    const next = ev.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
    ev.preventDefault();
    items[next].focus();
  }
});
document.addEventListener("keydown", (ev) => {
  const target = ev.target;
  // Escape cancels an open resign confirmation from anywhere but the chooser dialog.
  if (ev.key === "Escape" && !ui.resignBox.hidden && !(target.closest && target.closest(".dialog"))) {
    ev.preventDefault();
    closeResign();
    return;
  }
  if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (target.closest && target.closest("input, select, textarea, .dialog, .confirm, .settings")) return;
  const key = ev.key.toLowerCase();
  if (key === "p") { ev.preventDefault(); if (S.obs?.phase === "tribute") confirmReturn(); else play(); }
  else if (key === "x") { ev.preventDefault(); pass(); }
  else if (key === "h") { ev.preventDefault(); hint(); }
  else if (key === "n" && !ui.next.hidden) { ev.preventDefault(); ui.next.click(); }
  else if (key === "escape") clearSelection();
});

function start() {
  let token = null;
  try {
    token = localStorage.getItem(tokenKey(tableId));
    watching = localStorage.getItem(watchKey(tableId)) === "1";
    S.tracker = localStorage.getItem("cardavia.tracker") === "1";
    S.cheat = localStorage.getItem("cardavia.cheat") === "1";
    setSpeed(localStorage.getItem("cardavia.speed") || "normal", false);
  } catch { /* ignore */ }
  S.mode = savedSort();
  ui.cheat.hidden = !S.cheat;
  ui.cheatToggle.setAttribute("aria-pressed", S.cheat ? "true" : "false");
  ui.tracker.hidden = !S.tracker;
  ui.trackerToggle.setAttribute("aria-pressed", S.tracker ? "true" : "false");
  showSound();
  if (root.dataset.game) loadAutoPass(root.dataset.game);
  if (!token) {
    refuse();
    return;
  }
  try { localStorage.setItem("cardavia.lastTable", tableId); } catch { /* ignore */ }
  socket = connectTable(tableId, token, { onMessage, onStatus });
  window.cardavia.send = (msg) => send(msg);
}

start();
