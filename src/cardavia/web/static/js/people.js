// Tables with friends (docs/protocol.md): the `room` frame — who sits where, who is here,
// which seats the stand-in AI holds, the turn timers — the waiting room with the creator's
// invite links, the quick reactions, spectators. Every name is shown with textContent.
import { perspective, seatName, t } from "./i18n.js";
import { invitesKey } from "./net.js";
import { h } from "./view.js";

const REACTIONS = ["nice", "sorry", "thanks", "hurry"];
const BUBBLE_MS = 3500;

export function createPeople({ root, panel, reactions, send, rerender, tableId, phase }) {
  const st = { room: null, at: 0, bubbles: new Map(), tick: null };

  function links() {
    try { return JSON.parse(localStorage.getItem(invitesKey(tableId)) || "{}") || {}; } catch { return {}; }
  }
  function setLink(target, code) {
    const all = links();
    if (code) all[target] = code; else delete all[target];
    try { localStorage.setItem(invitesKey(tableId), JSON.stringify(all)); } catch { /* ignore */ }
  }

  const isCreator = () => !!st.room && st.room.you !== null && st.room.you === st.room.creator;
  const game = () => root.dataset.game || "guandan";

  function stateText(seat) {
    const s = st.room.seats[seat];
    if (s.state === "ai") return t("people.ai");
    if (s.state === "open") return t("people.notJoined");
    if (s.state === "away") return t("people.away");
    if (s.state === "stand_in") return t("people.standIn");
    return t("people.joined");
  }

  function timeLeft(seat) {
    const timer = st.room && st.room.timer;
    if (!timer) return null;
    const turn = (timer.turns || []).find((x) => x.seat === seat);
    if (!turn) return null;
    return Math.max(0, Math.ceil(turn.left - (performance.now() - st.at) / 1000));
  }

  /** Presence, countdown and reaction badges on a seat (called by renderSeats). */
  function decorate(box, seat) {
    if (!st.room) return;
    const status = box.querySelector(".seat-status");
    const info = st.room.seats[seat];
    if (seat === st.room.creator && info && info.kind === "person") {
      // who may start, invite, restart and close (it passes on when the creator leaves)
      box.querySelector(".seat-head").append(h("span", { class: "badge host", "data-testid": `host-${seat}`, text: t("people.host") }));
    }
    if (info && ["away", "stand_in", "open"].includes(info.state)) {
      status.append(h("span", { class: `badge presence presence-${info.state}`, "data-testid": `presence-${seat}`, text: stateText(seat) }));
    }
    const left = timeLeft(seat);
    if (left !== null) {
      status.append(h("span", { class: "badge countdown", "data-testid": `countdown-${seat}`, "data-seat": seat, role: "timer", text: t("people.secondsLeft", { n: left }) }));
    }
    const bubble = st.bubbles.get(seat);
    if (bubble && bubble.until > performance.now()) {
      box.append(h("span", { class: "bubble", "data-testid": `reaction-${seat}`, role: "status", text: t(`react.${bubble.reaction}`) }));
    }
  }

  /** Another person's turn: "Waiting for Bea…", or "The bot plays for Bea…" while the
   * stand-in holds the seat; null for an AI seat (it thinks, as at a solo table). */
  function turnLabel(seat) {
    const info = st.room && st.room.seats[seat];
    if (!info || info.kind !== "person" || info.state === "open") return null;
    const name = seatName(game(), seat);
    return t(info.state === "stand_in" ? "seat.botPlays" : "seat.waitingFor", { name });
  }

  function tick() {
    for (const el of document.querySelectorAll(".countdown[data-seat]")) {
      const left = timeLeft(Number(el.dataset.seat));
      if (left !== null) {
        el.textContent = t("people.secondsLeft", { n: left });
        el.classList.toggle("low", left <= 5);
      }
    }
  }

  function linkRow(target, label) {
    const code = links()[target];
    const row = h("div", { class: "link-row" });
    if (code) {
      const url = `${location.origin}/${target === "watch" ? "watch" : "join"}/${code}`;
      const input = h("input", { class: "link", readOnly: true, value: url, "aria-label": label, "data-testid": `link-${target}` });
      const copy = h("button", { type: "button", class: "chip", "data-testid": `copy-${target}`, text: t("people.copy") });
      copy.addEventListener("click", async () => {
        input.select();
        try { await navigator.clipboard.writeText(url); } catch { document.execCommand?.("copy"); }
        copy.textContent = t("people.copied");
      });
      const revoke = h("button", { type: "button", class: "chip quiet", "data-testid": `revoke-${target}`, text: t("people.revoke") });
      revoke.addEventListener("click", () => send({ type: "revoke", target }));
      row.append(input, copy, revoke);
    } else {
      const fresh = h("button", { type: "button", class: "chip", "data-testid": `new-link-${target}`, text: t("people.newLink") });
      fresh.addEventListener("click", () => send({ type: "invite", target }));
      row.append(fresh);
    }
    return row;
  }

  function renderPanel() {
    const room = st.room;
    const over = phase() === "over";
    const creator = isCreator();
    const canOffer = creator && over && room.seats.some((s) => s.kind === "ai");
    const show = room.waiting || canOffer || (creator && room.watch_open && over);
    panel.hidden = !show;
    if (!show) { panel.replaceChildren(); return; }
    const items = room.seats.map((s) => {
      const li = h("li", { class: `people-seat state-${s.state}`, "data-testid": `people-seat-${s.seat}` },
        h("bdi", { class: "people-name", text: seatName(game(), s.seat) }), " ",
        h("span", { class: "people-state", text: stateText(s.seat) }),
        s.seat === room.creator ? h("span", { class: "badge host", text: t("people.host") }) : null);
      if (creator && s.state === "open") li.append(linkRow(s.seat, seatName(game(), s.seat)));
      if (creator && s.kind === "ai" && over) {
        const offer = h("button", { type: "button", class: "chip", "data-testid": `offer-${s.seat}`, text: t("people.offer") });
        offer.addEventListener("click", () => send({ type: "invite", target: s.seat }));
        li.append(" ", offer);
      }
      return li;
    });
    const parts = [h("h2", { text: t(room.waiting ? "people.waitingTitle" : "people.players") }), h("ul", { class: "people-list" }, items)];
    if (room.waiting) {
      if (creator) {
        const start = h("button", { type: "button", class: "primary", "data-testid": "start-now", text: t("people.startNow") });
        start.addEventListener("click", () => send({ type: "start" }));
        parts.push(h("p", { class: "people-note", text: t("people.shareNote") }), start);
      } else parts.push(h("p", { class: "people-note", text: t("people.hostWillStart") }));
    }
    if (creator && room.spectators !== "off") {
      const box = h("div", { class: "watch-link" }, h("p", { text: t("people.watchLink") }), linkRow("watch", t("people.watchLink")));
      if (room.watching > 0) {
        // each spectator has a token of their own: revoking the link lets them watch on
        const end = h("button", { type: "button", class: "chip quiet", "data-testid": "end-watching", text: t("people.endWatching") });
        end.addEventListener("click", () => send({ type: "revoke", target: "spectators" }));
        box.append(h("p", { class: "watching-count" }, h("span", { "data-testid": "watching-count", text: t("people.watchingCount", { n: room.watching }) }), " ", end));
      }
      parts.push(box);
    }
    panel.replaceChildren(...parts);
  }

  function renderReactions() {
    const person = st.room && st.room.you !== null;
    reactions.hidden = !person;
    if (!person || reactions.childElementCount) return;
    for (const r of REACTIONS) {
      const b = h("button", { type: "button", class: "chip reaction", "data-reaction": r, "data-testid": `react-${r}`, text: t(`react.${r}`) });
      b.addEventListener("click", () => send({ type: "react", reaction: r }));
      reactions.append(b);
    }
  }

  function onRoom(msg) {
    st.room = msg;
    st.at = performance.now();
    perspective.me = msg.you === null ? 0 : msg.you;
    perspective.spectator = msg.you === null;
    perspective.seats = msg.seats;
    perspective.decorate = decorate;
    perspective.turnLabel = turnLabel;
    root.dataset.friends = "true";
    root.dataset.viewer = msg.you === null ? "spectator" : "person";
    root.dataset.waiting = msg.waiting ? "true" : "false";
    root.dataset.creator = isCreator() ? "true" : "false";
    window.cardavia.room = msg;
    renderPanel();
    renderReactions();
    if (!st.tick) st.tick = setInterval(tick, 250);
    rerender();
  }

  function onMessage(msg) {
    if (msg.type === "room") onRoom(msg);
    else if (msg.type === "reaction") {
      st.bubbles.set(msg.seat, { reaction: msg.reaction, until: performance.now() + BUBBLE_MS });
      window.cardavia.reactions = [...(window.cardavia.reactions || []), msg];
      rerender();
      setTimeout(rerender, BUBBLE_MS + 50);
    } else if (msg.type === "invite") {
      setLink(msg.target, msg.code);
      if (st.room) renderPanel();
    } else if (msg.type === "revoked") {
      setLink(msg.target, null);
      if (st.room) renderPanel();
    } else return false;
    return true;
  }

  /** "Waiting for …" while seats are open, else null. */
  function waitingText() {
    const room = st.room;
    if (!room || !room.waiting) return null;
    const names = room.awaiting.map((s) => seatName(game(), s)).join(", ");
    return t("people.waitingFor", { names });
  }

  return {
    onMessage,
    waitingText,
    isCreator,
    active: () => !!st.room,
    spectator: () => !!st.room && st.room.you === null,
    spectatorHands: () => !!st.room && st.room.spectators === "hands",
    refresh: () => { if (st.room) renderPanel(); },
  };
}
