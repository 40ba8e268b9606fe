// Accounts (docs/accounts.md): the account menu of the top bar, sign-up and sign-in (passkey; e-mail and password
// when the server has a mail relay), the links mailed for verification and reset, settings (sessions, second factor,
// language, export, deletion), a player's page (ratings, statistics, history with filters) and the leaderboards.
// Every name is written as text (Preact escapes it), never as markup. State-changing requests carry the session's
// CSRF token (X-CSRF-Token), read from GET /api/account/me.
import { html, useEffect, useState } from "./lib.js";
import { api, mySeats, rememberSeat } from "./api.js";
import { t } from "./i18n.js";
import { notify, notifyError } from "./ui.js";
import { InvisibleSetting, PlayerSocial } from "./social.js";
import { VacationSettings } from "./absent.js";
import { PublicSets } from "./workbench.js";

let state = { account: null, csrf: null, config: { passwords: false, passkeys: true } };
const listeners = new Set();
function publish() { listeners.forEach((f) => f(state)); }

export async function loadAccount() {
  try { state = await api("/api/account/me"); } catch { /* offline: signed out */ }
  publish();
  return state;
}
export function useAccount() {
  const [s, set] = useState(state);
  useEffect(() => { listeners.add(set); set(state); return () => listeners.delete(set); }, []);
  return s;
}
/** A request as the signed-in account (the CSRF token in its header). */
export function accountApi(path, body, method = "POST") {
  return api(path, { method, body, headers: state.csrf ? { "X-CSRF-Token": state.csrf } : {} });
}
export function isSignedIn() { return !!state.account; }
/** The language chosen in the top bar becomes the account's preferred language (when signed in). */
export function saveLang(lang) {
  if (!state.account || state.account.lang === lang) return;
  accountApi("/api/account/settings", { lang }).then((me) => { state = { ...state, account: me }; publish(); }).catch(() => {});
}
/** Create a match as the signed-in account (its seat bound to the account; ``rated``: accounts only, no AI). */
export function createAsAccount(body, rated) {
  const { player_name: _, ...rest } = body;
  return accountApi("/api/account/matches", { ...rest, join_seat: body.join_seat, rated: !!rated });
}
export function joinAsAccount(matchId, seat) { return accountApi(`/api/account/matches/${matchId}/seats/${seat}/join`); }
/** The lobby's "rated" switch, for signed-in players inviting another player. */
export function RatedChoice({ rated, setRated, show }) {
  const s = useAccount();
  if (!show || !s.account) return null;
  return html`<label class="inline-field rated-choice"><input type="checkbox" checked=${rated} data-testid="rated"
    onChange=${(e) => setRated(e.target.checked)} /> ${t("account.rated_match")}</label>`;
}
function signedIn(data) { state = { ...state, account: data.account, csrf: data.csrf }; publish(); }

// ------------------------------------------------------------------------------------------------ passkeys
const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));

function credentialJson(c) {
  const r = c.response;
  const out = { id: c.id, rawId: b64(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(), response: {
    clientDataJSON: b64(r.clientDataJSON) } };
  if (r.attestationObject) {
    out.response.attestationObject = b64(r.attestationObject);
    if (r.getTransports) out.response.transports = r.getTransports();
  } else {
    out.response.authenticatorData = b64(r.authenticatorData);
    out.response.signature = b64(r.signature);
    if (r.userHandle) out.response.userHandle = b64(r.userHandle);
  }
  return out;
}

export async function passkeySignUp(username, displayName, lang) {
  const begin = await accountApi("/api/account/passkey/register/begin", { username, display_name: displayName, lang });
  const o = begin.options;
  const publicKey = { ...o, challenge: unb64(o.challenge), user: { ...o.user, id: unb64(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: unb64(c.id) })) };
  const cred = await navigator.credentials.create({ publicKey });
  signedIn(await accountApi("/api/account/passkey/register/finish", { challenge_id: begin.challenge_id, credential: credentialJson(cred) }));
}

export async function passkeySignIn() {
  const begin = await api("/api/account/passkey/signin/begin", { body: {} });
  const o = begin.options;
  const publicKey = { ...o, challenge: unb64(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: unb64(c.id) })) };
  const cred = await navigator.credentials.get({ publicKey });
  signedIn(await api("/api/account/passkey/signin/finish", { body: { challenge_id: begin.challenge_id, credential: credentialJson(cred) } }));
}

/** After signing in: offer the seats this browser holds as a guest to the account. */
async function claimGuestSeats() {
  const seats = Object.entries(mySeats()).map(([id, s]) => ({ match_id: id, seat: s.seat, token: s.token }));
  if (!seats.length) return;
  try {
    const done = await accountApi("/api/account/claim", { seats: seats.slice(0, 200) });
    for (const d of done) if (d.claimed && d.token) rememberSeat(d.match_id, d.seat, d.token);  // the account's token now
    const n = done.filter((d) => d.claimed).length;
    if (n) notify({ kind: "ok", text: t("account.claimed", { n }) });
  } catch (e) { notifyError(e); }
}

// ------------------------------------------------------------------------------------------------ top bar
export function AccountMenu({ navigate }) {
  const s = useAccount();
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  if (!s.account) return html`<a href="/account" class="account-link" data-testid="account-signin" onClick=${go("/account")}>${t("account.signin")}</a>`;
  return html`<span class="account-menu" data-testid="account-menu">
    <a href=${"/player/" + encodeURIComponent(s.account.username)} data-testid="account-profile"
      onClick=${go("/player/" + encodeURIComponent(s.account.username))}>${s.account.display_name}</a>
    <a href="/account" data-testid="account-settings" onClick=${go("/account")}>${t("account.settings")}</a></span>`;
}

// ------------------------------------------------------------------------------------------------ forms
function Field({ label, type = "text", value, set, testid, autocomplete, maxlength = 300 }) {
  return html`<label class="field">${label}<input type=${type} value=${value} maxlength=${maxlength} autocomplete=${autocomplete}
    data-testid=${testid} onInput=${(e) => set(e.target.value)} /></label>`;
}

function SignIn({ navigate, lang }) {
  const s = useAccount();
  const [mode, setMode] = useState("signin");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [username, setUsername] = useState("");
  const [display, setDisplay] = useState("");
  const [totp, setTotp] = useState("");
  const [needTotp, setNeedTotp] = useState(false);
  const [sent, setSent] = useState(false);
  async function run(f) {
    try { await f(); } catch (e) {
      if (e.error && e.error.code === "totp_required") { setNeedTotp(true); return; }
      notifyError(e);
    }
  }
  const done = async () => { await claimGuestSeats(); navigate("/account"); };
  const passkeyUp = () => run(async () => { await passkeySignUp(username, display, lang); await done(); });
  const passkeyIn = () => run(async () => { await passkeySignIn(); await done(); });
  const passwordIn = () => run(async () => { signedIn(await api("/api/account/signin", { body: { email, password, totp: totp || null } })); await done(); });
  const passwordUp = () => run(async () => { await api("/api/account/signup", { body: { email, username, password, display_name: display, lang } }); setSent(true); });
  const forgot = () => run(async () => { await api("/api/account/reset/request", { body: { email } }); setSent(true); });
  const submit = (f) => (e) => { e.preventDefault(); f(); };
  return html`<section class="account-page" aria-labelledby="account-h">
    <h1 id="account-h">${mode === "signup" ? t("account.signup") : t("account.signin")}</h1>
    <p>${t("account.why")}</p>
    <div class="tabs" role="group" aria-label=${t("account.signin")}>
      <button class="btn" type="button" aria-pressed=${mode === "signin"} data-testid="mode-signin" onClick=${() => setMode("signin")}>${t("account.signin")}</button>
      <button class="btn" type="button" aria-pressed=${mode === "signup"} data-testid="mode-signup" onClick=${() => setMode("signup")}>${t("account.signup")}</button></div>
    ${sent && html`<p class="notice-ok" role="status" data-testid="check-mail">${t("account.check_mail")}</p>`}
    ${mode === "signin" ? html`
      <button type="button" class="btn primary" data-testid="passkey-signin" onClick=${passkeyIn}>${t("account.passkey_signin")}</button>
      ${s.config.passwords && html`<form onSubmit=${submit(passwordIn)} class="account-form">
        <${Field} label=${t("account.email")} type="email" value=${email} set=${setEmail} testid="email" autocomplete="username" />
        <${Field} label=${t("account.password")} type="password" value=${password} set=${setPassword} testid="password" autocomplete="current-password" />
        ${needTotp && html`<${Field} label=${t("account.totp_code")} value=${totp} set=${setTotp} testid="totp" autocomplete="one-time-code" maxlength="8" />`}
        <button class="btn" type="submit" data-testid="password-signin">${t("account.signin")}</button>
        <button type="button" class="btn ghost" data-testid="forgot" onClick=${forgot}>${t("account.forgot")}</button></form>`}`
    : html`<form onSubmit=${submit(passkeyUp)} class="account-form">
        <${Field} label=${t("account.username")} value=${username} set=${setUsername} testid="username" autocomplete="username" maxlength="24" />
        <${Field} label=${t("account.display_name")} value=${display} set=${setDisplay} testid="display-name" autocomplete="nickname" maxlength="40" />
        <button type="submit" class="btn primary" data-testid="passkey-signup">${t("account.passkey_signup")}</button></form>
      ${s.config.passwords && html`<form onSubmit=${submit(passwordUp)} class="account-form">
        <p>${t("account.or_password")}</p>
        <${Field} label=${t("account.email")} type="email" value=${email} set=${setEmail} testid="signup-email" autocomplete="email" />
        <${Field} label=${t("account.password")} type="password" value=${password} set=${setPassword} testid="signup-password" autocomplete="new-password" />
        <button class="btn" type="submit" data-testid="password-signup">${t("account.signup")}</button></form>`}`}
  </section>`;
}

/** The pages of the links mailed to players: #account/verify/<token> and #account/reset/<token>. */
function MailedLink({ kind, token, navigate }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  useEffect(() => {
    if (kind !== "verify") return;
    api("/api/account/verify", { body: { token } }).then(async (d) => { signedIn(d); history.replaceState({}, "", "/account"); await claimGuestSeats(); navigate("/account"); })
      .catch((e) => setError(e));
  }, []);
  if (error) return html`<section class="account-page"><h1>${t("account.link_failed")}</h1><p role="alert" data-testid="link-error">${error.message}</p></section>`;
  if (kind === "verify") return html`<section class="account-page" aria-busy="true"><h1>${t("account.verifying")}</h1></section>`;
  const reset = async (e) => {
    e.preventDefault();
    try { signedIn(await api("/api/account/reset", { body: { token, password } })); history.replaceState({}, "", "/account"); navigate("/account"); }
    catch (err) { setError(err); }
  };
  return html`<section class="account-page"><h1>${t("account.new_password")}</h1>
    <form onSubmit=${reset} class="account-form"><${Field} label=${t("account.password")} type="password" value=${password} set=${setPassword}
      testid="new-password" autocomplete="new-password" /><button class="btn" type="submit" data-testid="reset-submit">${t("account.save")}</button></form></section>`;
}

function Settings({ navigate }) {
  const s = useAccount();
  const a = s.account;
  const [display, setDisplay] = useState(a.display_name);
  const [sessions, setSessions] = useState(null);  // null until the server's list has come
  const [totp, setTotp] = useState(null);
  const [code, setCode] = useState("");
  const [confirm, setConfirm] = useState("");
  const [matches, setMatches] = useState([]);
  const reload = () => api("/api/account/sessions").then(setSessions).catch(notifyError);
  useEffect(() => { reload(); api("/api/account/matches").then(setMatches).catch(notifyError); }, []);
  const resume = (m) => run(async () => {
    const got = await accountApi(`/api/account/matches/${m.match_id}/seats/${m.seat}/token`);
    rememberSeat(m.match_id, m.seat, got.token);
    navigate(got.link);
  })();
  const run = (f) => async (e) => { if (e) e.preventDefault(); try { await f(); } catch (err) { notifyError(err); } };
  const save = run(async () => { const me = await accountApi("/api/account/settings", { display_name: display }); state = { ...state, account: me }; publish(); notify({ kind: "ok", text: t("account.saved") }); });
  const setLangPref = (lang) => run(async () => {
    const me = await accountApi("/api/account/settings", { lang });
    state = { ...state, account: me };
    publish();
    window.dispatchEvent(new CustomEvent("spacetable:lang", { detail: lang }));  // main.js switches the page's language
  })();
  const signOut = run(async () => { await accountApi("/api/account/signout"); await loadAccount(); navigate("/"); });
  const everywhere = run(async () => { await accountApi("/api/account/sessions/end", { id: "all" }); await loadAccount(); navigate("/"); });
  const endOne = (id) => run(async () => { await accountApi("/api/account/sessions/end", { id }); reload(); })();
  const startTotp = run(async () => setTotp(await accountApi("/api/account/totp/setup")));
  const enableTotp = run(async () => { const me = await accountApi("/api/account/totp/enable", { code }); state = { ...state, account: me }; publish(); setTotp(null); setCode(""); });
  const addPasskey = run(async () => { await passkeySignUp(null, "", a.lang); await loadAccount(); notify({ kind: "ok", text: t("account.saved") }); });
  const remove = run(async () => { await accountApi("/api/account/delete", { confirm }); await loadAccount(); navigate("/"); });
  return html`<section class="account-page" aria-labelledby="settings-h">
    <h1 id="settings-h">${t("account.settings")}</h1>
    <p data-testid="signed-in-as">${t("account.signed_in_as", { name: a.username })}</p>
    <h2>${t("account.your_matches")}</h2>
    ${matches.length ? html`<ul class="my-matches" data-testid="my-matches">${matches.map((m) => html`<li key=${m.match_id + m.seat}>
      <button class="btn" type="button" data-testid=${"resume-" + m.match_id} onClick=${() => resume(m)}>${m.name || m.game}${m.your_turn ? " · " + t("account.your_turn") : ""}</button></li>`)}</ul>`
      : html`<p>${t("account.no_matches")}</p>`}
    <form class="account-form" onSubmit=${save}>
      <${Field} label=${t("account.display_name")} value=${display} set=${setDisplay} testid="settings-display" maxlength="40" />
      <button class="btn" type="submit" data-testid="settings-save">${t("account.save")}</button></form>
    <${InvisibleSetting} />
    <label class="field">${t("account.language")}<select data-testid="settings-lang" value=${a.lang} onChange=${(e) => setLangPref(e.target.value)}>
      ${["en", "fr", "nl", "ru"].map((c) => html`<option value=${c}>${c}</option>`)}</select></label>
    <${VacationSettings} />
    <h2>${t("account.security")}</h2>
    <p>${t("account.passkeys", { n: a.passkeys })}</p>
    <button class="btn" type="button" data-testid="add-passkey" onClick=${addPasskey}>${t("account.add_passkey")}</button>
    ${a.has_password && !a.totp && !totp && html`<button class="btn" type="button" data-testid="totp-setup" onClick=${startTotp}>${t("account.totp_setup")}</button>`}
    ${totp && html`<form class="account-form" onSubmit=${enableTotp}><p>${t("account.totp_help")}</p><code data-testid="totp-secret">${totp.secret}</code>
      <${Field} label=${t("account.totp_code")} value=${code} set=${setCode} testid="totp-code" maxlength="8" autocomplete="one-time-code" />
      <button class="btn" type="submit">${t("account.save")}</button></form>`}
    ${a.totp && html`<p data-testid="totp-on">${t("account.totp_on")}</p>`}
    <h2>${t("account.sessions")}</h2>
    <ul class="sessions" data-testid="sessions" data-loaded=${sessions ? "yes" : "no"}>${(sessions || []).map((x) => html`<li key=${x.id}>${x.user_agent || "?"} · ${new Date(x.seen_at * 1000).toLocaleString()}
      ${x.current ? html` <strong>${t("account.this_device")}</strong>` : html` <button class="btn" type="button" onClick=${() => endOne(x.id)}>${t("account.end_session")}</button>`}</li>`)}</ul>
    <button class="btn" type="button" data-testid="signout" onClick=${signOut}>${t("account.signout")}</button>
    <button class="btn" type="button" data-testid="signout-all" onClick=${everywhere}>${t("account.signout_all")}</button>
    <h2>${t("account.privacy")}</h2>
    <p><a href="/api/account/export" download data-testid="export">${t("account.export")}</a></p>
    <form class="account-form danger" onSubmit=${remove}><p>${t("account.delete_help")}</p>
      <${Field} label=${t("account.username")} value=${confirm} set=${setConfirm} testid="delete-confirm" maxlength="24" />
      <button type="submit" class="btn danger" data-testid="delete">${t("account.delete")}</button></form>
  </section>`;
}

export function AccountPage({ navigate, lang }) {
  const s = useAccount();
  const m = location.hash.match(/^#account\/(verify|reset)\/([\w-]+)$/);
  if (m) return html`<${MailedLink} kind=${m[1]} token=${m[2]} navigate=${navigate} />`;
  if (!s.account) return html`<${SignIn} navigate=${navigate} lang=${lang} />`;
  return html`<${Settings} navigate=${navigate} />`;
}

// ------------------------------------------------------------------------------------------ player and leaderboard
const pct = (v) => (v === null || v === undefined ? "" : (v > 0 ? "+" : "") + v.toFixed(2));

/** A rating-history chart (SVG): mu after each rated match, with the band mu ± 2 sigma. */
function RatingChart({ username, game }) {
  const [points, setPoints] = useState(null);
  useEffect(() => { api(`/api/players/${encodeURIComponent(username)}/ratings/${encodeURIComponent(game)}`).then(setPoints).catch(() => setPoints([])); }, [username, game]);
  if (!points || points.length < 1) return null;
  const w = 320, h = 90, pad = 4;
  const lo = Math.min(...points.map((p) => p.mu - 2 * p.sigma)), hi = Math.max(...points.map((p) => p.mu + 2 * p.sigma));
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => h - pad - ((v - lo) / (hi - lo || 1)) * (h - 2 * pad);
  const band = points.map((p, i) => `${x(i)},${y(p.mu + 2 * p.sigma)}`).concat(points.map((p, i) => `${x(i)},${y(p.mu - 2 * p.sigma)}`).reverse()).join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ");
  const last = points[points.length - 1];
  return html`<figure class="rating-chart" data-testid=${"chart-" + game}>
    <svg viewBox=${`0 0 ${w} ${h}`} width=${w} height=${h} role="img" aria-label=${t("account.chart", { game, n: points.length, mu: last.mu.toFixed(1) })}>
      <polygon points=${band} fill="rgba(127,178,255,0.25)" /><polyline points=${line} fill="none" stroke="#f0b429" stroke-width="2" />
      <circle cx=${x(points.length - 1)} cy=${y(last.mu)} r="4" fill="#f0b429" /></svg>
    <figcaption>${t("account.chart", { game, n: points.length, mu: last.mu.toFixed(1) })}</figcaption></figure>`;
}

export function PlayerPage({ username, navigate, lobby }) {
  const [p, setP] = useState(null);
  const [rows, setRows] = useState([]);
  const [filter, setFilter] = useState({ game: "", result: "", opponent: "", rated: "" });
  const games = Array.isArray(lobby) ? lobby : [];
  const query = () => new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== "")).toString();
  useEffect(() => { api(`/api/players/${encodeURIComponent(username)}`).then(setP).catch(notifyError); }, [username]);
  useEffect(() => { api(`/api/players/${encodeURIComponent(username)}/history?${query()}`).then(setRows).catch(notifyError); }, [username, filter]);
  if (!p) return html`<div class="loading" aria-busy="true"></div>`;
  const set = (k) => (e) => setFilter({ ...filter, [k]: e.target.value });
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  return html`<section class="player-page" aria-labelledby="player-h">
    <h1 id="player-h" data-testid="player-name">${p.display_name} <small>@${p.username}</small></h1>
    <${PlayerSocial} username=${p.username} lobby=${games} navigate=${navigate} />
    <h2>${t("account.ratings")}</h2>
    <table class="ratings" data-testid="ratings"><thead><tr><th scope="col">${t("account.game")}</th><th scope="col">${t("account.rating")}</th>
      <th scope="col">${t("account.uncertainty")}</th><th scope="col">${t("account.games")}</th></tr></thead>
      <tbody>${p.ratings.map((r) => html`<tr key=${r.game}><td><a href=${"/leaderboard/" + r.game} onClick=${go("/leaderboard/" + r.game)}>${r.game}</a></td>
        <td>${r.mu.toFixed(1)}${r.provisional ? html` <abbr title=${t("account.provisional")}>?</abbr>` : ""}</td><td>± ${(2 * r.sigma).toFixed(1)}</td><td>${r.games}</td></tr>`)}</tbody></table>
    <div class="charts">${p.ratings.map((r) => html`<${RatingChart} key=${r.game} username=${p.username} game=${r.game} />`)}</div>
    <h2>${t("account.stats")}</h2>
    <table class="stats" data-testid="stats"><thead><tr><th scope="col">${t("account.game")}</th><th scope="col">${t("account.played")}</th>
      <th scope="col">${t("account.won")}</th><th scope="col">${t("account.lost")}</th><th scope="col">${t("account.drawn")}</th></tr></thead>
      <tbody>${p.stats.map((r) => html`<tr key=${r.game}><td>${r.game}${r.by_seat.length > 1 ? html`<br /><small>${r.by_seat.map((b) =>
        t("account.by_seat", { n: b.seat + 1, won: b.win, played: b.played })).join(" · ")}</small>` : ""}</td><td>${r.played}</td><td>${r.win}</td><td>${r.loss}</td><td>${r.draw}</td></tr>`)}</tbody></table>
    <${PublicSets} username=${p.username} navigate=${navigate} />
    <h2>${t("account.history")}</h2>
    <div class="filters" role="group" aria-label=${t("account.filters")}>
      <label>${t("account.game")}<select data-testid="filter-game" onChange=${set("game")}><option value="">${t("account.all")}</option>
        ${games.map((g) => html`<option value=${g.id}>${g.name}</option>`)}</select></label>
      <label>${t("account.result")}<select data-testid="filter-result" onChange=${set("result")}><option value="">${t("account.all")}</option>
        <option value="win">${t("account.won")}</option><option value="loss">${t("account.lost")}</option><option value="draw">${t("account.drawn")}</option></select></label>
      <label>${t("account.rated")}<select data-testid="filter-rated" onChange=${set("rated")}><option value="">${t("account.all")}</option>
        <option value="true">${t("account.rated")}</option><option value="false">${t("account.casual")}</option></select></label>
      <label>${t("account.opponent")}<input data-testid="filter-opponent" maxlength="24" onChange=${set("opponent")} /></label></div>
    <table class="history" data-testid="history"><thead><tr><th scope="col">${t("account.game")}</th><th scope="col">${t("account.players")}</th>
      <th scope="col">${t("account.result")}</th><th scope="col">${t("account.rating")}</th><th scope="col">${t("account.replay")}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.match_id + r.seat}><td>${r.game}</td><td>${r.players.map((x) => x.name).join(", ")}</td>
        <td>${r.result === "win" ? t("account.result_win") : r.result === "loss" ? t("account.result_loss") : t("account.result_draw")}</td><td>${r.rated ? pct(r.rating_change) : t("account.casual")}${r.hints ? html`<br /><small data-testid="history-hints">${t("learn.hints_used", { n: r.hints })}</small>` : null}</td>
        <td><a href=${r.replay} onClick=${go(r.replay)}>${t("account.replay")}</a></td></tr>`)}</tbody></table>
    <p><a href=${`/api/players/${encodeURIComponent(username)}/history?format=csv&limit=200&${query()}`} download data-testid="export-csv">CSV</a> ·
      <a href=${`/api/players/${encodeURIComponent(username)}/history?limit=200&${query()}`} download data-testid="export-json">JSON</a></p>
  </section>`;
}

export function LeaderboardPage({ game, navigate, lobby }) {
  const [rows, setRows] = useState(null);
  const [offset, setOffset] = useState(0);
  const [provisional, setProvisional] = useState(false);
  useEffect(() => { api(`/api/leaderboard/${encodeURIComponent(game)}?offset=${offset}&provisional=${provisional}`).then(setRows).catch(notifyError); }, [game, offset, provisional]);
  const games = Array.isArray(lobby) ? lobby : [];
  const name = games.find((g) => g.id === game);
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  return html`<section class="leaderboard-page" aria-labelledby="board-h">
    <h1 id="board-h">${t("account.leaderboard", { game: name ? name.name : game })}</h1>
    <label>${t("account.game")} <select data-testid="board-game" value=${game} onChange=${(e) => navigate("/leaderboard/" + e.target.value)}>
      ${games.map((g) => html`<option value=${g.id}>${g.name}</option>`)}</select></label>
    <label><input type="checkbox" checked=${provisional} data-testid="show-provisional" onChange=${(e) => setProvisional(e.target.checked)} /> ${t("account.show_provisional")}</label>
    <table data-testid="leaderboard"><thead><tr><th scope="col">#</th><th scope="col">${t("account.player")}</th><th scope="col">${t("account.rating")}</th>
      <th scope="col">${t("account.uncertainty")}</th><th scope="col">${t("account.games")}</th></tr></thead>
      <tbody>${(rows || []).map((r) => html`<tr key=${r.username}><td>${r.rank}</td>
        <td><a href=${"/player/" + encodeURIComponent(r.username)} onClick=${go("/player/" + encodeURIComponent(r.username))}>${r.display_name}</a></td>
        <td>${r.mu.toFixed(1)}</td><td>± ${(2 * r.sigma).toFixed(1)}</td><td>${r.games}</td></tr>`)}</tbody></table>
    <div class="pager">${offset > 0 && html`<button class="btn" type="button" onClick=${() => setOffset(Math.max(0, offset - 50))}>${t("account.previous")}</button>`}
      ${rows && rows.length === 50 && html`<button class="btn" type="button" onClick=${() => setOffset(offset + 50)}>${t("account.next")}</button>`}</div>
  </section>`;
}
