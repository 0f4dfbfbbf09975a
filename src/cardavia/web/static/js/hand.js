// Your hand: a fan of card buttons along the bottom edge (overlapping, a selected card
// lifts), arranged by rank, by suit, by combinations or by hand (drag, or Shift+←/→);
// selection by click or keyboard (roving focus).
import { arrangeCombos, cardButton, isWild, sortBySuit, sortHand } from "./cards.js";
import { t } from "./i18n.js";

/** The groups of the hand in display order: [{kind|null, cards}]. */
function arrange(hand, { game, level, mode, manual }) {
  if (mode === "combos") return arrangeCombos(hand, game, level);
  if (mode === "suit") return [{ kind: null, cards: sortBySuit(hand, game, level) }];
  if (mode === "manual" && manual) {
    // the order the person made; cards not in it (new ones) go to the end in rank order
    const pool = [...hand];
    const out = [];
    for (const text of manual) {
      const i = pool.findIndex((c) => c.text === text);
      if (i >= 0) out.push(pool.splice(i, 1)[0]);
    }
    return [{ kind: null, cards: [...out, ...sortHand(pool, game, level)] }];
  }
  return [{ kind: null, cards: sortHand(hand, game, level) }];
}

/**
 * Render the hand into `root`. `selected` is a Set of hand indexes (into `order`).
 * `received` names cards to highlight (the tribute card received). Returns the displayed
 * order (card objects) so indexes stay meaningful.
 */
export function renderHand(root, { hand, game, level, mode, manual, selected, eligible, received, focusIndex }) {
  const order = [];
  const frag = document.createDocumentFragment();
  const recv = [...(received || [])];
  for (const group of arrange(hand, { game, level, mode, manual })) {
    let container = frag;
    if (group.kind) {
      const g = document.createElement("div");
      g.className = `hand-group group-${group.kind}`;
      g.setAttribute("role", "group");
      const label = t(`group.${group.kind}`);
      g.setAttribute("aria-label", label);
      const caption = document.createElement("span");
      caption.className = "group-label";
      caption.textContent = label;
      caption.setAttribute("aria-hidden", "true");
      g.appendChild(caption);
      frag.appendChild(g);
      container = g;
    }
    for (const c of group.cards) {
      const index = order.length;
      order.push(c);
      const b = cardButton(c, { wild: isWild(c, game, level), index });
      if (selected.has(index)) {
        b.classList.add("selected");
        b.setAttribute("aria-pressed", "true");
      }
      if (eligible && !eligible.has(c.text)) {
        b.setAttribute("aria-disabled", "true");
        b.classList.add("ineligible");
      }
      const r = recv.indexOf(c.text);
      if (r >= 0) {
        recv.splice(r, 1);
        b.classList.add("received");
        b.dataset.received = "true";
        b.setAttribute("aria-label", t("card.received", { card: b.getAttribute("aria-label") }));
      }
      b.tabIndex = -1;
      container.appendChild(b);
    }
  }
  const hadFocus = root.contains(document.activeElement);
  root.replaceChildren(frag);
  layoutHand(root);
  const buttons = root.querySelectorAll("button.card");
  if (buttons.length) {
    const f = Math.max(0, Math.min(focusIndex ?? 0, buttons.length - 1));
    buttons[f].tabIndex = 0;
    if (hadFocus) buttons[f].focus({ preventScroll: true });
  }
  return order;
}

/**
 * Place the cards of the fan: one row when every card keeps a visible strip wide enough
 * to read its corner (and the wild badge), else two rows. Groups get a small gap.
 */
export function layoutHand(root) {
  const buttons = [...root.querySelectorAll("button.card")];
  const n = buttons.length;
  if (!n) {
    root.style.setProperty("--hand-rows", "1");
    return;
  }
  const width = root.clientWidth;
  const cardW = buttons[0].offsetWidth || 56;
  const cardH = buttons[0].offsetHeight || 78;
  const groupGap = Math.round(cardW * 0.18);
  const groupStarts = new Set();
  let prevGroup = null;
  buttons.forEach((b, i) => {
    const g = b.parentElement.classList.contains("hand-group") ? b.parentElement : null;
    if (g !== prevGroup && i > 0) groupStarts.add(i);
    prevGroup = g;
  });
  const minStep = Math.max(19, cardW * 0.36);
  const maxStep = cardW * 0.62;
  const fit = (count, gaps) => (count > 1 ? (width - cardW - gaps * groupGap) / (count - 1) : maxStep);
  let rows = 1;
  if (fit(n, groupStarts.size) < minStep) rows = 2;
  const perRow = Math.ceil(n / rows);
  const rowOf = (i) => Math.floor(i / perRow);
  const rowGaps = (row) => [...groupStarts].filter((i) => rowOf(i) === row && i % perRow !== 0).length;
  root.style.setProperty("--hand-rows", String(rows));
  for (let row = 0; row < rows; row++) {
    const first = row * perRow;
    const last = Math.min(n, first + perRow) - 1;
    const count = last - first + 1;
    const step = Math.min(maxStep, fit(count, rowGaps(row)));
    const used = cardW + step * (count - 1) + rowGaps(row) * groupGap;
    let x = Math.max(0, (width - used) / 2);
    for (let i = first; i <= last; i++) {
      if (i > first) x += step + (groupStarts.has(i) ? groupGap : 0);
      const b = buttons[i];
      b.style.left = `${Math.round(x)}px`;
      b.style.top = `calc(1.1rem + ${Math.round(row * cardH * 0.55)}px)`;
      b.style.zIndex = String(i + 1);
      if (groupStarts.has(i) || (i === 0 && b.parentElement.classList.contains("hand-group"))) {
        const label = b.parentElement.querySelector(".group-label");
        if (label) {
          label.style.left = `${Math.round(x)}px`;
          label.style.top = `${Math.round(row * cardH * 0.55)}px`;
        }
      }
    }
  }
}

/** Show a new selection without rebuilding the hand (keeps keyboard focus). */
export function updateSelection(root, selected) {
  for (const b of root.querySelectorAll("button.card")) {
    const on = selected.has(Number(b.dataset.index));
    b.classList.toggle("selected", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** Wire clicks, drags and keys once; callbacks get hand indexes. `onMove(from, to)`
 * reorders the hand by hand (a drag, or Shift+arrow). */
export function wireHand(root, { onToggle, onFocus, onPlay, onClear, onMove }) {
  let drag = null;
  let suppressClick = false;
  root.addEventListener("pointerdown", (ev) => {
    const b = ev.target.closest("button.card");
    if (!b || ev.button !== 0) return;
    drag = { b, x0: ev.clientX, y0: ev.clientY, moved: false, id: ev.pointerId };
  });
  root.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x0;
    if (!drag.moved && Math.abs(dx) < 10) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.b.classList.add("dragging");
      try { drag.b.setPointerCapture(ev.pointerId); } catch { /* ignore */ }
    }
    drag.b.style.transform = `translate(${dx}px, -0.5rem)`;
  });
  const endDrag = (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    suppressClick = true;
    d.b.classList.remove("dragging");
    d.b.style.transform = "";
    const buttons = [...root.querySelectorAll("button.card")];
    const from = buttons.indexOf(d.b);
    const x = ev.clientX;
    let to = buttons.length - 1;
    for (let i = 0; i < buttons.length; i++) {
      const r = buttons[i].getBoundingClientRect();
      if (buttons[i] !== d.b && x < r.left + Math.min(r.width, 24)) { to = i > from ? i - 1 : i; break; }
    }
    if (to !== from) onMove(from, to);
  };
  root.addEventListener("pointerup", endDrag);
  root.addEventListener("pointercancel", () => {
    if (drag) { drag.b.classList.remove("dragging"); drag.b.style.transform = ""; }
    drag = null;
  });
  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.card");
    if (!b || !root.contains(b)) return;
    if (suppressClick) { suppressClick = false; return; }
    const index = Number(b.dataset.index);
    moveFocus(root, index, false);
    onFocus(index);
    if (b.getAttribute("aria-disabled") === "true") return;
    onToggle(index);
  });
  root.addEventListener("keydown", (ev) => {
    const b = ev.target.closest("button.card");
    if (!b) return;
    const buttons = [...root.querySelectorAll("button.card")];
    const i = buttons.indexOf(b);
    if (ev.shiftKey && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
      ev.preventDefault();
      const to = ev.key === "ArrowLeft" ? Math.max(0, i - 1) : Math.min(buttons.length - 1, i + 1);
      if (to !== i) onMove(i, to);
      return;
    }
    let next = null;
    switch (ev.key) {
      case "ArrowRight": case "ArrowDown": next = Math.min(buttons.length - 1, i + 1); break;
      case "ArrowLeft": case "ArrowUp": next = Math.max(0, i - 1); break;
      case "Home": next = 0; break;
      case "End": next = buttons.length - 1; break;
      case "Enter":
        if (ev.ctrlKey || ev.metaKey) { ev.preventDefault(); onPlay(); }
        return;
      case "Escape": ev.preventDefault(); onClear(); return;
      default: return;
    }
    ev.preventDefault();
    moveFocus(root, next, true);
    onFocus(next);
  });
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => layoutHand(root)).observe(root);
}

export function moveFocus(root, index, focus) {
  const buttons = root.querySelectorAll("button.card");
  buttons.forEach((b, i) => { b.tabIndex = i === index ? 0 : -1; });
  if (focus && buttons[index]) buttons[index].focus({ preventScroll: true });
}
