// Worlds & Suns composer: the side-panel controls of each decision, beside the board's gestures. Declaring a combat
// (the card picked on the board), pairing the pieces (the draft on the board: battle order, suggestions, live
// totals and exact odds, then "fight"), event cards (the odds of each choice; the cards themselves are under the
// board), energy (a stepper with live totals and the odds whatever the other side adds), tie losses (tapped on the
// board), retreat (Populations tapped on the board, then the Sun or the button) and conversion (a Factory tapped).
import { html, Button } from "/static/app/kit.js";
import { retreatCandidates } from "./worlds-board.js";
import {
  allocDraft, assign, counts, draftAction, draftComplete, group, laneQuery, leftSeat, me, moveLane, of36,
  lab, pct, piecesById, poolOf, shortId, sideName, useDecision, useOdds,
} from "./worlds-model.js";
import { SideChip } from "./worlds-panels.js";

function countsText(t, num, ids) {
  const { P, F } = counts(ids);
  if (!F) return t("worlds.group_p", { p: num(P) }); // a count of zero is left out
  if (!P) return t("worlds.group_f", { f: num(F) });
  return t("worlds.group_counts", { p: num(P), f: num(F) });
}

function Verdict({ t, num, odds, view, left }) {
  if (!odds) return html`<p class="muted small" aria-busy="true">${t("worlds.odds_wait")}</p>`;
  return html`<p class="wodds-line" data-testid="worlds-combat-odds">${t("worlds.combat_odds", {
    win: pct(num, odds.p_s_wins.percent), none: pct(num, odds.p_no_winner.percent), loss: pct(num, odds.p_o_wins.percent),
    side: sideName(t, view, 1 - left) })}</p>`;
}

function Sealed({ view, t }) {
  const c = view.combat;
  const entries = Object.entries((c && c.sealed && c.sealed.committed) || {});
  if (!entries.length) return null;
  return html`<p class="small" data-testid="worlds-sealed">${entries.map(([s, done], k) => html`${k ? " · " : ""}${lab(t, sideName(t, view, Number(s)), t(done ? "worlds.sealed_in" : "worlds.sealed_waiting"))}`)}</p>`;
}

// -------------------------------------------------------------------------------------------------- turn
function TurnComposer({ view, legal, play, t, num, hl }) {
  const end = legal.find((a) => a.type === "end_turn");
  const declares = legal.filter((a) => a.type === "declare_combat");
  const sel = hl && hl.selected && hl.selected.startsWith("card:") ? hl.selected.slice(5) : null;
  const chosen = sel ? declares.find((a) => a.card === sel) : null;
  let forces = null;
  if (chosen) {
    const all = Object.values(piecesById(view)).filter((p) => p.card === sel);
    forces = html`<ul class="wforces">${[0, 1].map((s) => html`<li><${SideChip} view=${view} seat=${s} t=${t} />
      ${countsText(t, num, all.filter((p) => p.owner === s).map((p) => p.id))}</li>`)}</ul>`;
  }
  return html`<h3>${t("worlds.your_turn")}</h3>
    ${declares.length ? html`<p class="help">${t("worlds.declare_help")}</p>` : html`<p class="help">${t("worlds.nothing_to_attack")}</p>`}
    ${chosen ? html`<div class="wdeclare" data-testid="worlds-declare-box"><p><b>${t("worlds.attack_card", { card: sel })}</b></p>${forces}
      <${Button} kind="primary" icon="check" label=${t("worlds.declare")} testid="worlds-declare" onClick=${() => play(chosen)} /></div>` : null}
    ${end ? html`<div class="row-buttons"><${Button} label=${t("worlds.end_turn")} testid="worlds-end-turn" onClick=${() => play(end)} /></div>` : null}`;
}

// ---------------------------------------------------------------------------------------------- allocate
function AllocComposer({ view, legal, play, t, num, ui, setUi }) {
  const c = view.combat;
  const d = allocDraft(view, ui);
  const left = leftSeat(view);
  const complete = draftComplete(view, d);
  const lq = laneQuery(view, ui, true);
  const odds = useOdds(lq ? lq.query : null);
  const options = legal.filter((a) => a.type === "allocate");
  const pool = poolOf(view, d);
  const suggest = () => {
    const k = ((ui.suggested ?? -1) + 1) % options.length;
    const byAnchor = Object.fromEntries(options[k].battles.map((b) => [b.anchor, b.pieces]));
    setUi({ suggested: k, alloc: { ...d, lanes: d.lanes.map((l) => ({ anchor: l.anchor, pieces: [...(byAnchor[l.anchor] || [])] })), pick: null } });
  };
  const rows = d.lanes.map((l, i) => {
    const q = odds ? odds.battles[i] : null;
    const mine = c.allocator === left ? l.pieces : [l.anchor], theirs = c.allocator === left ? [l.anchor] : l.pieces;
    return html`<li data-testid=${"worlds-lane-row-" + i} class=${l.pieces.length ? "" : "wlane-empty"}>
      <span class="wbattle-n">${num(i + 1)}</span>
      <span class="wbattle-text">${l.pieces.length ? countsText(t, num, mine) : t("worlds.lane_empty")} ${t("worlds.vs")} ${countsText(t, num, theirs)}
        ${q && l.pieces.length ? html`<span class="muted small"> · ${t("worlds.power_vs", { a: num(q.s_power), b: num(q.o_power) })} · ${t("worlds.win_short", { p: pct(num, of36(q.win)) })}</span>` : null}</span>
      <span class="wbattle-order">
        <button type="button" class="btn icon-only ghost" aria-label=${t("worlds.earlier", { n: i + 1 })} title=${t("worlds.earlier", { n: i + 1 })}
          disabled=${i === 0} data-testid=${"worlds-up-" + i} onClick=${() => setUi({ alloc: moveLane(d, i, -1) })}>↑</button>
        <button type="button" class="btn icon-only ghost" aria-label=${t("worlds.later", { n: i + 1 })} title=${t("worlds.later", { n: i + 1 })}
          disabled=${i === d.lanes.length - 1} data-testid=${"worlds-down-" + i} onClick=${() => setUi({ alloc: moveLane(d, i, 1) })}>↓</button></span>
    </li>`;
  });
  return html`<h3>${t("worlds.pair_title")}</h3>
    <p class="help">${t("worlds.pair_help")}</p>
    <ol class="wbattles" data-testid="worlds-battle-list">${rows}</ol>
    <p class="small" data-testid="worlds-pool-count">${pool.length ? t("worlds.pool_left", { n: num(pool.length) }) : t("worlds.pool_done")}</p>
    ${complete ? html`<${Verdict} t=${t} num=${num} odds=${odds} view=${view} left=${left} />` : null}
    ${!complete && d.lanes.some((l) => !l.pieces.length) ? html`<p class="wmissing" data-testid="worlds-fight-missing" role="status">${t("worlds.fight_missing", {
      list: d.lanes.map((l, i) => (l.pieces.length ? null : t("worlds.battle_n", { n: num(i + 1) }))).filter(Boolean).join(", ") })}</p>` : null}
    <p class="help">${t("worlds.order_help")}</p>
    <div class="row-buttons">
      <${Button} kind="primary" icon="check" label=${t("worlds.fight")} disabled=${!complete} testid="worlds-fight" onClick=${() => { setUi({ alloc: null }); play(draftAction(d)); }} />
      ${options.length ? html`<${Button} label=${t("worlds.suggest")} testid="worlds-suggest" onClick=${suggest} />` : null}
      <${Button} label=${t("worlds.clear")} testid="worlds-clear" disabled=${pool.length === c.participants[c.allocator].length}
        onClick=${() => setUi({ alloc: d.lanes.reduce((acc, l) => l.pieces.reduce((a2, p) => assign(a2, p, null), acc), d) })} />
    </div>`;
}

// ------------------------------------------------------------------------------------------------- event
function EventComposer({ view, legal, t, num }) {
  const c = view.combat;
  const b = c.battles[c.current];
  const left = leftSeat(view);
  const alive = piecesById(view);
  const opts = legal.filter((a) => a.type === "play_event");
  const battles = opts.map((a) => ({ s: { ...group(view, c, b, left, 0, alive), event: a.card }, o: group(view, c, b, 1 - left, 0, alive) }));
  const odds = useOdds(battles.length ? { battles, offsets: [0, 0] } : null);
  return html`<h3>${t("worlds.event_title", { n: num(c.current + 1) })}</h3>
    <p class="help">${t("worlds.event_help")}</p>
    <ul class="wchoices" data-testid="worlds-event-odds">${opts.map((a, i) => {
      const q = odds ? odds.battles[i] : null;
      const line = q ? `${t("worlds.power_vs", { a: num(q.s_power), b: num(q.o_power) })} · ${t("worlds.win_short", { p: pct(num, of36(q.win)) })}` : "…";
      return html`<li>${lab(t, a.card ? t("worlds.event_name." + a.card) : t("worlds.no_card"), line)}</li>`;
    })}</ul>
    <p class="help">${t("worlds.odds_before_energy")}</p>
    <${Sealed} view=${view} t=${t} />`;
}

// ------------------------------------------------------------------------------------------------ energy
function EnergyComposer({ view, legal, play, t, num, ui, setUi }) {
  const c = view.combat;
  const b = c.battles[c.current];
  const you = me(view);
  const left = leftSeat(view);
  const pool = view.energy[you];
  const theirs = view.energy[1 - you];
  const amount = Math.max(0, Math.min(pool, Number(ui.energy || 0)));
  const lq = laneQuery(view, { ...ui, energy: amount }, false);
  const odds0 = useOdds(lq ? lq.query : null);
  let allQuery = null;
  if (lq && theirs > 0) {
    const battles = lq.query.battles.map((x, k) => (lq.index[k] === c.current ? { ...x, o: { ...x.o, energy: theirs } } : x));
    allQuery = { ...lq.query, battles };
  }
  const oddsAll = useOdds(allQuery);
  const k = lq ? lq.index.indexOf(c.current) : -1;
  const q0 = odds0 && k >= 0 ? odds0.battles[k] : null;
  const qa = oddsAll && k >= 0 ? oddsAll.battles[k] : null;
  const action = legal.find((a) => a.type === "commit_energy" && a.amount === amount);
  const set = (n) => setUi({ energy: Math.max(0, Math.min(pool, n)) });
  const line = (q, e) => (q ? t("worlds.battle_odds", { win: pct(num, of36(q.win)), tie: pct(num, of36(q.tie)), loss: pct(num, of36(q.loss)), e: num(e) }) : "…");
  return html`<h3>${t("worlds.energy_title", { n: num(c.current + 1) })}</h3>
    <p class="help">${t("worlds.energy_help", { pool: num(pool) })}</p>
    <div class="wstepper" role="group" aria-label=${t("worlds.energy_amount")}>
      <button type="button" class="btn" data-testid="worlds-energy-minus" aria-label=${t("worlds.less")} disabled=${amount <= 0} onClick=${() => set(amount - 1)}>−</button>
      <output class="wstepper-value" data-testid="worlds-energy-value" aria-live="polite">${num(amount)}</output>
      <button type="button" class="btn" data-testid="worlds-energy-plus" aria-label=${t("worlds.more")} disabled=${amount >= pool} onClick=${() => set(amount + 1)}>+</button>
      <button type="button" class="btn ghost" data-testid="worlds-energy-all" disabled=${amount >= pool} onClick=${() => set(pool)}>${t("worlds.all")}</button>
      <span class="muted small">/ ${num(pool)}</span>
    </div>
    ${q0 ? html`<p class="wtotals" data-testid="worlds-energy-totals">${t("worlds.totals_line", { a: num(q0.s_power), b: num(q0.o_power), side: sideName(t, view, 1 - left) })}</p>` : null}
    <ul class="wchoices" data-testid="worlds-energy-odds">
      <li>${lab(t, t("worlds.if_they_add", { side: sideName(t, view, 1 - left), e: num(0) }), line(q0, 0))}</li>
      ${theirs > 0 ? html`<li>${lab(t, t("worlds.if_they_add", { side: sideName(t, view, 1 - left), e: num(theirs) }), line(qa, theirs))}</li>` : null}
    </ul>
    ${odds0 ? html`<${Verdict} t=${t} num=${num} odds=${odds0} view=${view} left=${left} />` : null}
    <p class="help">${t("worlds.odds_rest_help")}</p>
    <div class="row-buttons"><${Button} kind="primary" icon="check" label=${t("worlds.commit", { n: num(amount) })} disabled=${!action}
      testid="worlds-commit" onClick=${() => { setUi({ energy: 0 }); play(action); }} /></div>
    <${Sealed} view=${view} t=${t} />
    ${b.events.some(Boolean) ? html`<p class="small">${t("worlds.events_revealed", { list: [0, 1].filter((s) => b.events[s]).map((s) => lab(t, sideName(t, view, s), t("worlds.event_name." + b.events[s]))).join(", ") })}</p>` : null}`;
}

// ------------------------------------------------------------------------------------------- aftermath
function TieComposer({ view, legal, t, num }) {
  const c = view.combat;
  const opts = legal.filter((a) => a.type === "choose_tie_loss");
  return html`<h3>${t("worlds.tie_title", { n: num(c.current + 1) })}</h3>
    <p class="help">${t("worlds.tie_help")}</p>
    <p class="small">${opts.map((a) => shortId(a.piece)).join(" / ")}</p>`;
}

function RetreatComposer({ view, legal, play, t, num, ui, setUi }) {
  const cands = retreatCandidates(legal);
  const chosen = (ui.retreat || []).filter((id) => cands.includes(id));
  const stay = legal.find((a) => a.type === "retreat" && a.pieces.length === 0);
  return html`<h3>${t("worlds.retreat_title")}</h3>
    <p class="help">${t("worlds.retreat_help", { card: view.combat.card })}</p>
    <p data-testid="worlds-retreat-count">${t("worlds.retreat_chosen", { n: num(chosen.length), of: num(cands.length) })}</p>
    <div class="row-buttons">
      <${Button} kind="primary" label=${t("worlds.retreat_go", { n: num(chosen.length) })} disabled=${!chosen.length} testid="worlds-retreat"
        onClick=${() => { setUi({ retreat: [] }); play({ type: "retreat", pieces: chosen }); }} />
      <${Button} label=${t("worlds.retreat_all")} disabled=${chosen.length === cands.length} testid="worlds-retreat-all" onClick=${() => setUi({ retreat: [...cands] })} />
      ${stay ? html`<${Button} label=${t("worlds.stay")} testid="worlds-stay" onClick=${() => play(stay)} />` : null}
    </div>`;
}

function ConvertComposer({ view, legal, play, t }) {
  const none = legal.find((a) => a.type === "convert" && a.factory === null);
  const c = view.combat;
  return html`<h3>${t("worlds.convert_title")}</h3>
    <p class="help">${t("worlds.convert_help", { side: sideName(t, view, 1 - c.winner) })}</p>
    ${none ? html`<div class="row-buttons"><${Button} label=${t("worlds.convert_none")} testid="worlds-convert-none" onClick=${() => play(none)} /></div>` : null}`;
}

const STEPS = { turn: TurnComposer, allocate: AllocComposer, event: EventComposer, energy: EnergyComposer, tie: TieComposer,
  retreat: RetreatComposer, convert: ConvertComposer };

export function Composer(props) {
  const { view, t, num } = props;
  const decision = useDecision(props);
  const you = me(view);
  if (you === null || view.over) return null;
  const c = view.combat;
  const s = c ? c.step : "turn";
  let body = null;
  if (decision.legal.length && STEPS[s]) {
    // disabled (not hidden) while an incoming move is shown: the controls stay under the player's finger
    body = html`<fieldset class="wfield" disabled=${!decision.live}><${STEPS[s]} ...${props} legal=${decision.legal} /></fieldset>`;
  } else if (c && (s === "event" || s === "energy") && c.sealed.committed[String(you)]) {
    body = html`<h3>${t("worlds.sealed_title")}</h3><p>${t(s === "event" ? "worlds.own_event" : "worlds.own_energy", {
      choice: s === "energy" ? num(c.sealed.own ?? 0) : c.sealed.own ? t("worlds.event_name." + c.sealed.own) : t("worlds.no_card") })}</p>
      <${Sealed} view=${view} t=${t} />`;
  } else if (c && s === "allocate" && c.allocator !== you) {
    body = html`<h3>${t("worlds.pair_title")}</h3><p class="help">${t("worlds.they_pair", { side: sideName(t, view, c.allocator) })}</p>`;
  }
  if (!body) return null;
  return html`<section class="card composer wcomposer" aria-labelledby="worlds-composer-h" data-testid="composer" data-step=${s}>
    <h2 id="worlds-composer-h">${t("worlds.your_move")}</h2>${body}</section>`;
}
