// Motion on the table, all with the Web Animations API on elements already in their final
// place (the table is updated first; motion never delays it): cards fly to the middle
// (≤ 300 ms), a won trick sweeps to its winner, bombs get a flourish. Nothing moves when
// the person prefers reduced motion.
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

export function motionOn() {
  return !reduced.matches;
}

let layer = null;
function fxLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "fx-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  return layer;
}

function center(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Each element of `targets` flies in from `from` (a DOMRect, or one rect per target). */
export function flyIn(targets, from, { duration = 260 } = {}) {
  if (!motionOn() || !from) return;
  targets.forEach((el, i) => {
    const start = Array.isArray(from) ? from[i] || from[from.length - 1] : from;
    if (!start) return;
    const end = el.getBoundingClientRect();
    const a = center(start), b = center(end);
    const scale = Array.isArray(from) ? Math.max(0.4, start.width / (end.width || 1)) : 0.45;
    el.animate([
      { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`, opacity: 0.6 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ], { duration, easing: "cubic-bezier(.2,.7,.3,1)", delay: Math.min(i * 18, 60) });
  });
}

/** The trick just won: copies of its cards glide to the winner's seat and fade. */
export function sweep(nodes, to) {
  if (!motionOn() || !to || !nodes.length) return;
  const host = fxLayer();
  const target = center(to);
  for (const node of nodes) {
    const rect = node.getBoundingClientRect();
    if (!rect.width) continue;
    const copy = node.cloneNode(true);
    copy.removeAttribute("data-testid");
    for (const el of copy.querySelectorAll("[data-testid],[data-card]")) { el.removeAttribute("data-testid"); el.removeAttribute("data-card"); }
    Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
    host.append(copy);
    const c = center(rect);
    const anim = copy.animate([
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: `translate(${target.x - c.x}px, ${target.y - c.y}px) scale(.3)`, opacity: 0 },
    ], { duration: 280, easing: "ease-in" });
    anim.onfinish = () => copy.remove();
    anim.oncancel = () => copy.remove();
  }
}

/** A short flourish for a bomb: the play pulses and a word bursts over the felt. */
export function flourish(host, playEl, word) {
  if (!motionOn()) return;
  if (playEl) {
    playEl.animate([
      { transform: "scale(1)", filter: "brightness(1)" },
      { transform: "scale(1.12) rotate(-1.5deg)", filter: "brightness(1.35)" },
      { transform: "scale(1)", filter: "brightness(1)" },
    ], { duration: 300, easing: "ease-out" });
  }
  const w = document.createElement("span");
  w.className = "flourish-word";
  w.textContent = word;
  host.replaceChildren(w);
  const anim = w.animate([
    { transform: "scale(.4)", opacity: 0 },
    { transform: "scale(1.15)", opacity: 1, offset: 0.35 },
    { transform: "scale(1)", opacity: 0 },
  ], { duration: 700, easing: "ease-out" });
  anim.onfinish = () => w.remove();
}

/** Your turn: a gentle pulse around your side of the table. */
export function cue(el) {
  if (!motionOn()) return;
  el.classList.remove("cue");
  void el.offsetWidth; // restart the animation
  el.classList.add("cue");
}
