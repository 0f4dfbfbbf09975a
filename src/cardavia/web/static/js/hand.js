// Your hand: sorted or grouped card buttons, selection by click or keyboard (roving focus).
import { cardButton, groupHand, isWild, sortHand } from "./cards.js";
import { t } from "./i18n.js";

/**
 * Render the hand into `root`. `selected` is a Set of hand indexes (into `order`).
 * Returns the displayed order (card objects) so indexes stay meaningful.
 */
export function renderHand(root, { hand, game, level, grouped, selected, eligible, focusIndex }) {
  const order = [];
  const frag = document.createDocumentFragment();
  const groups = grouped ? groupHand(hand, game, level) : [{ kind: null, cards: sortHand(hand, game, level) }];
  for (const group of groups) {
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
      b.tabIndex = -1;
      container.appendChild(b);
    }
  }
  const hadFocus = root.contains(document.activeElement);
  root.replaceChildren(frag);
  const buttons = root.querySelectorAll("button.card");
  if (buttons.length) {
    const f = Math.max(0, Math.min(focusIndex ?? 0, buttons.length - 1));
    buttons[f].tabIndex = 0;
    if (hadFocus) buttons[f].focus();
  }
  return order;
}

/** Show a new selection without rebuilding the hand (keeps keyboard focus). */
export function updateSelection(root, selected) {
  for (const b of root.querySelectorAll("button.card")) {
    const on = selected.has(Number(b.dataset.index));
    b.classList.toggle("selected", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** Wire clicks and keys once; callbacks get hand indexes. */
export function wireHand(root, { onToggle, onFocus, onPlay, onClear }) {
  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.card");
    if (!b || !root.contains(b)) return;
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
}

function moveFocus(root, index, focus) {
  const buttons = root.querySelectorAll("button.card");
  buttons.forEach((b, i) => { b.tabIndex = i === index ? 0 : -1; });
  if (focus && buttons[index]) buttons[index].focus();
}
