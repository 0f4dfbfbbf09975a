// Learn: the illustrated introduction (cards drawn with our SVG faces) and the guided
// first deal, played on the server's engine (POST /api/lessons/{game}).
import { cards } from "./cards.js";
import { singleOrder } from "./cheatsheet.js";
import { EXAMPLES, cardRow, exampleFigure } from "./examples.js";
import { layoutHand, renderHand, updateSelection, wireHand } from "./hand.js";
import { cardShort, comboName, seatName, t } from "./i18n.js";
import { postJSON } from "./net.js";
import { checkSelection } from "./rules.js";
import { h, renderCenter, renderSeats, renderTrick } from "./view.js";

const $ = (id) => document.getElementById(id);
const root = $("learn");
const game = root.dataset.game;
const LV = game === "guandan" ? "2" : null;

// ---------------------------------------------------------------------------- the introduction

const FIGURES = {
  teams: () => h("div", { class: "fig-levels" },
    cardRow("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", game, null, { label: t("learn.fig.levels") }),
    h("p", { class: "fig-caption", text: t("learn.fig.levels") })),
  types: () => h("div", { class: "fig-examples" }, EXAMPLES[game].types.map((e) => exampleFigure(e, game, null, true))),
  order: () => h("div", {}, cardRow(singleOrder(game, LV), game, null, { label: t("cheat.order") }),
    h("p", { class: "fig-caption", text: t("cheat.order") })),
  bombs: () => {
    const list = h("ol", { class: "fig-ladder" });
    for (const e of EXAMPLES[game].bombs) list.append(h("li", {}, exampleFigure(e, game, null)));
    if (game === "runfast") list.prepend(h("li", {}, exampleFigure(["heavenly_bomb", "3", EXAMPLES.runfast.heavenly], game, null)));
    return list;
  },
  wild: () => h("div", { class: "fig-equation" },
    cardRow(EXAMPLES.guandan.wild, game, "2", { big: true, label: t("learn.fig.wild") }),
    h("span", { class: "fig-op", text: "=" }),
    h("strong", { text: comboName({ type: "bomb", rank: "7", size: 4 }) })),
  tribute: () => h("div", { class: "fig-equation" },
    h("span", { text: t("learn.fig.tribute") }), cardRow("RJ", game, null, { big: true }),
    h("span", { class: "fig-op", text: "⇄" }),
    h("span", { text: t("learn.fig.return") }), cardRow("4s", game, null, { big: true })),
  opening: () => h("div", { class: "fig-equation" },
    cardRow("3h 4s 5c 6d 7s", game, null, { big: true, label: comboName({ type: "straight", rank: "7", size: 5 }) }),
    h("span", { text: t("learn.fig.opening") })),
  settle: () => h("div", { class: "fig-equation" },
    cardRow("Kd 9c 5h 2s", game, null, { big: true }),
    h("span", { class: "fig-op", text: "→" }), h("strong", { text: t("learn.fig.settle") })),
};

for (const el of document.querySelectorAll("[data-figure]")) {
  const make = FIGURES[el.dataset.figure];
  if (make) el.replaceChildren(make());
}

// ---------------------------------------------------------------------------- the guided deal

const ui = {
  lesson: $("lesson"), start: $("lesson-start"), step: $("lesson-step"), seats: $("lesson-seats"),
  mySeat: $("lesson-my-seat"), trick: $("lesson-trick"), center: $("lesson-center"), score: $("lesson-score"),
  hand: $("lesson-hand"), play: $("lesson-play"), pass: $("lesson-pass"), clear: $("lesson-clear"),
  restart: $("lesson-restart"), tip: $("coach-tip"), verdict: $("coach-verdict"), since: $("coach-since"),
  info: $("lesson-info"), error: $("lesson-error"),
};
const SEATS = Array.from({ length: game === "guandan" ? 4 : 3 }, (_, seat) => ({ seat, kind: seat === 0 ? "person" : "ai", difficulty: null, name: "" }));
const L = { moves: [], state: null, order: [], selected: new Set(), busy: false };
window.cardavia = { lesson: L };

function selected() {
  return [...L.selected].sort((a, b) => a - b).map((i) => L.order[i]).filter(Boolean);
}

function describe(a) {
  return a.pass ? t("log.pass", { seat: seatName(game, a.seat) }) : t("log.play", { seat: seatName(game, a.seat), combo: comboName(a.combo) });
}

function render() {
  const s = L.state;
  const obs = s.observation;
  ui.lesson.dataset.state = s.done ? "done" : "turn";
  ui.lesson.dataset.step = String(s.step);
  ui.step.textContent = s.done ? t("learn.finished") : t("learn.step", { i: s.step + 1, n: s.steps });
  renderSeats(ui.seats, ui.mySeat, obs, SEATS, { leftovers: s.hands });
  for (const k of ui.seats.querySelectorAll(".seat-kind")) k.remove(); // the AI seats play a script
  renderTrick(ui.trick, obs);
  renderCenter(ui.center, obs, null);
  if (game === "guandan") ui.score.replaceChildren(h("span", { class: "sb-item" }, `${t("table.dealLevel", { level: obs.level })} · ${t("table.wildNote", { card: cardShort(cards([`${obs.level}h`])[0]) })}`));
  L.order = renderHand(ui.hand, { hand: cards(obs.hand), game, level: obs.level, mode: "rank", manual: null, selected: new Set(), eligible: null, received: [], focusIndex: 0 });
  L.selected = new Set();
  layoutHand(ui.hand);
  ui.tip.textContent = s.done ? t(`learn.${game}.done`) : t(s.tip.key);
  ui.since.replaceChildren(...(s.since || []).map((a) => h("li", { text: describe(a) })));
  controls();
}

function controls() {
  const s = L.state;
  const myTurn = s && !s.done && s.observation.turn === 0;
  ui.play.disabled = !myTurn || !L.selected.size || L.busy;
  ui.pass.disabled = !myTurn || L.busy;
  ui.clear.disabled = !L.selected.size;
  const sel = selected();
  ui.info.textContent = sel.length ? sel.map(cardShort).join(" ") : "";
  updateSelection(ui.hand, L.selected);
}

function showVerdict(result, sel) {
  const v = ui.verdict;
  v.hidden = false;
  v.dataset.kind = result.kind;
  let text = t(result.explain);
  if (result.kind === "illegal" && sel) {
    const check = checkSelection(sel, L.state.observation);
    if (!check.ok && check.reason && check.reason !== "why.selectCards") {
      text += ` ${t(check.reason, { card: check.vars?.card ? cardShort(cards([check.vars.card])[0]) : "", combo: check.vars?.combo ? comboName(check.vars.combo) : "" })}`;
    }
  }
  if (result.kind !== "taken") text += ` ${t("learn.retry")}`;
  v.textContent = text;
}

async function send(attempt) {
  L.busy = true;
  controls();
  ui.error.textContent = "";
  const sel = attempt && attempt.cards ? selected() : null;
  try {
    const state = await postJSON(`/api/lessons/${game}`, { moves: L.moves, attempt });
    if (state.result && state.result.ok) L.moves.push(state.result.cards || []);
    if (!state.result || state.result.ok) {
      L.state = state;
      render();
    }
    if (state.result) showVerdict(state.result, sel);
    else ui.verdict.hidden = true;
  } catch {
    ui.error.textContent = t("learn.error");
  } finally {
    L.busy = false;
    controls();
  }
}

function begin() {
  L.moves = [];
  ui.lesson.hidden = false;
  ui.verdict.hidden = true;
  send(null).then(() => ui.lesson.scrollIntoView({ block: "start" }));
}

wireHand(ui.hand, {
  onToggle: (i) => { if (L.selected.has(i)) L.selected.delete(i); else L.selected.add(i); controls(); },
  onFocus: () => {},
  onPlay: () => ui.play.click(),
  onClear: () => { L.selected = new Set(); controls(); },
  onMove: () => {},
});
ui.start.addEventListener("click", begin);
ui.restart.addEventListener("click", begin);
ui.play.addEventListener("click", () => { if (!ui.play.disabled) send({ cards: selected().map((c) => c.text) }); });
ui.pass.addEventListener("click", () => { if (!ui.pass.disabled) send({ pass: true }); });
ui.clear.addEventListener("click", () => { L.selected = new Set(); controls(); });
window.addEventListener("resize", () => layoutHand(ui.hand));
