// Worlds & Suns board geometry: where the systems, their cards and the pieces go on the map, and where the battles
// of an open combat go. Everything is laid out for the size the board really has (measured in CSS pixels), at a
// zoom z >= 1 when there is room, so that a pawn is never drawn smaller than PAWN pixels unless the content cannot
// fit (then the frame's pinch-zoom helps).
import {
  allocDraft, anchorsOf, battleIds, cardInfo, leftSeat, me,
} from "./worlds-model.js";

export const PAWN = 36;
const STEP = 42; // a pawn and its gap
const PAD = 8;
const GAP = 10;
const SYS_HEAD = 26;
const TILE_HEAD = 30;
const TILE_PAD = 7;
const MIN_TILE = 124;
const HOME_LINE = 15;
const HEAD = 40;
const BADGE = 30;
const SCORE = 64;
const MID = 44;
const LANE_PAD = 5;
const LANE_GAP = 6;
const LANE_MIN = STEP + 2 * LANE_PAD;
const BAND_HEAD = 22;

const rowsFor = (n, perRow) => (n ? Math.ceil(n / perRow) : 0);
const perRowIn = (w) => Math.max(1, Math.floor((w + STEP - PAWN) / STEP));

// ---------------------------------------------------------------------------------------------------- map
function tileHeight(card, perRow, seats) {
  let rows = 0;
  for (const s of seats) rows += rowsFor(card.pieces.filter((p) => p.owner === s).length, perRow);
  return TILE_HEAD + Math.max(rows, 0.6) * STEP + TILE_PAD;
}

function systemAt(sys, w, seats) {
  const head = SYS_HEAD + (sys.starting_system_of ? HOME_LINE : 0);
  const cards = [{ card: sys.sun, kind: "sun" }, ...sys.worlds.map((c) => ({ card: c, kind: "world" }))];
  const inner = w - 2 * TILE_PAD;
  const perLine = Math.max(1, Math.min(cards.length, Math.floor((inner + GAP) / (MIN_TILE + GAP))));
  const tw = (inner - (perLine - 1) * GAP) / perLine;
  const perRow = perRowIn(tw - 2 * TILE_PAD);
  const tiles = [];
  let y = head;
  for (let i = 0; i < cards.length; i += perLine) {
    const line = cards.slice(i, i + perLine);
    const h = Math.max(...line.map((c) => tileHeight(c.card, perRow, seats)));
    line.forEach((c, k) => tiles.push({ ...c, id: c.card.id, x: TILE_PAD + k * (tw + GAP), y, w: tw, h, perRow }));
    y += h + GAP;
  }
  return { sys, w, h: y - GAP + TILE_PAD, tiles };
}

function mapAt(view, w, nc, seats) {
  const colW = (w - 2 * PAD - (nc - 1) * GAP) / nc;
  const heights = new Array(nc).fill(0);
  const systems = [];
  for (const sys of view.systems) {
    const s = systemAt(sys, colW, seats);
    let col = 0;
    for (let k = 1; k < nc; k++) if (heights[k] < heights[col] - 0.5) col = k;
    s.x = PAD + col * (colW + GAP);
    s.y = PAD + heights[col];
    heights[col] += s.h + GAP;
    systems.push(s);
  }
  const narrowest = Math.min(...systems.flatMap((x) => x.tiles.map((tile) => tile.w)));
  return { systems, width: w, height: Math.max(...heights) - GAP + 2 * PAD, narrowest };
}

/** Pawn centres on a laid-out map: {id: {x, y}}. */
function mapPawns(L, seats) {
  const at = {};
  for (const s of L.systems) {
    for (const tile of s.tiles) {
      let row = 0;
      for (const seat of seats) {
        const mine = tile.card.pieces.filter((p) => p.owner === seat);
        mine.forEach((p, i) => {
          const r = row + Math.floor(i / tile.perRow), c = i % tile.perRow;
          at[p.id] = { x: s.x + tile.x + TILE_PAD + PAWN / 2 + c * STEP, y: s.y + tile.y + TILE_HEAD + STEP / 2 + r * STEP };
        });
        row += rowsFor(mine.length, tile.perRow);
      }
    }
  }
  return at;
}

/** The map laid out for a board of W x H pixels: the best zoom and number of system columns. */
export function mapLayout(view, W, H) {
  const left = leftSeat(view);
  const seats = [left, 1 - left];
  let best = null;
  for (const z of [1.5, 1.25, 1]) {
    for (let nc = Math.max(1, view.systems.length); nc >= 1; nc--) {
      const L = mapAt(view, W / z, nc, seats);
      if (L.narrowest < 2 * STEP + 2 * TILE_PAD && !(z === 1 && nc === 1)) continue; // a card holds two pawns a row
      const scale = Math.min(z, H / L.height);
      if (!best || scale > best.scale + 1e-6) best = { L, z, scale };
    }
    if (best && best.scale >= z - 1e-6) break;
  }
  const { L, z } = best;
  return { mode: "map", ...L, viewH: Math.max(L.height, H / z), pawns: mapPawns(L, seats), seats };
}

// ------------------------------------------------------------------------------------------------- combat
/** The battles as lanes: per lane the pieces on the left (the viewer's side) and on the right, alive or lost. */
function lanesOf(view, ui, allocating) {
  const c = view.combat;
  const left = leftSeat(view);
  if (c.step === "allocate") {
    const draft = allocating ? allocDraft(view, ui) : { lanes: anchorsOf(c).map((a) => ({ anchor: a, pieces: [] })) };
    return draft.lanes.map((l, i) => {
      const alloc = l.pieces, anchor = [l.anchor];
      return { i, battle: null, anchor: l.anchor, left: c.allocator === left ? alloc : anchor, right: c.allocator === left ? anchor : alloc };
    });
  }
  return c.battles.map((b, i) => ({ i, battle: b, anchor: b.anchor, left: battleIds(c, b, left), right: battleIds(c, b, 1 - left) }));
}

/** Widths of a lane's parts for a board `w` wide: narrow boards get slimmer score boxes. */
function laneGeometry(w) {
  const narrow = w < 420;
  const SC = narrow ? 54 : SCORE, MD = narrow ? 34 : MID;
  return { BADGE, SCORE: SC, MID: MD, HEAD, PAD, LANE_PAD, BAND_HEAD, TILE_PAD, A: (w - 2 * PAD - BADGE - 2 * SC - MD) / 2 };
}

function combatAt(view, lanes, w, band) {
  const geo = laneGeometry(w);
  const A = geo.A;
  const perRow = perRowIn(A - 4);
  let y = PAD + HEAD;
  const out = lanes.map((l) => {
    const rows = Math.max(1, rowsFor(l.left.length, perRow), rowsFor(l.right.length, perRow));
    const h = Math.max(LANE_MIN, rows * STEP + 2 * LANE_PAD);
    const lane = { ...l, x: PAD, y, w: w - 2 * PAD, h };
    y += h + LANE_GAP;
    return lane;
  });
  let bandBox = null;
  if (band) {
    const bw = w - 2 * PAD;
    const bPer = perRowIn(bw - 2 * TILE_PAD);
    const bh = BAND_HEAD + Math.max(1, rowsFor(band.ids.length, bPer)) * STEP + TILE_PAD;
    y += 4;
    bandBox = { ...band, x: PAD, y, w: bw, h: bh, perRow: bPer };
    y += bh + GAP;
  }
  return { lanes: out, band: bandBox, width: w, height: y - LANE_GAP + PAD, A, perRow, geo };
}

/** Pawn centres: each side's pieces of a battle face the scores, rows centred in the lane; the band's in rows. */
function combatPawns(L) {
  const at = {};
  const xL = PAD + BADGE + L.A, xR = L.width - PAD - L.A;
  const spot = (l, n, i) => {
    const rows = Math.max(1, Math.ceil(n / L.perRow));
    const top = l.y + (l.h - rows * STEP) / 2;
    return { c: i % L.perRow, y: top + STEP / 2 + Math.floor(i / L.perRow) * STEP };
  };
  for (const l of L.lanes) {
    l.left.forEach((id, i) => {
      const p = spot(l, l.left.length, i);
      at[id] = { x: xL - PAWN / 2 - 2 - p.c * STEP, y: p.y };
    });
    l.right.forEach((id, i) => {
      const p = spot(l, l.right.length, i);
      at[id] = { x: xR + PAWN / 2 + 2 + p.c * STEP, y: p.y };
    });
  }
  const b = L.band;
  if (b) {
    b.ids.forEach((id, i) => {
      const r = Math.floor(i / b.perRow), c = i % b.perRow;
      at[id] = { x: b.x + TILE_PAD + PAWN / 2 + c * STEP, y: b.y + BAND_HEAD + STEP / 2 + r * STEP };
    });
  }
  return at;
}

/** What goes under the battles: the allocator's pieces still to place, or the Sun the loser may retreat to. */
function bandOf(view, ui, allocating) {
  const c = view.combat;
  if (c.step === "allocate") {
    const draft = allocating ? allocDraft(view, ui) : null;
    const used = new Set(draft ? draft.lanes.flatMap((l) => l.pieces) : []);
    return { kind: "pool", ids: c.participants[c.allocator].filter((id) => !used.has(id)), owner: c.allocator };
  }
  const info = cardInfo(view, c.card);
  if (info && info.kind === "world" && (c.step === "retreat" || (c.step === "convert" && info.system.sun.pieces.length))) {
    return { kind: "sun", ids: info.system.sun.pieces.map((p) => p.id), card: info.system.sun.id };
  }
  return null;
}

/** The open combat laid out for a board of W x H pixels. `allocating`: the viewer drafts the allocation. */
export function combatLayout(view, ui, W, H, allocating) {
  const lanes = lanesOf(view, ui, allocating);
  const band = bandOf(view, ui, allocating);
  let best = null;
  for (const z of [1.4, 1.2, 1]) {
    const L = combatAt(view, lanes, W / z, band);
    if (L.A < STEP && z > 1) continue; // a pawn must fit beside the scores
    const scale = Math.min(z, H / L.height);
    if (!best || scale > best.scale + 1e-6) best = { L, z, scale };
    if (scale >= z - 1e-6) break;
  }
  const { L, z } = best;
  return { mode: "combat", ...L, viewH: Math.max(L.height, H / z), pawns: combatPawns(L), left: leftSeat(view), me: me(view) };
}

export const TILE = { HEAD: TILE_HEAD, PAD: TILE_PAD, SYS_HEAD, HOME_LINE };

/** The pieces the open combat lost, by id: the seat each belonged to (they stay in their lanes, faded). */
export function lostIn(view) {
  const c = view.combat;
  const out = {};
  if (!c) return out;
  c.battles.forEach((b) => [0, 1].forEach((s) => b.lost[s].forEach((id) => { out[id] = s; })));
  return out;
}

