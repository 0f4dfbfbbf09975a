// An invite link (/join/{code}): show the table, ask for a name, take the seat. A spectator
// link (/watch/{code}): open the table to watch. Names are shown with textContent only.
import { t } from "./i18n.js";
import { getJSON, postJSON, tokenKey, watchKey } from "./net.js";

const root = document.getElementById("join");
const code = root.dataset.code;
const error = document.getElementById("join-error");
const NAME_KEY = "cardavia.name";

function fail(status) {
  root.dataset.state = "refused";
  error.textContent = t(status === "429" ? "join.tooMany" : status === "422" ? "error.name" : root.dataset.kind === "join" ? "join.invalid" : "watch.invalid");
  error.hidden = false;
}

async function watch() {
  try {
    const answer = await postJSON(`/api/watch/${encodeURIComponent(code)}`, {});
    localStorage.setItem(tokenKey(answer.table_id), answer.token);
    localStorage.setItem(watchKey(answer.table_id), "1");
    location.replace(`/table/${encodeURIComponent(answer.table_id)}`);
  } catch (err) {
    fail(String(err.message));
  }
}

async function join() {
  let info;
  try {
    info = await getJSON(`/api/join/${encodeURIComponent(code)}`);
  } catch (err) {
    fail(String(err.message));
    return;
  }
  document.getElementById("join-invite").textContent = t("join.invited", { name: info.creator, game: t(`game.${info.game}`) });
  const list = document.getElementById("join-seats");
  for (const s of info.seats) {
    const li = document.createElement("li");
    const who = s.seat === info.seat ? t("join.yourSeat") : s.kind === "ai" ? t("people.ai") : s.name || t("people.open");
    const label = document.createElement("bdi");
    label.textContent = who;
    li.append(`${t("people.seatN", { n: s.seat + 1 })}: `, label);
    if (s.seat === info.seat) li.className = "mine";
    list.append(li);
  }
  const form = document.getElementById("join-form");
  const input = document.getElementById("join-name");
  try { input.value = localStorage.getItem(NAME_KEY) || ""; } catch { /* ignore */ }
  form.hidden = false;
  root.dataset.state = "ready";
  input.focus();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    error.hidden = true;
    try {
      const answer = await postJSON(`/api/join/${encodeURIComponent(code)}`, { name: input.value });
      localStorage.setItem(tokenKey(answer.table_id), answer.token);
      localStorage.setItem("cardavia.lastTable", answer.table_id);
      try { localStorage.setItem(NAME_KEY, input.value.trim()); } catch { /* ignore */ }
      location.assign(`/table/${encodeURIComponent(answer.table_id)}`);
    } catch (err) {
      const status = String(err.message);
      button.disabled = false;
      if (status === "422") {
        error.textContent = t("error.name");
        error.hidden = false;
      } else fail(status);
    }
  });
}

if (root.dataset.kind === "watch") watch();
else join();
