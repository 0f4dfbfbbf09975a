// The lobby: start a table (POST /api/tables), keep its token, go to the Table view.
import { t } from "./i18n.js";
import { postJSON, tokenKey } from "./net.js";

const CHOICES = ["difficulty", "partner"];
const choiceKey = (game, name) => `cardavia.lobby.${game}.${name}`;

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
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const game = form.dataset.game;
    const button = form.querySelector("button[type=submit]");
    const error = form.querySelector(".form-error");
    const body = { game, difficulty: form.elements.difficulty.value };
    if (form.elements.partner) body.partner = form.elements.partner.value;
    button.disabled = true;
    error.hidden = true;
    try {
      const answer = await postJSON("/api/tables", body);
      localStorage.setItem(tokenKey(answer.table_id), answer.token);
      localStorage.setItem("cardavia.lastTable", answer.table_id);
      location.assign(`/table/${encodeURIComponent(answer.table_id)}`);
    } catch {
      error.textContent = t("error.create");
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
