// Full Metal Planète pieces, drawn as inline SVG around (0, 0) for a hex of radius R (FM-4): a coloured disc with
// a white silhouette per kind, barges as a hull over two hexes, spaceships as a dome and three pods, ore as a
// pebble, pontoons as planks. Used on the board (moved with CSS transforms, so pieces glide), in the trays and in
// the legend. Purely visual: taps reach the hex underneath (pointer-events: none).
import { html } from "/static/app/kit.js";
import { R } from "./fullmetal-hex.js";

const INK = "#fff";

const f = (n) => Math.round(n * 10) / 10;
/** A rounded rectangle as path data. */
function rr(x, y, w, h, r) {
  r = Math.min(r, w / 2, h / 2);
  return `M${f(x + r)} ${f(y)}h${f(w - 2 * r)}a${f(r)} ${f(r)} 0 0 1 ${f(r)} ${f(r)}v${f(h - 2 * r)}a${f(r)} ${f(r)} 0 0 1 ${f(-r)} ${f(r)}`
    + `h${f(2 * r - w)}a${f(r)} ${f(r)} 0 0 1 ${f(-r)} ${f(-r)}v${f(2 * r - h)}a${f(r)} ${f(r)} 0 0 1 ${f(r)} ${f(-r)}Z`;
}
const circ = (cx, cy, r) => `M${f(cx - r)} ${f(cy)}a${f(r)} ${f(r)} 0 1 0 ${f(2 * r)} 0a${f(r)} ${f(r)} 0 1 0 ${f(-2 * r)} 0Z`;

/** Path data of each kind's silhouette at size s: [filled, stroked] (drawn in white; one or two elements). */
function shapes(kind, s) {
  const w = Math.max(1.4, s * 0.2);
  switch (kind) {
    case "tank": // side view: tracks, hull, turret and a gun pointing right
      return [rr(-s * 0.9, s * 0.2, s * 1.8, s * 0.5, s * 0.25) + `M${f(-s * 0.8)} ${f(s * 0.15)}L${f(-s * 0.55)} ${f(-s * 0.2)}H${f(s * 0.6)}L${f(s * 0.8)} ${f(s * 0.15)}Z`
        + rr(-s * 0.4, -s * 0.6, s * 0.75, s * 0.45, s * 0.18) + rr(s * 0.2, -s * 0.48, s * 0.85, w, w / 2), null];
    case "gt": // the super tank: heavier, two guns
      return [rr(-s, s * 0.25, s * 2, s * 0.55, s * 0.27) + `M${f(-s * 0.9)} ${f(s * 0.2)}L${f(-s * 0.65)} ${f(-s * 0.2)}H${f(s * 0.7)}L${f(s * 0.9)} ${f(s * 0.2)}Z`
        + rr(-s * 0.55, -s * 0.72, s * 0.95, s * 0.6, s * 0.2) + rr(s * 0.3, -s * 0.68, s * 0.8, w, w / 2) + rr(s * 0.3, -s * 0.38, s * 0.8, w, w / 2), null];
    case "mb":
      return [`M${f(-s)} ${f(-s * 0.05)}L${f(s)} ${f(-s * 0.05)}L${f(s * 0.6)} ${f(s * 0.6)}L${f(-s * 0.7)} ${f(s * 0.6)}Z`
        + rr(-s * 0.4, -s * 0.6, s * 0.7, s * 0.5, 0.5) + rr(s * 0.1, -s * 0.85, s * 0.85, w, 0.5), null];
    case "crab":
      return [`M${f(-s * 0.55)} 0a${f(s * 0.55)} ${f(s * 0.42)} 0 1 0 ${f(s * 1.1)} 0a${f(s * 0.55)} ${f(s * 0.42)} 0 1 0 ${f(-s * 1.1)} 0Z`,
        `M${f(-s * 0.5)} ${f(-s * 0.2)}L${f(-s)} ${f(-s * 0.6)}M${f(-s * 0.55)} ${f(s * 0.1)}L${f(-s)} ${f(s * 0.1)}M${f(-s * 0.5)} ${f(s * 0.35)}L${f(-s * 0.9)} ${f(s * 0.75)}`
        + `M${f(s * 0.5)} ${f(-s * 0.2)}L${f(s)} ${f(-s * 0.6)}M${f(s * 0.55)} ${f(s * 0.1)}L${f(s)} ${f(s * 0.1)}M${f(s * 0.5)} ${f(s * 0.35)}L${f(s * 0.9)} ${f(s * 0.75)}`];
    case "wl": // a weather station: a dish on a mast
      return [`M${f(-s * 0.75)} ${f(-s * 0.55)}A${f(s * 0.9)} ${f(s * 0.9)} 0 0 0 ${f(s * 0.45)} ${f(s * 0.3)}Z` + circ(s * 0.62, -s * 0.72, s * 0.16),
        `M${f(-s * 0.05)} ${f(-s * 0.05)}L${f(s * 0.55)} ${f(-s * 0.65)}M${f(-s * 0.2)} ${f(s * 0.3)}L${f(-s * 0.45)} ${f(s * 0.9)}L${f(s * 0.5)} ${f(s * 0.9)}`];
    case "turret":
      return [circ(0, s * 0.1, s * 0.5) + rr(-w / 2, -s * 0.95, w, s, 0.3) + rr(-s * 0.75, s * 0.45, s * 1.5, s * 0.35, s * 0.1), null];
    case "barge":
      return [rr(-s, -s * 0.35, s * 2, s * 0.7, s * 0.3), null];
    case "ship":
      return [`M${f(-s * 0.8)} ${f(s * 0.35)}A${f(s * 0.8)} ${f(s * 0.8)} 0 0 1 ${f(s * 0.8)} ${f(s * 0.35)}Z` + rr(-s, s * 0.4, s * 2, s * 0.3, s * 0.1), null];
    default:
      return [null, null];
  }
}

const SHAPES = new Map();

/** The white silhouette of a kind, about 2·s wide (one path, two for the crab and the weather layer). */
export function Glyph({ kind, s = 9 }) {
  const id = kind + ":" + s;
  let d = SHAPES.get(id);
  if (!d) { d = shapes(kind, s); SHAPES.set(id, d); }
  if (!d[0]) return null;
  if (!d[1]) return html`<path d=${d[0]} fill=${INK} />`;
  return html`<path d=${d[0]} fill=${INK} /><path d=${d[1]} stroke=${INK} stroke-width=${f(Math.max(1.4, s * 0.2))} fill="none" stroke-linecap="round" />`;
}

/** What a unit on one hex is drawn with (inside its own group): disc, silhouette, marks for its state, cargo count. */
export function discBody(u, colour) {
  const r = R * 0.72;
  const n = u.cargo ? u.cargo.length : 0;
  return html`<circle r=${r} fill=${colour} class="fm-disc" />
    <${Glyph} kind=${u.kind} s=${r * 0.62} />
    ${u.neutralized_by ? html`<circle r=${r + 2.5} class="fm-neutral" />` : null}
    ${u.stranded ? html`<path class="fm-stranded" d=${`M${-r} ${r * 0.85}q${r / 4} -4 ${r / 2} 0t${r / 2} 0t${r / 2} 0t${r / 2} 0`} />` : null}
    ${n ? html`<g class="fm-badge" transform=${`translate(${r * 0.78},${-r * 0.78})`}><circle r="6.5" /><text y="3.3">${n}</text></g>` : null}
    ${u.locked ? html`<rect class="fm-lock" x=${-r - 1} y=${r * 0.35} width="6" height="5" rx="1" />` : null}`;
}

/** A unit on one hex (trays, drafts, the legend). */
export function UnitDisc({ u, colour, extra = "" }) {
  return html`<g class=${"fm-piece " + extra}>${discBody(u, colour)}</g>`;
}

const PEBBLE = [[-7, -3], [-3, -8], [5, -7], [9, -1], [6, 6], [-2, 8], [-8, 4]];
/** Every ore of the board as one path (ore never moves: it is loaded or destroyed). */
export function orePath(points) {
  let d = "";
  for (const [x, y] of points) d += PEBBLE.map(([a, b], i) => (i ? "L" : "M") + (x + a).toFixed(1) + " " + (y + b).toFixed(1)).join("") + "Z";
  return d;
}

/** A barge on its two hexes (a hull from one centre to the other), drawn at the first centre. */
export function BargeHull({ u, colour, dx, dy, extra = "" }) {
  const len = Math.hypot(dx, dy);
  const ang = (Math.atan2(dy, dx) * 180) / Math.PI;
  const r = R * 0.62;
  const n = u.cargo ? u.cargo.length : 0;
  return html`<g class=${"fm-piece " + extra}>
    <g transform=${`rotate(${ang.toFixed(1)})`}>
      <rect x=${-r} y=${-r} width=${len + 2 * r} height=${2 * r} rx=${r} fill=${colour} class="fm-disc" />
      <path d=${`M${-r * 0.4} 0H${len + r * 0.4}`} stroke="#fff" stroke-width="3" stroke-linecap="round" opacity="0.8" />
      <path d=${`M${len * 0.5 - 4} ${-r * 0.55}V${r * 0.55}M${len * 0.5 + 4} ${-r * 0.55}V${r * 0.55}`} stroke="#fff" stroke-width="1.6" opacity="0.8" />
      ${u.neutralized_by ? html`<rect x=${-r - 2.5} y=${-r - 2.5} width=${len + 2 * r + 5} height=${2 * r + 5} rx=${r + 2.5} class="fm-neutral" />` : null}
    </g>
    ${u.stranded ? html`<path class="fm-stranded" d=${`M${-r} ${r}q${r / 4} -4 ${r / 2} 0t${r / 2} 0t${r / 2} 0t${r / 2} 0`} />` : null}
    ${n ? html`<g class="fm-badge" transform=${`translate(${dx / 2},${dy / 2})`}><circle r="6.5" /><text y="3.3">${n}</text></g>` : null}
  </g>`;
}

/** A spaceship: hull lines from the dome to its pods, the pods (with their turrets) and the dome, drawn at the dome. */
export function ShipHull({ pods, colour, turrets, cargo, extra = "" }) {
  const r = R * 0.86;
  return html`<g class=${"fm-piece fm-ship " + extra}>
    ${pods.map(([dx, dy]) => html`<path d=${`M0 0L${dx} ${dy}`} stroke=${colour} stroke-width=${R * 0.7} stroke-linecap="round" opacity="0.85" />`)}
    ${pods.map(([dx, dy], k) => html`<g transform=${`translate(${dx},${dy})`}>
      <circle r=${R * 0.66} fill=${colour} class="fm-disc" />
      ${turrets[k] ? html`<${Glyph} kind="turret" s=${R * 0.45} />` : html`<path class="fm-broken" d=${`M-6 -6L6 6M6 -6L-6 6`} />`}</g>`)}
    <circle r=${r} fill=${colour} class="fm-disc fm-dome" />
    <${Glyph} kind="ship" s=${r * 0.62} />
    ${cargo ? html`<g class="fm-badge" transform=${`translate(${r * 0.75},${-r * 0.75})`}><circle r="7.5" /><text y="3.5">${cargo}</text></g>` : null}
  </g>`;
}

export function OrePebble({ value }) {
  const stone = html`<path d="M-7 -3L-3 -8L5 -7L9 -1L6 6L-2 8L-8 4Z" class="fm-ore-stone" />`;
  if (value === undefined || value === 2) return stone;
  return html`<g class="fm-ore">${stone}<text y="3.5" class="fm-ore-value">${value}</text></g>`;
}

export function PontoonPlanks() {
  const s = R * 0.78;
  return html`<g class="fm-pontoon"><rect x=${-s} y=${-s * 0.6} width=${s * 2} height=${s * 1.2} rx="3" />
    <path d=${`M${-s * 0.5} ${-s * 0.6}V${s * 0.6}M0 ${-s * 0.6}V${s * 0.6}M${s * 0.5} ${-s * 0.6}V${s * 0.6}`} /></g>`;
}

/** A piece alone in a small SVG (trays, the legend, info cards). */
export function MiniPiece({ kind, colour, size = 34, u }) {
  const unit = u || { kind, id: 0 };
  let body;
  if (kind === "ore") body = html`<${OrePebble} value=${unit.value} />`;
  else if (kind === "pontoon") body = html`<${PontoonPlanks} />`;
  else if (kind === "barge") body = html`<g transform="translate(-16,0)"><${BargeHull} u=${{ ...unit, neutralized_by: null }} colour=${colour} dx=${32} dy=${0} /></g>`;
  else body = html`<${UnitDisc} u=${{ ...unit, neutralized_by: null, stranded: false, locked: false }} colour=${colour} />`;
  const vb = kind === "barge" ? "-32 -16 64 32" : "-17 -17 34 34";
  return html`<svg class="fm-mini" viewBox=${vb} width=${kind === "barge" ? size * 1.6 : size} height=${kind === "barge" ? size * 0.8 : size}
    aria-hidden="true" focusable="false">${body}</svg>`;
}
