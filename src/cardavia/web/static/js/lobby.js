// The lobby: start a table (POST /api/tables), keep its token, go to the Table view. With
// "Play with friends" open, every seat is a friend (an invite link) or an AI level.
import { t } from "./i18n.js";
import { invitesKey, postJSON, tokenKey } from "./net.js";

const CHOICES = ["difficulty", "partner", "seat1", "seat2", "seat3", "turn_timer", "spectators"];
const choiceKey = (game, name) => `cardavia.lobby.${game}.${name}`;
const NAME_KEY = "cardavia.name";

for (const form of document.querySelectorAll("form.preset")) {
  // the lobby remembers the levels last chosen for each game
  for (const name of CHOICES) {
    const select = form.elements[name];
    if (!select) continue;
    try {
      const saved = localStorage.getItem(choiceKey(form.dataset.game, name));
      if (saved && [...select.options].some((o) => o.value === saved)) select.value = saved;
    } catch { /* ignore */ }
    select.addEventListener("change", () => {
      try { localStorage.setItem(choiceKey(form.dataset.game, name), select.value); } catch { /* ignore */ }
    });
  }
  const friends = form.querySelector("details.friends");
  const partner = form.elements.partner ? form.elements.partner.closest("label") : null;
  try { form.elements.name.value = localStorage.getItem(NAME_KEY) || ""; } catch { /* ignore */ }
  const showPartner = () => { if (partner) partner.hidden = friends.open; };
  friends.addEventListener("toggle", showPartner);
  showPartner();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const game = form.dataset.game;
    const button = form.querySelector("button[type=submit]");
    const error = form.querySelector(".form-error");
    const body = { game, difficulty: form.elements.difficulty.value };
    if (friends.open) {
      const name = form.elements.name.value.trim();
      if (!name) {
        error.textContent = t("error.name");
        error.hidden = false;
        form.elements.name.focus();
        return;
      }
      body.name = name;
      body.seats = ["person"];
      for (let s = 1; form.elements[`seat${s}`]; s++) body.seats.push(form.elements[`seat${s}`].value);
      body.turn_timer = Number(form.elements.turn_timer.value);
      body.spectators = form.elements.spectators.value;
      try { localStorage.setItem(NAME_KEY, name); } catch { /* ignore */ }
    } else if (form.elements.partner) body.partner = form.elements.partner.value;
    button.disabled = true;
    error.hidden = true;
    try {
      const answer = await postJSON("/api/tables", body);
      localStorage.setItem(tokenKey(answer.table_id), answer.token);
      localStorage.setItem("cardavia.lastTable", answer.table_id);
      if (friends.open) {
        const links = {};
        for (const i of answer.invites || []) links[i.seat] = i.code;
        if (answer.watch) links.watch = answer.watch;
        localStorage.setItem(invitesKey(answer.table_id), JSON.stringify(links));
      }
      location.assign(`/table/${encodeURIComponent(answer.table_id)}`);
    } catch (err) {
      error.textContent = t(String(err.message) === "422" && friends.open ? "error.name" : "error.create");
      error.hidden = false;
      button.disabled = false;
    }
  });
}

try {
  const last = localStorage.getItem("cardavia.lastTable");
  if (last && localStorage.getItem(tokenKey(last))) {
    const link = document.getElementById("resume-link");
    link.href = `/table/${encodeURIComponent(last)}`;
    document.getElementById("resume").hidden = false;
  }
} catch { /* ignore */ }
