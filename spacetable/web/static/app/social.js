// Finding a table (issue 21; docs/play.md): challenges (the lobby's list, a player's page, a challenge link), open
// seeks with a rating range, rematch and "Play again" after a match, presence (who is in the lobby, who is at each
// seat, "last seen") and the invisible mode of the account settings. Names from other people are written as text.
import { html, useEffect, useRef, useState } from "./lib.js";
import { api, rememberSeat, seatLink } from "./api.js";
import { accountApi, useAccount } from "./account.js";
import { t, tMaybe } from "./i18n.js";
import { Button, CopyField, notify, notifyError } from "./ui.js";
import { TimeControlFields, defaultTimeControl, offerTimeText, timeControlBody } from "./absent.js";

const BEAT_MS = 30000;
const POLL_MS = 5000;

function gameName(lobby, id) {
  const g = (lobby || []).find((x) => x.id === id);
  return tMaybe(`game.${id}.name`) || (g ? g.name : id);
}
function Kind({ rated }) {
  return html`<span class=${"tag" + (rated ? " rated" : "")}>${t(rated ? "social.rated" : "social.casual")}</span>`;
}
function PlayerLink({ who, navigate }) {
  if (!who) return html`<span>${t("social.anybody")}</span>`;
  const url = "/player/" + encodeURIComponent(who.username);
  return html`<a href=${url} onClick=${(e) => { e.preventDefault(); navigate(url); }}>${who.display_name || who.username}</a>`;
}
/** Fetch the account's token of a seat, remember it and open the match. */
export async function openMySeat(matchId, seat, navigate) {
  try {
    const res = await accountApi(`/api/account/matches/${matchId}/seats/${seat}/token`, {});
    rememberSeat(matchId, seat, res.token);
    navigate(seatLink(matchId, seat, res.token));
  } catch (e) { notifyError(e); }
}

// ------------------------------------------------------------------------------------------------ presence
/** Signed in, every page says it is open (the lobby also that it is the lobby); an invisible account's beats count
 *  for nothing on the server. Only while the tab is shown. */
export function PresenceBeat({ lobby }) {
  const acc = useAccount();
  const signed = !!acc.account;
  useEffect(() => {
    if (!signed) return undefined;
    const beat = () => { if (!document.hidden) accountApi("/api/presence", { lobby: !!lobby }).catch(() => {}); };
    beat();
    const every = setInterval(beat, BEAT_MS);
    document.addEventListener("visibilitychange", beat);
    return () => { clearInterval(every); document.removeEventListener("visibilitychange", beat); };
  }, [signed, lobby]);
  return null;
}

/** Which seats of a match have their player at the table (null until known). */
export function useSeatPresence(matchId, connection) {
  const [seats, setSeats] = useState(null);
  useEffect(() => {
    let alive = true;
    const load = () => { if (!document.hidden) api(`/api/matches/${matchId}/presence`).then((r) => { if (alive) setSeats(r.seats); }).catch(() => {}); };
    load();
    const every = setInterval(load, 15000);
    window.addEventListener("focus", load);  // back on the tab: who is at the table now, not at the next poll
    return () => { alive = false; clearInterval(every); window.removeEventListener("focus", load); };
  }, [matchId, connection]);  // read again when the page's own socket (re)connects
  return seats;
}

/** "online" or "last seen …" on a player's page (nothing for an invisible player). */
function LastSeen({ username }) {
  const [p, setP] = useState(null);
  useEffect(() => { api(`/api/players/${encodeURIComponent(username)}/presence`).then(setP).catch(() => {}); }, [username]);
  if (!p) return null;
  if (p.online) return html`<p class="presence on" data-testid="player-presence">${t("presence.online")}</p>`;
  if (!p.last_seen) return null;
  return html`<p class="presence off" data-testid="player-presence">${t("presence.last_seen", { when: new Date(p.last_seen * 1000).toLocaleString() })}</p>`;
}

/** The account setting: invisible (others see you offline). */
export function InvisibleSetting() {
  const [on, setOn] = useState(null);
  useEffect(() => { api("/api/account/presence").then((r) => setOn(r.invisible)).catch(() => {}); }, []);
  if (on === null) return null;
  async function change(v) {
    try { setOn((await accountApi("/api/account/presence", { invisible: v })).invisible); } catch (e) { notifyError(e); }
  }
  return html`<label class="check invisible-setting"><input type="checkbox" checked=${on} data-testid="invisible"
    onChange=${(e) => change(e.target.checked)} /> <span>${t("presence.invisible")}</span></label>
    <p class="help">${t("presence.invisible_help")}</p>`;
}

// ------------------------------------------------------------------------------------------------ challenges
/** A player's page: online / last seen, and a challenge to this player (signed in, not oneself). */
export function PlayerSocial({ username, lobby, navigate }) {
  const acc = useAccount();
  const [game, setGame] = useState(lobby && lobby.length ? lobby[0].id : "");
  const [rated, setRated] = useState(false);
  const [timeControl, setTimeControl] = useState(defaultTimeControl());
  const [sent, setSent] = useState(false);
  const me = acc.account && acc.account.username.toLowerCase() === username.toLowerCase();
  async function send(e) {
    e.preventDefault();
    try {
      await accountApi("/api/challenges", { username, game, rated, ...timeControlBody(timeControl) });
      setSent(true);
      notify({ text: t("social.challenge_sent", { name: username }) });
    } catch (err) { notifyError(err); }
  }
  return html`<${LastSeen} username=${username} />
    ${acc.account && !me ? html`<form class="card challenge-form" onSubmit=${send} data-testid="challenge-form" aria-labelledby="challenge-h">
      <h2 id="challenge-h">${t("social.challenge_player")}</h2>
      <label class="inline-field">${t("account.game")} <select data-testid="challenge-game" value=${game} onChange=${(e) => setGame(e.target.value)}>
        ${(lobby || []).map((g) => html`<option value=${g.id}>${gameName(lobby, g.id)}</option>`)}</select></label>
      <${TimeControlFields} value=${timeControl} onChange=${setTimeControl} game=${(lobby || []).find((g) => g.id === game)} />
      <label class="check"><input type="checkbox" checked=${rated} data-testid="challenge-rated" onChange=${(e) => setRated(e.target.checked)} />
        <span>${t("account.rated_match")}</span></label>
      <${Button} type="submit" kind="primary" icon="friend" label=${t("social.challenge")} testid="challenge-send" disabled=${sent} />
    </form>` : null}`;
}

/** A challenge opened by its link: who, what; accept (signed in) or decline. */
export function ChallengePage({ id, lobby, navigate }) {
  const acc = useAccount();
  const [c, setC] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => { api(`/api/challenges/${encodeURIComponent(id)}`).then(setC).catch(setError); }, [id]);
  if (error) return html`<section class="card"><h1>${t("social.challenge")}</h1><p role="alert">${error.message}</p></section>`;
  if (!c) return html`<div class="loading" aria-busy="true"></div>`;
  const mine = acc.account && c.by && acc.account.username === c.by.username;
  return html`<section class="card challenge-page" data-testid="challenge-page" aria-labelledby="challenge-page-h">
    <h1 id="challenge-page-h">${t("social.challenge_from", { name: c.by ? c.by.display_name : "?" })}</h1>
    <p>${gameName(lobby, c.game)} · <${Kind} rated=${c.rated} /> · ${offerTimeText(c)}</p>
    ${c.status !== "open" ? html`<p role="status" data-testid="challenge-status">${t("social.status." + c.status)}</p>`
      : mine ? html`<${CopyField} label=${t("social.challenge_link")} value=${location.origin + c.link} testid="challenge-link" />`
      : acc.account ? html`<${ChallengeAnswer} c=${c} navigate=${navigate} />`
      : html`<p>${t("social.sign_in_to_accept")} <a href="/account" onClick=${(e) => { e.preventDefault(); navigate("/account"); }}>${t("account.signin")}</a></p>`}
  </section>`;
}

function ChallengeAnswer({ c, navigate, onDone }) {
  async function accept() {
    try {
      const res = await accountApi(`/api/challenges/${c.id}/accept`, {});
      rememberSeat(res.match, res.seat, res.token);
      navigate(res.link);
    } catch (e) { notifyError(e); }
  }
  async function decline() {
    try { await accountApi(`/api/challenges/${c.id}/decline`, {}); if (onDone) onDone(); else navigate("/"); } catch (e) { notifyError(e); }
  }
  return html`<span class="row-buttons">
    <${Button} kind="primary" icon="play" label=${t("social.accept")} onClick=${accept} testid="challenge-accept" />
    <${Button} icon="close" label=${t("social.decline")} onClick=${decline} testid="challenge-decline" /></span>`;
}

// ------------------------------------------------------------------------------------------------ the lobby
/** The lobby's live part: challenges to and from you, the open seeks (yours with Cancel), your matches on this
 *  account, and who is online. Polls while the tab is shown. */
export function LobbySocial({ lobby, navigate }) {
  const acc = useAccount();
  const signed = !!acc.account;
  const [data, setData] = useState({ seeks: [], mine: [], to_me: [], from_me: [], online: [], matches: [] });
  const refresh = useRef(() => {});
  useEffect(() => {
    let alive = true;
    async function load() {
      if (document.hidden) return;
      try {
        const [seeks, online, ch, matches] = await Promise.all([api("/api/seeks"), api("/api/presence/lobby"),
          signed ? api("/api/challenges") : null, signed ? api("/api/account/matches") : []]);
        if (alive) {
          setData({ seeks: seeks.seeks, mine: seeks.mine || [], online: online.players, to_me: ch ? ch.to_me : [],
            from_me: ch ? ch.from_me : [], matches });
        }
      } catch { /* the lists stay as they were; the next poll tries again */ }
    }
    refresh.current = load;
    load();
    const every = setInterval(load, POLL_MS);
    const again = () => load();
    window.addEventListener("spacetable:social", again);
    window.addEventListener("focus", again);  // back on the tab: the lists as they are now, not at the next poll
    return () => {
      alive = false; clearInterval(every);
      window.removeEventListener("spacetable:social", again); window.removeEventListener("focus", again);
    };
  }, [signed]);
  const me = acc.account ? acc.account.username : null;
  const others = data.seeks.filter((s) => s.by !== me);
  const open = data.mine.filter((s) => s.status === "open");
  async function take(s) {
    try {
      const res = await accountApi(`/api/seeks/${s.id}/accept`, {});
      rememberSeat(res.match, res.seat, res.token);
      navigate(res.link);
    } catch (e) { notifyError(e); refresh.current(); }
  }
  async function cancel(s) {
    try { await accountApi(`/api/seeks/${s.id}/cancel`, {}); } catch (e) { notifyError(e); }
    refresh.current();
  }
  async function withdraw(c) {
    try { await accountApi(`/api/challenges/${c.id}/decline`, {}); } catch (e) { notifyError(e); }
    refresh.current();
  }
  const range = (s) => (s.min_rating === null && s.max_rating === null ? "" : ` · ${t("social.range", {
    min: s.min_rating === null ? "…" : Math.round(s.min_rating), max: s.max_rating === null ? "…" : Math.round(s.max_rating) })}`);
  return html`<div class="social" data-testid="social">
    ${signed && data.to_me.length ? html`<section class="card list" data-testid="challenges-in" aria-labelledby="challenges-in-h">
      <h2 id="challenges-in-h">${t("social.challenges_to_you")} <span class="count">${data.to_me.length}</span></h2>
      <ul class="matches">${data.to_me.map((c) => html`<li data-testid="challenge-row" data-challenge=${c.id}>
        <span class="match-game">${gameName(lobby, c.game)}</span> <${PlayerLink} who=${c.by} navigate=${navigate} />
        <${Kind} rated=${c.rated} /> <span class="muted small">${offerTimeText(c)}</span>
        <${ChallengeAnswer} c=${c} navigate=${navigate} onDone=${() => refresh.current()} /></li>`)}</ul></section>` : null}
    ${signed && data.from_me.length ? html`<section class="card list" data-testid="challenges-out" aria-labelledby="challenges-out-h">
      <h2 id="challenges-out-h">${t("social.your_challenges")} <span class="count">${data.from_me.length}</span></h2>
      <ul class="matches">${data.from_me.map((c) => html`<li data-testid="challenge-out-row">
        <span class="match-game">${gameName(lobby, c.game)}</span> → <${PlayerLink} who=${c.to} navigate=${navigate} />
        ${c.open ? html`<${CopyField} label=${t("social.challenge_link")} value=${location.origin + c.link} testid="challenge-link" />` : null}
        <${Button} icon="close" label=${t("social.withdraw")} onClick=${() => withdraw(c)} testid="challenge-withdraw" /></li>`)}</ul></section>` : null}
    ${signed && data.matches.length ? html`<section class="card list" data-testid="account-matches" aria-labelledby="account-matches-h">
      <h2 id="account-matches-h">${t("social.your_account_matches")} <span class="count">${data.matches.length}</span></h2>
      <ul class="matches">${data.matches.map((m) => html`<li data-testid="account-match" data-match=${m.match_id}>
        <span class="match-game">${gameName(lobby, m.game)}</span>
        ${m.your_turn ? html`<span class="badge">${t("lobby.your_turn")}</span>` : null}
        <${Button} icon="play" label=${t("lobby.resume")} onClick=${() => openMySeat(m.match_id, m.seat, navigate)} testid="account-match-open" /></li>`)}</ul>
    </section>` : null}
    <section class="card list" data-testid="seeks" aria-labelledby="seeks-h">
      <h2 id="seeks-h">${t("social.seeks")} <span class="count">${others.length}</span></h2>
      ${others.length ? html`<ul class="matches">${others.map((s) => html`<li data-testid="seek-row" data-seek=${s.id}>
        <span class="match-game">${gameName(lobby, s.game)}</span>
        <${PlayerLink} who=${{ username: s.by, display_name: s.by_name }} navigate=${navigate} />
        <span class="muted small">${t("account.rating")} ${Math.round(s.by_rating)}${range(s)}</span>
        <${Kind} rated=${s.rated} /> <span class="muted small">${offerTimeText(s)}</span>
        ${signed ? html`<${Button} kind="primary" icon="play" label=${t("social.accept")} onClick=${() => take(s)} testid="seek-accept" />` : null}</li>`)}</ul>`
        : html`<p class="muted small">${t("social.no_seeks")}</p>`}
      ${!signed ? html`<p class="muted small">${t("social.sign_in_to_seek")}</p>` : null}
      ${open.length ? html`<h3>${t("social.your_seeks")}</h3><ul class="matches">${open.map((s) => html`<li data-testid="my-seek">
        <span class="match-game">${gameName(lobby, s.game)}</span> <${Kind} rated=${s.rated} />
        <span class="muted small">${offerTimeText(s)}${range(s)}</span>
        <${Button} icon="close" label=${t("social.cancel")} onClick=${() => cancel(s)} testid="seek-cancel" /></li>`)}</ul>` : null}
    </section>
    <section class="card list" data-testid="online" aria-labelledby="online-h">
      <h2 id="online-h">${t("presence.in_lobby")} <span class="count">${data.online.length}</span></h2>
      ${data.online.length ? html`<ul class="online-list">${data.online.map((p) => html`<li data-testid="online-player">
        <span class="presence-dot" aria-hidden="true"></span><${PlayerLink} who=${p} navigate=${navigate} /></li>`)}</ul>`
        : html`<p class="muted small">${t("presence.nobody")}</p>`}
    </section>
  </div>`;
}

/** Post a challenge or a seek from the lobby's form (``body``: game, config, rated, clock and lapse). */
export async function postChallenge(body, username) {
  const res = await accountApi("/api/challenges", { ...body, username: username || null });
  window.dispatchEvent(new Event("spacetable:social"));
  return res;
}
export async function postSeek(body, minRating, maxRating) {
  const num = (v) => (v === "" || v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));
  const res = await accountApi("/api/seeks", { ...body, min_rating: num(minRating), max_rating: num(maxRating) });
  window.dispatchEvent(new Event("spacetable:social"));
  return res;
}

// ------------------------------------------------------------------------------------------------ rematch
/** Against the computer: a new match at once, same options, same seat (the server's rematch with one player). */
export async function playAgain(matchId, seat, token, navigate) {
  try {
    const r = await api(`/api/matches/${matchId}/rematch`, { body: { seat, token } });
    rememberSeat(r.match, r.yours.seat, r.yours.token);
    navigate(r.yours.link, { reload: true });
  } catch (e) { notifyError(e); }
}

/** After a match: offer a rematch (people: seats swapped, everybody must agree) or play again (against the
 *  computer: at once). Shows the offer's state and opens the new match once it is made. */
export function RematchPanel({ match, matchId, seat, token, navigate }) {
  const [offer, setOffer] = useState(null);
  const humans = match.seats.filter((s) => s.kind === "human").length;
  const finished = match.status === "finished";
  const go = (yours) => {
    if (yours && yours.link) {
      rememberSeat(yours.link.split("/")[2].split("#")[0], yours.seat, yours.token);
      navigate(yours.link);
      return true;
    }
    return false;
  };
  useEffect(() => {
    if (!finished || seat === null || !token || humans < 2) return undefined;
    let alive = true;
    const load = async () => {
      try {
        const r = await api(`/api/matches/${matchId}/rematch?seat=${seat}`, { token });
        if (!alive) return;
        setOffer(r);
      } catch { /* try again */ }
    };
    load();
    const every = setInterval(load, 3000);
    return () => { alive = false; clearInterval(every); };
  }, [finished, matchId, seat, token, humans]);
  if (!finished || seat === null || !token) return null;
  async function agree() {
    try {
      const r = await api(`/api/matches/${matchId}/rematch`, { body: { seat, token } });
      if (!go(r.yours)) setOffer(r);
    } catch (e) { notifyError(e); }
  }
  async function decline() {
    try { setOffer(await api(`/api/matches/${matchId}/rematch/decline`, { body: { seat, token } })); } catch (e) { notifyError(e); }
  }
  if (humans < 2) return null;  // against the computer: "Play again" in the result (playAgain)
  const status = offer ? offer.status : "none";
  const iAgreed = offer && offer.agreed.includes(seat);
  let body;
  if (status === "accepted" && offer.yours && offer.yours.link) {
    body = html`<p role="status">${t("social.rematch_ready")}</p>
      <${Button} kind="primary" icon="play" label=${t("social.rematch_open")} onClick=${() => go(offer.yours)} testid="rematch-open" />`;
  } else if (status === "declined") body = html`<p role="status" data-testid="rematch-declined">${t("social.rematch_declined")}</p>`;
  else if (status === "open" && iAgreed) body = html`<p role="status" data-testid="rematch-waiting">${t("social.rematch_waiting")}</p>`;
  else if (status === "open") {
    body = html`<p role="status" data-testid="rematch-offered">${t("social.rematch_offered")}</p><span class="row-buttons">
      <${Button} kind="primary" icon="refresh" label=${t("social.accept")} onClick=${agree} testid="rematch-accept" />
      <${Button} icon="close" label=${t("social.decline")} onClick=${decline} testid="rematch-decline" /></span>`;
  } else {
    body = html`${status === "expired" ? html`<p class="muted small">${t("social.rematch_expired")}</p>` : null}
      <${Button} kind="primary" icon="refresh" label=${t("social.rematch")} onClick=${agree} testid="rematch-offer" />`;
  }
  return html`<section class="card rematch" data-testid="rematch-panel" data-status=${status} aria-labelledby="rematch-h">
    <h2 id="rematch-h">${t("social.rematch")}</h2>${body}</section>`;
}
