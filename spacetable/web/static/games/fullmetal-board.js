// Full Metal Planète board (rules docs/rules/fullmetal.md): the hex map drawn by terrain under the current tide
// (FM-2.1), coordinates on the rim (FM-1.1), fire zones on demand (FM-15.2), pontoons, ore, units and spaceships
// keyed by id (they glide when they move), the picker's highlights and, before play, the landing and deployment
// drafts. Every hex is one place (data-place "x,y"); everything drawn over a hex lets taps through to it, so a tap
// anywhere in a highlighted hex counts, on ore or on a unit too.
import { html, placeAttrs, TargetMark, at, useMemo } from "/static/app/kit.js";
import { R, MARGIN, centre, geometry, keyOf, landAt } from "./fullmetal-hex.js";
import { TERRAIN, colourOfUnit, cover, index, unitName, usePrefs } from "./fullmetal-model.js";
import { BargeHull, OrePebble, PontoonPlanks, ShipHull, discBody, orePath } from "./fullmetal-pieces.js";
import { setupHighlights, SetupGhosts } from "./fullmetal-setup.js";

const S3 = Math.sqrt(3);
const PLAIN = { ".": "#2d66a8", "$": "#d8c690", "#": "#8d6b4b" };

/** The fill of a hex: its terrain as the tide makes it now (reefs and swamps drawn dry or flooded). */
export function fillOf(t, tide) {
  if (t === "*") return landAt(t, tide) ? "url(#fm-reef-dry)" : "url(#fm-reef-wet)";
  if (t === "%") return landAt(t, tide) ? "url(#fm-swamp-dry)" : "url(#fm-swamp-wet)";
  if (t === "#") return "url(#fm-mountain)";
  return PLAIN[t] || "#444";
}

/** A hex of terrain `t` under `tide` for the legend and the info card (drawn without the board's patterns). */
export function HexSwatch({ t, tide, size = 22 }) {
  const wet = !landAt(t, tide);
  const bg = { ".": "#2d66a8", "$": "#d8c690", "#": "#8d6b4b" }[t] || (wet ? "#3f7dbb" : t === "*" ? "#b9ae86" : "#7f9a5b");
  let marks = null;
  if (t === "*") marks = html`<circle cx="-3.5" cy="-2" r="1.5" fill=${wet ? "#a9d3e6" : "#857b58"} /><circle cx="3" cy="3" r="1.5" fill=${wet ? "#a9d3e6" : "#857b58"} />`;
  else if (t === "%") marks = html`<path d="M-4 5l1.5-6M0 5v-7M4 5l-1.5-6" stroke=${wet ? "#9cc489" : "#4d6a35"} stroke-width="1.2" />`;
  else if (t === "#") marks = html`<path d="M-6 5L0 -5L6 5Z" fill="#6f5138" />`;
  return html`<svg viewBox="-11 -11 22 22" width=${size} height=${size} aria-hidden="true" focusable="false" class="fm-swatch">
    <polygon points="10,0 5,8.7 -5,8.7 -10,0 -5,-8.7 5,-8.7" fill=${bg} stroke="#111" stroke-width="0.6" />${marks}</svg>`;
}

export function Patterns() {
  const pat = (id, bg, marks) => html`<pattern id=${id} patternUnits="userSpaceOnUse" width="10" height="10">
    <rect width="10" height="10" fill=${bg} />${marks}</pattern>`;
  return html`<defs>
    ${pat("fm-reef-dry", "#b9ae86", html`<circle cx="2.5" cy="2.5" r="1.3" fill="#857b58" /><circle cx="7.5" cy="7.5" r="1.3" fill="#857b58" />`)}
    ${pat("fm-reef-wet", "#3f7dbb", html`<circle cx="2.5" cy="2.5" r="1.3" fill="#a9d3e6" /><circle cx="7.5" cy="7.5" r="1.3" fill="#a9d3e6" />`)}
    ${pat("fm-swamp-dry", "#7f9a5b", html`<path d="M2 8l1-4M4 8l0-4.5M6 8l-1-4" stroke="#4d6a35" stroke-width="0.9" />`)}
    ${pat("fm-swamp-wet", "#3f7dbb", html`<path d="M2 8l1-4M4 8l0-4.5M6 8l-1-4" stroke="#9cc489" stroke-width="0.9" />`)}
    ${pat("fm-mountain", "#8d6b4b", html`<path d="M1 8L4 3L7 8Z" fill="#6f5138" /><path d="M4 3L5.2 5" stroke="#cdb79b" stroke-width="0.8" />`)}
    <pattern id="fm-fire" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">
      <rect width="7" height="7" fill="rgba(230,40,40,0.18)" /><rect width="2.6" height="7" fill="rgba(240,40,40,0.65)" /></pattern>
    <pattern id="fm-cover" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(-45)">
      <rect width="7" height="7" fill="rgba(60,130,255,0.14)" /><rect width="2.4" height="7" fill="rgba(90,160,255,0.6)" /></pattern>
  </defs>`;
}

function hexLabel(t, view, c, occ) {
  const u = occ.get(c.k);
  const terrain = t("fm.terrain." + TERRAIN[c.t]);
  return u ? t("fm.hex_unit", { cell: c.k, terrain, unit: unitName(t, u) }) : t("fm.hex", { cell: c.k, terrain });
}

/** The static part: hexes (places), their terrain fills and the rim; redrawn only when the map, tide or
 *  highlights change. */
function Hexes({ g, view, hl, t, occ }) {
  return html`<g class="fm-hexes">${g.cells.map((c) => {
    const live = hl.interactive && (hl.sources.has(c.k) || hl.targets.has(c.k) || hl.selected === c.k);
    const a = placeAttrs(hl, c.k, live ? hexLabel(t, view, c, occ) : null, "fm-hex");
    return html`<polygon points=${c.pts} fill=${fillOf(c.t, view.tide)} ...${a} />`;
  })}</g>`;
}

function Rim({ g }) {
  const out = [];
  const top = MARGIN.top - 9, bottom = g.height - MARGIN.bottom + 17;
  for (let x = 0; x < g.W; x++) {
    const cx = MARGIN.left + R * (1.5 * x + 1);
    out.push(html`<text x=${cx} y=${top} class="fm-coord">${x}</text><text x=${cx} y=${bottom} class="fm-coord">${x}</text>`);
  }
  const right = g.width - MARGIN.right / 2 + 2;
  for (let y = 0; y < g.H; y++) {
    const ly = MARGIN.top + R * S3 * (y + 0.5) + 4;
    const ry = MARGIN.top + R * S3 * (y + 0.5 * ((g.W - 1) & 1) + 0.5) + 4;
    out.push(html`<text x=${MARGIN.left / 2} y=${ly} class="fm-coord">${y}</text><text x=${right} y=${ry} class="fm-coord">${y}</text>`);
  }
  return html`<g class="fm-rim" aria-hidden="true">${out}</g>`;
}

function Overlay({ g, cells, cls }) {
  return html`<g class=${cls}>${cells.map((k) => { const c = g.at.get(k); return c ? html`<polygon points=${c.pts} />` : null; })}</g>`;
}

/** Fire zones on demand: hexes under enemy fire (some single opponent covers them twice, FM-15.2), or the seat's own. */
function FireZones({ g, view, mode }) {
  if (mode === "off" || view.viewer === null || view.viewer === undefined || !view.cover) return null;
  const cov = cover(view, view.viewer, mode === "mine");
  const cells = g.cells.filter((c) => cov[c.y * view.width + c.x] >= 2).map((c) => c.k);
  return html`<${Overlay} g=${g} cells=${cells} cls=${mode === "mine" ? "fm-zone fm-zone-own" : "fm-zone fm-zone-enemy"} />`;
}

function Pieces({ view, hl }) {
  const out = [];
  const ore = [];
  const { byId } = index(view);
  const sel = hl.selected && !hl.selected.includes(":") ? hl.selected : null;
  const holder = hl.selected && hl.selected.startsWith("c:") ? byId.get(Number(hl.selected.slice(2))) : null;
  for (const u of view.units) {
    if (u.carrier !== undefined || !u.cells.length || u.kind === "turret") continue;
    const [x, y] = centre(u.cells[0][0], u.cells[0][1]);
    const cells = u.cells.map(keyOf);
    const colour = colourOfUnit(view, u);
    let extra = "";
    if (cells.some((k) => hl.sources.has(k))) extra += " movable";
    if (sel && cells.includes(sel)) extra += " selected";
    if (holder && holder.carrier !== undefined && holder.carrier === u.id) extra += " holding";
    if (cells.some((k) => hl.hover.has(k))) extra += " hover";
    let body;
    if (u.kind === "ore" && (u.value === undefined || u.value === 2)) { ore.push([x, y]); continue; }
    if (u.kind === "ore") body = html`<${OrePebble} value=${u.value} />`;
    else if (u.kind === "pontoon") body = html`<${PontoonPlanks} />`;
    else if (u.kind === "barge") {
      const [x2, y2] = centre(u.cells[1][0], u.cells[1][1]);
      body = html`<${BargeHull} u=${u} colour=${colour} dx=${x2 - x} dy=${y2 - y} extra=${extra} />`;
    } else if (u.kind === "ship") {
      const pods = u.cells.slice(1).map((c) => { const [px, py] = centre(c[0], c[1]); return [px - x, py - y]; });
      const turrets = (u.turrets || []).map((id) => id >= 0);
      body = html`<${ShipHull} pods=${pods} colour=${colour} turrets=${turrets} cargo=${(u.cargo || []).length} extra=${extra} />`;
    } else {
      out[2] = out[2] || [];
      out[2].push(html`<g key=${u.id} class=${"fm-unit fm-piece fm-" + u.kind + extra} style=${at(x, y)} data-unit=${u.id}
        data-kind=${u.kind}>${discBody(u, colour)}</g>`);
      continue;
    }
    const layer = u.kind === "pontoon" ? 0 : u.kind === "ship" ? 1 : 2;
    (out[layer] = out[layer] || []).push(html`<g key=${u.id} class=${"fm-unit fm-" + u.kind} style=${at(x, y)} data-unit=${u.id}
      data-kind=${u.kind}>${body}</g>`);
  }
  return html`<g class="fm-pieces" pointer-events="none">${out[0]}
    ${ore.length ? html`<path class="fm-ore-stone" d=${orePath(ore)} data-ore=${String(ore.length)} />` : null}${out[1]}${out[2]}</g>`;
}

function Marks({ g, hl }) {
  const out = [];
  for (const [k, tg] of hl.targets) {
    const c = g.at.get(k);
    if (c) out.push(html`<${TargetMark} x=${c.cx} y=${c.cy} r=${R * 0.82} kind=${tg.kind} />`);
  }
  return html`<g class="fm-marks" pointer-events="none">${out}</g>`;
}

/** The cells of the selected unit (or of the carrier whose hold item is selected), outlined. */
function selectionCells(view, hl) {
  const s = hl.selected;
  if (!s) return [];
  const { occ, byId } = index(view);
  if (s.startsWith("c:")) {
    const item = byId.get(Number(s.slice(2)));
    const holder = item && byId.get(item.carrier);
    return holder ? holder.cells.map(keyOf) : [];
  }
  if (s.includes(":")) return [];
  const u = occ.get(s);
  return u ? u.cells.map(keyOf) : [s];
}

/** A burst on the hex just fired at, replayed for each shot shown. */
function Blast({ g, last, version }) {
  const a = last && last.action;
  if (!a) return null;
  let cells = [];
  if (a.type === "fire") cells = [a.target];
  else if (a.type === "assault") cells = (a.shots || []).map((s) => s.target);
  const out = cells.map((c) => g.at.get(keyOf(c))).filter(Boolean);
  if (!out.length) return null;
  return html`<g class="fm-blasts" pointer-events="none" key=${"blast" + version}>${out.map((c) => html`<g transform=${`translate(${c.cx},${c.cy})`}>
    <circle class="fm-blast" r=${R * 0.9} /><circle class="fm-blast-core" r=${R * 0.45} /></g>`)}</g>`;
}

export function Board(props) {
  const { view, t } = props;
  const prefs = usePrefs();
  const g = geometry(view);
  const hl = setupHighlights(props) || props.hl;
  const { occ } = index(view);
  const sig = [...hl.sources].join(" ") + "|" + [...hl.targets.keys()].join(" ") + "|" + [...hl.last].join(" ") + "|"
    + [...hl.hover].join(" ") + "|" + hl.selected + "|" + hl.interactive;
  const hexes = useMemo(() => html`<${Hexes} g=${g} view=${view} hl=${hl} t=${t} occ=${occ} />`, [g, view, sig, props.lang]);
  const targetCells = [...hl.targets.keys()];
  const kinds = (kind) => targetCells.filter((k) => (hl.targets.get(k).kind || "move") === kind);
  return html`<svg class="fm-board" viewBox=${`0 0 ${g.width.toFixed(0)} ${g.height.toFixed(0)}`} role="group"
      aria-label=${t("fm.board")} data-testid="fm-board" data-phase=${view.phase} data-tide=${view.tide}>
    <${Patterns} />
    ${hexes}
    <g pointer-events="none">
      <${FireZones} g=${g} view=${view} mode=${prefs.fire} />
      <${Overlay} g=${g} cells=${[...hl.last]} cls="fm-hl fm-hl-last" />
      <${Overlay} g=${g} cells=${kinds("move").concat(kinds("place"))} cls="fm-hl fm-hl-target" />
      <${Overlay} g=${g} cells=${kinds("special")} cls="fm-hl fm-hl-special" />
      <${Overlay} g=${g} cells=${kinds("capture")} cls="fm-hl fm-hl-capture" />
      <${Overlay} g=${g} cells=${[...hl.hover]} cls="fm-hl fm-hl-hover" />
      <${Overlay} g=${g} cells=${selectionCells(view, hl)} cls="fm-hl fm-hl-selected" />
    </g>
    <${Pieces} view=${view} hl=${hl} />
    <g pointer-events="none">
      <${SetupGhosts} ...${props} g=${g} />
      <${Blast} g=${g} last=${props.last} version=${props.version} />
    </g>
    <${Marks} g=${g} hl=${hl} />
    <${Rim} g=${g} />
  </svg>`;
}
