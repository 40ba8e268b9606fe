// Talking to the server: REST calls (errors carry the server's explanation in the interface language) and the
// match socket (reconnects with growing delays, stops for good when the match or the seat link is wrong).
import { currentLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(error, status) {
    super((error && (error.explain || error.message)) || "error");
    this.error = error || {};
    this.status = status;
  }

  /** No answer on the request's merits: offline (0), a rate limit reached (429) or a server error (5xx). */
  get unanswered() {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export async function api(path, opts = {}) {
  const headers = { "Accept-Language": currentLang(), ...(opts.headers || {}) };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.token) headers["X-Seat-Token"] = opts.token;
  let r;
  try {
    r = await fetch(path, { method: opts.method || (opts.body !== undefined ? "POST" : "GET"), headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined });
  } catch (e) {
    throw new ApiError({ code: "offline" }, 0);
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(data.error || { code: "http_" + r.status }, r.status);
  return data;
}

// ---------------------------------------------------------------------------------------------- seats
// The seats this browser holds: {matchId: {seat, token}} (a seat link works from any browser; this is a memo).
export function mySeats() {
  try { return JSON.parse(localStorage.getItem("spacetable.seats") || "{}"); } catch { return {}; }
}
export function rememberSeat(matchId, seat, token) {
  const all = mySeats();
  all[matchId] = { seat, token };
  try { localStorage.setItem("spacetable.seats", JSON.stringify(all)); } catch { /* private mode */ }
}
export function forgetSeat(matchId) {
  const all = mySeats();
  delete all[matchId];
  try { localStorage.setItem("spacetable.seats", JSON.stringify(all)); } catch { /* private mode */ }
}
/** A seat link keeps the secret in the fragment (#seat=..&token=..): it never reaches the server's access log. */
export function seatLink(matchId, seat, token) {
  return `/match/${matchId}#seat=${seat}&token=${encodeURIComponent(token)}`;
}
/** Seat and token from the address: the fragment, or the query of an older link (then moved behind '#' at once,
 *  so that the secret is not sent to the server again by a reload). */
export function seatFromUrl() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has("seat") && frag.get("token")) return { seat: Number(frag.get("seat")), token: frag.get("token") };
  const query = new URLSearchParams(location.search.slice(1));
  if (query.has("seat") && query.get("token")) {
    const found = { seat: Number(query.get("seat")), token: query.get("token") };
    history.replaceState(history.state, "", location.pathname + `#seat=${found.seat}&token=${encodeURIComponent(found.token)}`);
    return found;
  }
  return null;
}

// --------------------------------------------------------------------------------------------- socket
const DELAYS = [1000, 2000, 4000, 8000, 15000, 30000];

/**
 * Open the match socket. handlers: {message(msg), status(state, info)} where state is "connecting", "live",
 * "retrying" ({attempt, delay}), "stopped" (gave up after DELAYS.length failures) or "gone" ({error}: the match
 * or the seat does not exist; nothing more is tried). Returns {send(obj), close(), retry(), setLang(code)}.
 */
export function openSocket(matchId, seat, token, handlers) {
  let ws = null;
  let attempt = 0;
  let timer = null;
  let closed = false;
  let gone = false;
  let live = false;

  // SRV-A5: the seat's token never goes in a URL; it is the socket's first message {"type": "auth", "token": T}.
  const seated = seat !== null && seat !== undefined;
  function url() {
    // texts=1: the server sends the sentences of legal actions and log entries in the page's language
    const q = new URLSearchParams({ lang: currentLang(), texts: "1" });
    if (seated) q.set("seat", String(seat));
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${encodeURIComponent(matchId)}?${q}`;
  }

  function open() {
    clearTimeout(timer);
    if (closed || gone) return;
    handlers.status(attempt ? "retrying" : "connecting", { attempt });
    live = false;
    ws = new WebSocket(url());
    ws.onopen = () => { if (seated) ws.send(JSON.stringify({ type: "auth", token: token || "" })); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "snapshot") {
        attempt = 0;
        if (!live) { live = true; handlers.status("live", {}); }
      }
      if (msg.type === "error" && !live && ["not_found", "bad_token", "no_such_seat", "seat_left", "auth_required"].includes(msg.error && msg.error.code)) {
        gone = true;
        handlers.status("gone", { error: msg.error });
        return;
      }
      handlers.message(msg);
    };
    ws.onclose = (ev) => {
      if (closed || gone) return;
      // 4400-4499: refused for good (no such match, wrong or outdated seat link); 4408 (idle) and 4429 (busy) retry
      if (ev.code >= 4400 && ev.code < 4500 && ev.code !== 4408 && ev.code !== 4429) {
        gone = true;
        handlers.status("gone", { error: { code: ev.code === 4404 ? "not_found" : "bad_token" } });
        return;
      }
      if (attempt >= DELAYS.length) { handlers.status("stopped", {}); return; }
      const delay = DELAYS[attempt];
      attempt += 1;
      handlers.status("retrying", { attempt, delay });
      timer = setTimeout(open, delay);
    };
  }
  open();
  return {
    send(obj) { if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; } return false; },
    close() { closed = true; clearTimeout(timer); if (ws) ws.close(); },
    retry() { attempt = 0; gone = false; if (ws) { ws.onclose = null; ws.close(); } open(); },
    setLang(code) { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "lang", lang: code })); },
  };
}
