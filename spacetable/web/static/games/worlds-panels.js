// Worlds & Suns side panels: the status (which side you play, pools, hands, material, the rules' notices folded
// behind an info button), the results of the battles, the legend, and the hand of event cards under the board.
import { html, Icon } from "/static/app/kit.js";
import { PawnShape, Die } from "./worlds-board.js";
import { battleIds, counts, inkOn, lab, me, shownCombat, sideColour, sideName, useDecision } from "./worlds-model.js";

/** The chip's text colour on ``colour``: the board's dark ink (``inkOn``) on a light side (white, grey, green, teal,
 * orange, pink, purple, the yellows...), else ``null``: the stylesheet's white with its dark shadow, as on the default
 * red and blue. A light side does not rely on that shadow, which an accessibility checker may not count. */
export function chipInk(colour) {
  if (!/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(colour || "")) return null;
  const ink = inkOn(colour);
  return ink === "#ffffff" ? null : ink;
}

export function SideChip({ view, seat, t }) {
  const colour = sideColour(view, seat);
  const ink = chipInk(colour);
  return html`<span class="wside-chip" style=${{ background: colour, color: ink, textShadow: ink ? "none" : null }}
    data-side=${view.sides[seat]}><span class="sr-only">${t("worlds.side_word")} </span>${sideName(t, view, seat)}</span>`;
}

function Swatch({ kind, colour, size = 30 }) {
  return html`<svg viewBox="-20 -20 40 40" width=${size} height=${size} aria-hidden="true" focusable="false" class="wswatch">
    <${PawnShape} kind=${kind} colour=${colour} label=${kind} /></svg>`;
}

// ------------------------------------------------------------------------------------------------ status
export function Status({ view, t, num, seatName }) {
  const you = me(view);
  const c = view.combat;
  const rows = [0, 1].map((s) => html`<tr data-testid=${"worlds-side-" + s}>
    <th scope="row"><${SideChip} view=${view} seat=${s} t=${t} /> <span class="muted small">${seatName ? seatName(s) : ""}</span></th>
    <td data-testid=${"worlds-energy-" + s}>${num(view.energy[s])}${view.income[s] ? html` <span class="muted small">(+${num(view.income[s])})</span>` : null}</td>
    <td>${num(view.hand_sizes[s])}</td>
    <td data-testid=${"worlds-material-" + s}>${num(view.material[s])}</td></tr>`);
  const played = [0, 1].map((s) => (view.discards[s].length ? lab(t, sideName(t, view, s), view.discards[s].map((c) => t("worlds.event_name." + c)).join(", ")) : null)).filter(Boolean);
  return html`<section class="card wstatus" data-testid="worlds-status" aria-labelledby="worlds-status-h">
    <h2 id="worlds-status-h">${t("worlds.status")}</h2>
    ${you !== null ? html`<p class="wyou" data-testid="worlds-you">${t("worlds.you_play")} <${SideChip} view=${view} seat=${you} t=${t} /></p>`
      : html`<p class="muted" data-testid="worlds-you">${t("worlds.watching")}</p>`}
    <p data-testid="worlds-round">${view.over ? t("worlds.over_line") : t("worlds.round_line", { n: num(view.round), of: num(view.max_rounds), side: sideName(t, view, view.active) })}
      ${c ? html` · ${t("worlds.combat_line", { card: c.card })}` : null}</p>
    <table class="wsides"><thead><tr><th scope="col"><span class="sr-only">${t("worlds.side_word")}</span></th>
      <th scope="col">${t("worlds.energy")}</th><th scope="col">${t("worlds.cards")}</th><th scope="col">${t("worlds.material")}</th></tr></thead>
      <tbody>${rows}</tbody></table>
    <p class="help">${t("worlds.material_help")}</p>
    ${played.length ? html`<p class="small">${lab(t, t("worlds.played"), played.join(" · "))}</p>` : null}
    <${About} view=${view} t=${t} />
  </section>`;
}

/** The rules' notices (combat chapter only, house rules), folded behind an info button. */
function About({ t }) {
  return html`<details class="fold winfo" data-testid="worlds-about">
    <summary><${Icon} name="info" /> ${t("worlds.about")}</summary>
    <p>${t("worlds.notice_text")}</p>
    <ul class="legend-list">
      <li>${t("worlds.house.turn")}</li><li>${t("worlds.house.format")}</li><li>${t("worlds.house.deck")}</li>
    </ul>
    <p class="small"><a href="/rules/worlds" target="_blank" rel="noopener">${t("worlds.rules_link")}</a></p>
  </details>`;
}

// ----------------------------------------------------------------------------------------------- results
function groupLine(t, num, view, c, b, seat) {
  const ids = battleIds(c, b, seat);
  const { P, F } = counts(ids);
  const parts = [!F ? t("worlds.group_p", { p: num(P) }) : !P ? t("worlds.group_f", { f: num(F) }) : t("worlds.group_counts", { p: num(P), f: num(F) })];
  if (b.events[seat]) parts.push(t("worlds.event_name." + b.events[seat]));
  if (b.totals.length) {
    const e = b.energy[seat] || 0;
    parts.push(t("worlds.score_line", { power: num(b.power[seat] - e), energy: num(e), die: num(b.dice[seat]), total: num(b.totals[seat]) }));
  }
  return parts.join(" · ");
}

export function Results({ view, t, num }) {
  const c = shownCombat(view);
  if (!c || !c.battles.length) return null;
  const done = !view.combat;
  const battles = c.battles.map((b, i) => {
    if (!b.totals.length) return html`<li class="muted" data-testid=${"worlds-result-" + i}>${lab(t, t("worlds.battle_n", { n: num(i + 1) }), t("worlds.not_fought"))}</li>`;
    const res = b.result === "tie" ? t("worlds.result_tie") : t("worlds.result_win", { side: sideName(t, view, Number(b.result)) });
    const lostLine = [0, 1].filter((s) => b.lost[s].length).map((s) => t("worlds.lost_line", { side: sideName(t, view, s), n: num(b.lost[s].length) }));
    return html`<li data-testid=${"worlds-result-" + i}><b>${lab(t, t("worlds.battle_n", { n: num(i + 1) }), res)}</b>
      ${[0, 1].map((s) => html`<div class="wres-side"><span class="seat-dot" style=${{ background: sideColour(view, s) }}></span>
        <span>${lab(t, sideName(t, view, s), groupLine(t, num, view, c, b, s))}</span>
        ${b.dice.length ? html`<svg viewBox="0 0 18 18" width="18" height="18" class="wres-die" aria-hidden="true"><${Die} x=${0} y=${0} n=${b.dice[s]} /></svg>` : null}</div>`)}
      ${lostLine.length ? html`<div class="small muted">${lostLine.join(" · ")}</div>` : null}</li>`;
  });
  let verdict = null;
  if (c.winner !== null && c.winner !== undefined) verdict = t("worlds.combat_won", { side: sideName(t, view, c.winner), a: num(c.losses[0]), b: num(c.losses[1]) });
  else if (c.battles.every((b) => b.done)) verdict = t("worlds.combat_nobody", { a: num(c.losses[0]), b: num(c.losses[1]) });
  return html`<section class="card wresults" data-testid="worlds-results" aria-labelledby="worlds-results-h">
    <h2 id="worlds-results-h">${t(done ? "worlds.last_combat" : "worlds.this_combat", { card: c.card })}</h2>
    <ol class="wres-list">${battles}</ol>
    ${verdict ? html`<p class="wverdict" data-testid="worlds-verdict">${verdict}</p>` : null}
  </section>`;
}

// ------------------------------------------------------------------------------------------------ legend
export function Legend({ view, t }) {
  return html`<div class="wlegend" data-testid="worlds-legend">
    <ul class="wlegend-list">
      ${[0, 1].map((s) => html`<li><${Swatch} kind="P" colour=${sideColour(view, s)} /><${Swatch} kind="F" colour=${sideColour(view, s)} />
        <span>${t("worlds.legend_side", { side: sideName(t, view, s) })}</span></li>`)}
      <li><span class="wlegend-icon">P</span><span>${t("worlds.legend_pop")}</span></li>
      <li><span class="wlegend-icon">F</span><span>${t("worlds.legend_fac")}</span></li>
      <li><span class="wlegend-icon">4</span><span>${t("worlds.legend_native")}</span></li>
      <li><svg viewBox="-12 -12 24 24" width="26" height="26" aria-hidden="true" class="wlegend-svg"><g class="wicon-sun"><circle r="6" /></g></svg>
        <span>${t("worlds.legend_sun")}</span></li>
      <li><svg viewBox="-12 -12 24 24" width="26" height="26" aria-hidden="true" class="wlegend-svg"><g class="wicon-world"><circle r="8" /></g></svg>
        <span>${t("worlds.legend_world")}</span></li>
      <li><span class="wlegend-box home"></span><span>${t("worlds.legend_home")}</span></li>
      <li><span class="wlegend-box eligible"></span><span>${t("worlds.legend_eligible")}</span></li>
      <li><span class="wlegend-box last"></span><span>${t("worlds.legend_last")}</span></li>
      <li><span class="legend-ring"></span><span>${t("worlds.legend_target")}</span></li>
      <li><span class="wlegend-icon">%</span><span>${t("worlds.legend_odds")}</span></li>
      <li><svg viewBox="-20 -20 40 40" width="30" height="30" aria-hidden="true" focusable="false" class="wswatch">
        <${PawnShape} kind="F" colour=${sideColour(view, 0)} label="F" origin=${sideColour(view, 1)} /></svg>
        <span>${t("worlds.legend_taken")}</span></li>
    </ul>
    <p class="help">${t("worlds.legend_ids")}</p>
  </div>`;
}

// -------------------------------------------------------------------------------------------------- hand
/** Why a card of the hand cannot be played now (the legal list says whether it can). */
function whyNot(view, code, legalCodes, seat) {
  const c = view.combat;
  if (!c || c.step !== "event") return "worlds.why.not_now";
  if (!(String(seat) in (c.sealed.committed || {}))) return "worlds.why.not_asked";
  if (c.sealed.committed[String(seat)]) return "worlds.why.sealed";
  if (legalCodes.size === 0) return "worlds.why.not_now";
  if (code === "RI" && c.attacker === seat) return "worlds.why.defender";
  if (code === "RI") return "worlds.why.world";
  if (code === "MG") return "worlds.why.population";
  return "worlds.why.not_now";
}

function EventCard({ code, count, t, play, legalAction, reason }) {
  return html`<li class=${"wcard" + (legalAction ? " playable" : " disabled")} data-testid=${"worlds-card-" + code} data-card=${code}>
    <div class="wcard-head"><span class="wcard-code">${code}</span><b class="wcard-name">${t("worlds.event_name." + code)}</b>
      ${count > 1 ? html`<span class="tag">×${count}</span>` : null}</div>
    <p class="wcard-text">${t("worlds.event_text." + code)}</p>
    <p class="wcard-status small"><span class="tag">${t("worlds.house_label")}</span> ${t("worlds.event_status." + code)}</p>
    ${legalAction ? html`<button type="button" class="btn primary" data-testid=${"worlds-play-" + code} onClick=${() => play(legalAction)}>
        ${t("worlds.play_card", { card: t("worlds.event_name." + code) })}</button>`
      : html`<p class="wcard-why small" data-testid=${"worlds-why-" + code}>${t(reason)}</p>`}
  </li>`;
}

/** Under the board: a switch between the battles and the map during a combat, and the viewer's event cards. */
export function Tray(props) {
  const { view, play, t, ui, setUi, replay } = props;
  const { legal, live } = useDecision(props);
  const you = me(view);
  const c = view.combat;
  const toggle = c && !replay ? html`<div class="segmented wview-switch" role="group" aria-label=${t("worlds.show")}>
      <button type="button" class=${ui.showMap ? "" : "on"} aria-pressed=${ui.showMap ? "false" : "true"} data-testid="worlds-show-battles"
        onClick=${() => setUi({ showMap: false })}>${t("worlds.show_battles")}</button>
      <button type="button" class=${ui.showMap ? "on" : ""} aria-pressed=${ui.showMap ? "true" : "false"} data-testid="worlds-show-map"
        onClick=${() => setUi({ showMap: true })}>${t("worlds.show_map")}</button></div>` : null;
  if (you === null || !view.hand) return toggle;
  const legalCodes = new Map(legal.filter((a) => a.type === "play_event" && a.card).map((a) => [a.card, a]));
  const seen = new Map();
  for (const code of view.hand) seen.set(code, (seen.get(code) || 0) + 1);
  const cards = [...seen.entries()].map(([code, n]) => html`<${EventCard} key=${code} code=${code} count=${n} t=${t} play=${play}
    legalAction=${legalCodes.get(code) || null} reason=${legalCodes.has(code) ? null : whyNot(view, code, legalCodes, you)} />`);
  const none = legal.find((a) => a.type === "play_event" && a.card === null);
  const deciding = !!(none || legalCodes.size);
  const title = t("worlds.your_cards", { n: view.hand.length });
  if (!deciding) {
    // outside the event step the hand folds to one line (the board keeps its room); the texts are one tap away
    const names = [...seen.entries()].map(([code, n]) => t("worlds.event_name." + code) + (n > 1 ? ` ×${n}` : "")).join(" · ");
    return html`${toggle}<details class="fold whand whand-fold" data-testid="worlds-hand">
      <summary><span>${title}${names ? html`: <span class="muted">${names}</span>` : null}</span></summary>
      ${cards.length ? html`<ul class="wcards">${cards}</ul>` : html`<p class="muted small">${t("worlds.no_cards")}</p>`}</details>`;
  }
  return html`${toggle}<section class="whand" aria-labelledby="worlds-hand-h" data-testid="worlds-hand" data-deciding="yes">
    <h2 id="worlds-hand-h" class="tray-label">${title}</h2>
    <fieldset class="wfield" disabled=${!live}>
    <ul class="wcards">${cards}</ul>
    ${none ? html`<div class="row-buttons"><button type="button" class="btn" data-testid="worlds-no-event" onClick=${() => play(none)}>
      ${t("worlds.no_event")}</button></div>` : null}
    </fieldset>
  </section>`;
}
