// The table's WebSocket (docs/protocol.md) with reconnection, and the small HTTP calls.

/** Open /ws/tables/{id}?token=… and keep it open; handlers get parsed messages. */
export function connectTable(tableId, token, { onMessage, onStatus }) {
  let ws = null;
  let closedByUs = false;
  let attempt = 0;
  let timer = null;
  const queue = [];

  function url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`;
  }

  function open() {
    onStatus("connecting");
    ws = new WebSocket(url());
    ws.addEventListener("open", () => {
      attempt = 0;
      onStatus("open");
      while (queue.length) ws.send(queue.shift());
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (closedByUs) return;
      if (ev.code === 4401 || ev.code === 4404 || ev.code === 1008) {
        onStatus("refused");
        return;
      }
      attempt += 1;
      onStatus("lost");
      const delay = Math.min(8000, 250 * 2 ** Math.min(attempt, 5));
      timer = setTimeout(open, delay);
    });
  }

  open();
  return {
    send(msg) {
      const text = JSON.stringify(msg);
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(text);
      else queue.push(text);
    },
    close() {
      closedByUs = true;
      clearTimeout(timer);
      if (ws) ws.close();
    },
  };
}

export async function getJSON(path, headers = {}) {
  const res = await fetch(path, { headers: { Accept: "application/json", ...headers } });
  if (!res.ok) throw new Error(`${res.status}`);
  return res.json();
}

export async function postJSON(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${res.status}`);
  return res.json();
}

/** The invite codes the creator of a table with friends keeps ({seat: code, watch: code}). */
export function invitesKey(tableId) {
  return `cardavia.invites.${tableId}`;
}

/** Set when this browser watches the table (a spectator token). */
export function watchKey(tableId) {
  return `cardavia.watch.${tableId}`;
}

/** The header that shows a table with friends' finished hands to its players. */
export function tokenHeader(tableId) {
  try {
    const token = localStorage.getItem(tokenKey(tableId));
    return token ? { "X-Cardavia-Token": token } : {};
  } catch { return {}; }
}

export function tokenKey(tableId) {
  return `cardavia.token.${tableId}`;
}
