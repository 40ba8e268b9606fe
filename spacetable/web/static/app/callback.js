// Called back to the table (issue 21; docs/play.md): the bell of the top bar (unread count, the tab's title, a sound
// that can be turned off, the notification settings, push on this device) and the chat of a match (players' room,
// spectators' room, quick messages in the reader's language, mute, report). Every text from other people is written
// as text (Preact escapes it), never as markup.
import { html, useEffect, useRef, useState } from "./lib.js";
import { api } from "./api.js";
import { accountApi, useAccount } from "./account.js";
import { t } from "./i18n.js";
import { notify, notifyError } from "./ui.js";

const KINDS = ["your_turn", "match_start", "match_end", "challenge", "draw_offer", "chat_mention"];
const CHANNELS = ["page", "push", "email"];
const EMAIL_MODES = { instant: "bell.email_instant", digest: "bell.email_digest", off: "bell.email_off" };

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  } catch { /* no audio here */ }
}

const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));

/** Push on this device: the service worker at the site's root, the browser's subscription sent to the server. */
export async function enablePush(vapid) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error(t("bell.push_unsupported"));
  if ((await Notification.requestPermission()) !== "granted") throw new Error(t("bell.push_denied"));
  const reg = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const sub = (await reg.pushManager.getSubscription()) ||
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: unb64(vapid) }));
  await accountApi("/api/notify/push", sub.toJSON());
}

function Settings({ prefs, setPrefs }) {
  const [busy, setBusy] = useState(false);
  async function change(body) {
    setBusy(true);
    try { setPrefs(await accountApi("/api/notify/prefs", body, "PUT")); } catch (e) { notifyError(e); }
    setBusy(false);
  }
  async function push() {
    setBusy(true);
    try { await enablePush(prefs.vapid); change({}); } catch (e) { notifyError(e); setBusy(false); }
  }
  const s = prefs.settings;
  return html`<details class="fold bell-settings" data-testid="bell-settings"><summary>${t("bell.settings")}</summary>
    <table class="bell-prefs"><thead><tr><th scope="col"></th>${CHANNELS.map((c) => html`<th scope="col">${t("bell.channel." + c)}</th>`)}</tr></thead>
      <tbody>${KINDS.map((k) => html`<tr><th scope="row">${t("bell.kind." + k)}</th>${CHANNELS.map((c) => html`<td>
        <input type="checkbox" checked=${prefs.prefs[c][k]} disabled=${busy} data-testid=${`pref-${c}-${k}`}
          aria-label=${t("bell.kind." + k) + " – " + t("bell.channel." + c)}
          onChange=${(e) => change({ prefs: { [c]: { [k]: e.target.checked } } })} /></td>`)}</tr>`)}</tbody></table>
    <label class="field">${t("bell.email_mode")}<select value=${s.email_mode} disabled=${busy} data-testid="email-mode"
      onChange=${(e) => change({ settings: { email_mode: e.target.value } })}>
      ${Object.entries(EMAIL_MODES).map(([m, key]) => html`<option value=${m}>${t(key)}</option>`)}</select></label>
    <label class="field">${t("bell.quiet")}<input type="number" min="0" max="1440" value=${s.quiet_minutes} disabled=${busy}
      data-testid="quiet-minutes" onChange=${(e) => change({ settings: { quiet_minutes: Math.max(0, Math.min(1440, Number(e.target.value) || 0)) } })} /></label>
    <label class="inline-field"><input type="checkbox" checked=${s.sound} disabled=${busy} data-testid="bell-sound"
      onChange=${(e) => change({ settings: { sound: e.target.checked } })} /> ${t("bell.sound")}</label>
    <p><button type="button" class="btn" disabled=${busy || !prefs.vapid} data-testid="push-enable" onClick=${push}>${t("bell.push_enable")}</button></p>
  </details>`;
}

/** The bell: signed-in players only (guests keep the page's own alerts). */
export function Bell({ navigate }) {
  const acc = useAccount();
  const [inbox, setInbox] = useState({ unread: 0, items: [], sound: true });
  const [open, setOpen] = useState(false);
  const [prefs, setPrefs] = useState(null);
  const last = useRef(0);
  const signed = !!acc.account;
  async function load() {
    if (!signed) return;
    try {
      const got = await api("/api/notify/inbox");
      if (got.unread > last.current && got.sound && last.current >= 0) beep();
      last.current = got.unread;
      setInbox(got);
    } catch { /* offline: try again later */ }
  }
  useEffect(() => {
    if (!signed) return undefined;
    last.current = -1;
    load().then(() => { if (last.current < 0) last.current = 0; });
    const every = setInterval(load, 20000);
    const focus = () => load();
    window.addEventListener("focus", focus);
    return () => { clearInterval(every); window.removeEventListener("focus", focus); };
  }, [signed]);
  const root = useRef(null);
  useEffect(() => {  // an open panel closes on a tap elsewhere and on Escape (it never hides the page for good)
    if (!open) return undefined;
    const away = (e) => { if (root.current && !root.current.contains(e.target)) setOpen(false); };
    const esc = (e) => { if (e.key === "Escape") setOpen(false); };
    document.addEventListener("pointerdown", away, true);
    document.addEventListener("keydown", esc);
    return () => { document.removeEventListener("pointerdown", away, true); document.removeEventListener("keydown", esc); };
  }, [open]);
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = inbox.unread > 0 && signed ? `(${inbox.unread}) ${base}` : base;
  });
  if (!signed) return null;
  async function toggle() {
    const next = !open;
    setOpen(next);
    if (next && !prefs) api("/api/notify/prefs").then(setPrefs).catch(notifyError);
  }
  async function readAll() {
    try { await accountApi("/api/notify/inbox/read", {}); } catch (e) { notifyError(e); }
    load();
  }
  const label = t("bell.title", { n: inbox.unread });
  return html`<span class="bell" data-testid="bell" ref=${root}>
    <button type="button" class="btn ghost bell-button" aria-expanded=${open} title=${label} onClick=${toggle} data-testid="bell-button">
      <span class="sr-only">${label}</span>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" /></svg>
      ${inbox.unread > 0 ? html`<span class="bell-count" aria-hidden="true" data-testid="bell-count">${inbox.unread}</span>` : null}</button>
    ${open ? html`<div class="bell-panel card" role="region" aria-label=${t("bell.panel")} data-testid="bell-panel">
      ${inbox.items.length ? html`<ul class="bell-list">${inbox.items.map((i) => html`<li class=${i.read ? "read" : "unread"}>
        <a href=${i.url} onClick=${(e) => { e.preventDefault(); setOpen(false); navigate(i.url); }}><strong>${i.title}</strong>
          <span>${i.body}</span></a></li>`)}</ul>` : html`<p>${t("bell.empty")}</p>`}
      ${inbox.unread > 0 ? html`<button type="button" class="btn" onClick=${readAll} data-testid="bell-read">${t("bell.mark_read")}</button>` : null}
      ${prefs ? html`<${Settings} prefs=${prefs} setPrefs=${setPrefs} />` : null}
    </div>` : null}
  </span>`;
}

// ------------------------------------------------------------------------------------------------ chat
const QUICK = ["hello", "good_luck", "thinking", "one_moment", "well_played", "oops", "thanks", "good_game"];

function muted(matchId) {
  try { return new Set(JSON.parse(localStorage.getItem("spacetable.muted." + matchId) || "[]")); } catch { return new Set(); }
}
function saveMuted(matchId, set) {
  try { localStorage.setItem("spacetable.muted." + matchId, JSON.stringify([...set])); } catch { /* private mode */ }
}

/** Messages by id, each once, oldest first, the last 200. */
function merged(old, got) {
  const byId = new Map(old.map((m) => [m.id, m]));
  for (const m of got) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-200);
}

let sent = 0;

/** The chat of a match: the players' room for a seat (its token), else the spectators' room. `hub` (the match page's
 *  socket): new messages are pushed over it as they are written and a seat writes over it; the page reads the room
 *  when it opens, when its socket (re)connects and, in case a message was lost between server processes, every 30 s. */
export function ChatPanel({ match, matchId, seat, token, hub }) {
  const room = seat !== null && token ? "players" : "spectators";
  const [rooms, setRooms] = useState([]);
  const [messages, setMessages] = useState([]);
  const [text, setText] = useState("");
  const [mute, setMute] = useState(() => muted(matchId));
  const after = useRef(0);
  const pending = useRef(null);
  const headers = token ? { "X-Seat-Token": token } : {};
  const query = room === "players" ? `room=players&seat=${seat}` : "room=spectators";
  function add(got) {
    if (!got.length) return;
    after.current = Math.max(after.current, ...got.map((m) => m.id));
    setMessages((old) => merged(old, got));
  }
  async function load() {
    try {
      const got = await api(`/api/matches/${matchId}/chat?${query}&after=${after.current}`, { headers });
      setRooms(got.rooms);
      add(got.messages);
    } catch { /* offline or the seat was left: try again later */ }
  }
  useEffect(() => {
    after.current = 0;
    setMessages([]);
    load();
    const off = hub ? hub.listen((msg) => {
      if (msg.type === "snapshot") load();
      else if (msg.type === "chat" && msg.room === room) {
        if (msg.message) add([msg.message]); else load();  // the spectators' room only says that it has news
      } else if (msg.type === "error" && pending.current && msg.id === pending.current.id) {
        setText(pending.current.text);  // refused (too fast, too long): the words come back to the field
        pending.current = null;
      }
    }) : null;
    const every = setInterval(() => { if (!document.hidden) load(); }, hub ? 30000 : 4000);
    return () => { clearInterval(every); if (off) off(); };
  }, [matchId, room, seat, token, hub]);
  // the spectators' room (issue 21): everybody reads it (the players once their match is over: the server refuses
  // them before); a signed-in account that holds no seat writes in it
  const account = useAccount();
  if (!rooms.includes(room) || (room === "spectators" && !messages.length && !account.account)) return null;
  const canWrite = room === "players" || !!account.account;
  async function send(body) {
    if (room === "players" && hub) {
      const id = `chat-${++sent}`;
      if (hub.send({ type: "chat", id, ...body })) {
        pending.current = { id, text: body.text !== undefined ? body.text : text };
        if (body.text !== undefined) setText("");
        return;
      }
    }
    try {
      if (room === "spectators") await accountApi(`/api/matches/${matchId}/chat`, { room, ...body });
      else await api(`/api/matches/${matchId}/chat`, { body: { room, seat, ...body }, headers });
      if (body.text !== undefined) setText("");
      load();
    } catch (e) { notifyError(e); }
  }
  function toggleMute(s) {
    const next = new Set(mute);
    if (next.has(s)) next.delete(s); else next.add(s);
    saveMuted(matchId, next);
    setMute(next);
  }
  async function report(id) {
    try {
      await api(`/api/matches/${matchId}/chat/${id}/report`, { body: { seat }, headers });
      notify({ text: t("chat.reported") });
    } catch (e) { notifyError(e); }
  }
  const shown = messages.filter((m) => m.seat === null || !mute.has(m.seat));
  return html`<details class="fold card chat" open data-testid="chat"><summary>${t(room === "players" ? "chat.players" : "chat.spectators")}</summary>
    <ol class="chat-list" aria-live="polite" data-testid="chat-list">${shown.map((m) => html`<li data-testid="chat-message" data-seat=${m.seat}>
      <strong>${m.name}</strong>: <span class="chat-text">${m.text}</span>
      ${room === "players" && m.seat !== null && m.seat !== seat ? html` <button type="button" class="link-button" data-testid="chat-mute"
        onClick=${() => toggleMute(m.seat)}>${t("chat.mute")}</button> <button type="button" class="link-button" data-testid="chat-report"
        onClick=${() => report(m.id)}>${t("chat.report")}</button>` : null}</li>`)}</ol>
    ${mute.size ? html`<p class="muted">${t("chat.muted", { n: mute.size })} <button type="button" class="link-button"
      onClick=${() => { saveMuted(matchId, new Set()); setMute(new Set()); }}>${t("chat.unmute_all")}</button></p>` : null}
    ${canWrite ? html`${room === "spectators" ? html`<p class="muted small" data-testid="spectators-note">${t("chat.spectators_note")}</p>` : null}<div class="chat-quick">${QUICK.map((q) => html`<button type="button" class="btn tool" data-testid=${"quick-" + q}
        onClick=${() => send({ quick: q })}>${t("chat.quick." + q)}</button>`)}</div>
      <form class="chat-form" onSubmit=${(e) => { e.preventDefault(); if (text.trim()) send({ text }); }}>
        <label class="sr-only" for="chat-input">${t("chat.write")}</label>
        <input id="chat-input" type="text" maxlength="500" value=${text} placeholder=${t("chat.write")} data-testid="chat-input"
          onInput=${(e) => setText(e.target.value)} />
        <button type="submit" class="btn" data-testid="chat-send">${t("chat.send")}</button></form>` : null}
  </details>`;
}
