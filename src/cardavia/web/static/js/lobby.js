// The lobby: start a table (POST /api/tables), keep its token, go to the Table view.
import { t } from "./i18n.js";
import { postJSON, tokenKey } from "./net.js";

for (const form of document.querySelectorAll("form.preset")) {
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
