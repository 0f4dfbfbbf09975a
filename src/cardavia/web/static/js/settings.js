// The settings (S-2) behind the gear: Language, Contrast, Grain, Color temperature, four-colour deck.
// Values persist per browser in localStorage; boot.js applies them before first paint.
import { t } from "./i18n.js";

const api = window.cardaviaSettings;
const SLIDERS = ["contrast", "grain", "temperature"];

function percent(v) {
  return t("settings.percent", { n: v });
}

export function initSettings() {
  const state = api.load();
  for (const key of SLIDERS) {
    const input = document.getElementById(key);
    const out = document.getElementById(`${key}-value`);
    if (!input) continue;
    input.value = String(state[key]);
    const show = () => {
      const text = percent(Number(input.value));
      if (out) out.textContent = text;
      input.setAttribute("aria-valuetext", text);
    };
    show();
    input.addEventListener("input", () => {
      state[key] = Number(input.value);
      show();
      api.apply(state);
      api.save(state);
    });
    input.addEventListener("dblclick", () => {
      input.value = "50";
      input.dispatchEvent(new Event("input"));
    });
  }
  const four = document.getElementById("four-colour");
  if (four) {
    four.checked = state.fourColour;
    four.addEventListener("change", () => {
      state.fourColour = four.checked;
      api.apply(state);
      api.save(state);
    });
  }
  const lang = document.getElementById("lang");
  if (lang) {
    lang.addEventListener("change", () => {
      const code = lang.value;
      try {
        localStorage.setItem("cardavia.lang", code);
        sessionStorage.removeItem("cardavia.langReload");
      } catch { /* ignore */ }
      api.setLangCookie(code);
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.replace(url.toString());
    });
  }
  const form = document.getElementById("settings");
  if (form) form.addEventListener("submit", (e) => e.preventDefault());
  // the settings live behind the gear button
  const gear = document.getElementById("gear");
  if (gear && form) {
    const open = (on, refocus = false) => {
      form.hidden = !on;
      gear.setAttribute("aria-expanded", on ? "true" : "false");
      if (on) form.querySelector("select, input")?.focus();
      else if (refocus) gear.focus();
    };
    gear.addEventListener("click", () => open(form.hidden));
    form.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); open(false, true); }
    });
    document.addEventListener("pointerdown", (e) => {
      if (!form.hidden && !form.contains(e.target) && !gear.contains(e.target)) open(false);
    });
  }
  // The Table tab goes back to the table you were playing, if any.
  const tab = document.getElementById("tab-table");
  try {
    const last = localStorage.getItem("cardavia.lastTable");
    if (tab && last && document.documentElement.dataset.view === "rules") tab.href = `/table/${last}`;
  } catch { /* ignore */ }
}

initSettings();
