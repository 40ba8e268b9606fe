// Full Metal Planète renderer: what the drawing and the controls read from a seat's view (rules
// docs/rules/fullmetal.md): units by id and by cell, colours, holds, the fire cover, the deployment area and the
// player's display preferences (kept in this browser).
import { useEffect, useState } from "/static/app/kit.js";
import { dist, footprint, key, keyOf, landAt, neighbours } from "./fullmetal-hex.js";

/** FM-5.1: one colour per seat (red, blue, green, yellow). */
export const COLOURS = ["#e0483e", "#3d7be0", "#2fa34f", "#e3b21b"];
export const GREY = "#878c99";
export const KINDS = ["ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore"];
/** FM-4: what each carrier takes (a ship: everything but ships) and how many slots (FM-11.3). */
export const CARRIES = {
  barge: ["ore", "tank", "gt", "pontoon", "crab", "wl"], crab: ["ore", "tank", "gt", "pontoon"], wl: ["ore"],
  ship: ["ore", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon"],
};
export const SEA_UNITS = ["mb", "barge"];
export const LAND_UNITS = ["tank", "gt", "crab", "wl"];
export const DESTROYERS = ["tank", "gt", "mb", "turret"];
/** FM-2.1: the terrain letters of a map row. */
export const TERRAIN = { ".": "sea", "*": "reef", "%": "swamp", "$": "plain", "#": "mountain" };

const IDX = new WeakMap();

/** Units by id, the unit standing on each cell (pontoons apart) and the pontoons, memoised per view. */
export function index(view) {
  let m = IDX.get(view);
  if (m) return m;
  const byId = new Map(), occ = new Map(), pontoon = new Map();
  for (const u of view.units) {
    byId.set(u.id, u);
    if (!u.cells.length || u.carrier !== undefined) continue;
    for (const c of u.cells) (u.kind === "pontoon" ? pontoon : occ).set(keyOf(c), u);
  }
  m = { byId, occ, pontoon };
  IDX.set(view, m);
  return m;
}

export const unitOf = (view, id) => index(view).byId.get(id);
/** The cells (keys) a unit stands on, [] when carried. */
export const cellsOf = (u) => (u && u.carrier === undefined ? u.cells.map(keyOf) : []);

/** The seat controlling unit u (FM-5.2), -1 for nobody (ore, pontoons, deactivated colours). */
export function controller(view, u) {
  if (!u || u.colour < 0) return -1;
  const c = view.controller[u.colour];
  return c === undefined ? -1 : c;
}

export function colourOfUnit(view, u) {
  if (!u || u.colour < 0) return GREY;
  return controller(view, u) < 0 ? GREY : COLOURS[u.colour % 4];
}

export const mine = (view, u) => view.viewer !== null && view.viewer !== undefined && controller(view, u) === view.viewer;

/** A unit's name for people: "tank 71". */
export function unitName(t, u) {
  return u ? t("fm.unit", { kind: t("fm.kind." + u.kind), id: u.id }) : "";
}

/** The carriers of `seat` holding something, ships first, then barges, crabs and weather layers on the board. */
export function holds(view, seat) {
  const order = { ship: 0, barge: 1, crab: 2, wl: 3 };
  return view.units.filter((u) => u.cargo && u.cargo.length && controller(view, u) === seat && u.carrier === undefined
    && (u.kind !== "ship" || u.cells.length))
    .sort((a, b) => order[a.kind] - order[b.kind] || a.id - b.id);
}

/** FM-15.2: the strongest cover of any opponent of `seat` on each cell (a digit per cell), and the seat's own. */
export function cover(view, seat, own) {
  const out = new Uint8Array(view.width * view.height);
  (view.cover || []).forEach((row, p) => {
    if ((p === seat) !== own) return;
    for (let i = 0; i < row.length; i++) {
      const v = row.charCodeAt(i) - 48;
      if (v > out[i]) out[i] = v;
    }
  });
  return out;
}

/** FM-20.4: what a ship would score if it left now (2 per ore, 1 per unit aboard, 1 per intact turret). */
export function shipScore(view, ship) {
  const { byId } = index(view);
  let ore = 0, units = 0;
  const todo = [...(ship.cargo || [])];
  while (todo.length) {
    const u = byId.get(todo.pop());
    if (!u) continue;
    if (u.kind === "ore") ore += u.value !== undefined ? u.value : 2;
    else units += 1;
    todo.push(...(u.cargo || []));
  }
  const turrets = (ship.turrets || []).filter((t) => t >= 0).length;
  return { ore, units, turrets, score: ore + units + turrets };
}

/** FM-7.3: the ore within `r` hexes of `cell` (what a landing there removes). */
export function oreWithin(view, cell, r) {
  return view.units.filter((u) => u.kind === "ore" && u.carrier === undefined && u.cells.length && dist(u.cells[0], cell) <= r);
}

// ------------------------------------------------------------------------------------------------ deployment
/** The seat's landed ship (the first one), or null. */
export function ownShip(view, seat) {
  return view.units.find((u) => u.kind === "ship" && u.colour === seat && u.cells.length) || null;
}

/** Units aboard the ship that a deployment may place (FM-8.1: not ore). */
export function deployable(view, ship) {
  const { byId } = index(view);
  return (ship ? ship.cargo : []).map((id) => byId.get(id)).filter((u) => u && u.kind !== "ore");
}

/** Every unit id a deployment draft uses (placed, or loaded into a placed carrier). */
export function draftIds(draft) {
  const out = [];
  const walk = (e) => { out.push(typeof e === "number" ? e : e.unit); for (const c of (e.cargo || [])) walk(c); };
  for (const e of draft || []) walk(e);
  return out;
}

/** Cells (keys) the draft occupies, each with its entry. */
export function draftCells(draft) {
  const m = new Map();
  for (const e of draft || []) {
    const cells = Array.isArray(e.at[0]) ? e.at : [e.at];
    for (const c of cells) m.set(keyOf(c), e);
  }
  return m;
}

/** FM-8.2, as far as the view tells: may unit u stand on cell (x, y) of the deployment area? The server checks the
 *  whole deployment (pontoon anchoring, capacities, mountain pairs) before it is sealed. */
export function deployCellOk(view, ship, u, x, y, taken) {
  const k = key(x, y);
  if (y < 0 || x < 0 || y >= view.height || x >= view.width) return false;
  const t = view.terrain[y][x];
  if (t === "?") return false;
  if (dist([x, y], ship.cells[0]) > view.config.deploy_radius) return false;
  const { occ, pontoon } = index(view);
  if (occ.has(k) || (taken && taken.has(k))) return false;
  if (u.kind === "pontoon") return !pontoon.has(k);
  if (SEA_UNITS.includes(u.kind)) return t !== "$" && t !== "#" && !pontoon.has(k);
  if (u.kind === "gt" && t === "#") return false;
  return t !== "." || pontoon.has(k);
}

/** The deployment area's cells (keys): within deploy_radius of the dome, on the map, off the ship. */
export function deployArea(view, ship) {
  const out = new Set();
  if (!ship) return out;
  const r = view.config.deploy_radius;
  const [dx, dy] = ship.cells[0];
  const shipCells = new Set(ship.cells.map(keyOf));
  for (let x = dx - r - 1; x <= dx + r + 1; x++) {
    for (let y = dy - r - 1; y <= dy + r + 1; y++) {
      if (x < 0 || y < 0 || x >= view.width || y >= view.height || view.terrain[y][x] === "?") continue;
      if (dist([x, y], [dx, dy]) <= r && !shipCells.has(key(x, y))) out.add(key(x, y));
    }
  }
  return out;
}

/** May `item` go into drafted carrier entry `carrier` (kind and a rough capacity; the server has the last word)? */
export function fitsInto(view, carrierUnit, entry, item) {
  if (!CARRIES[carrierUnit.kind] || !CARRIES[carrierUnit.kind].includes(item.kind)) return false;
  const { byId } = index(view);
  const slots = (id) => { const u = byId.get(id); return u && (u.kind === "crab" || u.kind === "wl") ? 2 : 1; };
  const used = (entry.cargo || []).reduce((n, c) => n + slots(typeof c === "number" ? c : c.unit), 0);
  const cap = carrierUnit.kind === "barge" ? 4 : carrierUnit.kind === "crab" ? 2 : 1;
  return used + slots(item.id) <= cap;
}

export { footprint, landAt, neighbours };

// ------------------------------------------------------------------------------------------------ preferences
const PREFS_KEY = "spacetable.fullmetal";
let prefs = { fire: "off" };
try { prefs = { ...prefs, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") }; } catch { /* private mode */ }
const listeners = new Set();

/** The player's display choices (fire zones shown: off | enemy | mine), shared by the board and its controls. */
export function usePrefs() {
  const [, force] = useState(0);
  useEffect(() => {
    const f = () => force((n) => n + 1);
    listeners.add(f);
    return () => listeners.delete(f);
  }, []);
  return prefs;
}

export function setPrefs(patch) {
  prefs = { ...prefs, ...patch };
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(prefs)); } catch { /* private mode */ }
  for (const f of listeners) f();
}
