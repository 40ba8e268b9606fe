// Full Metal Planète side panels and tray (rules docs/rules/fullmetal.md): the status (turn, tide and the seat's
// forecast FM-13.3, action points FM-9, reserve FM-4, departed ships FM-20), what stands on a tapped hex, the
// battle report of shots and captures (FM-16, FM-17, FM-18), the legend, and under the board the holds of the
// seat's carriers (their items are picked there to unload, exit or transfer) with the fire-zone switch.
import { html, placeAttrs, useRef } from "/static/app/kit.js";
import { keyOf, parseKey } from "./fullmetal-hex.js";
import {
  COLOURS, DESTROYERS, TERRAIN, colourOfUnit, controller, cover, holds, index, mine, setPrefs, shipScore, unitName, unitOf, usePrefs,
} from "./fullmetal-model.js";
import { MiniPiece } from "./fullmetal-pieces.js";
import { HexSwatch } from "./fullmetal-board.js";
import { DeployTray } from "./fullmetal-setup.js";

export const lastTurn = (view) => (view.config && view.config.endgame === "fmg" ? 26 : 25);
const colourName = (t, c) => (c >= 0 ? t("fm.colour." + (c % 4)) : t("fm.nobody"));

function TideBadge({ tide, t, small }) {
  return html`<span class=${"fm-tide fm-tide-" + tide + (small ? " small" : "")} data-tide=${tide}>
    <svg viewBox="0 0 20 12" width=${small ? 20 : 26} height=${small ? 12 : 16} aria-hidden="true" focusable="false">
      <path d=${tide === "high" ? "M0 4q2.5 -3 5 0t5 0t5 0t5 0V12H0Z" : tide === "low" ? "M0 9q2.5 -3 5 0t5 0t5 0t5 0V12H0Z" : "M0 6.5q2.5 -3 5 0t5 0t5 0t5 0V12H0Z"} />
    </svg>${t("fm.tide." + tide)}</span>`;
}

// ---------------------------------------------------------------------------------------------------- status
export function Status(props) {
  const { view, t, seatName, ui } = props;
  const me = view.viewer;
  const forecast = view.forecast ? Object.entries(view.forecast).sort((a, b) => Number(a[0]) - Number(b[0])) : [];
  const active = view.active;
  return html`<section class="card fm-status" data-testid="fm-status" aria-labelledby="fm-status-h">
    <h2 id="fm-status-h">${t("fm.status")}</h2>
    ${view.phase !== "land" ? html`<${MiniMap} view=${view} t=${t} />` : null}
    ${me !== null && me !== undefined && me >= 0 ? html`<p data-testid="fm-you"><span class="seat-dot" style=${{ background: COLOURS[me % 4] }}
      aria-hidden="true"></span> ${t("fm.you_play", { colour: colourName(t, me) })}</p>` : null}
    <div class="fm-turnline">
      <span data-testid="fm-turn">${t("fm.turn_of", { n: Math.min(view.turn, lastTurn(view)), of: lastTurn(view) })}</span>
      <${TideBadge} tide=${view.tide} t=${t} />
      ${view.cards_left !== null && view.cards_left !== undefined ? html`<span class="muted small">${t("fm.cards_left", { n: view.cards_left })}</span>` : null}
    </div>
    ${forecast.length ? html`<div class="fm-forecast" data-testid="fm-forecast"><span class="muted small">${t("fm.forecast")}:</span>
      ${forecast.map(([turn, tide]) => html`<span class="fm-fc"><span class="muted small">${t("fm.turn_short", { n: turn })}</span>
        <${TideBadge} tide=${tide} t=${t} small /></span>`)}</div>` : null}
    <table class="fm-players"><caption class="sr-only">${t("fm.players_ap")}</caption>
      <thead><tr><th scope="col">${t("fm.player")}</th><th scope="col">${t("fm.ap")}</th><th scope="col">${t("fm.saved")}</th>
        <th scope="col" title=${t("fm.score_help")}>${t("fm.score")}</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr class=${active === p.seat ? "fm-active" : ""} data-seat=${p.seat}>
        <th scope="row"><span class="seat-dot" style=${{ background: COLOURS[p.seat % 4] }} aria-hidden="true"></span> ${seatName(p.seat)}
          ${p.eliminated ? html` <span class="tag bad">${t(p.resigned ? "fm.resigned" : "fm.out")}</span>` : null}</th>
        <td data-testid=${"fm-ap-" + p.seat}>${p.pool}</td><td>${p.saved}</td><td data-testid=${"fm-score-" + p.seat}>${runningScore(view, p.seat)}</td></tr>`)}</tbody></table>
    <p class="small muted">${t("fm.score_help")}</p>
    ${view.phase === "play" || view.phase === "depart" ? html`<p class="small muted">${t("fm.reserve", {
      tank: view.reserve.tank || 0, crab: view.reserve.crab || 0, pontoon: view.reserve.pontoon || 0 })}</p>` : null}
    ${view.departed && view.departed.length ? html`<ul class="fm-departed" data-testid="fm-departed">${view.departed.map((d) => html`<li>
      ${t("fm.departed", { colour: colourName(t, d.colour), who: seatName(d.player), score: d.score, turn: d.turn })}</li>`)}</ul>` : null}
    <${Inspect} ...${props} place=${ui.inspect || (props.hl && props.hl.selected)} />
  </section>`;
}

/** FM-20.4 the running score of a seat: what its departed ships scored plus what its ships on the planet would score
 *  if they left now (2 per ore, 1 per unit aboard, 1 per intact turret). */
export function runningScore(view, seat) {
  let n = (view.departed || []).filter((d) => d.player === seat).reduce((a, d) => a + d.score, 0);
  for (const u of view.units) if (u.kind === "ship" && u.cells && u.cells.length && controller(view, u) === seat) n += shipScore(view, u).score;
  return n;
}

const MINI_FILL = { ".": "#1d4f7a", "*": "#2f6f8a", "%": "#5d6b45", "$": "#8a7a52", "#": "#5a4a3e", "?": "#0c0f1c" };
/** The whole planet small (terrain, the seat's units bright, others dim): a tap there centres the board on that spot. */
function MiniMap({ view, t }) {
  const W = view.width, H = view.height;
  const cw = 4, ch = 3.5;
  const go = (e) => {
    const svg = e.currentTarget, r = svg.getBoundingClientRect();
    const x = Math.max(0, Math.min(W - 1, Math.floor(((e.clientX - r.left) / r.width) * W)));
    const y = Math.max(0, Math.min(H - 1, Math.floor(((e.clientY - r.top) / r.height) * H)));
    const board = document.querySelector("[data-testid=board]");
    if (board) board.dispatchEvent(new CustomEvent("spacetable:focus", { detail: { place: x + "," + y, size: 46 } }));
  };
  const cells = [];
  view.terrain.forEach((row, y) => { for (let x = 0; x < row.length; x++) cells.push(html`<rect x=${x * cw} y=${y * ch + (x % 2 ? ch / 2 : 0)} width=${cw} height=${ch} fill=${MINI_FILL[row[x]] || "#222"} />`); });
  const dots = view.units.filter((u) => u.cells && u.cells.length && u.carrier === undefined && u.kind !== "ore").map((u) => {
    const [x, y] = u.cells[0];
    return html`<circle cx=${x * cw + cw / 2} cy=${y * ch + (x % 2 ? ch : ch / 2)} r=${u.kind === "ship" ? 3 : 1.6}
      fill=${u.colour >= 0 ? COLOURS[u.colour % 4] : "#aaa"} opacity=${mine(view, u) ? 1 : 0.55} />`;
  });
  return html`<div class="fm-minimap" data-testid="fm-minimap"><span class="small muted">${t("fm.minimap")}</span>
    <svg viewBox=${`0 0 ${W * cw} ${H * ch + ch / 2}`} role="img" aria-label=${t("fm.minimap_label")} onClick=${go}>${cells}${dots}</svg></div>`;
}

/** What stands on a hex (tapped to look, or selected): terrain, unit, owner, state, cargo, fire there. */
function Inspect({ view, t, seatName, place }) {
  if (!place || place.includes(":")) return null;
  const [x, y] = parseKey(place);
  if (!view.terrain[y] || view.terrain[y][x] === undefined || view.terrain[y][x] === "?") return null;
  const { occ, pontoon, byId } = index(view);
  const u = occ.get(place);
  const ter = view.terrain[y][x];
  const lines = [];
  if (u) {
    const ctl = controller(view, u);
    const owner = u.colour < 0 ? null : ctl < 0 ? t("fm.deactivated") : seatName(ctl);
    lines.push(html`<p class="fm-inspect-unit"><${MiniPiece} kind=${u.kind} colour=${colourOfUnit(view, u)} u=${u} size=${28} />
      <b>${unitName(t, u)}</b>${owner ? html` <span class="muted">${owner}</span>` : null}</p>`);
    const states = [];
    if (u.neutralized_by) states.push(t("fm.state.neutralized"));
    if (u.stranded) states.push(t("fm.state.stranded"));
    if (u.locked) states.push(t("fm.state.locked"));
    if (DESTROYERS.includes(u.kind) && u.shots !== undefined && ctl === view.active) states.push(t("fm.state.shots", { n: u.shots }));
    if (states.length) lines.push(html`<p class="small">${states.join(" · ")}</p>`);
    if (u.cargo && u.cargo.length) {
      lines.push(html`<p class="small">${t("fm.carries", { what: u.cargo.map((id) => unitName(t, byId.get(id))).join(", ") })}</p>`);
    }
  }
  if (pontoon.has(place)) lines.push(html`<p class="small">${t("fm.on_pontoon")}</p>`);
  const me = view.viewer;
  if (me !== null && me !== undefined && me >= 0 && view.cover) {
    const enemy = cover(view, me, false)[y * view.width + x];
    if (enemy >= 2) lines.push(html`<p class="small fm-danger">${t("fm.under_fire_here")}</p>`);
  }
  return html`<div class="fm-inspect" data-testid="fm-inspect" data-place=${null} data-cell=${place}>
    <h3><${HexSwatch} t=${ter} tide=${view.tide} size=${18} /> ${place} · ${t("fm.terrain." + TERRAIN[ter])}</h3>${lines}</div>`;
}

// ---------------------------------------------------------------------------------------------------- results
/** Shots, captures and ship captures as they are shown, with what they destroyed or took (the view before and
 *  after), and the tide of each new turn. */
export function Results(props) {
  const { view, last, t, seatName } = props;
  const mem = useRef({ view: null, version: null, items: [] });
  const m = mem.current;
  if (props.version !== m.version && m.view) {
    const prev = m.view;
    const a = last && last.action;
    if (a && ["fire", "assault", "capture", "capture_ship"].includes(a.type)) {
      const before = index(prev).byId;
      const after = index(view).byId;
      const gone = [...before.values()].filter((u) => u.carrier === undefined && u.cells.length && !after.has(u.id) && u.kind !== "turret");
      const turrets = [...before.values()].filter((u) => u.kind === "turret" && !after.has(u.id));
      const taken = [...after.values()].filter((u) => before.has(u.id) && before.get(u.id).colour !== u.colour);
      m.items = [{ key: last.index, who: last.seat, text: last.text, gone: [...gone, ...turrets], taken }, ...m.items];
    } else if (prev.turn !== view.turn && view.turn >= 3 && view.turn <= lastTurn(view)) {
      m.items = [{ key: "tide" + view.turn, tide: view.tide, turn: view.turn }, ...m.items.filter((r) => !r.tide)];
    }
    m.items = [...m.items.filter((r) => r.tide).slice(0, 1), ...m.items.filter((r) => !r.tide).slice(0, 4)]; // the tide, the last shots
  }
  if (props.version !== m.version) { m.view = view; m.version = props.version; }
  if (!m.items.length) return null;
  return html`<section class="card fm-results" data-testid="fm-results" aria-labelledby="fm-results-h" aria-live="polite">
    <h2 id="fm-results-h">${t("fm.reports")}</h2>
    <ul>${m.items.map((r) => (r.tide ? html`<li key=${r.key}>${t("fm.turn_begins", { n: r.turn })} <${TideBadge} tide=${r.tide} t=${t} small /></li>`
      : html`<li key=${r.key} data-testid="fm-report"><b>${seatName(r.who, { you: false })}</b>: ${r.text}
        ${r.gone.length ? html`<div class="fm-loss">${t("fm.destroyed", { what: r.gone.map((u) => unitName(t, u)).join(", ") })}</div>` : null}
        ${r.taken.length ? html`<div class="fm-gain">${t("fm.taken", { what: r.taken.map((u) => unitName(t, u)).join(", ") })}</div>` : null}
        ${!r.gone.length && !r.taken.length ? html`<div class="muted small">${t("fm.nothing_destroyed")}</div>` : null}</li>`))}</ul>
  </section>`;
}

// ------------------------------------------------------------------------------------------------------ tray
function FireSwitch({ t }) {
  const prefs = usePrefs();
  return html`<div class="fm-switch"><span class="tray-label" id="fm-fire-label">${t("fm.fire_zones")}</span>
    <div class="segmented" role="radiogroup" aria-labelledby="fm-fire-label">${["off", "enemy", "mine"].map((v) => html`<button type="button"
      role="radio" aria-checked=${prefs.fire === v ? "true" : "false"} class=${prefs.fire === v ? "on" : ""} data-testid=${"fm-fire-" + v}
      onClick=${() => setPrefs({ fire: v })}>${t("fm.fire." + v)}</button>`)}</div></div>`;
}

/** One item in a hold (and what it carries), a place "c:<id>" picked like a unit on the board. What it carries is
 *  drawn beside it, so its piece has no cargo badge (the badge's digit would be visible text missing from the item's
 *  accessible name). */
function HoldItem({ view, hl, t, id, colour, depth = 0 }) {
  const u = unitOf(view, id);
  if (!u) return null;
  const place = "c:" + id;
  const live = hl.interactive && (hl.sources.has(place) || hl.targets.has(place) || hl.selected === place);
  const a = placeAttrs(hl, place, live ? unitName(t, u) : null, "fm-item");
  const inner = (u.cargo || []).map((c) => html`<${HoldItem} view=${view} hl=${hl} t=${t} id=${c} colour=${colour} depth=${depth + 1} />`);
  return html`<span class="fm-item-wrap"><span ...${a} data-unit=${id}><${MiniPiece} kind=${u.kind} colour=${colour} u=${{ ...u, cargo: [] }} size=${26} />
    <span class="fm-item-label">${unitName(t, u)}</span><${TargetDot} hl=${hl} place=${place} /></span>
    ${inner.length ? html`<span class="fm-nested">${inner}</span>` : null}</span>`;
}

/** The heading of a hold on the board ("Hold of the ship · 12,5"). While an item picked in another hold may be
 *  moved into this one (FM-12.4: from a crab back into the ship, or from a crab onto the barge carrying it), the
 *  heading is that move's target ("c:<carrier>"): a tap on it (or Enter) moves the item. */
function HoldLabel({ hl, t, c }) {
  const place = "c:" + c.id;
  const text = t("fm.hold_of", { unit: unitName(t, c) }) + " · " + keyOf(c.cells[0]);
  if (!hl.targets.has(place)) return html`<span class="tray-label">${text}</span>`;
  return html`<span ...${placeAttrs(hl, place, text, "fm-item fm-hold-label")} data-unit=${c.id}>${text}<${TargetDot} hl=${hl} place=${place} /></span>`;
}

/** The mark of a hold's place that a tap now plays to (its kind's colour; the place itself is the button). */
function TargetDot({ hl, place }) {
  const tg = hl.targets.get(place);
  return tg ? html`<span class=${"fm-item-mark " + tg.kind} aria-hidden="true"></span>` : null;
}

export function Tray(props) {
  const { view, t, hl } = props;
  if (view.phase === "deploy" && props.interactive && props.legal.some((a) => a.type === "deploy")) return html`<${DeployTray} ...${props} />`;
  const me = view.viewer;
  const mine = me !== null && me !== undefined && me >= 0 && (view.phase === "play" || view.phase === "depart") ? holds(view, me) : [];
  const sel = hl.selected && !hl.selected.includes(":") ? index(view).occ.get(hl.selected) : null;
  return html`<div class="fm-tray" data-testid="fm-tray">
    ${mine.length ? html`<div class="fm-holds" data-testid="fm-holds">${mine.map((c) => html`<div class=${"fm-hold" + (sel && sel.id === c.id ? " on" : "")}
      data-carrier=${c.id}><${HoldLabel} hl=${hl} t=${t} c=${c} />
      <div class="fm-tray-items">${c.cargo.map((id) => html`<${HoldItem} view=${view} hl=${hl} t=${t} id=${id} colour=${colourOfUnit(view, c)} />`)}</div></div>`)}
    </div>` : null}
    <${FireSwitch} t=${t} />
  </div>`;
}

// ----------------------------------------------------------------------------------------------------- legend
export function Legend({ t }) {
  const swatch = (ter, tide, label, k) => html`<li key=${k}><${HexSwatch} t=${ter} tide=${tide} /> ${label}</li>`;
  const kinds = ["tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore"];
  return html`<div class="fm-legend" data-testid="fm-legend">
    <h3>${t("fm.legend_terrain")}</h3>
    <ul class="fm-legend-list">
      ${swatch(".", "normal", t("fm.legend.sea"), "sea")}
      ${swatch("*", "low", t("fm.legend.reef_dry"), "rd")}${swatch("*", "normal", t("fm.legend.reef_wet"), "rw")}
      ${swatch("%", "normal", t("fm.legend.swamp_dry"), "sd")}${swatch("%", "high", t("fm.legend.swamp_wet"), "sw")}
      ${swatch("$", "normal", t("fm.legend.plain"), "pl")}${swatch("#", "normal", t("fm.legend.mountain"), "mo")}
    </ul>
    <p class="help">${t("fm.legend.tides")}</p>
    <h3>${t("fm.legend_units")}</h3>
    <ul class="fm-legend-list fm-legend-units">${kinds.map((k) => html`<li key=${k}><${MiniPiece} kind=${k} colour=${COLOURS[0]} size=${26} />
      ${t("fm.kind." + k)} <span class="muted small">${t("fm.legend.kind." + k)}</span></li>`)}
      <li><svg viewBox="-17 -17 34 34" width="26" height="26" aria-hidden="true"><circle r="14" fill=${COLOURS[1]} /><path d="M-7 3A8 8 0 0 1 9 3Z" fill="#fff" /></svg>
        ${t("fm.kind.ship")} <span class="muted small">${t("fm.legend.kind.ship")}</span></li></ul>
    <h3>${t("fm.legend_marks")}</h3>
    <ul class="fm-legend-list fm-legend-marks">
      <li><span class="fm-key fm-key-move"></span> ${t("fm.legend.move")}</li>
      <li><span class="fm-key fm-key-capture"></span> ${t("fm.legend.capture")}</li>
      <li><span class="fm-key fm-key-special"></span> ${t("fm.legend.special")}</li>
      <li><span class="fm-key fm-key-last"></span> ${t("fm.legend.last")}</li>
      <li><span class="fm-key fm-key-fire"></span> ${t("fm.legend.fire")}</li>
      <li><span class="fm-key fm-key-neutral"></span> ${t("fm.legend.neutral")}</li>
      <li><span class="fm-key fm-key-lock"></span> ${t("fm.legend.locked")}</li>
      <li><span class="fm-key fm-key-stranded"></span> ${t("fm.legend.stranded")}</li>
      <li><span class="fm-key fm-key-badge">2</span> ${t("fm.legend.cargo")}</li>
    </ul>
    <p class="help">${t("fm.legend.coords")}</p>
  </div>`;
}
