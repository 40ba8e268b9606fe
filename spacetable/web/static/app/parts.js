// Pieces of the match and replay pages: players, clocks, the log, the result card, the fallback action list.
import { html, useEffect, useRef, useState } from "./lib.js";
import { Icon } from "./icons.js";
import { t, tMaybe, num } from "./i18n.js";
import { Button, Fold } from "./ui.js";

/** Names for seats: a person's name, "Computer (hard)" for an AI, "Open seat 2" for a free one; seats that would
 *  share a name (two computers at one level, two people named alike) get their seat number after it. */
export function seatNamer(match, agentLevels, mySeat) {
  const base = (i) => {
    const s = match && match.seats[i];
    if (!s) return t("seat.player_n", { n: i + 1 });
    if (s.kind === "open") return t("seat.open_n", { n: i + 1 });
    if (s.kind === "ai") {
      const level = agentLevels && agentLevels[s.agent];
      return level ? t("seat.computer_level", { level: t("level." + level) }) : t("seat.computer");
    }
    return s.name || t("seat.player_n", { n: i + 1 });
  };
  const seats = (match && match.seats) || [];
  return (i, opts = {}) => {
    let name = base(i);
    if (seats.some((_, j) => j !== i && base(j) === name)) name = `${name} ${i + 1}`;
    if (opts.you !== false && mySeat !== null && mySeat !== undefined && i === mySeat) name = t("seat.you", { name });
    return name;
  };
}

export function useNow(active) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

export function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d) return t("clock.days", { d, h: hh });
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

export function Players({ match, toAct, seatName, colourOf, mySeat, now, onJoin, onAddAi, agents, canAct, present }) {
  const [name, setName] = useState("");
  const [level, setLevel] = useState(null);
  const open = match.seats.some((s) => s.kind === "open");
  const aiChoice = level || (agents && agents.length ? agents[agents.length - 1].name : null);
  return html`<section class="card players" data-testid="seats" aria-labelledby="players-h">
    <h2 id="players-h">${t("match.players")}</h2>
    <ul>${match.seats.map((s, i) => {
      const acting = toAct.includes(i) && match.status === "running";
      const left = match.deadline && acting ? match.deadline - now : null;
      return html`<li class=${acting ? "to-act" : ""} data-testid=${"seat-" + i}>
        <span class="seat-dot" style=${{ background: colourOf(i) }} aria-hidden="true"></span>
        <span class="seat-name">${seatName(i)}</span>
        ${present && s.kind === "human" ? html`<span class=${"presence " + (present[i] ? "on" : "off")} data-testid=${"presence-" + i}
          data-present=${present[i] ? "yes" : "no"}>${t(present[i] ? "presence.here" : "presence.away")}</span>` : null}
        ${acting ? html`<span class="badge" data-testid=${"to-act-" + i}>${t("match.to_act")}</span>` : null}
        ${left !== null ? html`<span class="clock" data-testid="clock"><${Icon} name="clock" size=${16} /> ${clockText(left)}</span>` : null}
        ${s.kind === "open" && mySeat === null && match.status === "open" ? html`<${Button} label=${t("match.take_seat")} kind="primary"
          testid=${"join-seat-" + i} onClick=${() => onJoin(i, name)} />` : null}
        ${s.kind === "open" && canAct && agents && agents.length ? html`<${Button} icon="robot" label=${t("match.add_ai")}
          testid=${"add-ai-" + i} onClick=${() => onAddAi(i, aiChoice)} />` : null}
      </li>`;
    })}</ul>
    ${open && mySeat === null && match.status === "open" ? html`<label class="field">${t("lobby.your_name")}
      <input data-testid="join-name" value=${name} maxlength="100" onInput=${(e) => setName(e.target.value)} /></label>` : null}
    ${open && canAct && agents && agents.length > 1 ? html`<label class="field">${t("match.ai_level")}
      <select value=${aiChoice} onChange=${(e) => setLevel(e.target.value)} data-testid="add-ai-level">
        ${agents.map((a) => html`<option value=${a.name}>${t("level." + a.level)}</option>`)}</select></label>` : null}
  </section>`;
}

/** One log line: number, who, the notation, and the server's sentence in the interface language. */
function LogLine({ e, seatName, colourOf, current, onClick }) {
  const what = e.action === null ? t("log.hidden") : e.notation || e.text;
  const sentence = e.text && e.text !== what ? e.text : null;
  const inner = html`<span class="log-num">${e.index + 1}</span>
    <span class="log-who"><span class="seat-dot" style=${{ background: colourOf(e.seat) }} aria-hidden="true"></span>${seatName(e.seat, { you: false })}</span>
    <span class="log-what">${what}${e.source === "timeout" ? html` <span class="tag">${t("log.timeout")}</span>` : null}</span>
    ${sentence ? html`<span class="log-sentence">${sentence}</span>` : null}`;
  return html`<li data-testid="log-entry" data-index=${e.index} class=${current ? "current" : ""} aria-current=${current ? "step" : null}>
    ${onClick ? html`<button type="button" class="log-button" onClick=${onClick}>${inner}</button>` : inner}</li>`;
}

export function Log({ log, seatName, colourOf, current, onPick, title }) {
  const ref = useRef(null);
  // a log that scrolls can be focused, so that it scrolls by keyboard too; a short one is no tab stop
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const cur = el.querySelector("li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    else el.scrollTop = el.scrollHeight;
    setScrolls(el.scrollHeight > el.clientHeight + 1);
  }, [log.length, current]);
  return html`<section class="card log-card" aria-labelledby="log-h">
    <h2 id="log-h">${title || t("match.log")}</h2>
    ${log.length ? null : html`<p class="muted small">${t("log.empty")}</p>`}
    <ol class="log" ref=${ref} data-testid="move-log" tabindex=${scrolls ? "0" : null} aria-labelledby="log-h">
      ${log.map((e) => html`<${LogLine} key=${e.index} e=${e} seatName=${seatName} colourOf=${colourOf}
        current=${current === e.index} onClick=${onPick ? () => onPick(e.index + 1) : null} />`)}
    </ol>
  </section>`;
}

export function endingText(renderer, outcome, view) {
  // a draw agreed with the core draw offer (CORE-DRAW): the frame's own sentence, whatever the game's score says
  if (outcome.kind === "agreement" && !(outcome.winners || []).length) return t("ending.agreement");
  let s = null;
  try { s = renderer && renderer.ending ? renderer.ending(outcome, view, t) : null; } catch { s = null; }
  return s || tMaybe("ending." + outcome.kind) || t("ending.other");
}

export function Result({ match, mySeat, seatName, renderer, view, navigate, onRematch, onClose, matchId }) {
  const out = match.outcome;
  if (!out) return null;
  const winners = out.winners || [];
  let title;
  if (!winners.length) title = t("result.draw");
  else if (mySeat !== null && winners.includes(mySeat)) title = t("result.you_won");
  else if (mySeat !== null) title = t("result.you_lost", { who: winners.map((i) => seatName(i, { you: false })).join(", ") });
  else title = t("result.winner", { who: winners.map((i) => seatName(i)).join(", ") });
  const order = out.ranking && out.ranking.length ? out.ranking : match.seats.map((_, i) => i);
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  return html`<div class="result card" data-testid="result" role="status">
    <div class="result-head"><${Icon} name="trophy" size=${28} />
      <h2 data-testid="result-title">${title}</h2>
      ${onClose ? html`<${Button} icon="close" iconOnly kind="ghost" label=${t("ui.close")} onClick=${onClose} testid="result-close" />` : null}</div>
    <p data-testid="result-ending">${endingText(renderer, out, view)}</p>
    <table class="scores"><caption class="sr-only">${t("result.scores")}</caption><tbody>
      ${order.map((i) => html`<tr><th scope="row">${seatName(i)}</th><td data-testid=${"score-" + i}>${typeof out.scores[i] === "number" ? num(out.scores[i]) : String(out.scores[i])}</td></tr>`)}
    </tbody></table>
    <div class="row-buttons">
      ${onRematch ? html`<${Button} icon="refresh" label=${t("result.rematch")} kind="primary" onClick=${onRematch} testid="rematch" />` : null}
      <${Button} icon="eye" label=${t("result.replay")} href=${"/replay/" + matchId} onClick=${go("/replay/" + matchId)} testid="result-replay" />
      <${Button} icon="home" label=${t("nav.lobby")} href="/" onClick=${go("/")} testid="result-lobby" />
    </div>
  </div>`;
}

/** Every legal action as a button, folded away: the accessible fallback (opened for games without a board UI). */
export function ActionList({ legal, legalText, legalCount, legalComplete, play, open, enabled }) {
  const n = legalComplete === false ? legalCount : legal.length;
  return html`<${Fold} testid="legal-actions" open=${open} cls="card action-fold"
      summary=${html`<${Icon} name="list" /> ${t("match.all_actions", { n })}`}>
    ${legalComplete === false ? html`<p class="muted small" data-testid="legal-partial" data-count=${String(legalCount)}>
      ${t("match.legal_partial", { shown: legal.length, count: legalCount })}</p>` : null}
    ${legal.length ? html`<div class="action-list">${legal.map((a, i) => html`<button type="button" class="btn action"
        data-testid=${"action-" + i} data-action=${JSON.stringify(a)} disabled=${!enabled} onClick=${() => play(a)}>
        ${legalText[i] || JSON.stringify(a)}</button>`)}</div>`
      : html`<p class="muted small">${t("match.no_actions")}</p>`}
  </${Fold}>`;
}

/** The page shown for a wrong match or seat link. */
export function Gone({ error, matchId, navigate }) {
  const code = (error && error.code) || "not_found";
  const noMatch = code === "not_found";
  return html`<div class="gone card" data-testid="gone" data-code=${code}>
    <${Icon} name="alert" size=${32} />
    <h1>${noMatch ? t("gone.no_match") : t("gone.bad_seat")}</h1>
    <p>${noMatch ? t("gone.no_match_text") : t("gone.bad_seat_text")}</p>
    <div class="row-buttons">
      ${noMatch ? null : html`<${Button} icon="eye" label=${t("gone.watch")} href=${"/match/" + matchId}
        onClick=${(e) => { e.preventDefault(); navigate("/match/" + matchId, { forget: true }); }} testid="gone-watch" />`}
      <${Button} icon="home" kind="primary" label=${t("nav.lobby")} href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }} testid="gone-lobby" />
    </div>
  </div>`;
}
