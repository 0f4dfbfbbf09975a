// The replay view: a finished deal on the full-size table, step by step (or autoplay),
// with the expert's review beside it and the key moments on a timeline. The deal comes from
// a table (?table=…&deal=n, n = its position in the table's log) or from a record file.
import { cards, isWild, sortHand, tableCard } from "./cards.js";
import { reasonText, moveName } from "./explain.js";
import { comboName, seatName, t } from "./i18n.js";
import { getJSON, tokenKey } from "./net.js";
import { h, isBomb, renderTrick, seatPosition } from "./view.js";

const $ = (id) => document.getElementById(id);
const page = $("replay-page");
const ui = {
  what: $("replay-what"), file: $("replay-file"), error: $("replay-error"), empty: $("replay-empty"),
  deals: $("replay-deals"), layout: $("replay-layout"), seats: $("replay-seats"), trick: $("replay-trick"),
  score: $("replay-score"), step: $("rp-step"), action: $("rp-action"), timeline: $("timeline"),
  first: $("rp-first"), prev: $("rp-prev"), next: $("rp-next"), last: $("rp-last"), auto: $("rp-auto"),
  reviewStatus: $("review-status"), reviewList: $("review-list"),
};
const R = { tableId: null, deals: [], index: -1, step: 0, timer: null, review: null, reviews: new Map() };
window.cardavia = { replay: R };

/** The position after `step` actions: every hand, the current trick, who played last. */
function position(record, step) {
  const game = record.game;
  const hands = record.hands.map((x) => [...x]);
  const tr = record.tribute || {};
  const move = (from, to, c) => { const i = hands[from].indexOf(c); if (i >= 0) hands[from].splice(i, 1); hands[to].push(c); };
  for (const x of tr.tributes || []) move(x.from, x.to, x.card);
  for (const x of tr.returned || tr.returns || []) if (x && x.card) move(x.from, x.to, x.card);
  let trick = [];
  let passes = 0;
  let last = null;
  for (const a of record.actions.slice(0, step)) {
    if (a.pass) {
      trick.push(a);
      passes += 1;
      const active = hands.filter((x) => x.length).length;
      const need = last !== null && hands[last].length ? active - 1 : active;
      if (passes >= need) { trick = []; passes = 0; }
      continue;
    }
    for (const c of a.cards) { const i = hands[a.seat].indexOf(c); if (i >= 0) hands[a.seat].splice(i, 1); }
    trick.push(a);
    passes = 0;
    last = a.seat;
  }
  return { game, hands, trick, level: record.level || null };
}

/** The key moments of a deal: bombs, your leads (after winning a trick), the return card. */
function moments(record) {
  const out = [];
  const tr = record.tribute || {};
  if ((tr.returned || []).length) out.push({ step: 0, kind: "return" });
  let trickStart = true;
  const pos = { passes: 0 };
  record.actions.forEach((a, i) => {
    const before = position(record, i);
    trickStart = !before.trick.length;
    if (!a.pass && isBomb(a.combo)) out.push({ step: i, kind: "bomb", seat: a.seat });
    else if (!a.pass && trickStart && a.seat === 0 && i > 0) out.push({ step: i, kind: "lead", seat: 0 });
  });
  void pos;
  return out;
}

function renderBoard() {
  const record = R.deals[R.index].record;
  const game = record.game;
  const total = record.actions.length;
  const p = position(record, R.step);
  const seats = [];
  for (let seat = 0; seat < record.hands.length; seat++) {
    const hand = sortHand(cards(p.hands[seat]), game, p.level);
    const played = p.trick.filter((a) => a.seat === seat).slice(-1)[0];
    seats.push(h("section", { class: `seat pos-${seatPosition(game, seat)}`, "data-testid": `rp-seat-${seat}`, "aria-label": seatName(game, seat) },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name", text: seatName(game, seat) }),
        h("span", { class: "count", text: t("seat.cards", { n: hand.length }) }),
        played && played.pass ? h("span", { class: "pass-tag", text: t("review.pass") }) : null),
      h("div", { class: "rp-hand" }, hand.map((c) => tableCard(c, { wild: isWild(c, game, p.level) })))));
  }
  ui.seats.replaceChildren(...seats);
  renderTrick(ui.trick, { game, level: p.level, trick: p.trick, phase: "over", turn: null });
  ui.score.replaceChildren(h("span", { class: "sb-item", text: game === "guandan" ? t("table.dealLevel", { level: p.level }) : t("replay.deal", { n: (record.deal ?? 0) + 1 }) }));
  ui.step.textContent = t("replay.step", { i: R.step, n: total });
  const a = R.step > 0 ? record.actions[R.step - 1] : null;
  ui.action.textContent = a ? (a.pass ? t("log.pass", { seat: seatName(game, a.seat) }) : t("log.play", { seat: seatName(game, a.seat), combo: comboName(a.combo) })) : t("replay.start");
  ui.first.disabled = ui.prev.disabled = R.step === 0;
  ui.next.disabled = ui.last.disabled = R.step >= total;
  page.dataset.step = String(R.step);
  for (const b of ui.timeline.querySelectorAll("button")) b.setAttribute("aria-current", Number(b.dataset.step) === R.step ? "true" : "false");
  for (const li of ui.reviewList.querySelectorAll("li")) li.classList.toggle("current", Number(li.dataset.step) === R.step);
}

function renderTimeline() {
  const record = R.deals[R.index].record;
  const total = Math.max(1, record.actions.length);
  const decisions = (R.review && R.review.decisions) || [];
  const judged = decisions.find((d) => d.kind === "return");
  // the return card is a key moment; once reviewed it carries the expert's label
  const marks = moments(record).map((m) => (m.kind === "return" && judged ? { ...m, label: judged.label } : m));
  for (const d of decisions) {
    if (d.label !== "good" && d.kind !== "return") marks.push({ step: d.action, kind: d.label });
  }
  ui.timeline.replaceChildren(h("span", { class: "timeline-line" }), ...marks.map((m) => {
    const name = m.label ? `${t(`review.moment.${m.kind}`)} · ${t(`review.label.${m.label}`)}` : t(`review.moment.${m.kind}`);
    const b = h("button", { type: "button", class: `moment moment-${m.kind}${m.label ? ` moment-${m.label}` : ""}`, "data-testid": "moment", "data-kind": m.kind, "data-label": m.label, "data-step": m.step,
      title: name, "aria-label": `${name} · ${t("replay.step", { i: m.step, n: record.actions.length })}` });
    b.style.left = `${(100 * m.step) / total}%`;
    b.addEventListener("click", () => go(m.step));
    return b;
  }));
}

function go(step) {
  const total = R.deals[R.index].record.actions.length;
  R.step = Math.max(0, Math.min(total, step));
  renderBoard();
}

function autoplay(on) {
  clearInterval(R.timer);
  R.timer = null;
  ui.auto.setAttribute("aria-pressed", on ? "true" : "false");
  ui.auto.textContent = on ? t("replay.pause") : t("replay.autoplay");
  if (!on) return;
  R.timer = setInterval(() => {
    const total = R.deals[R.index].record.actions.length;
    if (R.step >= total) { autoplay(false); return; }
    go(R.step + 1);
  }, 700);
}

function renderReview() {
  const deal = R.deals[R.index];
  const review = R.review;
  ui.reviewList.replaceChildren();
  if (!review) return;
  const scale = review.game === "guandan" ? 1.0 : 15;
  ui.reviewStatus.textContent = t("review.summary", {
    n: review.decisions.length,
    mistakes: review.decisions.filter((d) => d.label === "mistake").length,
    inaccuracies: review.decisions.filter((d) => d.label === "inaccuracy").length,
  });
  for (const d of review.decisions) {
    const bar = h("span", { class: "loss-bar", role: "img", "aria-label": t("review.loss", { loss: d.loss.toFixed(2) }) }, h("span", { class: "loss-fill" }));
    bar.firstChild.style.width = `${Math.min(100, (100 * d.loss) / scale)}%`;
    const same = d.label === "good" && moveName(d.played) === moveName(d.best);
    const li = h("li", { class: `decision label-${d.label}`, "data-testid": "review-decision", "data-label": d.label, "data-step": d.action },
      h("button", { type: "button", class: "decision-go", "data-testid": "review-go" },
        h("span", { class: `label-chip chip-${d.label}`, text: t(`review.label.${d.label}`) }),
        h("span", { class: "decision-moves", text: same ? t("review.played", { move: moveName(d.played) }) : t("review.vs", { move: moveName(d.played), best: moveName(d.best) }) })),
      bar,
      h("p", { class: "decision-reason", text: reasonText(d.reason_key, d.reason_args) }));
    li.querySelector("button").addEventListener("click", () => go(d.action));
    ui.reviewList.append(li);
  }
  void deal;
  renderTimeline();
  renderBoard();
}

async function loadReview() {
  const deal = R.deals[R.index];
  R.review = null;
  ui.reviewList.replaceChildren();
  let token = null;
  try { token = R.tableId ? localStorage.getItem(tokenKey(R.tableId)) : null; } catch { /* ignore */ }
  if (!R.tableId || deal.n === undefined || !token) {
    ui.reviewStatus.textContent = t(R.tableId ? "review.noToken" : "review.needTable");
    return;
  }
  if (R.reviews.has(deal.n)) { R.review = R.reviews.get(deal.n); renderReview(); return; }
  ui.reviewStatus.textContent = t("review.loading");
  page.dataset.review = "loading";
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(R.tableId)}/deals/${deal.n}/review`, { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } });
    if (!res.ok) throw new Error(String(res.status));
    const review = await res.json();
    R.reviews.set(deal.n, review);
    if (R.deals[R.index] !== deal) return;
    R.review = review;
    page.dataset.review = "ready";
    renderReview();
  } catch {
    page.dataset.review = "failed";
    ui.reviewStatus.textContent = t("review.failed");
  }
}

function pick(index) {
  autoplay(false);
  R.index = index;
  R.step = 0;
  for (const [i, b] of [...ui.deals.children].entries()) b.setAttribute("aria-pressed", i === index ? "true" : "false");
  page.dataset.state = "deal";
  ui.layout.hidden = false;
  ui.empty.hidden = true;
  renderTimeline();
  renderBoard();
  loadReview();
}

function showDeals(deals, label) {
  R.deals = deals;
  ui.what.textContent = label;
  ui.error.textContent = "";
  ui.deals.replaceChildren(...deals.map((d, i) => {
    const b = h("button", { type: "button", "data-testid": "rp-deal", "aria-pressed": "false", text: t("replay.deal", { n: (d.record.deal ?? i) + 1 }) });
    b.addEventListener("click", () => pick(i));
    return b;
  }));
}

async function fromTable(tableId, n, match) {
  R.tableId = tableId;
  const data = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/history`);
  let deals = data.deals.filter((d) => d.finished);
  const wanted = n === "last" ? deals[deals.length - 1] : n !== null ? deals.find((d) => d.n === n) : null;
  const m = wanted ? wanted.match : match;
  if (m !== null) deals = deals.filter((d) => d.match === m);
  if (!deals.length) { ui.error.textContent = t("replay.none"); return; }
  showDeals(deals, `· ${t(`game.${data.game}`)}`);
  pick(wanted ? deals.indexOf(wanted) : 0);
}

async function fromFile(file) {
  R.tableId = null;
  const text = await file.text();
  let answer;
  try {
    const res = await fetch("/api/records/check", { method: "POST", headers: { "Content-Type": "text/plain", Accept: "application/json" }, body: text });
    answer = await res.json();
  } catch {
    answer = { ok: false, error: "" };
  }
  if (!answer.ok) {
    page.dataset.state = "refused";
    ui.layout.hidden = true;
    ui.deals.replaceChildren();
    ui.error.textContent = t("replay.invalid");
    ui.error.title = answer.error || "";
    if (document.documentElement.lang === "en" && answer.error) ui.error.textContent = `${t("replay.invalid")} ${answer.error}`;
    return;
  }
  showDeals(answer.deals.map((record) => ({ record })), `· ${file.name}`);
  pick(0);
}

ui.first.addEventListener("click", () => go(0));
ui.prev.addEventListener("click", () => go(R.step - 1));
ui.next.addEventListener("click", () => go(R.step + 1));
ui.last.addEventListener("click", () => go(1e9));
ui.auto.addEventListener("click", () => autoplay(!R.timer));
ui.file.addEventListener("change", () => { if (ui.file.files[0]) fromFile(ui.file.files[0]); });
document.addEventListener("keydown", (ev) => {
  if (R.index < 0 || ev.target.closest?.("input, select, textarea")) return;
  if (ev.key === "ArrowRight") go(R.step + 1);
  else if (ev.key === "ArrowLeft") go(R.step - 1);
});

const params = new URLSearchParams(location.search);
const tableId = params.get("table");
if (tableId) {
  const n = params.get("deal");
  const match = params.get("match");
  fromTable(tableId, n === null || n === "last" ? n : Number(n), match === null ? null : Number(match)).catch(() => { ui.error.textContent = t("replay.unavailable"); });
}
