// History: the finished matches (Guandan) and sessions (Run Fast) of the tables whose
// tokens this browser holds, with results, levels or totals, win rates per difficulty,
// links to their replay and review, and their record as a .jsonl download.
import { levelName, t } from "./i18n.js";
import { getJSON } from "./net.js";
import { h } from "./view.js";

const $ = (id) => document.getElementById(id);
const ui = { status: $("history-status"), table: $("history-table"), rows: $("history-rows"), stats: $("history-stats") };
const PREFIX = "cardavia.token.";
const levelText = (v) => (v === "T" ? "10" : String(v));
const signed = (v) => (v > 0 ? `+${v}` : String(v));

function tableIds() {
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(PREFIX)) ids.push(k.slice(PREFIX.length));
    }
  } catch { /* private mode */ }
  return ids;
}

/** The matches/sessions of one table's history with at least one finished deal. */
function matchesOf(data) {
  const groups = new Map();
  for (const d of data.deals) {
    if (!groups.has(d.match)) groups.set(d.match, []);
    groups.get(d.match).push(d);
  }
  const out = [];
  for (const [match, deals] of groups) {
    const done = deals.filter((d) => d.finished);
    if (!done.length) continue;
    const last = done[done.length - 1];
    const after = last.after || {};
    let result = "playing";
    if (data.game === "guandan") {
      if (after.match_winner === 0) result = "won";
      else if (after.match_winner === 1) result = "lost";
    } else {
      const totals = after.totals || [];
      const best = Math.max(...totals);
      result = totals[0] === best ? "ahead" : "behind";
    }
    const won = done.filter((d) => (data.game === "guandan" ? d.record.places[0] % 2 === 0 : d.record.places?.[0] === 0 || d.after?.last_settlement?.winner === 0)).length;
    out.push({ tableId: data.table_id, game: data.game, match, deals: done, after, result, won,
      difficulty: data.seats[1]?.difficulty || "", partner: data.game === "guandan" ? data.seats[2]?.difficulty : null,
      date: data.created_at });
  }
  return out;
}

function scoreText(m) {
  if (m.game === "guandan") {
    const lv = m.after.levels || ["2", "2"];
    return t("history.levels", { us: levelText(lv[0]), them: levelText(lv[1]) });
  }
  return (m.after.totals || []).map(signed).join(" / ");
}

function download(m) {
  const text = m.deals.map((d) => JSON.stringify(d.record)).join("\n") + "\n";
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })), download: `cardavia-${m.game}-${m.tableId}-${m.match + 1}.jsonl` });
  document.body.append(a);
  a.click();
  a.remove();
}

function row(m) {
  const date = m.date ? new Date(m.date).toLocaleString(document.documentElement.lang) : "";
  const replay = h("a", { href: `/replay?table=${encodeURIComponent(m.tableId)}&match=${m.match}`, "data-testid": "history-replay", text: t("history.replay") });
  const last = m.deals[m.deals.length - 1];
  const review = h("a", { href: `/replay?table=${encodeURIComponent(m.tableId)}&deal=${last.n}`, "data-testid": "history-review", text: t("history.review") });
  const dl = h("button", { type: "button", class: "chip", "data-testid": "history-download", text: t("history.download") });
  dl.addEventListener("click", () => download(m));
  const level = levelName(m.difficulty) + (m.partner ? ` · ${t("history.partner", { level: levelName(m.partner) })}` : "");
  return h("tr", { "data-testid": "history-row", "data-table": m.tableId, "data-result": m.result },
    h("td", { text: date }), h("td", { text: t(`game.${m.game}`) }), h("td", { text: level }),
    h("td", {}, h("span", { class: `result result-${m.result}`, text: t(`history.result.${m.result}`) })),
    h("td", { text: scoreText(m) }),
    h("td", { text: t("history.dealsWon", { won: m.won, n: m.deals.length }) }),
    h("td", { class: "history-links" }, replay, " ", review, " ", dl));
}

function stats(matches) {
  const by = new Map();
  for (const m of matches) {
    const key = `${m.game}|${m.difficulty}`;
    if (!by.has(key)) by.set(key, { game: m.game, difficulty: m.difficulty, played: 0, won: 0 });
    const s = by.get(key);
    if (m.game === "guandan") {
      if (m.result === "won" || m.result === "lost") { s.played += 1; if (m.result === "won") s.won += 1; }
    } else { s.played += m.deals.length; s.won += m.won; }
  }
  const items = [...by.values()].map((s) => h("li", { "data-testid": "history-rate" },
    h("strong", { text: `${t(`game.${s.game}`)} · ${levelName(s.difficulty)}: ` }),
    s.played ? t(s.game === "guandan" ? "history.rateMatches" : "history.rateDeals", { won: s.won, n: s.played, pct: Math.round((100 * s.won) / s.played) })
      : t("history.noneDecided")));
  ui.stats.replaceChildren(h("h2", { text: t("history.rates") }), h("ul", {}, items));
}

async function main() {
  const ids = tableIds();
  const found = await Promise.all(ids.map((id) => getJSON(`/api/tables/${encodeURIComponent(id)}/history`).catch(() => null)));
  const matches = found.filter(Boolean).flatMap(matchesOf).sort((a, b) => String(b.date).localeCompare(String(a.date)) || b.match - a.match);
  window.cardavia = { history: matches };
  if (!matches.length) {
    ui.status.textContent = t("history.empty");
    return;
  }
  ui.status.textContent = "";
  ui.rows.replaceChildren(...matches.map(row));
  ui.table.hidden = false;
  stats(matches);
}

main();
