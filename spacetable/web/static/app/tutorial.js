// The tutorial engine ("Learn to play", /tutorial/<game>): a scripted first game on a prepared scenario, played in
// the real match page against scripted replies, then a short real game against the easy computer.
//
// A script is data, static/tutorials/<game>.json:
//   {game, config, seed, player, handover: {config}, steps: [step, …]}
// and its texts static/tutorials/<game>.<lang>.json ({title, intro, done, "<step id>": text, "<step id>.wrong": text}).
// A step is one of
//   {id}                                   – read and press Next;
//   {id, expect, highlight, reply?, play?} – the player must play `expect` (every field given must match the action;
//                                            `play` is the full action when `expect` leaves fields out, replayed on resume):
//                                            `highlight` lists CSS selectors marked to tap (in order); any other
//                                            action is refused with the step's ".wrong" text; `reply` is then played
//                                            for the other seat (the scripted opponent);
//   {id, opponent}                         – the scripted opponent plays `opponent` while the text is read;
//   {id, final: true}                      – the end: hand over to a real game against the easy computer.
// The match is a real server match (fixed config and seed, both seats held by this page): every rule is the
// engine's. Progress is remembered in the browser and, when signed in, with the account (progress.js): a tutorial
// resumes at the step it was left by replaying the scripted actions, and a finished one is marked done.
import { html, useEffect, useRef, useState } from "./lib.js";
import { api, rememberSeat, seatLink } from "./api.js";
import { t } from "./i18n.js";
import { MatchPage } from "./match.js";
import { Button, notifyError } from "./ui.js";
import { saveProgress as keepProgress, tutorialProgress, useTutorialProgress } from "./progress.js";

export { tutorialProgress };

function fetchJson(url) {
  return fetch(url).then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.json(); });
}

/** A value in a canonical form: object keys sorted, lists of plain values (pieces, ships, cells) as sets. */
function canon(v) {
  if (Array.isArray(v)) {
    const items = v.map(canon);
    return items.every((x) => typeof x !== "object" || x === null) ? [...items].sort() : items;
  }
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v ?? null;
}

/** Whether `action` is the one a step expects: every field of `expect` equal (absent = null; the order inside a list
 *  of plain values does not count). */
export function matches(expect, action) {
  if (!action || typeof action !== "object") return false;
  return Object.keys(expect).every((k) => JSON.stringify(canon(expect[k])) === JSON.stringify(canon(action[k])));
}

function useHighlight(selectors) {
  useEffect(() => {
    const mark = () => {
      const want = new Set();
      for (const s of selectors || []) document.querySelectorAll(s).forEach((el) => want.add(el));
      document.querySelectorAll(".tutorial-target").forEach((el) => { if (!want.has(el)) el.classList.remove("tutorial-target"); });
      want.forEach((el) => el.classList.add("tutorial-target"));
    };
    mark();
    const id = setInterval(mark, 250);
    return () => { clearInterval(id); document.querySelectorAll(".tutorial-target").forEach((el) => el.classList.remove("tutorial-target")); };
  }, [JSON.stringify(selectors || [])]);
}

export function TutorialPage({ gameId, lobby, lang, navigate }) {
  const [script, setScript] = useState(null);
  const [texts, setTexts] = useState(null);
  const [error, setError] = useState(null);
  const [match, setMatch] = useState(null); // {id, tokens: {seat: token}}
  const [idx, setIdx] = useState(0);
  const [wrong, setWrong] = useState(null);
  const [busy, setBusy] = useState(false);
  const st = useRef({ start: 0, waiting: null, sent: false, idx: 0, version: 0 });
  const game = lobby.find((g) => g.id === gameId);
  const saved = useTutorialProgress(gameId);

  useEffect(() => {
    fetchJson(`/static/tutorials/${encodeURIComponent(gameId)}.json`).then(setScript).catch(setError);
  }, [gameId]);
  useEffect(() => {
    Promise.all([fetchJson(`/static/tutorials/${encodeURIComponent(gameId)}.${lang}.json`).catch(() => ({})),
      fetchJson(`/static/tutorials/${encodeURIComponent(gameId)}.en.json`).catch(() => ({}))])
      .then(([mine, en]) => setTexts({ ...en, ...mine }));
  }, [gameId, lang]);

  const tx = (key, fallback) => (texts && texts[key]) || fallback || key;
  const steps = script ? script.steps : [];
  const step = steps[idx] || null;
  const saveProgress = (g, patch) => keepProgress(g, { ...patch, steps: steps.length });
  const opponent = script ? 1 - (script.player || 0) : 1;
  useHighlight(match && step && step.expect ? step.highlight : []);

  async function opponentPlays(action, version) {
    st.current.waiting = { version: version + 1 };
    await api(`/api/matches/${match.id}/actions`, { body: { seat: opponent, token: match.tokens[opponent], version, action } });
  }

  function goTo(i, version) {
    st.current = { start: version, waiting: null, sent: false, idx: i, version };
    setIdx(i);
    setWrong(null);
    saveProgress(gameId, { step: i, ...(steps[i] && steps[i].final ? { done: true } : {}) });
  }

  // the scripted opponent's own steps: played as soon as the step opens
  useEffect(() => {
    if (!match || !step || !step.opponent || st.current.sent) return;
    st.current.sent = true;
    opponentPlays(step.opponent, st.current.version).catch(notifyError);
  }, [match, idx]);

  const tutor = {
    guard(action) {
      const s = steps[st.current.idx];
      if (s && s.expect && !st.current.sent && matches(s.expect, action)) { setWrong(null); return true; }
      setWrong(s && s.expect ? tx(`${s.id}.wrong`, t("tutorial.wrong")) : t("tutorial.read_first"));
      return false;
    },
    onState(latest) {
      const cur = st.current;
      cur.version = latest.version;
      const s = steps[cur.idx];
      if (!s) return;
      if (cur.waiting) {
        if (latest.version >= cur.waiting.version) goTo(cur.idx + 1, latest.version);
        return;
      }
      if (s.expect && latest.version > cur.start && !cur.sent) {
        cur.sent = true;
        if (s.reply) opponentPlays(s.reply, latest.version).catch(notifyError);
        else goTo(cur.idx + 1, latest.version);
      }
    },
  };

  async function start(resumeAt = 0) {
    setBusy(true);
    try {
      const player = script.player || 0;
      const res = await api("/api/matches", { body: { game: gameId, config: script.config, seed: script.seed, open_seed: true,
        join_seat: player, player_name: t("tutorial.you"), name: tx("title", t("tutorial.title")).slice(0, 200) } });
      const joined = await api(`/api/matches/${res.match.id}/seats/${opponent}/join`, { body: { name: t("tutorial.opponent") } });
      rememberSeat(res.match.id, player, res.token);
      const tokens = { [player]: res.token, [opponent]: joined.token };
      // resuming: replay the scripted actions of the steps already done
      let version = res.match.version || 0;
      const play = async (seat, action) => {
        await api(`/api/matches/${res.match.id}/actions`, { body: { seat, token: tokens[seat], version, action } });
        version += 1;
      };
      for (const s of steps.slice(0, resumeAt)) {
        if (s.expect) { await play(player, s.play || s.expect); if (s.reply) await play(opponent, s.reply); }
        if (s.opponent) await play(opponent, s.opponent);
      }
      st.current = { start: version, waiting: null, sent: false, idx: resumeAt, version };
      setIdx(resumeAt);
      setMatch({ id: res.match.id, tokens });
      saveProgress(gameId, { step: resumeAt });
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }

  async function handover() {
    setBusy(true);
    try {
      const easy = ((game && game.agents) || []).find((a) => a.level === "easy") || ((game && game.agents) || [])[0];
      const player = script.player || 0;
      const res = await api("/api/matches", { body: { game: gameId, config: (script.handover && script.handover.config) || {},
        ai_seats: { [opponent]: easy ? easy.name : null }, ai_seconds: 0.5, join_seat: player, player_name: t("tutorial.you") } });
      rememberSeat(res.match.id, res.seat, res.token);
      saveProgress(gameId, { done: true });
      navigate(seatLink(res.match.id, res.seat, res.token));
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }

  if (error) return html`<div class="card gone" data-testid="tutorial-missing"><h1>${t("tutorial.missing")}</h1></div>`;
  if (!script || !texts) return html`<div class="loading card" aria-busy="true"></div>`;
  const title = tx("title", t("tutorial.title"));
  if (!match) {
    return html`<article class="card tutorial-intro" data-testid="tutorial-intro" data-game=${gameId}>
      <h1>${title}</h1>
      <p>${tx("intro")}</p>
      ${saved.done ? html`<p class="tag" data-testid="tutorial-done-before">${t("tutorial.done_before")}</p>` : null}
      <div class="row-buttons">
        ${saved.step > 0 && !saved.done ? html`<${Button} icon="play" kind="primary" label=${t("tutorial.resume", { n: saved.step + 1 })}
          testid="tutorial-resume" disabled=${busy} onClick=${() => start(Math.min(saved.step, steps.length - 1))} />` : null}
        <${Button} icon="play" kind=${saved.step > 0 && !saved.done ? "" : "primary"} label=${t("tutorial.start")} testid="tutorial-start"
          disabled=${busy} onClick=${() => start(0)} />
        <${Button} icon="book" label=${t("lobby.rules")} href=${"/guide/" + gameId} onClick=${(e) => { e.preventDefault(); navigate("/guide/" + gameId); }} />
        <${Button} icon="home" label=${t("nav.lobby")} href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }} />
      </div></article>`;
  }
  const info = step && !step.expect && !step.opponent && !step.final;
  const panel = html`<section class="card tutorial-panel" data-testid="tutorial-panel" data-step=${step ? step.id : ""}
      data-kind=${step ? (step.final ? "final" : step.expect ? "act" : step.opponent ? "opponent" : "info") : ""}
      data-highlight=${JSON.stringify(step && step.expect ? step.highlight || [] : [])} aria-labelledby="tutorial-h">
    <h2 id="tutorial-h">${title}</h2>
    <p class="tutorial-progress muted" data-testid="tutorial-progress">${t("tutorial.step", { n: idx + 1, of: steps.length })}</p>
    <p aria-live="polite" data-testid="tutorial-text">${step ? tx(step.id) : ""}</p>
    ${wrong ? html`<p class="tutorial-wrong" role="alert" data-testid="tutorial-wrong">${wrong}</p>` : null}
    <div class="row-buttons">
      ${info ? html`<${Button} kind="primary" icon="next" label=${t("tutorial.next")} testid="tutorial-next"
        onClick=${() => goTo(idx + 1, st.current.version)} />` : null}
      ${step && step.final ? html`<${Button} kind="primary" icon="robot" label=${t("tutorial.handover")} testid="tutorial-handover"
        disabled=${busy} onClick=${handover} />` : null}
      ${step && step.final ? html`<${Button} icon="home" label=${t("nav.lobby")} href="/" testid="tutorial-lobby"
        onClick=${(e) => { e.preventDefault(); navigate("/"); }} />` : null}
    </div></section>`;
  return html`<${MatchPage} key=${match.id} matchId=${match.id} lobby=${lobby} navigate=${navigate} lang=${lang}
    tutor=${{ ...tutor, panel }} />`;
}
