// Worlds & Suns (game id "worlds"): what the renderer reads from the view, shared by the board and the panels.
//
// View JSON (game.view(state, seat), docs/rules/worlds.md):
//   sides[2] (names, often colours: "red", "white"...), seat (0|1|null), active, round, max_rounds,
//   systems[]: {id, starting_system_of (side name|null), sun: {id, pieces[]}, worlds[]: {id, pieces[]}},
//     piece = {id, owner, side, kind: "P"|"F"}, ids "<side>.<card>.<P|F><n>"
//   energy[2], income[2], hand_sizes[2], hand (own card codes | null), discards[2][], cards {code: {name, text, ...}},
//   eligible[] (cards the active side may attack), fought[],
//   combat: null | {card, attacker, defender, allocator, participants[2][], step, current, winner, losses[2],
//     battles[]: {anchor, pieces[], events[2], energy[2] (null until the dice), power[], dice[], totals[], result,
//                 lost[2][], done}, sealed: {committed: {"0": bool, "1": bool}, own}, tie_pending[]},
//   last_combat (the combat closed last, same shape, when the server sends it), material[2], stats, over, result.
// Steps of a combat: allocate, event, energy, tie, retreat, convert (WS-4 to WS-6).
import { useEffect, useRef, useState } from "/static/app/kit.js";

/** Side names that are colours are drawn in that colour ("red is red"); others get the seat's default. */
const NAMED = {
  red: "#d9463e", blue: "#3f7fd6", white: "#eef0f4", grey: "#8d97aa", gray: "#8d97aa", green: "#3fae5a",
  yellow: "#e8cf3a", amber: "#f0a030", orange: "#e8812f", teal: "#26b0a0", purple: "#9b6bd6", violet: "#9b6bd6",
  pink: "#e070a8", black: "#2a2d36", brown: "#9a6a44", cyan: "#3cc4e0", gold: "#d9b440", silver: "#b9c0cc",
};
const DEFAULTS = ["#d9463e", "#3f7fd6"];

export function sideColour(view, seat) {
  const name = String((view.sides || [])[seat] || "").toLowerCase();
  const c = NAMED[name] || DEFAULTS[seat % 2];
  const other = String((view.sides || [])[1 - seat] || "").toLowerCase();
  if (seat === 1 && (NAMED[other] || DEFAULTS[0]) === c) return DEFAULTS[1] === c ? DEFAULTS[0] : DEFAULTS[1];
  return c;
}

/** Dark ink on light sides (white, yellow, amber...), light ink on dark ones (``#rrggbb`` or ``#rgb``). */
export function inkOn(hex) {
  const digits = hex.length === 4 ? hex.slice(1).replace(/./g, "$&$&") : hex.slice(1);
  const n = parseInt(digits, 16);
  const lum = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return lum > 0.5 ? "#10131c" : "#ffffff";
}

/** A side's name as the player reads it: a colour word is translated ("rouge"), any other name is kept. */
export function sideName(t, view, seat) {
  const name = (view.sides || [])[seat];
  if (name === undefined) return "–";
  const key = "worlds.side." + String(name).toLowerCase();
  const s = t(key);
  return s === key ? String(name) : s;
}

/** "label: text" as the language writes it (French puts a space before the colon). */
export const lab = (t, label, text) => t("worlds.labelled", { label, text });

export const kindOf = (id) => {
  const tail = String(id).split(".").pop() || "";
  return tail[0] === "F" ? "F" : "P";
};
/** The short label drawn on a pawn: its kind and number ("P2"). */
export const shortId = (id) => String(id).split(".").pop();

/** Every piece on the map by id: {id, owner, side, kind, card, system}. */
export function piecesById(view) {
  const out = {};
  for (const sys of view.systems || []) {
    for (const c of [sys.sun, ...sys.worlds]) for (const p of c.pieces) out[p.id] = { ...p, card: c.id, system: sys.id };
  }
  return out;
}

export function cardInfo(view, id) {
  for (const sys of view.systems || []) {
    if (sys.sun.id === id) return { id, kind: "sun", system: sys, card: sys.sun };
    const w = sys.worlds.find((x) => x.id === id);
    if (w) return { id, kind: "world", system: sys, card: w };
  }
  return null;
}

/** The open combat, or (between combats) the one closed last, for the results panel. */
export function shownCombat(view) {
  return view.combat || view.last_combat || null;
}

/** Pieces of `seat` in battle `b` (alive or lost), Populations first. */
export function battleIds(combat, b, seat) {
  const ids = seat === combat.allocator ? b.pieces : [b.anchor];
  return [...ids].sort((x, y) => (kindOf(x) === kindOf(y) ? 0 : kindOf(x) === "P" ? -1 : 1));
}

export function counts(ids) {
  let P = 0, F = 0;
  for (const id of ids) if (kindOf(id) === "P") P++; else F++;
  return { P, F };
}

/** The anchors of a combat (the other side's pieces, one battle each) in the engine's order: Populations first. */
export function anchorsOf(combat) {
  const num = (id) => parseInt(shortId(id).slice(1), 10) || 0;
  const head = (id) => String(id).split(".").slice(0, -1).join(".");
  const key = (id) => [kindOf(id) === "P" ? 0 : 1, head(id), num(id)];
  const cmp = (a, b) => {
    const x = key(a), y = key(b);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  };
  return [...combat.participants[1 - combat.allocator]].sort(cmp);
}

export function step(view) {
  if (view.over) return "over";
  return view.combat ? view.combat.step : "turn";
}

/** Who the viewer is: the seat, or null for spectators and replays seen from nobody. */
export function me(view) {
  return view.seat === 0 || view.seat === 1 ? view.seat : null;
}

/** The seat drawn on the left of the battles and first on the cards: the viewer's, else the first side. */
export function leftSeat(view) {
  return me(view) ?? 0;
}

// ------------------------------------------------------------------------------------------------ drafts
/** The allocation being drafted by the allocator (ui.alloc), or a fresh one: one empty lane per anchor. */
export function allocDraft(view, ui) {
  const c = view.combat;
  const anchors = anchorsOf(c);
  const d = ui.alloc;
  if (d && d.card === c.card && d.lanes.length === anchors.length) return d;
  return { card: c.card, lanes: anchors.map((a) => ({ anchor: a, pieces: [] })), pick: null };
}

export function poolOf(view, draft) {
  const used = new Set(draft.lanes.flatMap((l) => l.pieces));
  return view.combat.participants[view.combat.allocator].filter((id) => !used.has(id));
}

export function draftComplete(view, draft) {
  return draft.lanes.every((l) => l.pieces.length > 0) && poolOf(view, draft).length === 0;
}

/** The allocation action of a draft: battles in the lane order, which is the order they will be fought (WS-D2). */
export function draftAction(draft) {
  return { type: "allocate", battles: draft.lanes.map((l) => ({ anchor: l.anchor, pieces: [...l.pieces] })) };
}

/** Move piece `pid` into lane `lane` (or back to the pool when lane is null). */
export function assign(draft, pid, lane) {
  const lanes = draft.lanes.map((l) => ({ ...l, pieces: l.pieces.filter((x) => x !== pid) }));
  if (lane !== null && lanes[lane]) lanes[lane].pieces.push(pid);
  return { ...draft, lanes, pick: null };
}

export function moveLane(draft, i, by) {
  const j = i + by;
  if (j < 0 || j >= draft.lanes.length) return draft;
  const lanes = [...draft.lanes];
  [lanes[i], lanes[j]] = [lanes[j], lanes[i]];
  return { ...draft, lanes };
}

// ------------------------------------------------------------------------------------------------- odds
// Exact odds from the game's own calculator (WS-9) through the server: POST /api/games/worlds/calc/odds with
// battles [{s: {P, F, event, energy}, o: {...}}] seen from side s; answers per battle the powers and the win /
// tie / loss counts out of 36, and for the whole combat P(s wins), P(no winner), P(o wins) and expected losses.
const oddsCache = new Map();

function fetchOdds(query) {
  const key = JSON.stringify(query);
  if (!oddsCache.has(key)) {
    const p = fetch("/api/games/worlds/calc/odds", { method: "POST", headers: { "Content-Type": "application/json" }, body: key })
      .then((r) => (r.ok ? r.json() : null)).catch(() => null);
    oddsCache.set(key, p);
    if (oddsCache.size > 400) oddsCache.delete(oddsCache.keys().next().value);
  }
  return oddsCache.get(key);
}

/** The odds of `query` (null while they are computed, or when there is nothing to ask). */
export function useOdds(query) {
  const key = query ? JSON.stringify(query) : "";
  const [got, setGot] = useState({ key: "", value: null });
  useEffect(() => {
    if (!query) return undefined;
    let live = true;
    fetchOdds(query).then((value) => { if (live) setGot({ key, value }); });
    return () => { live = false; };
  }, [key]);
  return got.key === key ? got.value : null;
}

/** A group of battle `b` for the calculator, seen from `seat`: its pieces still standing, its revealed event. */
export function group(view, combat, b, seat, energy = 0, alive = null) {
  const ids = battleIds(combat, b, seat).filter((id) => !alive || alive[id]);
  const { P, F } = counts(ids);
  return { P, F, event: b.events[seat] || null, energy };
}

export const pct = (num, x) => (x === null || x === undefined ? "–" : num(Math.round(x * 10) / 10) + " %");
export const of36 = (n) => (100 * n) / 36;

/** The calculator query for the battles on the board, seen from the viewer's side (the left one): every battle
 *  still to fight with the pieces standing, events revealed, no energy except the viewer's draft in the battle being
 *  decided. `index[i]` is the lane of the query's i-th battle. Allocation drafts count the pieces placed so far. */
export function laneQuery(view, ui, allocating) {
  const c = view.combat;
  if (!c) return null;
  const left = leftSeat(view);
  if (c.step === "allocate") {
    if (!allocating) return null;
    const draft = allocDraft(view, ui);
    const battles = draft.lanes.map((l) => {
      const alloc = counts(l.pieces), anchor = counts([l.anchor]);
      const mine = c.allocator === left ? alloc : anchor, theirs = c.allocator === left ? anchor : alloc;
      return { s: { ...mine, event: null, energy: 0 }, o: { ...theirs, event: null, energy: 0 } };
    });
    return { query: { battles, offsets: [0, 0] }, index: draft.lanes.map((_, i) => i) };
  }
  const alive = piecesById(view);
  const battles = [], index = [];
  c.battles.forEach((b, i) => {
    if (b.done || b.totals.length) return;
    const mine = i === c.current && c.step === "energy" && me(view) === left ? Number(ui.energy || 0) : 0;
    battles.push({ s: group(view, c, b, left, mine, alive), o: group(view, c, b, 1 - left, 0, alive) });
    index.push(i);
  });
  if (!battles.length) return null;
  return { query: { battles, offsets: [c.losses[left], c.losses[1 - left]] }, index };
}

/** The decision the viewer is taking: its legal actions, and whether they can be sent now. While an incoming move
 *  is being shown (the other side sealed its choice at the same time, say) the frame passes no legal actions; the
 *  panels then keep the ones of the same decision, disabled, instead of vanishing under the player's finger. */
export function useDecision({ view, legal, interactive, toAct }) {
  const memo = useRef({ key: null, legal: [] });
  const c = view.combat;
  const key = [view.round, view.active, c ? c.card : "", step(view), c ? c.current : "", c ? c.tie_pending.join() : ""].join("|");
  if (legal.length) memo.current = { key, legal };
  const mine = me(view) !== null && (toAct || []).includes(me(view));
  if (!legal.length && mine && memo.current.key === key) return { legal: memo.current.legal, live: false };
  return { legal, live: !!interactive && legal.length > 0 };
}
