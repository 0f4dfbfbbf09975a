// Runs before first paint (classic script in <head>): applies the saved look settings and
// keeps the language in localStorage, the cookie and the page in agreement.
(function () {
  "use strict";
  var KEY = "cardavia.settings";
  var LANG_KEY = "cardavia.lang";
  var LANGS = ["en", "nl", "hi", "hu", "th", "fi", "zh"];
  var root = document.documentElement;

  function load() {
    var s = { contrast: 50, grain: 50, temperature: 50, fourColour: false };
    try {
      var saved = JSON.parse(localStorage.getItem(KEY) || "{}");
      ["contrast", "grain", "temperature"].forEach(function (k) {
        var v = Number(saved[k]);
        if (saved[k] !== undefined && isFinite(v)) s[k] = Math.max(0, Math.min(100, Math.round(v)));
      });
      s.fourColour = saved.fourColour === true;
    } catch (e) { /* private mode or corrupt value: defaults */ }
    return s;
  }

  function save(s) {
    try { localStorage.setItem(KEY, JSON.stringify(s)); } catch (e) { /* ignore */ }
  }

  // Contrast: contrast(0.5 … 1.5), 50 → 1 (identity).
  function contrastFactor(v) { return Math.round((0.5 + v / 100) * 100) / 100; }
  // Grain: 0 → none, 50 → the default subtle texture (0.05), 100 → strong (0.3).
  function grainOpacity(v) {
    var o = v <= 50 ? 0.05 * v / 50 : 0.05 + 0.25 * (v - 50) / 50;
    return Math.round(o * 1000) / 1000;
  }
  // Colour temperature: a channel-scaling matrix, identity at 50; warmer above, cooler below.
  function temperatureMatrix(v) {
    var k = (v - 50) / 50;
    var r = 1 + 0.12 * k, g = 1 + 0.02 * k, b = 1 - 0.18 * k;
    return [r, 0, 0, 0, 0, 0, g, 0, 0, 0, 0, 0, b, 0, 0, 0, 0, 0, 1, 0]
      .map(function (x) { return String(Math.round(x * 1000) / 1000); }).join(" ");
  }

  function apply(s) {
    var parts = [];
    if (s.contrast !== 50) parts.push("contrast(" + contrastFactor(s.contrast) + ")");
    if (s.temperature !== 50) parts.push("url(#cardavia-temperature)");
    root.style.setProperty("--page-filter", parts.length ? parts.join(" ") : "none");
    root.style.setProperty("--grain-opacity", String(grainOpacity(s.grain)));
    root.classList.toggle("four-colour", !!s.fourColour);
    var m = document.getElementById("cardavia-temperature-matrix");
    if (m) m.setAttribute("values", temperatureMatrix(s.temperature));
  }

  function setLangCookie(lang) {
    document.cookie = "cardavia_lang=" + lang + "; path=/; max-age=" + 400 * 86400 + "; samesite=lax";
  }

  function syncLanguage() {
    var page = root.lang;
    var url = new URL(location.href);
    var asked = (url.searchParams.get("lang") || "").toLowerCase();
    var stored = null;
    try { stored = localStorage.getItem(LANG_KEY); } catch (e) { /* ignore */ }
    if (LANGS.indexOf(asked) >= 0) {
      try { localStorage.setItem(LANG_KEY, asked); } catch (e) { /* ignore */ }
      return;
    }
    if (stored && LANGS.indexOf(stored) >= 0 && stored !== page) {
      // The cookie was lost (or another tab changed the language): re-sync once.
      setLangCookie(stored);
      var guard = "cardavia.langReload";
      try {
        if (sessionStorage.getItem(guard) === stored) return;
        sessionStorage.setItem(guard, stored);
      } catch (e) { return; }
      location.replace(location.href);
    } else if (!stored) {
      try { localStorage.setItem(LANG_KEY, page); } catch (e) { /* ignore */ }
    }
  }

  var settings = load();
  root.style.setProperty("--page-filter", "none");
  apply(settings);
  syncLanguage();
  document.addEventListener("DOMContentLoaded", function () { apply(settings); });

  window.cardaviaSettings = {
    LANGS: LANGS,
    load: load,
    save: save,
    apply: apply,
    setLangCookie: setLangCookie,
    contrastFactor: contrastFactor,
    grainOpacity: grainOpacity,
    temperatureMatrix: temperatureMatrix
  };
})();
