// Battleship Galaxies renderer (game id "galaxies"; rules docs/rules/galaxies.md, ids BG-*, decisions D-*), on the
// renderer interface of docs/architecture.md ("Web client"). Long (about 850 lines) because one game has many
// decision kinds: fleet, deck, roll-off, energy, launch and hold, activation, movement, weapons, tactic cards.
//
// View JSON (spacetable/games/galaxies/views.py, build_view): board {full, half, zones{A,B}: runs [r, q0, q1] of axial
// pointy-top hexes [q, r]; obstacles {asteroid, debris}}, tiles [{hex, face, kind}], phase, window, round, turn,
// active, you {seat, side}, seat_sides, sides [{side, faction, seats, energy, hand_count, deck_count, hand?, screen?,
// discard, destroyed, score}], cards [in play: {id, name, size, side, seat, activated, ships [{id, hexes, shields,
// hull, alive}], shields, hull, weapons, capacity, hold_count, hold?}], roll?, energy_choice?, activation? {card,
// step, ships {piece: {reachable [{hexes, lead, path, cost, ecm_expected, ecm_rolls}], warp?, targets [{weapon,
// target, p_hit, expected_damage, ...}]}}}, playable_now, open_window?, events, fleet_budget?, roster?, result.
//
// Places: hexes "h:q,r", ships by piece id ("f47#1", "everest"), the screen "tray:<card>", holds "tray:hold:<card>".
// Gestures: select a ship of the open activation, tap a marked hex (a footprint's lead hex for a medium ship, the
// centre of a rosette) to move there by its least-ECM path (cost and ECM risk drawn on the hex), tap a marked enemy
// to attack with the weapon picked in the composer (hit chance and expected damage shown); tap one of your ships to
// activate its card; pick a card behind the screen (or in a hold) below the board, then a marked hex of the zone (or
// beside the transporter) to launch it; cargo is loaded in the composer (capacity shown). Everything else (fleet,
// deck, first player, energy choices, tactic cards, reactions, ends of steps) is a composer control; button texts
// are the server's legal_text.
// The game's own texts (card names and texts, phases, tiles) come through t(): the frame loads its catalogue.
import { html, placeAttrs, TargetMark, Button, useState, useRef, useEffect, at, notify } from "/static/app/kit.js";

if (!document.querySelector("link[data-galaxies-css]")) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/galaxies.css";
  link.dataset.galaxiesCss = "yes";
  document.head.appendChild(link);
}

const S = 20; // hex radius in board units
const R3 = Math.sqrt(3);
const HAND_LIMIT = 10; // D-9
const SIDE_COLOURS = { A: "#3f86e0", B: "#d9544a" };
const TEAM_SHADES = { A: ["#3f86e0", "#2fb3c9"], B: ["#d9544a", "#e08a3a"] };
const SIZE_RANK = { small: 0, medium: 1, large: 2 };
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const WINDOW_ORDER = ["fleet", "deck", "first", "energy", "deploy", "action", "activation", "roll", "reaction", "over"];

const hk = (h) => `h:${h[0]},${h[1]}`;
const hexText = (h) => `${h[0]},${h[1]}`;
const stepHex = (h, d) => [h[0] + DIRS[d][0], h[1] + DIRS[d][1]];
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const fpKey = (hexes) => hexes.length === 2 ? [hexText(hexes[0]), hexText(hexes[1])].sort().join("+") : hexText(hexes[0]);

function expand(runs) {
  const out = [];
  for (const [r, q0, q1] of runs || []) for (let q = q0; q <= q1; q++) out.push([q, r]);
  return out;
}

function tr(t, key, vars) { return t(key, vars); }

// ---------------------------------------------------------------------------------------------- geometry
const geoCache = new WeakMap();
function geometry(view) {
  const flip = view.you && view.you.side === "A"; // each side sees its own zone at the bottom
  // on a narrow (portrait) screen the board turns a quarter: its long side runs down the phone
  const rot = typeof window !== "undefined" && window.innerWidth < 700 && window.innerHeight > window.innerWidth;
  const cached = geoCache.get(view.board);
  if (cached && cached.flip === flip && cached.rot === rot) return cached;
  const full = expand(view.board.full);
  const half = expand(view.board.half);
  const raw = (h) => [S * R3 * (h[0] + h[1] / 2), S * 1.5 * h[1]];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const h of [...full, ...half]) {
    const [x, y] = raw(h);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const pad = S * 1.2;
  const w0 = maxX - minX + 2 * pad, h0 = maxY - minY + 2 * pad;
  const flat = (h) => {
    const [x, y] = raw(h);
    return flip ? [maxX - x + pad, maxY - y + pad] : [x - minX + pad, y - minY + pad];
  };
  const pos = rot ? (h) => { const [x, y] = flat(h); return [h0 - y, x]; } : flat;
  const width = rot ? h0 : w0, height = rot ? w0 : h0;
  const zoneOf = {};
  for (const side of ["A", "B"]) for (const h of expand(view.board.zones[side])) zoneOf[hexText(h)] = side;
  ROT = rot;
  const pts = {}; // polygon points of every hex, computed once per board and orientation
  for (const h of full) { const [x, y] = pos(h); pts[hexText(h)] = hexPoints(x, y, S * 0.985); }
  for (const h of half) { const [x, y] = pos(h); pts[hexText(h)] = hexPoints(x, y); }
  const g = { flip, rot, full, half, pos, width, height, zoneOf, pts,
    asteroid: new Set(view.board.obstacles.asteroid.map(hexText)), debris: new Set(view.board.obstacles.debris.map(hexText)) };
  geoCache.set(view.board, g);
  return g;
}

let ROT = false; // the board being drawn is turned a quarter (flat-top hexes)
/** Coordinates written on every hex (a legend switch, remembered in this browser): off by default, the rim names rows. */
let COORDS = (() => { try { return localStorage.getItem("spacetable.galaxies.coords") === "yes"; } catch { return false; } })();
function hexPoints(x, y, r = S) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - (ROT ? 0 : 30));
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function centroid(g, hexes) {
  if (hexes.length === 7) return g.pos(hexes[0]);
  let x = 0, y = 0;
  for (const h of hexes) { const [a, b] = g.pos(h); x += a; y += b; }
  return [x / hexes.length, y / hexes.length];
}

// ------------------------------------------------------------------------------------------------ lookups
function mySide(view) { return view.you && view.you.side; }
function sideData(view, letter) { return view.sides.find((s) => s.side === letter); }
function pieceIndex(view) {
  const out = {};
  for (const c of view.cards) for (const p of c.ships) out[p.id] = { card: c, piece: p };
  return out;
}
function cardOf(view, id) { return view.cards.find((c) => c.id === id); }
function firstPiece(view, cardId) {
  const c = cardOf(view, cardId);
  if (!c) return null;
  const p = c.ships.find((x) => x.alive && x.hexes.length);
  return p ? p.id : null;
}
function placeOfName(view, name) {
  const idx = pieceIndex(view);
  if (idx[name]) return name;
  return firstPiece(view, name);
}
function sideName(view, letter, t, seatName) {
  const sd = sideData(view, letter);
  const faction = sd ? t("galaxies.faction." + sd.faction) : "";
  if (!sd || !seatName) return t("galaxies.ui.side_short", { side: letter, faction });
  return t("galaxies.ui.side_named", { side: letter, faction, who: sd.seats.map((i) => seatName(i)).join(", ") });
}

/** The final footprint of a move action (BG-10.2, BG-10.3, BG-10.4), simulated from the ship's hexes. */
function moveEnd(view, a) {
  const e = pieceIndex(view)[a.ship];
  if (!e) return null;
  const hexes = e.piece.hexes;
  if (hexes.length === 1 || hexes.length === 7) {
    let c = hexes[0];
    for (const d of a.path) c = stepHex(c, d);
    return hexes.length === 1 ? [c] : [c];
  }
  let lead = a.lead || hexes[0];
  let trail = same(lead, hexes[0]) ? hexes[1] : hexes[0];
  for (const d of a.path) { const n = stepHex(lead, d); trail = lead; lead = n; }
  return [lead, trail];
}
function launchAnchor(a) {
  const first = Object.values(a.placement)[0];
  return first ? first[0] : null;
}
function routesOf(view, piece) {
  const act = view.activation;
  return (act && act.ships && act.ships[piece] && act.ships[piece].reachable) || [];
}
function routeFor(view, piece, end, lead) {
  const k = fpKey(end);
  return routesOf(view, piece).find((r) => fpKey(r.hexes) === k && (!lead || !r.lead || same(r.lead, lead))) || null;
}
function targetsOf(view, piece) {
  const act = view.activation;
  return (act && act.ships && act.ships[piece] && act.ships[piece].targets) || [];
}

// ------------------------------------------------------------------------------------------------ pieces
function ShipShape({ g, card, piece, hl, t, extraCls = "", ghost = false, placeId = null, layer = null }) {
  const hexes = piece.hexes;
  const colour = SIDE_COLOURS[card.side] || "#888";
  const [ox, oy] = centroid(g, hexes);
  const cx = 0, cy = 0; // drawn around the ship's centre, placed by a transform: a moved ship glides (CSS transition)
  const rel = (h) => { const [x, y] = g.pos(h); return [x - ox, y - oy]; };
  const id = placeId || piece.id;
  const label = t("galaxies.ui.ship_label", { name: card.name, side: card.side, shields: piece.shields, hull: card.hull - piece.hull,
    of: card.hull, where: hexes.map(hexText).join(" ") });
  const attrs = ghost ? { class: "ship ghost " + extraCls } : placeAttrs(hl, id, label, "ship " + extraCls + " size-" + card.size);
  const passThrough = !ghost && hl.selected === id && [...hl.targets.keys()].some((k) => k.startsWith("h:"));
  const r = card.size === "large" ? S * 0.97 : S * 0.82;
  const body = hexes.map((h) => { const [x, y] = rel(h); return html`<polygon points=${hexPoints(x, y, r)} class="ship-body" fill=${colour} />`; });
  const core = card.size === "large" ? html`<circle cx=${cx} cy=${cy} r=${S * 0.55} class="ship-core" />` : null;
  let link = null;
  if (hexes.length === 2) {
    const [x1, y1] = rel(hexes[0]), [x2, y2] = rel(hexes[1]);
    link = html`<line x1=${x1} y1=${y1} x2=${x2} y2=${y2} class="ship-link" stroke=${colour} />
      <circle cx=${x1} cy=${y1} r=${S * 0.22} class="ship-bow" />`;
  }
  const bare = card.name.replace(/^(ISN|Wretch(ed)?)\s+/i, "");
  const short = card.size === "small" ? bare.split(/\s+/)[0].slice(0, 4) : bare.slice(0, card.size === "large" ? 12 : 9);
  const squad = card.ships.length > 1 ? card.ships.indexOf(piece) + 1 : null;
  const fs = card.size === "large" ? 10 : card.size === "medium" ? 9 : 8;
  const dmg = piece.hull > 0;
  // the labels sit in their own layer (drawn above, never tapped): a ship's accessible name is its aria-label only
  const deco = ghost ? null : html`<g class="ship-deco" aria-hidden="true" pointer-events="none" style=${at(ox, oy)}>
    <text x=${cx} y=${cy + fs / 3} class="ship-name" font-size=${fs} text-anchor="middle">${short}${squad ? html`<tspan font-size=${fs * 0.8}>${" " + squad}</tspan>` : null}</text>
    ${Array.from({ length: Math.min(piece.shields, 8) }, (_, k) => html`<rect x=${cx - 10 + k * 3} y=${cy - fs - 4} width="2.2" height="3.5" class="peg shield" />`)}
    ${dmg ? html`<text x=${cx} y=${cy + fs + 6} font-size="7" class="ship-dmg" text-anchor="middle">-${piece.hull}</text>` : null}
    ${card.hold_count ? html`<g class="hold-badge"><rect x=${cx + 6} y=${cy - fs - 8} width="11" height="9" rx="2" />
      <text x=${cx + 11.5} y=${cy - fs - 1} font-size="7" text-anchor="middle">${card.hold_count}</text></g>` : null}
    ${card.activated ? html`<circle cx=${cx - r * 0.7} cy=${cy - r * 0.5} r="2.6" class="activated-dot" />` : null}
  </g>`;
  const shape = html`<g ...${attrs} data-side=${card.side} pointer-events=${passThrough ? "none" : null} style=${at(ox, oy)}>${body}${link}${core}</g>`;
  return layer === "deco" ? deco : layer === "shape" ? shape : html`${shape}${deco}`;
}

function TileMark({ g, tile, t }) {
  const [x, y] = g.pos(tile.hex);
  const k = tile.face === "down" ? "back" : tile.kind;
  const title = tile.face === "down" ? t("galaxies.ui.tile_back") : t("galaxies.tile." + tile.kind);
  let icon;
  if (k === "back") icon = html`<rect x=${x - 7} y=${y - 7} width="14" height="14" rx="2" class="tile back" transform=${`rotate(45 ${x} ${y})`} />`;
  else if (k === "warp_gate") icon = html`<circle cx=${x} cy=${y} r="11" class="tile gate" /><circle cx=${x} cy=${y} r="6" class="tile gate inner" />`;
  else if (k === "energy_source") icon = html`<path d=${`M${x - 2} ${y - 10} L${x + 6} ${y - 1} L${x} ${y} L${x + 3} ${y + 10} L${x - 6} ${y + 1} L${x} ${y} Z`} class="tile energy" />`;
  else icon = html`<rect x=${x - 8} y=${y - 8} width="16" height="16" rx="3" class=${"tile face " + k} /><text x=${x} y=${y + 3} font-size="8" text-anchor="middle" class="tile-letter">${(title || "?")[0]}</text>`;
  return html`<g class="tile-mark" pointer-events="none"><title>${title}</title>${icon}</g>`;
}

// ------------------------------------------------------------------------------------ a path dragged by hand
/** Hex distance (axial). */
function hexDist(a, b) { const dq = a[0] - b[0], dr = a[1] - b[1]; return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2; }
/** The footprint of a position (BG-10.2–10.4): a small ship's hex, a medium ship's [lead, trail], a rosette's centre. */
function footOf(size, pos) { return size === "large" ? [pos[0], ...DIRS.map((_, d) => stepHex(pos[0], d))] : pos; }
/** One step in direction d, as the engine takes it (spacetable/games/galaxies/movement.py, advance): the new position
 *  and its cost, or the reason it is refused (a key of galaxies.ui.drag_no.*). */
function advanceBy(g, size, pos, d) {
  const full = g.fullSet || (g.fullSet = new Set(g.full.map(hexText)));
  const bad = (h) => (!full.has(hexText(h)) ? "edge" : g.asteroid.has(hexText(h)) ? "asteroid" : null);
  if (size === "large") {
    const old = new Set(footOf(size, pos).map(hexText));
    const c = stepHex(pos[0], d);
    const fresh = footOf(size, [c]).filter((h) => !old.has(hexText(h)));
    for (const h of fresh) { const why = bad(h); if (why) return why; }
    return { pos: [c], cost: fresh.some((h) => g.debris.has(hexText(h))) ? 2 : 1 };
  }
  const h = stepHex(pos[0], d);
  if (size === "medium" && same(h, pos[1])) return "stern";
  const why = bad(h);
  if (why) return why;
  return { pos: size === "medium" ? [h, pos[0]] : [h], cost: g.debris.has(hexText(h)) ? 2 : 1 };
}
/** The hex under a pointer event: the nearest hex centre of the board within a hex's radius, or null. */
function hexAt(svg, g, e) {
  const m = svg && svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  let best = null, bd = S * S;
  for (const h of g.full) { const [x, y] = g.pos(h); const d = (x - p.x) ** 2 + (y - p.y) ** 2; if (d < bd) { bd = d; best = h; } }
  return best;
}
/** The dragged path followed to hex h: back along the path when h is on it, else step by step towards h (each step
 *  checked as the engine does: the board's edge, asteroids, a medium ship's stern, the move points). */
function follow(drag, g, h) {
  const posAt = (k) => (k === 0 ? drag.start : drag.steps[k - 1].pos);
  for (let k = drag.steps.length; k >= 0; k--) {
    if (same(posAt(k)[0], h)) return { ...drag, steps: drag.steps.slice(0, k), refused: null };
  }
  const steps = [...drag.steps];
  let cost = steps.reduce((n, x) => n + x.cost, 0);
  for (let guard = 0; guard < 12; guard++) {
    const pos = steps.length ? steps[steps.length - 1].pos : drag.start;
    const dist = hexDist(pos[0], h);
    if (dist === 0) return { ...drag, steps, refused: null };
    const ways = DIRS.map((_, d) => d).filter((d) => hexDist(stepHex(pos[0], d), h) < dist);
    let took = null, why = null;
    for (const d of ways) {
      const got = advanceBy(g, drag.size, pos, d);
      if (typeof got === "string") { why = why || { hex: stepHex(pos[0], d), why: got }; continue; }
      if (cost + got.cost > drag.limit) { why = why || { hex: stepHex(pos[0], d), why: "points" }; continue; }
      took = { d, pos: got.pos, cost: got.cost };
      break;
    }
    if (!took) return { ...drag, steps, refused: why };
    steps.push(took);
    cost += took.cost;
  }
  return { ...drag, steps };
}

/** Drag a ship of the activation through hexes: the path drawn follows the pointer, a step that the rules refuse
 *  is marked on its hex with the reason; let go on a hex where the ship can end and it moves by exactly the path
 *  drawn when that path ends there, else by the least-ECM path to that hex (as a tap on it does). A short press
 *  stays a tap (selection; moves by taps and the keyboard are unchanged). */
function usePathDrag(svgRef, g, view, legal, play, t) {
  const [drag, setDrag] = useState(null);
  const live = useRef(null);
  function onDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const el = e.target.closest && e.target.closest(".ship[data-place]");
    const ship = el && el.getAttribute("data-place");
    if (!ship || !legal.some((a) => a.type === "move" && a.ship === ship) || !routesOf(view, ship).length) return;
    const entry = pieceIndex(view)[ship];
    const size = entry.card.size;
    const hexes = entry.piece.hexes;
    let start = [hexes[0]];
    if (size === "medium") { // the hex pressed leads (D-3)
      const h = hexAt(svgRef.current, g, e);
      const lead = h && same(h, hexes[1]) ? hexes[1] : hexes[0];
      start = [lead, same(lead, hexes[0]) ? hexes[1] : hexes[0]];
    }
    const limit = entry.piece.move ?? Math.max(...routesOf(view, ship).map((r) => r.cost));
    live.current = { ship, size, start, steps: [], refused: null, limit, on: false, id: e.pointerId, sx: e.clientX, sy: e.clientY, target: e.currentTarget };
    const move = (ev) => {
      const d = live.current;
      if (!d || ev.pointerId !== d.id) return;
      if (!d.on && Math.hypot(ev.clientX - d.sx, ev.clientY - d.sy) > 8) {
        d.on = true;
        // the board's tap and pan gestures let go of this pointer: from now on it draws the path
        const vp = d.target.closest("[data-testid=board]");
        d.cancelling = true;
        if (vp) vp.dispatchEvent(new PointerEvent("pointercancel", { pointerId: d.id, bubbles: true }));
        d.cancelling = false;
      }
      if (!d.on) return;
      ev.preventDefault();
      const h = hexAt(svgRef.current, g, ev);
      if (!h) return;
      live.current = { ...follow(d, g, h), on: true, id: d.id, sx: d.sx, sy: d.sy, target: d.target };
      setDrag(live.current);
    };
    const up = (ev) => {
      const d = live.current;
      if (!d || ev.pointerId !== d.id || d.cancelling) return;
      window.removeEventListener("pointermove", move, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      live.current = null;
      setDrag(null);
      if (!d.on || ev.type === "pointercancel") return;
      const h = hexAt(svgRef.current, g, ev);
      const routes = routesOf(view, d.ship);
      const ends = h ? routes.filter((r) => same(r.hexes[0], h)) : []; // where the bow (or the centre) ends
      if (!ends.length) { notify({ kind: "error", text: t("galaxies.ui.drag_no_end"), ms: 4000 }); return; }
      const pos = d.steps.length ? d.steps[d.steps.length - 1].pos : null;
      const fp = pos && fpKey(footOf(d.size, pos).slice(0, d.size === "large" ? 1 : 2));
      const drawn = pos && same(pos[0], h) && ends.find((r) => fpKey(d.size === "large" ? [r.hexes[0]] : r.hexes) === fp);
      if (drawn) { play({ type: "move", ship: d.ship, lead: d.size === "medium" ? d.start[0] : null, path: d.steps.map((x) => x.d) }); return; }
      const best = ends.reduce((b, r) => (r.ecm_expected < b.ecm_expected || (r.ecm_expected === b.ecm_expected && r.cost < b.cost) ? r : b));
      play({ type: "move", ship: d.ship, lead: best.lead ?? null, path: best.path }); // the least-ECM path, as a tap
    };
    window.addEventListener("pointermove", move, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
  }
  return { drag, onDown };
}

/** The path being dragged: its line, the ship's shape where it would end, the points spent, a refused step marked. */
function DragPath({ drag, g, view, hl, t }) {
  const e = pieceIndex(view)[drag.ship];
  if (!e) return null;
  const pos = drag.steps.length ? drag.steps[drag.steps.length - 1].pos : drag.start;
  const pts = [drag.start[0], ...drag.steps.map((x) => x.pos[0])].map((h) => g.pos(h));
  const spent = drag.steps.reduce((n, x) => n + x.cost, 0);
  const [ex, ey] = g.pos(pos[0]);
  const out = [];
  if (drag.steps.length) {
    out.push(html`<${ShipShape} g=${g} card=${e.card} piece=${{ ...e.piece, hexes: footOf(drag.size, pos).slice(0, drag.size === "large" ? 7 : 2) }} hl=${hl} t=${t} ghost />`);
  }
  out.push(html`<polyline points=${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")} class="gx-path gx-drag-path"
    data-testid="gx-drag-path" data-steps=${drag.steps.length} data-path=${drag.steps.map((x) => x.d).join(",")} />`);
  out.push(html`<g class="gx-drag-cost"><rect x=${ex - 13} y=${ey - 25} width="26" height="12" rx="3" />
    <text x=${ex} y=${ey - 16} font-size="8.5" text-anchor="middle">${spent}/${drag.limit}</text></g>`);
  if (drag.refused) {
    const [x, y] = g.pos(drag.refused.hex);
    const why = t("galaxies.ui.drag_no." + drag.refused.why);
    out.push(html`<g class="gx-refused" data-testid="gx-drag-refused" data-why=${drag.refused.why}>
      <polygon points=${hexPoints(x, y, S * 0.85)} />
      <path d=${`M${x - 7} ${y - 7} L${x + 7} ${y + 7} M${x + 7} ${y - 7} L${x - 7} ${y + 7}`} />
      <rect x=${x - why.length * 2.3 - 4} y=${y + S * 0.9} width=${why.length * 4.6 + 8} height="13" rx="3" />
      <text x=${x} y=${y + S * 0.9 + 9.5} font-size="8.5" text-anchor="middle">${why}</text></g>`);
  }
  return html`<g class="gx-drag" pointer-events="none">${out}</g>`;
}

// ------------------------------------------------------------------------------------------------- board
function Board(props) {
  const { view, hl, ui, t, legal } = props;
  const [hover, setHover] = useState(null);
  const g = geometry(view);
  ROT = g.rot;
  const svgRef = useRef(null);
  const pathDrag = usePathDrag(svgRef, g, view, legal || [], props.play || (() => {}), t);
  const movable = new Set((legal || []).filter((a) => a.type === "move").map((a) => a.ship));
  useEffect(() => { // a finger on a ship that can move draws its path: the page does not scroll under it
    const svg = svgRef.current;
    if (!svg) return undefined;
    const hold = (e) => { if (e.target.closest && e.target.closest(".ship.gx-draggable")) e.preventDefault(); };
    svg.addEventListener("touchstart", hold, { passive: false });
    return () => svg.removeEventListener("touchstart", hold);
  }, []);
  const idx = pieceIndex(view);
  const occupied = new Set();
  for (const c of view.cards) for (const p of c.ships) if (p.alive) for (const h of p.hexes) occupied.add(hexText(h));
  const sel = hl.selected && idx[hl.selected] ? hl.selected : null;
  const routes = {};
  if (sel) for (const r of routesOf(view, sel)) routes[fpKey(r.hexes)] = r;
  const selTargets = {};
  const shooters = sel ? [sel] : Object.keys((view.activation && view.activation.ships) || {});
  for (const p of shooters) { // the best odds on each ring (a tap fires the best weapon)
    for (const x of targetsOf(view, p)) {
      if (ui.weapon && x.weapon !== ui.weapon) continue;
      const prev = selTargets[x.target];
      if (!prev || (x.expected_damage ?? x.p_hit) > (prev.expected_damage ?? prev.p_hit)) selTargets[x.target] = x;
    }
  }
  const activatable = new Set(legal.filter((a) => a.type === "activate").map((a) => a.card));
  const squad = hl.interactive && hl.selected && hl.selected.startsWith("tray:") && ui.squad && "tray:" + ui.squad.card === hl.selected
    && ui.squad.hexes.length ? ui.squad : null;
  let hl0 = hl;
  if (squad) { // drafting a squadron: the drafted ships can be taken back, the next ship goes beside them
    const next = squadronNext(view, squad.hexes);
    hl0 = { ...hl, targets: next, sources: new Set([...hl.sources, ...squad.hexes.map(hk)]) };
  }

  const rim = g.half.map((h) => html`<polygon points=${g.pts[hexText(h)]} class="hex rim" />`);
  // rows (r) are named on the rim at both ends of each row; every hex's q,r on request (legend switch)
  const rimLabels = [];
  const seen = {};
  for (const h of g.half) { const r = h[1]; (seen[r] = seen[r] || []).push(h); }
  for (const list of Object.values(seen)) {
    for (const h of [list[0], list[list.length - 1]]) {
      const [x, y] = g.pos(h);
      rimLabels.push(html`<text x=${x} y=${y + 3} class="rim-coord" font-size="8" text-anchor="middle">${"r" + h[1]}</text>`);
    }
  }
  const cells = g.full.map((h) => {
    const k = hexText(h), id = hk(h);
    const [x, y] = g.pos(h);
    const zone = g.zoneOf[k];
    const terr = g.asteroid.has(k) ? " asteroid" : g.debris.has(k) ? " debris" : "";
    const cls = "cell hex" + (zone ? " zone-" + zone : "") + terr;
    const tg = hl0.targets.get(id);
    const live = tg || hl0.sources.has(id); // only pickable hexes are named (and focusable)
    const label = live ? t("galaxies.ui.hex_label", { hex: k }) + (terr ? " · " + t(terr === " asteroid" ? "galaxies.ui.terrain.asteroid" : "galaxies.ui.terrain.debris") : "") : null;
    const a = placeAttrs(hl0, id, label, cls);
    return html`<g ...${a} onPointerEnter=${tg ? () => setHover(id) : null} onPointerLeave=${tg ? () => setHover(null) : null}>
      <polygon points=${g.pts[k]} />
      ${g.asteroid.has(k) ? html`<circle cx=${x - 3} cy=${y + 2} r="7" class="rock" /><circle cx=${x + 6} cy=${y - 4} r="4" class="rock" />` : null}
      ${g.debris.has(k) ? html`<path d=${`M${x - 9} ${y + 4} l5 -3 l3 4 M${x + 2} ${y - 7} l6 2 l-2 5 M${x - 3} ${y + 9} l4 -2`} class="debris-lines" />` : null}
      ${!COORDS || occupied.has(k) || hl0.targets.has(id) ? null : html`<text x=${x} y=${y + 2.5} class="coord" aria-hidden="true" font-size="6.5" text-anchor="middle">${k}</text>`}
    </g>`;
  });
  const tiles = view.tiles.map((tile) => html`<${TileMark} g=${g} tile=${tile} t=${t} />`);
  const ships = [];
  const labels = [];
  for (const c of view.cards) {
    for (const p of c.ships) {
      if (!p.alive || !p.hexes.length) continue;
      const extra = (activatable.has(c.id) && hl.interactive ? "is-source activatable " : "") + (hl.last.has(p.id) ? "is-last " : "")
        + (movable.has(p.id) ? "gx-draggable " : "");
      ships.push(html`<${ShipShape} key=${p.id} g=${g} card=${c} piece=${p} hl=${hl} t=${t} extraCls=${extra} layer="shape" />`);
      labels.push(html`<${ShipShape} key=${p.id} g=${g} card=${c} piece=${p} hl=${hl} t=${t} layer="deco" />`);
    }
  }
  // footprints previewed: the hovered target's footprint, and the launch draft
  const ghosts = [];
  const marks = [];
  for (const [id, tg] of hl0.targets) {
    if (id.startsWith("h:")) {
      const h = id.slice(2).split(",").map(Number);
      const [x, y] = g.pos(h);
      marks.push(html`<${TargetMark} x=${x} y=${y} r=${S} kind=${tg.kind} />`);
      const r = sel ? Object.values(routes).find((rt) => same(rt.hexes[0], h)) : null; // the bow's (or centre's) end hex
      if (r) {
        marks.push(html`<text x=${x} y=${y - 7} class="cost-label" font-size="8" text-anchor="middle" pointer-events="none">${r.cost}</text>`);
        if (r.ecm_rolls > 0) marks.push(html`<g class="ecm-risk" pointer-events="none"><circle cx=${x + 9} cy=${y + 8} r="5" />
          <text x=${x + 9} y=${y + 10.5} font-size="7" text-anchor="middle">${r.ecm_rolls}</text></g>`);
      }
    } else if (idx[id]) {
      const [x, y] = centroid(g, idx[id].piece.hexes);
      const rr = idx[id].card.size === "large" ? S * 2.2 : S * 1.2;
      marks.push(html`<${TargetMark} x=${x} y=${y} r=${rr} kind="capture" />`);
      const o = selTargets[id];
      if (o) marks.push(html`<g class="odds-label" pointer-events="none"><rect x=${x - 17} y=${y + rr - 4} width="34" height="11" rx="3" />
        <text x=${x} y=${y + rr + 4.5} font-size="8" text-anchor="middle">${Math.round(o.p_hit * 100)}%</text></g>`);
    }
  }
  if (hover && sel) {
    const h = hover.slice(2).split(",").map(Number);
    const r = ui.dest && ui.destShip === sel ? Object.values(routes).find((rt) => rt.hexes.length === 2 && same(rt.hexes[0], ui.dest) && same(rt.hexes[1], h))
      : Object.values(routes).find((rt) => same(rt.hexes[0], h));
    const e = idx[sel];
    if (r && e) {
      ghosts.push(html`<${ShipShape} g=${g} card=${e.card} piece=${{ ...e.piece, hexes: r.hexes }} hl=${hl} t=${t} ghost />`);
      // the path the ship takes, hex by hex (the least-ECM one)
      let c = r.lead || e.piece.hexes[0];
      const pts = [g.pos(c)];
      for (const d of r.path || []) { c = stepHex(c, d); pts.push(g.pos(c)); }
      if (pts.length > 1) ghosts.push(html`<polyline points=${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")} class="gx-path" />`);
    }
  }
  if (ui.dest && sel && ui.destShip === sel) { // the bow's hex of a medium ship's move, waiting for the stern's tap
    const [x, y] = g.pos(ui.dest);
    ghosts.push(html`<polygon points=${hexPoints(x, y, S * 0.8)} class="gx-pinned" />`);
  }
  if (ui.anchor && hl.selected === "tray:" + ui.anchorCard) {
    const [x, y] = g.pos(ui.anchor);
    ghosts.push(html`<polygon points=${hexPoints(x, y, S * 0.8)} class="gx-pinned" />`);
  }
  if (squad) {
    const c = squadronOf(view, squad.card);
    squad.hexes.forEach((h, k) => ghosts.push(html`<${ShipShape} g=${g} card=${{ ...c, side: mySide(view), ships: [1, 2, 3, 4, 5, 6].slice(0, c.squadron_size).map((n) => ({ id: n })), activated: false, hold_count: 0 }}
      piece=${{ id: "draft" + k, hexes: [h], shields: c.shields, hull: 0 }} hl=${hl0} t=${t} ghost />`));
  }
  const lastHexes = [...hl.last].filter((p) => p.startsWith("h:")).map((p) => {
    const [x, y] = g.pos(p.slice(2).split(",").map(Number));
    return html`<polygon points=${hexPoints(x, y, S * 0.9)} class="last-hex" pointer-events="none" />`;
  });
  return html`<svg class="galaxies-board" viewBox=${`0 0 ${g.width.toFixed(0)} ${g.height.toFixed(0)}`} role="group" ref=${svgRef}
      aria-label=${t("galaxies.ui.board")} data-testid="galaxies-board" data-flip=${g.flip ? "yes" : "no"}
      onPointerDown=${movable.size ? pathDrag.onDown : null}>
    <rect width=${g.width} height=${g.height} class="space" />
    <g class="rim">${rim}</g><g class="rim-labels" aria-hidden="true" pointer-events="none">${rimLabels}</g><g class="cells">${cells}</g><g class="last">${lastHexes}</g>
    <g class="tiles">${tiles}</g><g class="ships">${ships}</g><g class="ship-labels">${labels}</g><g class="ghosts" pointer-events="none">${ghosts}</g>
    <g class="marks">${marks}</g>
    ${pathDrag.drag && pathDrag.drag.on ? html`<${DragPath} drag=${pathDrag.drag} g=${g} view=${view} hl=${hl} t=${t} />` : null}
  </svg>`;
}

// -------------------------------------------------------------------------------------------------- tray
/** Below the board: your cards behind the screen and in your ships' holds (pick one, then a marked hex). */
function Tray(props) {
  const { view, hl, t, legal } = props;
  const side = mySide(view);
  if (!side || ["fleet", "deck", "first", "over"].includes(view.phase) || ["fleet", "deck", "first"].includes(view.window)) return null;
  const sd = sideData(view, side);
  const screen = sd.screen || [];
  const launchable = new Set(legal.filter((a) => a.type === "launch").map((a) => a.card));
  const holdable = new Set(legal.filter((a) => a.type === "launch_from_hold").map((a) => a.card));
  const chip = (id, c, where, live) => {
    const a = live ? placeAttrs(hl, id, t("galaxies.ui.launch_card", { name: c.name, cost: c.launch_cost })) : {};
    return html`<div class=${"gx-chip " + (a.class || "place")} data-place=${id} tabindex=${a.tabindex} role=${a.role || null}
        aria-pressed=${a["aria-pressed"]} data-testid=${"tray-" + id.slice(5)}>
      <span class="gx-dot" style=${{ background: SIDE_COLOURS[side] }}></span>
      <span class="gx-chip-name">${c.name}</span>
      <span class="gx-chip-meta">${where || html`${t("galaxies.size." + c.size)}${c.squadron_size > 1 ? " ×" + c.squadron_size : ""} · ${t("galaxies.ui.launch_cost", { n: c.launch_cost })}`}</span>
    </div>`;
  };
  const holds = [];
  if (!screen.length && !view.cards.some((c) => c.side === side && c.hold)) return null;
  for (const c of view.cards) {
    if (c.side !== side || !c.hold) continue;
    for (const x of c.hold) {
      const full = { ...x, size: null };
      holds.push(chip("tray:hold:" + x.id, full, t("galaxies.ui.in_hold_of", { name: c.name }), holdable.has(x.id)));
    }
  }
  return html`<div class="gx-tray" data-testid="galaxies-screen">
    <span class="tray-label">${t("galaxies.ui.behind_screen")}</span>
    <div class="gx-chips">${screen.length ? screen.map((c) => chip("tray:" + c.id, c, null, launchable.has(c.id)))
      : html`<span class="muted small">${t("galaxies.ui.screen_empty")}</span>`}${holds}</div>
  </div>`;
}

// ---------------------------------------------------------------------------------------------- composer
function pairs(legal, pred) { return legal.map((a, i) => [a, i]).filter(([a]) => pred(a)); }

/** Composer buttons for legal actions: the server's sentence as the label, the action on data-action. */
function ActionButtons({ items, legalText, play, kind, testid, view, t }) {
  return html`<div class="row-buttons">${items.map(([a, i]) => html`<button type="button" class=${"btn " + (kind || "")}
    data-testid=${(testid || "gx-act-") + a.type + "-" + i} data-action=${JSON.stringify(a)} onClick=${() => play(a)}>
    <span class="btn-label">${view && t ? verb(a, view, t, legalText[i]) : legalText[i] || a.type}</span></button>`)}</div>`;
}

function FleetComposer({ view, ui, setUi, play, t }) {
  const roster = view.roster || [];
  const picks = ui.fleet || {};
  const total = Object.entries(picks).reduce((n, [k, v]) => n + ((roster.find((x) => x.key === k) || { versions: {} }).versions[v] || { fleet_cost: 0 }).fleet_cost, 0);
  const budget = view.fleet_budget;
  const entries = Object.entries(picks).map(([ship, version]) => ({ ship, version }));
  return html`<div class="gx-fleet" data-testid="gx-fleet">
    <h3>${t("galaxies.ui.fleet_title")}</h3><p class="help">${t("galaxies.ui.fleet_help", { budget })}</p>
    <ul class="gx-roster">${roster.map((x) => {
      const v = picks[x.key];
      return html`<li><label class="check"><input type="checkbox" checked=${!!v} data-testid=${"gx-fleet-" + x.key}
          onChange=${(e) => { const n = { ...picks }; if (e.target.checked) n[x.key] = "standard"; else delete n[x.key]; setUi({ fleet: n }); }} />
        ${x.name} <span class="muted small">${t("galaxies.size." + x.size)}${x.squadron_size > 1 ? " ×" + x.squadron_size : ""}</span></label>
        <select aria-label=${t("galaxies.ui.version_of", { name: x.name })} disabled=${!v} value=${v || "standard"}
          onChange=${(e) => setUi({ fleet: { ...picks, [x.key]: e.target.value } })}>
          ${Object.entries(x.versions).map(([k, st]) => html`<option value=${k}>${t("galaxies.version." + k)} (${st.fleet_cost})</option>`)}</select></li>`;
    })}</ul>
    <p data-testid="gx-fleet-total" class=${budget !== null && total > budget ? "bad" : ""}>${t("galaxies.ui.fleet_total", { n: total, budget })}</p>
    <${Button} kind="primary" icon="check" label=${t("galaxies.ui.seal_fleet")} testid="gx-seal-fleet"
      disabled=${!entries.length || (budget !== null && total > budget)} onClick=${() => play({ type: "submit_fleet", fleet: entries })} />
  </div>`;
}

function CargoComposer({ view, card, ui, setUi, t }) {
  if (!card || !card.capacity) return null;
  const side = mySide(view);
  const screen = sideData(view, side).screen || [];
  const cargo = (ui.cargo && ui.cargo[card.id]) || [];
  const used = cargo.reduce((n, id) => n + ((screen.find((c) => c.id === id) || {}).hold_space || 0), 0);
  const cands = screen.filter((c) => c.id !== card.id && SIZE_RANK[c.size] < SIZE_RANK[card.size]);
  return html`<div class="gx-cargo" data-testid="gx-cargo">
    <h3>${t("galaxies.ui.hold_title", { name: card.name })}</h3>
    <p data-testid="gx-capacity">${t("galaxies.ui.capacity", { used, cap: card.capacity })}</p>
    ${cands.map((c) => {
      const on = cargo.includes(c.id);
      const fits = on || used + c.hold_space <= card.capacity;
      return html`<label class="check"><input type="checkbox" checked=${on} disabled=${!fits} data-testid=${"gx-cargo-" + c.id}
        onChange=${(e) => setUi({ cargo: { ...(ui.cargo || {}), [card.id]: e.target.checked ? [...cargo, c.id] : cargo.filter((x) => x !== c.id) } })} />
        ${c.name} <span class="muted small">${t("galaxies.ui.space", { n: c.hold_space })}</span></label>`;
    })}
    <p class="help">${t("galaxies.ui.cargo_help")}</p>
  </div>`;
}

function WeaponPanel({ view, piece, ui, setUi, legal, legalText, play, t }) {
  const e = pieceIndex(view)[piece];
  if (!e) return null;
  const charges = pairs(legal, (a) => a.type === "charge" && a.ship === piece);
  const targets = targetsOf(view, piece);
  const idx = pieceIndex(view);
  return html`<div class="gx-weapons" data-testid="gx-weapons">
    <h3>${t("galaxies.ui.weapons_of", { name: e.card.name })}</h3>
    <div class="chips" role="radiogroup" aria-label=${t("galaxies.ui.pick_weapon")}>
      ${e.card.weapons.map((w) => html`<button type="button" class=${"chip" + (ui.weapon === w.id ? " on" : "")} role="radio"
        aria-checked=${ui.weapon === w.id ? "true" : "false"} data-testid=${"gx-weapon-" + w.id}
        onClick=${() => setUi({ weapon: ui.weapon === w.id ? null : w.id })}><span class="gx-wname">${w.name}</span>
        <span class="gx-wstats">${t("galaxies.ui.weapon_stats", { range: w.range, attacks: w.attacks, strength: w.strength, charge: w.charge_cost })}</span></button>`)}
    </div>
    ${charges.length ? html`<${ActionButtons} items=${charges} legalText=${legalText} play=${play} view=${view} t=${t} />` : null}
    ${targets.length ? html`<table class="gx-odds" data-testid="gx-odds"><caption>${t("galaxies.ui.odds_title")}</caption>
      <thead><tr><th>${t("galaxies.ui.target")}</th><th>${t("galaxies.ui.weapon")}</th><th>${t("galaxies.ui.hit")}</th><th>${t("galaxies.ui.expected")}</th></tr></thead>
      <tbody>${targets.filter((x) => !ui.weapon || x.weapon === ui.weapon).map((x) => {
        const tgt = idx[x.target];
        return html`<tr><td>${tgt ? tgt.card.name + (tgt.card.ships.length > 1 ? " " + x.target.slice(x.target.indexOf("#")) : "") : x.target}</td><td>${(e.card.weapons.find((w) => w.id === x.weapon) || {}).name || x.weapon}</td>
          <td>${Math.round(x.p_hit * 100)}%</td><td>${(x.expected_damage ?? 0).toFixed(2)}</td></tr>`;
      })}</tbody></table>` : null}
  </div>`;
}

/** The hand limit (D-9, BG-6.5): how many cards must still be discarded before the turn goes on (0: none). */
function mustDiscard(view, legal) {
  const sd = sideData(view, mySide(view));
  if (!sd || !sd.hand || !legal.some((a) => a.type === "discard_for_energy")) return 0;
  return Math.max(0, sd.hand.length - HAND_LIMIT);
}

/** The tactic cards in hand, one entry per kind of card (two Railgun Mounts are one entry "×2"). A card is played by
 *  its short verb (or aimed on the board); cards are discarded for energy by tapping them in the hand: forced down to
 *  the hand limit (the count still to discard said, with the reason), or by choice after "Discard for energy". */
function TacticHand({ view, legal, legalText, ui, setUi, play, t }) {
  const side = mySide(view);
  const sd = side && sideData(view, side);
  if (!sd || !sd.hand) return null;
  const playable = new Set(view.playable_now || []);
  const groups = [];
  for (const c of [...sd.hand, ...(sd.prepped || [])]) {
    const prepped = !sd.hand.includes(c);
    const g = groups.find((x) => x.c.key === c.key && x.prepped === prepped);
    if (g) g.cards.push(c); else groups.push({ c, cards: [c], prepped });
  }
  if (!groups.length) return null;
  const must = mustDiscard(view, legal);
  const discards = legal.filter((a) => a.type === "discard_for_energy");
  const discarding = must > 0 || (ui.discarding && discards.length > 0);
  const any = groups.some((g) => g.cards.some((c) => playable.has(c.id))) || must > 0;
  const keyOf = (id) => (sd.hand.find((h) => h.id === id) || {}).key;
  const rows = groups.map(({ c, cards, prepped }) => {
    const ids = new Set(cards.map((x) => x.id));
    const plays = pairs(legal, (a) => (a.type === "play_tactic" || a.type === "respond") && (ids.has(a.card) || keyOf(a.card) === c.key));
    const discard = prepped ? null : discards.find((a) => keyOf(a.cards[0]) === c.key);
    const on = cards.some((x) => playable.has(x.id)) && plays.length;
    const withTargets = plays.filter(([a]) => Object.keys(a.targets || {}).length);
    const aimable = withTargets.filter(([a]) => places(a, view, { tactic: a.card }));
    const picked = plays.length && ui.tactic === plays[0][0].card;
    const head = html`<div class="gx-card-head"><b>${t(c.name_key)}</b>${cards.length > 1 ? html` <span class="tag">×${cards.length}</span>` : null}
      <span class="tag">${t("galaxies.ui.cost", { n: c.cost })}</span>
      <span class="tag">${t(prepped ? "galaxies.ui.prepped" : "galaxies.timing." + c.timing)}</span></div>
      <p class="small">${t(c.text_key)}</p>`;
    if (discarding) {
      if (!discard) return html`<li class="gx-card" data-testid=${"gx-card-" + c.id}>${head}</li>`;
      return html`<li class="gx-card discardable" data-testid=${"gx-card-" + c.id}><button type="button" class="gx-card-button"
        data-testid=${"gx-discard-" + c.id} data-action=${JSON.stringify(discard)}
        onClick=${() => play(discard)}>${head}<span class="gx-card-verb">${t("galaxies.ui.discard_verb")}</span></button></li>`;
    }
    const seen = new Set(); // two copies of a card make the same play: one button
    const plain = plays.filter(([a]) => {
      if (Object.keys(a.targets || {}).length) return false;
      const k = JSON.stringify({ ...a, card: null });
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    const listed = aimable.length ? [] : withTargets; // targets not drawn on the board: one button each
    return html`<li class=${"gx-card" + (on ? " playable" : "") + (picked ? " picked" : "")} data-testid=${"gx-card-" + c.id}>${head}
      ${plain.length || aimable.length || listed.length ? html`<div class="row-buttons">
        ${aimable.length ? html`<${Button} kind=${picked ? "primary" : null} label=${t("galaxies.ui.pick_target")}
          testid=${"gx-aim-" + c.id} onClick=${() => setUi({ tactic: ui.tactic === aimable[0][0].card ? null : aimable[0][0].card })} />` : null}
        ${plain.map(([a, i]) => html`<button type="button" class="btn primary" data-testid=${"gx-play-" + c.id + "-" + i}
          data-action=${JSON.stringify(a)} onClick=${() => play(a)}><span class="btn-label">${plain.length === 1 ? t("galaxies.ui.play_verb")
            : legalText[i]}</span></button>`)}
        ${listed.map(([a, i]) => html`<button type="button" class="btn primary" data-testid=${"gx-play-" + c.id + "-" + i}
          data-action=${JSON.stringify(a)} onClick=${() => play(a)}><span class="btn-label">${legalText[i]}</span></button>`)}
      </div>` : null}</li>`;
  });
  return html`<details class="gx-hand" data-testid="gx-hand" open=${any || discarding || null}><summary><b>${t("galaxies.ui.hand", { n: sd.hand.length })}</b>
    ${any || discarding ? null : html` <span class="muted small">${t("galaxies.ui.hand_none_now")}</span>`}</summary>
    ${must > 0 ? html`<p class="banner offer gx-must" data-testid="gx-must-discard" role="status">${t("galaxies.ui.must_discard", { n: must, hand: sd.hand.length, limit: HAND_LIMIT })}</p>`
      : discarding ? html`<p class="banner gx-must" role="status">${t("galaxies.ui.discard_help")}</p>` : null}
    ${must === 0 && discards.length ? html`<div class="row-buttons"><${Button} kind=${discarding ? "primary" : null} testid="gx-discard-mode"
      label=${t(discarding ? "galaxies.ui.discard_done" : "galaxies.ui.discard_mode")} onClick=${() => setUi({ discarding: !discarding })} /></div>` : null}
    <ul>${rows}</ul></details>`;
}

/** A short verb for a composer button where the server's sentence would be long ("ends the turn" → "End turn"). */
function verb(a, view, t, text) {
  const nameOf = (x) => { const e = pieceIndex(view)[x]; return e ? e.card.name : (cardOf(view, x) || {}).name || x; };
  switch (a.type) {
    case "end_energy": case "end_deploy": case "end_movement": case "end_activation": case "end_turn": case "pass":
      return t("galaxies.ui.verb." + a.type);
    case "choose_first": return a.side === mySide(view) ? t("galaxies.ui.verb.we_start") : t("galaxies.ui.verb.they_start", { side: sideName(view, a.side, t, null) });
    case "market_draw": return t(a.take ? "galaxies.ui.verb.market_take" : "galaxies.ui.verb.market_leave");
    case "regen_shield": return a.ship ? t("galaxies.ui.verb.regen", { ship: nameOf(a.ship) }) : t("galaxies.ui.verb.regen_none");
    case "charge": {
      const e = pieceIndex(view)[a.ship];
      const w = e && e.card.weapons.find((x) => x.id === a.weapon);
      return t("galaxies.ui.verb.charge", { weapon: w ? w.name : a.weapon }) + (e && e.card.ships.length > 1 ? " · " + nameOf(a.ship) + " " + a.ship.slice(a.ship.indexOf("#")) : "");
    }
    default: return text || a.type;
  }
}

function Composer(props) {
  const { view, legal, legalText, ui, setUi, play, t, interactive, hl } = props;
  if (!interactive || !legal.length) return null;
  const parts = [];
  const types = new Set(legal.map((a) => a.type));
  const tx = (k, v) => tr(t, k, v);
  if (types.has("submit_fleet")) parts.push(html`<${FleetComposer} ...${props} />`);
  if (types.has("submit_deck")) {
    parts.push(html`<h3>${tx("galaxies.ui.deck_title")}</h3><p class="help">${tx("galaxies.ui.deck_help")}</p>
      <${ActionButtons} items=${pairs(legal, (a) => a.type === "submit_deck")} legalText=${legalText} play=${play} view=${view} t=${t} kind="primary" />`);
  }
  if (types.has("choose_first")) {
    parts.push(html`<p>${tx("galaxies.ui.won_rolloff", { a: view.rolloff[0], b: view.rolloff[1] })}</p>
      <${ActionButtons} items=${pairs(legal, (a) => a.type === "choose_first")} legalText=${legalText} play=${play} view=${view} t=${t} kind="primary" />`);
  }
  if (view.open_window) {
    parts.push(html`<div class="banner offer" data-testid="gx-window"><p>${tx("galaxies.ui.window_open", { window: tx("galaxies.timing." + view.open_window.kind) })}</p>
      <${ActionButtons} items=${pairs(legal, (a) => a.type === "pass")} legalText=${legalText} play=${play} view=${view} t=${t} kind="primary" /></div>`);
  }
  if (types.has("market_draw") || types.has("regen_shield")) {
    parts.push(html`<h3>${tx("galaxies.ui.energy_choices")}</h3>
      <${ActionButtons} items=${pairs(legal, (a) => a.type === "market_draw" || a.type === "regen_shield")} legalText=${legalText} play=${play} view=${view} t=${t} />`);
  }
  if (view.window === "deploy" && hl.selected && hl.selected.startsWith("tray:") && !hl.selected.startsWith("tray:hold:")) {
    const c = (sideData(view, mySide(view)).screen || []).find((x) => "tray:" + x.id === hl.selected);
    if (c) parts.push(html`<${CargoComposer} view=${view} card=${c} ui=${ui} setUi=${setUi} t=${t} />`);
    if (c && c.squadron_size > 1) {
      const n = ui.squad && ui.squad.card === c.id ? ui.squad.hexes.length : 0;
      parts.push(html`<div class="gx-squad" data-testid="gx-squad"><p>${tx("galaxies.ui.squad_placed", { name: c.name, n, of: c.squadron_size })}</p>
        <p class="help">${tx("galaxies.ui.squad_help")}</p>
        ${n ? html`<${Button} label=${tx("galaxies.ui.squad_clear")} testid="gx-squad-clear" onClick=${() => setUi({ squad: null })} />` : null}</div>`);
    }
  }
  const act = view.activation;
  if (act && view.window === "activation") {
    const card = cardOf(view, act.card);
    const sel = hl.selected && pieceIndex(view)[hl.selected] ? hl.selected : null;
    parts.push(html`<p data-testid="gx-activation">${tx("galaxies.ui.activation_of", { name: card ? card.name : act.card, step: tx("galaxies.ui.step." + act.step) })}</p>`);
    if (sel && card && card.size === "medium" && routesOf(view, sel).length) {
      const hexes = pieceIndex(view)[sel].piece.hexes;
      parts.push(html`<p class="help">${tx("galaxies.ui.lead_help")}</p>`);
      parts.push(html`<div class="chips" role="radiogroup" aria-label=${tx("galaxies.ui.lead")}>${tx("galaxies.ui.lead")}:
        ${hexes.map((h) => html`<button type="button" role="radio" class=${"chip" + (ui.lead && same(ui.lead, h) ? " on" : "")}
          aria-checked=${ui.lead && same(ui.lead, h) ? "true" : "false"} data-testid=${"gx-lead-" + hexText(h)}
          onClick=${() => setUi({ lead: ui.lead && same(ui.lead, h) ? null : h })}>${hexText(h)}</button>`)}</div>`);
    }
    if (sel && act.step !== "attack" && routesOf(view, sel).length) parts.push(html`<p class="help">${tx("galaxies.ui.move_help")}</p>`);
    const shooter = sel || (card && card.ships.length === 1 ? card.ships[0].id : null);
    if (act.step === "attack" && shooter) parts.push(html`<${WeaponPanel} ...${props} piece=${shooter} />`);
    else if (act.step === "attack") {
      parts.push(html`<${ActionButtons} items=${pairs(legal, (a) => a.type === "charge")} legalText=${legalText} play=${play} view=${view} t=${t} />`);
    }
  }
  const ends = pairs(legal, (a) => ["end_energy", "end_deploy", "end_movement", "end_activation", "end_turn"].includes(a.type));
  if (ends.length) parts.push(html`<div class="gx-ends"><${ActionButtons} items=${ends} legalText=${legalText} play=${play} view=${view} t=${t} testid="gx-end-" /></div>`);
  parts.push(html`<${TacticHand} ...${props} />`);
  return html`<section class="card composer" aria-labelledby="gx-composer-h" data-testid="composer">
    <h2 id="gx-composer-h">${tx("galaxies.ui.your_decision")}</h2>${parts}</section>`;
}

// ------------------------------------------------------------------------------------------------ status
function EnergyTrack({ value, colour, label }) {
  const pct = Math.max(0, Math.min(40, value)) / 40 * 100;
  return html`<div class="gx-energy" role="meter" aria-valuemin="0" aria-valuemax="40" aria-valuenow=${value} aria-label=${label}>
    <span class="gx-energy-fill" style=${{ width: pct + "%", background: colour }}></span>
    ${[10, 20, 30].map((m) => html`<span class="gx-energy-tick" style=${{ left: m * 2.5 + "%" }}></span>`)}
    <span class="gx-energy-num">${value} / 40</span></div>`;
}

function Pegs({ n, used, cls, label }) {
  return html`<span class=${"gx-pegs " + cls} role="img" aria-label=${label}>${Array.from({ length: n }, (_, k) => html`<i class=${k < used ? "on" : ""}></i>`)}</span>`;
}

function ShipCard({ card, view, t }) {
  const mine = card.side === mySide(view);
  return html`<li class="gx-shipcard" data-testid=${"gx-shipcard-" + card.id} style=${{ borderColor: SIDE_COLOURS[card.side] }}>
    <div><b>${card.name}</b> <span class="muted small">${t("galaxies.size." + card.size)}${card.activated ? " · " + t("galaxies.ui.activated") : ""}</span></div>
    ${card.ships.filter((p) => p.alive).map((p) => html`<div class="small gx-pegrow">
      ${card.ships.length > 1 ? html`<span class="muted">${card.ships.indexOf(p) + 1}</span>` : null}
      <${Pegs} n=${card.shields} used=${p.shields} cls="shield" label=${t("galaxies.ui.shields_n", { n: p.shields, of: card.shields })} />
      <${Pegs} n=${card.hull} used=${card.hull - p.hull} cls="hull" label=${t("galaxies.ui.hull_n", { n: card.hull - p.hull, of: card.hull })} /></div>`)}
    ${card.capacity ? html`<div class="small">${t("galaxies.ui.hold_count", { n: card.hold_count, cap: card.capacity })}${mine && card.hold
      ? ": " + card.hold.map((x) => x.name).join(", ") : ""}</div>` : null}
  </li>`;
}

/** The score as people read it: the engine keeps exact fractions ("20/3"), shown to one decimal. */
function scoreText(text) {
  const [a, b] = String(text).split("/").map(Number);
  return b ? String(Math.round((a / b) * 10) / 10) : String(text);
}

/** The mission's name in the page's language (an owner pack's own missions keep their names). */
function missionName(view, t) {
  const k = "galaxies.mission." + view.mission.id;
  const s = t(k);
  return s && s !== k ? s : view.mission.name;
}

function Status({ view, t, seatName }) {
  const you = mySide(view);
  const sides = view.sides.map((sd) => html`<div class="gx-side" data-testid=${"gx-side-" + sd.side}>
    <div><span class="seat-dot" style=${{ background: SIDE_COLOURS[sd.side] }} aria-hidden="true"></span>
      <b>${sideName(view, sd.side, t, seatName)}</b>${view.active === sd.side && view.phase !== "over" ? html` <span class="badge">${t("galaxies.ui.active")}</span>` : null}</div>
    <${EnergyTrack} value=${sd.energy} colour=${SIDE_COLOURS[sd.side]} label=${t("galaxies.ui.energy_of", { side: sd.side })} />
    <div class="small muted">${t("galaxies.ui.counts", { hand: sd.hand_count, deck: sd.deck_count, score: scoreText(sd.score), lost: sd.destroyed.length })}</div>
    <ul class="gx-shipcards">${view.cards.filter((c) => c.side === sd.side).map((c) => html`<${ShipCard} card=${c} view=${view} t=${t} />`)}</ul>
  </div>`);
  return html`<section class="card gx-status" data-testid="galaxies-status" aria-labelledby="gx-status-h">
    <h2 id="gx-status-h">${missionName(view, t)}</h2>
    ${you ? html`<p data-testid="gx-you">${t("galaxies.ui.you_play", { side: sideName(view, you, t, null) })}</p>` : null}
    <p class="small muted" data-testid="gx-label">${view.label === view.house_label ? t("galaxies.label.house") : view.label}</p>
    ${sides}
  </section>`;
}

// ------------------------------------------------------------------------------------------------- results
const DICE = new Set(["attack", "ecm", "damage", "destroyed", "roll_off", "regen", "reroll"]);
function Results({ view, t }) {
  const idx = pieceIndex(view);
  const gone = {};
  for (const sd of view.sides) for (const c of sd.destroyed) gone[c.id] = c.name;
  const name = (p) => {
    if (idx[p]) return idx[p].card.name + (idx[p].card.ships.length > 1 ? " " + p.slice(p.indexOf("#")) : "");
    const [card, n] = String(p).split("#");
    const known = (view.cards.find((c) => c.id === card) || {}).name || gone[card];
    return known ? known + (n ? " #" + n : "") : p;
  };
  const rows = view.events.filter((e) => DICE.has(e.t)).slice(-6).reverse().map((e) => {
    let text;
    if (e.t === "attack") text = t(e.hit ? "galaxies.ui.res_attack_hit" : "galaxies.ui.res_attack_miss", { ship: name(e.ship), target: name(e.target), roll: e.roll });
    else if (e.t === "ecm") text = e.immune ? t("galaxies.ui.res_ecm_immune", { ship: name(e.ship) }) : t("galaxies.ui.res_ecm", { ship: name(e.ship), from: name(e.from), roll: e.roll, n: e.damage });
    else if (e.t === "damage") text = t("galaxies.ui.res_damage", { ship: name(e.ship), shields: e.shields, hull: e.hull });
    else if (e.t === "destroyed") text = t("galaxies.ui.res_destroyed", { ship: name(e.ship) });
    else if (e.t === "roll_off") text = t("galaxies.ui.res_rolloff", { a: e.rolls[0], b: e.rolls[1] });
    else text = t("galaxies.ui.res_other");
    return html`<li data-kind=${e.t} class=${e.t === "attack" ? (e.hit ? "hit" : "miss") : e.t}>${text}</li>`;
  });
  if (!rows.length && !view.roll) return null;
  const r = view.roll;
  return html`<section class="card gx-results" data-testid="galaxies-results" aria-labelledby="gx-res-h" aria-live="polite">
    <h2 id="gx-res-h">${t("galaxies.ui.results")}</h2>
    ${r ? html`<p class="gx-roll" data-testid="gx-roll"><span class="gx-die">${r.letter}-${r.number}</span>
      ${t(r.hit ? "galaxies.ui.roll_hit" : "galaxies.ui.roll_miss", { ship: name(r.ship), target: name(r.target) })}</p>` : null}
    <ul class="gx-res-list">${rows}</ul>
  </section>`;
}

// ------------------------------------------------------------------------------------------------ legend
function Legend({ t, setUi }) {
  const hex = (cls, extra = null) => html`<svg viewBox="-22 -22 44 44" class="gx-legend-hex" aria-hidden="true">
    <polygon points=${hexPoints(0, 0, 20)} class=${cls} />${extra}</svg>`;
  const items = [
    [hex("hex legend-full"), "galaxies.ui.legend_full"], [hex("hex rim"), "galaxies.ui.legend_rim"],
    [hex("hex legend-zone-A"), "galaxies.ui.legend_zone_a"], [hex("hex legend-zone-B"), "galaxies.ui.legend_zone_b"],
    [hex("hex legend-full", html`<circle cx="-3" cy="2" r="7" class="rock" /><circle cx="6" cy="-4" r="4" class="rock" />`), "galaxies.ui.legend_asteroid"],
    [hex("hex legend-full", html`<path d="M-9 4 l5 -3 l3 4 M2 -7 l6 2 l-2 5" class="debris-lines" />`), "galaxies.ui.legend_debris"],
    [hex("hex legend-full", html`<rect x="-7" y="-7" width="14" height="14" rx="2" class="tile back" transform="rotate(45)" />`), "galaxies.ui.legend_tile_back"],
    [hex("hex legend-full", html`<circle r="11" class="tile gate" /><circle r="6" class="tile gate inner" />`), "galaxies.ui.legend_gate"],
    [hex("hex legend-full", html`<path d="M-2 -10 L6 -1 L0 0 L3 10 L-6 1 L0 0 Z" class="tile energy" />`), "galaxies.ui.legend_energy"],
    [hex("hex legend-full", html`<circle r="6" class="target-mark move" />`), "galaxies.ui.legend_target"],
    [hex("hex legend-full", html`<circle r="5" class="ecm-risk-dot" />`), "galaxies.ui.legend_ecm"],
    [hex("hex legend-full last-hex"), "galaxies.ui.legend_last"],
  ];
  return html`<div class="gx-legend" data-testid="galaxies-legend"><ul>${items.map(([icon, key]) => html`<li>${icon}<span>${t(key)}</span></li>`)}</ul>
    <p class="help">${t("galaxies.ui.legend_coords")}</p>
    <label class="check"><input type="checkbox" checked=${COORDS} data-testid="gx-coords" onChange=${(e) => {
      COORDS = e.target.checked;
      try { localStorage.setItem("spacetable.galaxies.coords", COORDS ? "yes" : "no"); } catch { /* private mode */ }
      setUi({ coords: COORDS });
    }} /> ${t("galaxies.ui.show_coords")}</label><p class="help">${t("galaxies.ui.legend_ships")}</p></div>`;
}

// ---------------------------------------------------------------------------------------------- behaviour
function places(a, view, ui) {
  switch (a.type) {
    case "move": {
      const e = pieceIndex(view)[a.ship];
      if (!e) return null;
      if (ui && ui.lead && e.piece.hexes.length === 2 && a.lead && !same(a.lead, ui.lead)) return null;
      const end = moveEnd(view, a);
      if (!end) return null;
      if (ui && ui.dest && ui.destShip === a.ship) { // a medium ship's bow is placed: its stern is tapped next (the hexes beside the bow)
        return end.length === 2 && same(end[0], ui.dest) ? { from: a.ship, to: hk(end[1]), kind: "move" } : null;
      }
      return { from: a.ship, to: hk(end[0]), kind: "move" };
    }
    case "warp": return { from: a.ship, to: hk(a.hexes[0]), kind: "special" };
    case "launch": {
      if (a.cargo && a.cargo.length) return null; // cargo is loaded in the composer
      const h = launchAnchor(a);
      if (ui && ui.anchor && ui.anchorCard === a.card) { // the first hex of a two-hex ship is placed: its second hex is tapped next
        const fp = Object.values(a.placement)[0] || [];
        return h && fp.length === 2 && same(h, ui.anchor) ? { from: "tray:" + a.card, to: hk(fp[1]), kind: "place" } : null;
      }
      return h ? { from: "tray:" + a.card, to: hk(h), kind: "place" } : null;
    }
    case "launch_from_hold": {
      const h = launchAnchor(a);
      return h ? { from: "tray:hold:" + a.card, to: hk(h), kind: "place" } : null;
    }
    case "activate": { const p = firstPiece(view, a.card); return p ? { from: null, to: p, kind: "special" } : null; }
    case "attack": // ringed as soon as the attack step opens: a tap on a ring fires the best weapon at it
      if (ui && ui.weapon && a.weapon !== ui.weapon) return null;
      return [{ from: a.ship, to: a.target, kind: "capture" }, { from: null, to: a.target, kind: "capture" }];
    case "regen_shield": return a.ship ? { from: null, to: placeOfName(view, a.ship) || a.ship, kind: "special" } : null;
    case "play_tactic": case "respond": {
      if (!ui || ui.tactic !== a.card) return null;
      const vals = Object.values(a.targets || {});
      const p = vals.length ? placeOfName(view, vals[0]) : null;
      return p ? { from: null, to: p, kind: "special" } : null;
    }
    default: return null;
  }
}

function finalize(a, view, ui) {
  if (a.type === "launch" && ui && ui.cargo && ui.cargo[a.card] && ui.cargo[a.card].length) return { ...a, cargo: [...ui.cargo[a.card]] };
  if (a.type === "move") {
    const end = moveEnd(view, a);
    const r = end && routeFor(view, a.ship, end, a.lead);
    if (r) return { type: "move", ship: a.ship, lead: r.lead, path: r.path }; // the least-ECM path to the same footprint
  }
  return a;
}

/** What a tap would have meant, so that the server explains the refusal with its rule. */
function guess(from, to, view, ui) {
  if (!from) {
    const e = pieceIndex(view)[to];
    return e ? { type: "activate", card: e.card.id } : null;
  }
  if (from.startsWith("tray:") && to.startsWith("h:") && !from.startsWith("tray:hold:")) {
    const card = from.slice(5);
    const c = (sideData(view, mySide(view)).screen || []).find((x) => x.id === card);
    return c ? { type: "launch", card, placement: formation(c, to.slice(2).split(",").map(Number)), cargo: [] } : null;
  }
  const e = pieceIndex(view)[from];
  if (e && pieceIndex(view)[to]) {
    const w = (ui && ui.weapon) || (e.card.weapons[0] || {}).id;
    return w ? { type: "attack", ship: from, weapon: w, target: to } : null;
  }
  if (e && to.startsWith("h:") && e.piece.hexes.length === 1) {
    const h = to.slice(2).split(",").map(Number);
    const d = DIRS.findIndex((dd) => same([e.piece.hexes[0][0] + dd[0], e.piece.hexes[0][1] + dd[1]], h));
    return d >= 0 ? { type: "move", ship: from, lead: null, path: [d] } : null;
  }
  return null;
}
/** A whole placement of a card around hex h (rosette, lead and the hex east of it, a squadron in a row), so that a
 *  refused tap is explained by the rule it breaks (BG-8.1 zone, BG-2.5 rim, BG-15.6 asteroid...). */
function formation(c, h) {
  if (c.size === "large") return { [c.id]: [h, ...DIRS.map((_, d) => stepHex(h, d))] };
  if (c.size === "medium") return { [c.id]: [h, stepHex(h, 0)] };
  if (c.squadron_size > 1) {
    const out = {};
    const row = [0, -1, 1, -2, 2, -3, 3, -4]; // along the row: each ship beside one already placed (BG-8.2)
    for (let k = 0; k < c.squadron_size; k++) out[`${c.id}#${k + 1}`] = [[h[0] + row[k % row.length], h[1]]];
    return out;
  }
  return { [c.id]: [h] };
}

/** Any ship of a card that can be activated activates it (the frame marks the first one). */
function onPlace(place, { view, legal, ui, setUi, play, enabled, selected }) {
  if (!enabled) return false;
  if (selected && selected.startsWith("tray:") && !selected.startsWith("tray:hold:")) {
    if (draftSquadron(place, selected.slice(5), { view, legal, ui, setUi, play })) return true;
    return placeFormation(place, selected.slice(5), { legal, ui, setUi, play });
  }
  if (selected && place.startsWith("h:") && !ui.lead) { // a medium ship's lead: tap one of its two hexes (D-3)
    const sel = pieceIndex(view)[selected];
    const h = place.slice(2).split(",").map(Number);
    if (sel && sel.piece.hexes.length === 2 && routesOf(view, selected).length && sel.piece.hexes.some((x) => same(x, h))) {
      setUi({ lead: h });
      return true;
    }
  }
  const shot = bestAttack(place, selected, { view, legal, ui });
  if (shot) { play(shot); return true; }
  if (selected && place.startsWith("h:") && moveByTaps(place, selected, { view, legal, ui, setUi, play })) return true;
  if (selected) return false;
  const e = pieceIndex(view)[place];
  if (!e) return false;
  const a = legal.find((x) => x.type === "activate" && x.card === e.card.id);
  if (!a) return false;
  play(a);
  return true;
}

/** A tap on a ringed enemy: the attack with the highest expected damage on it (of the selected ship, else of any
 *  ship of the activation; of the weapon picked in the panel, if one is). */
function bestAttack(place, selected, { view, legal, ui }) {
  const acts = legal.filter((a) => a.type === "attack" && a.target === place && (!selected || !pieceIndex(view)[selected] || a.ship === selected)
    && (!ui.weapon || a.weapon === ui.weapon));
  if (!acts.length) return null;
  const worth = (a) => { const o = targetsOf(view, a.ship).find((x) => x.target === a.target && x.weapon === a.weapon); return o ? o.expected_damage ?? o.p_hit : 0; };
  return acts.reduce((b, a) => (worth(a) > worth(b) ? a : b));
}

/** A selected ship moves by taps on hexes: the hex where its bow ends (the number drawn is the cost of the least-ECM
 *  path, drawn as a line under the pointer); a medium ship that can end there facing several ways asks for a second
 *  tap on the hex where its stern goes. */
function moveByTaps(place, selected, { view, legal, ui, setUi, play }) {
  const h = place.slice(2).split(",").map(Number);
  const moves = legal.filter((a) => a.type === "move" && a.ship === selected);
  if (!moves.length) return false;
  const ends = moves.map((a) => [a, moveEnd(view, a)]).filter(([a, e]) => e && (!ui.lead || !a.lead || same(a.lead, ui.lead)));
  if (ui.dest && ui.destShip === selected) {
    if (same(ui.dest, h)) { setUi({ dest: null }); return true; }
    const hit = ends.find(([, e]) => e.length === 2 && same(e[0], ui.dest) && same(e[1], h));
    if (hit) { setUi({ dest: null }); play(hit[0]); return true; }
    return false;
  }
  const here = ends.filter(([, e]) => same(e[0], h));
  if (!here.length) return false;
  const fps = new Set(here.map(([, e]) => fpKey(e)));
  if (fps.size > 1) { setUi({ dest: h, destShip: selected }); return true; }
  play(here[0][0]);
  return true;
}

/** A card picked under the board is launched by taps: the hex of its first ship; a two-hex ship that fits there several
 *  ways asks for a second tap on the hex of its stern. */
function placeFormation(place, card, { legal, ui, setUi, play }) {
  if (!place.startsWith("h:")) return false;
  const h = place.slice(2).split(",").map(Number);
  const acts = legal.filter((a) => a.type === "launch" && a.card === card && !(a.cargo && a.cargo.length));
  if (!acts.length) return false;
  const cargo = ui.cargo && ui.cargo[card] && ui.cargo[card].length ? ui.cargo[card] : null;
  const go = (a) => { setUi({ anchor: null }); play(cargo ? { ...a, cargo: [...cargo] } : a); };
  if (ui.anchor && ui.anchorCard === card) {
    if (same(ui.anchor, h)) { setUi({ anchor: null }); return true; }
    const a = acts.find((x) => { const fp = Object.values(x.placement)[0] || []; return fp.length === 2 && same(fp[0], ui.anchor) && same(fp[1], h); });
    if (a) { go(a); return true; }
    return false;
  }
  const here = acts.filter((a) => same(launchAnchor(a) || [], h));
  if (!here.length) return false;
  if (here.length > 1 && here.every((a) => Object.keys(a.placement).length === 1 && (Object.values(a.placement)[0] || []).length === 2)) {
    setUi({ anchor: h, anchorCard: card });
    return true;
  }
  go(here[0]);
  return true;
}

// ------------------------------------------------------------------------------------- squadron placement
/** The squadron card picked under the board, or null (a squadron is launched ship by ship, BG-8.2). */
function squadronOf(view, card) {
  const side = mySide(view);
  const c = side && (sideData(view, side).screen || []).find((x) => x.id === card);
  return c && c.squadron_size > 1 ? c : null;
}
/** Hexes where the next ship of a drafted squadron may go: empty playable hexes of the zone beside a drafted ship. */
function squadronNext(view, draft) {
  const g = geometry(view);
  const side = mySide(view);
  const taken = new Set(draft.map(hexText));
  for (const c of view.cards) for (const p of c.ships) if (p.alive) for (const h of p.hexes) taken.add(hexText(h));
  const full = new Set(g.full.map(hexText));
  const out = new Map();
  for (const h of draft) {
    for (let d = 0; d < 6; d++) {
      const n = stepHex(h, d), k = hexText(n);
      if (full.has(k) && !taken.has(k) && !g.asteroid.has(k) && g.zoneOf[k] === side) out.set("h:" + k, { kind: "place" });
    }
  }
  return out;
}
function draftSquadron(place, card, { view, legal, ui, setUi, play }) {
  const c = squadronOf(view, card);
  if (!c || !place.startsWith("h:")) return false;
  const h = place.slice(2).split(",").map(Number);
  const draft = ui.squad && ui.squad.card === card ? ui.squad.hexes : [];
  if (draft.some((x) => same(x, h))) { // tap a drafted ship again to take it (and the ones after it) back
    setUi({ squad: { card, hexes: draft.slice(0, draft.findIndex((x) => same(x, h))) } });
    return true;
  }
  const ok = draft.length ? squadronNext(view, draft).has(place)
    : legal.some((a) => a.type === "launch" && a.card === card && same(launchAnchor(a) || [], h));
  if (!ok) return false; // the frame explains the refusal (guess)
  const hexes = [...draft, h];
  if (hexes.length < c.squadron_size) { setUi({ squad: { card, hexes } }); return true; }
  const placement = {};
  hexes.forEach((x, k) => { placement[`${card}#${k + 1}`] = [x]; });
  setUi({ squad: null });
  play({ type: "launch", card, placement, cargo: [] });
  return true;
}

function lastPlaces(entry, view) {
  const a = entry.action;
  if (!a) return [];
  const idx = pieceIndex(view);
  const hexesOf = (p) => (idx[p] ? idx[p].piece.hexes.map(hk) : []);
  switch (a.type) {
    case "move": case "warp": return [a.ship, ...hexesOf(a.ship)];
    case "launch": case "launch_from_hold": return Object.entries(a.placement).flatMap(([p, hs]) => [p, ...hs.map(hk)]);
    case "attack": return [a.ship, a.target, ...hexesOf(a.target)];
    case "activate": return (cardOf(view, a.card) || { ships: [] }).ships.map((p) => p.id);
    case "charge": return [a.ship];
    default: return [];
  }
}

function phase(view, t) { return t("galaxies.phase." + view.window); }
function turn(view, t) {
  if (WINDOW_ORDER.indexOf(view.window) < 3) return t("galaxies.ui.setup");
  return t("galaxies.ui.round_n", { n: view.round, of: view.mission.max_rounds });
}
function hint({ view, legal, ui, t, hl }) {
  const types = new Set(legal.map((a) => a.type));
  const must = mustDiscard(view, legal);
  if (must > 0) return t("galaxies.ui.hint_discard", { n: must, limit: HAND_LIMIT });
  if (types.has("submit_fleet")) return t("galaxies.ui.hint_fleet");
  if (types.has("submit_deck") || types.has("choose_first")) return t("galaxies.ui.hint_composer");
  if (view.open_window) return t("galaxies.ui.hint_window");
  if (types.has("launch") || types.has("launch_from_hold")) return hl && hl.selected ? t("galaxies.ui.hint_place") : t("galaxies.ui.hint_launch");
  if (types.has("activate")) return t("galaxies.ui.hint_activate");
  if (ui && ui.dest) return t("galaxies.ui.hint_stern");
  if (ui && ui.anchor) return t("galaxies.ui.hint_second_hex");
  if (types.has("move") || types.has("warp")) return t("galaxies.ui.hint_move");
  if (types.has("attack")) return ui && ui.weapon ? t("galaxies.ui.hint_attack") : t("galaxies.ui.hint_rings");
  if (types.has("market_draw") || types.has("regen_shield")) return t("galaxies.ui.hint_energy");
  return legal.some((a) => a.type.startsWith("end_")) ? t("galaxies.ui.hint_end") : t("galaxies.ui.hint_composer");
}
function seatColour(view, seat) {
  const side = view.seat_sides[seat];
  const sd = sideData(view, side);
  const k = sd ? sd.seats.indexOf(seat) : 0;
  return (TEAM_SHADES[side] || ["#888"])[Math.max(0, k) % 2];
}
function ending(outcome, view, t) {
  const d = outcome.details || {};
  const w = d.winner_side;
  if (!w) return t("galaxies.ui.ending_draw", { how: t("galaxies.result." + outcome.kind), rounds: d.rounds ?? view.round });
  return t("galaxies.ui.ending", { how: t("galaxies.result." + outcome.kind), side: sideName(view, w, t, null), rounds: d.rounds ?? view.round });
}

/** On a phone the board opens zoomed (the kit's focus) so that a hex is about 38 px wide (taps of at least 32 px):
 *  on the seat's first ship on the board, before that on the middle of its starting zone. */
function focus(view, seat) {
  const side = mySide(view);
  if (seat === null || seat === undefined || !side) return null;
  for (const c of view.cards) {
    if (c.side !== side) continue;
    const p = c.ships.find((x) => x.alive && x.hexes.length);
    if (p) return { place: hk(p.hexes[0]), size: 38, key: "fleet" };
  }
  const zone = expand(view.board.zones[side] || []);
  return zone.length ? { place: hk(zone[Math.floor(zone.length / 2)]), size: 38, key: "zone" } : null;
}

export default {
  Board, Tray, Composer, Status, Results, Legend,
  places, finalize, guess, onPlace, lastPlaces, phase, turn, hint, seatColour, ending, focus,
};
