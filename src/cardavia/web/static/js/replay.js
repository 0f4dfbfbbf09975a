// Replay of finished deals: GET /api/tables/{id}/record, then step through every action.
import { card, sortHand } from "./cards.js";
import { comboName, seatName, t } from "./i18n.js";
import { getJSON, tokenHeader } from "./net.js";
import { h, playCards } from "./view.js";

export function createReplay(root, tableId) {
  const st = { deals: [], index: -1, step: 0, requested: -1, loading: null };

  /** Fetch the record once per number of finished deals the table reports. */
  function load(expected) {
    if (expected === st.requested && st.loading) return st.loading;
    st.requested = expected;
    st.loading = (async () => {
      try {
        const data = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/record`, tokenHeader(tableId));
        st.deals = data.deals || [];
        if (st.index >= st.deals.length) st.index = -1;
        render();
      } catch {
        root.replaceChildren(h("p", { class: "muted", text: t("replay.unavailable") }));
      }
    })();
    return st.loading;
  }

  /** Every seat's cards at the end of finished deal `dealIndex` (null if not recorded). */
  async function finalHands(dealIndex) {
    await load(dealIndex + 1);
    const deal = st.deals.find((d) => d.deal === dealIndex) || st.deals[st.deals.length - 1];
    if (!deal) return null;
    return handsAt(deal, deal.actions.length);
  }

  function handsAt(deal, step) {
    const hands = deal.hands.map((hand) => [...hand]);
    const move = (from, to, c) => {
      const i = hands[from].indexOf(c);
      if (i >= 0) hands[from].splice(i, 1);
      hands[to].push(c);
    };
    const tribute = deal.tribute || {};
    for (const tr of tribute.tributes || []) move(tr.from, tr.to, tr.card);
    for (const r of tribute.returned || []) move(r.from, r.to, r.card);
    for (const a of deal.actions.slice(0, step)) {
      if (a.pass) continue;
      for (const c of a.cards) {
        const i = hands[a.seat].indexOf(c);
        if (i >= 0) hands[a.seat].splice(i, 1);
      }
    }
    return hands;
  }

  function render() {
    const parts = [];
    if (!st.deals.length) {
      root.replaceChildren(h("p", { class: "muted", text: t("replay.none") }));
      return;
    }
    const picker = h("div", { class: "replay-deals", role: "group", "aria-label": t("replay.deals") });
    st.deals.forEach((d, i) => {
      const b = h("button", { type: "button", "data-testid": "replay-deal", "aria-pressed": i === st.index ? "true" : "false", text: t("replay.deal", { n: (d.deal ?? i) + 1 }) });
      b.addEventListener("click", () => { st.index = i; st.step = 0; render(); });
      picker.append(b);
    });
    parts.push(picker);
    if (st.index >= 0) parts.push(renderDeal(st.deals[st.index]));
    root.replaceChildren(...parts);
  }

  function renderDeal(deal) {
    const game = deal.game;
    const level = deal.level || null;
    const total = deal.actions.length;
    const box = h("div", { class: "replay-view", "data-testid": "replay-view" });
    const go = (step) => {
      st.step = Math.max(0, Math.min(total, step));
      const focusId = document.activeElement?.dataset?.testid;
      render();
      if (focusId) root.querySelector(`[data-testid="${focusId}"]`)?.focus();
    };
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      button("replay-first", "⏮", t("replay.first"), () => go(0), st.step === 0),
      button("replay-prev", "◀", t("replay.prev"), () => go(st.step - 1), st.step === 0),
      h("span", { class: "replay-step", "aria-live": "polite", "data-testid": "replay-step", text: t("replay.step", { i: st.step, n: total }) }),
      button("replay-next", "▶", t("replay.next"), () => go(st.step + 1), st.step >= total),
      button("replay-last", "⏭", t("replay.last"), () => go(total), st.step >= total),
    );
    box.append(controls);
    const action = st.step > 0 ? deal.actions[st.step - 1] : null;
    let text = t("replay.start");
    if (action) {
      text = action.pass
        ? t("log.pass", { seat: seatName(game, action.seat) })
        : t("log.play", { seat: seatName(game, action.seat), combo: comboName(action.combo) });
    }
    box.append(h("p", { class: "replay-action" }, text, " ", action && !action.pass ? playCards(action.cards, game, level) : null));
    const hands = handsAt(deal, st.step);
    const list = h("div", { class: "replay-hands" });
    hands.forEach((hand, seat) => {
      const sorted = sortHand(hand.map(card), game, level).map((c) => c.text);
      list.append(h("div", { class: "replay-hand" }, h("span", { class: "replay-seat", text: `${seatName(game, seat)} (${hand.length})` }), playCards(sorted, game, level)));
    });
    box.append(list);
    return box;
  }

  function button(testid, symbol, label, onClick, disabled) {
    const b = h("button", { type: "button", class: "icon", "data-testid": testid, "aria-label": label, title: label, disabled, text: symbol });
    b.addEventListener("click", onClick);
    return b;
  }

  root.replaceChildren(h("p", { class: "muted", text: t("replay.none") }));
  return { load, render, finalHands };
}
