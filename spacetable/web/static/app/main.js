// The page: top bar (lobby link, language), the router (/, /match/<id>, /replay/<id>, /guide/<game> (also /rules/<game>), /tutorial/<game>) and the
// notices. Everything is drawn with Preact + htm (vendored, no build step).
import { html, render, useEffect, useState } from "./lib.js";
import { api, forgetSeat } from "./api.js";
import { Icon } from "./icons.js";
import { LANGS, LANG_NAMES, initialLang, setLang, t } from "./i18n.js";
import { AccountMenu, AccountPage, LeaderboardPage, PlayerPage, loadAccount, saveLang } from "./account.js";
import { Bell } from "./callback.js";
import { LobbyPage } from "./lobby.js";
import { ChallengePage, PresenceBeat } from "./social.js";
import { MatchPage } from "./match.js";
import { ReplayPage } from "./replay.js";
import { GuidePage } from "./guide.js";
import { TutorialPage } from "./tutorial.js";
import { MapEditorPage } from "./workbench-map.js";
import { WorkbenchEditorPage } from "./workbench-editor.js";
import { WorkbenchPage } from "./workbench.js";
import { Notices, notifyError } from "./ui.js";

function route(path) {
  let m;
  if ((m = path.match(/^\/match\/([\w-]+)\/?$/))) return { page: "match", id: m[1] };
  if ((m = path.match(/^\/replay\/([\w-]+)\/?$/))) return { page: "replay", id: m[1] };
  if ((m = path.match(/^\/(?:rules|guide)\/([\w-]+)\/?$/))) return { page: "rules", id: m[1] };
  if ((m = path.match(/^\/tutorial\/([\w-]+)\/?$/))) return { page: "tutorial", id: m[1] };
  if ((m = path.match(/^\/player\/([^/]+)\/?$/))) return { page: "player", id: decodeURIComponent(m[1]) };
  if ((m = path.match(/^\/leaderboard\/([\w-]+)\/?$/))) return { page: "leaderboard", id: m[1] };
  if ((m = path.match(/^\/challenge\/([\w-]+)\/?$/))) return { page: "challenge", id: m[1] };
  if (path === "/account") return { page: "account" };
  if (/^\/workbench\/map\/?$/.test(path)) return { page: "mapeditor" };
  if ((m = path.match(/^\/workbench\/([a-z][a-z0-9_]*)\/([a-z][a-z0-9_]*)\/?$/))) return { page: "wb-editor", id: m[1], kind: m[2] };
  if (path === "/workbench" || path === "/workbench/") return { page: "workbench" };
  return { page: "lobby" };
}

function Logo() {
  return html`<svg class="logo" width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <circle cx="16" cy="16" r="9" fill="#f0b429" /><ellipse cx="16" cy="16" rx="15" ry="5" fill="none" stroke="#7fb2ff" stroke-width="2"
      transform="rotate(-25 16 16)" /></svg>`;
}

function App() {
  const [lang, setLangState] = useState(null);
  const [loc, setLoc] = useState({ path: location.pathname, n: 0 });
  const [lobby, setLobby] = useState(null);

  useEffect(() => {
    setLang(initialLang()).then(setLangState);
    // a signed-in player's preferred language follows them to every device
    loadAccount().then((s) => { if (s.account && s.account.lang !== initialLang()) setLang(s.account.lang).then(setLangState); });
    api("/api/lobby").then(setLobby).catch((e) => { notifyError(e); setLobby([]); });
    const pop = () => setLoc((l) => ({ path: location.pathname, n: l.n + 1 }));
    window.addEventListener("popstate", pop);
    // the account's settings chose another language: the page speaks it at once (no reload)
    const chosen = (e) => { if (LANGS.includes(e.detail)) setLang(e.detail).then(setLangState); };
    window.addEventListener("spacetable:lang", chosen);
    return () => { window.removeEventListener("popstate", pop); window.removeEventListener("spacetable:lang", chosen); };
  }, []);
  useEffect(() => { if (lang && lobby) document.body.dataset.ready = "yes"; }, [lang, lobby]);

  function navigate(url, opts = {}) {
    const r = route(url.split(/[?#]/)[0]);
    if (opts.forget && r.id) forgetSeat(r.id);
    history.pushState({}, "", url);
    setLoc((l) => ({ path: location.pathname, n: l.n + 1 }));
    window.scrollTo(0, 0);
  }
  async function changeLang(code) { setLangState(await setLang(code)); saveLang(code); }

  if (!lang || !lobby) return html`<div class="loading" aria-busy="true"></div>`;
  const r = route(loc.path);
  const key = `${loc.path}|${loc.n}`;
  let page;
  if (r.page === "match") page = html`<${MatchPage} key=${key} matchId=${r.id} lobby=${lobby} navigate=${navigate} lang=${lang} />`;
  else if (r.page === "replay") page = html`<${ReplayPage} key=${key} matchId=${r.id} lobby=${lobby} navigate=${navigate} lang=${lang} />`;
  else if (r.page === "rules") page = html`<${GuidePage} key=${key} gameId=${r.id} lobby=${lobby} lang=${lang} navigate=${navigate} />`;
  else if (r.page === "tutorial") page = html`<${TutorialPage} key=${key} gameId=${r.id} lobby=${lobby} lang=${lang} navigate=${navigate} />`;
  else if (r.page === "mapeditor") page = html`<${MapEditorPage} key=${key} navigate=${navigate} lang=${lang} />`;
  else if (r.page === "account") page = html`<${AccountPage} key=${key} navigate=${navigate} lang=${lang} />`;
  else if (r.page === "player") page = html`<${PlayerPage} key=${key} username=${r.id} lobby=${lobby} navigate=${navigate} />`;
  else if (r.page === "workbench") page = html`<${WorkbenchPage} key=${key} navigate=${navigate} />`;
  else if (r.page === "leaderboard") page = html`<${LeaderboardPage} key=${key} game=${r.id} lobby=${lobby} navigate=${navigate} />`;
  else if (r.page === "challenge") page = html`<${ChallengePage} key=${key} id=${r.id} lobby=${lobby} navigate=${navigate} />`;
  else if (r.page === "wb-editor") page = html`<${WorkbenchEditorPage} key=${key} game=${r.id} kind=${r.kind} />`;
  else page = html`<${LobbyPage} key=${key} lobby=${lobby} navigate=${navigate} lang=${lang} />`;
  document.title = t("app.title");
  return html`<header class="topbar">
      <a href="/" class="brand" data-testid="home-link" onClick=${(e) => { e.preventDefault(); navigate("/"); }}><${Logo} /><span>spacetable</span></a>
      <nav aria-label=${t("nav.main")}><a href="/" data-testid="nav-lobby" onClick=${(e) => { e.preventDefault(); navigate("/"); }}>${t("nav.lobby")}</a>
        <a href="/leaderboard/fullmetal" data-testid="nav-leaderboard" onClick=${(e) => { e.preventDefault(); navigate("/leaderboard/fullmetal"); }}>${t("account.leaderboards")}</a>
        <a href="/workbench" data-testid="nav-workbench" onClick=${(e) => { e.preventDefault(); navigate("/workbench"); }}>${t("wb.sets.nav")}</a>
        <${AccountMenu} navigate=${navigate} /><${Bell} navigate=${navigate} /></nav>
      <label class="lang"><${Icon} name="globe" /><span class="sr-only">${t("nav.language")}</span>
        <select id="lang-select" data-testid="lang-select" value=${lang} onChange=${(e) => changeLang(e.target.value)}>
          ${LANGS.map((c) => html`<option value=${c} lang=${c}>${LANG_NAMES[c]}</option>`)}</select></label>
    </header>
    <main id="main" data-testid="app" data-lang=${lang}>${page}</main>
    <${Notices} /><${PresenceBeat} lobby=${r.page === "lobby"} />`;
}

render(html`<${App} />`, document.getElementById("root"));
