// Worlds & Suns board: the map (systems, their Sun and Worlds, the pieces on each card, starting systems hatched)
// and, while a combat is open, its battles as lanes (the viewer's pieces on the left, the other side's on the
// right, the score of each side, the dice, the result), the pieces still to pair and the Sun the loser may retreat
// to. Pieces are keyed by id, so they glide from their card into the battles and back. Every tappable thing is a
// place: "card:<id>" (declare a combat), "attack:<id>" (confirm it), "pc:<id>" (a piece), "lane:<i>" (a battle),
// "pool" (the pieces still to pair), "sun" (the retreat). Allocation drafts also take drags (a pawn onto a battle).
import { html, placeAttrs, TargetMark, at, useLayoutEffect, useMemo, useRef, useState } from "/static/app/kit.js";
import {
  allocDraft, assign, cardInfo, inkOn, kindOf, laneQuery, me, piecesById, shortId, sideColour, sideName, step, useOdds,
} from "./worlds-model.js";
import { PAWN, TILE, combatLayout, lostIn, mapLayout } from "./worlds-layout.js";

let lastSize = { w: 900, h: 640 };
/** A font size at which `text` fits `width` (SVG text does not wrap): `size`, or less for a long text. */
function fit(text, width, size) {
  const wide = String(text).length * 0.66 * size; // a generous average glyph width (bold Cyrillic is wide)
  return Math.max(8, Math.min(size, (size * width) / Math.max(1, wide)));
}
const fitStyle = (text, width, size) => ({ fontSize: fit(text, width, size) + "px" });

/** Two crossed swords in a 14 x 14 box: a combat, a battle. */
const SWORDS = "M1.5 1.5L10.5 10.5M8 12.5l4.5-4.5M11 11l2 2M12.5 1.5L3.5 10.5M6 12.5L1.5 8M3 11l-2 2";

/** The pieces of the viewer's allocation draft can be picked and dropped into battles; battles and the pool are
 *  targets once a piece is picked (the same taps the keyboard gives through the frame). */
function allocationHl(view, ui, base) {
  const c = view.combat;
  const d = allocDraft(view, ui);
  const mine = c.participants[c.allocator].map((id) => "pc:" + id);
  const targets = new Map();
  if (d.pick) {
    d.lanes.forEach((l, i) => { if (!l.pieces.includes(d.pick)) targets.set("lane:" + i, { kind: "place" }); });
    if (d.lanes.some((l) => l.pieces.includes(d.pick))) targets.set("pool", { kind: "place" });
  }
  return { ...base, interactive: true, sources: new Set(mine), selected: d.pick ? "pc:" + d.pick : null, targets };
}

/** In the retreat step the loser's Populations on the World toggle; the Sun takes them. */
export function retreatCandidates(legal) {
  let best = [];
  for (const a of legal) if (a.type === "retreat" && a.pieces.length > best.length) best = a.pieces;
  return best;
}

function retreatHl(legal, ui, base) {
  const cands = retreatCandidates(legal);
  const chosen = ui.retreat || [];
  const targets = new Map(chosen.length ? [["sun", { kind: "place" }]] : []);
  return { ...base, interactive: true, sources: new Set(cands.map((id) => "pc:" + id)), targets, picked: new Set(chosen.map((id) => "pc:" + id)) };
}

// ----------------------------------------------------------------------------------------------- pieces
export function PawnShape({ kind, colour, label, lost, origin }) {
  const ink = inkOn(colour);
  const body = kind === "P"
    ? html`<circle r=${PAWN / 2} fill=${colour} class="wpawn-body" />`
    : html`<rect x=${-PAWN / 2 + 2} y=${-PAWN / 2 + 2} width=${PAWN - 4} height=${PAWN - 4} rx="6" fill=${colour} class="wpawn-body" />`;
  return html`${body}<text y="5" class="wpawn-label" fill=${ink}>${label}</text>
    ${origin ? html`<circle cx=${PAWN / 2 - 4} cy=${-PAWN / 2 + 4} r="6" fill=${origin} class="wpawn-origin" />` : null}
    ${lost ? html`<path d="M-13 -13L13 13M13 -13L-13 13" class="wpawn-cross" />` : null}`;
}

function pawnLabel(t, view, p, owner) {
  const label = t("worlds.a11y.piece", { side: sideName(t, view, owner), kind: t("worlds.piece." + kindOf(p)), id: shortId(p) });
  const from = originSeat(view, p, owner);
  return from === null ? label : t("worlds.a11y.taken", { label, side: sideName(t, view, from) });
}

/** The side a converted Factory was taken from (its id keeps the side it started with, WS-6.4), or null. */
function originSeat(view, id, owner) {
  const first = String(id).split(".")[0];
  const seat = view.sides.indexOf(first);
  return seat >= 0 && seat !== owner ? seat : null;
}

function Pawn({ id, owner, view, t, x, y, hl, live, lost, drag, onDown }) {
  const colour = sideColour(view, owner);
  const place = "pc:" + id;
  const a = live ? placeAttrs(hl, place, pawnLabel(t, view, id, owner)) : { "data-place": place, class: "" };
  const picked = hl.picked && hl.picked.has(place);
  const cls = `wpawn ${a.class || ""}${lost ? " lost" : ""}${picked ? " picked" : ""}${drag ? " dragging" : ""}${live ? "" : " passive"}`;
  return html`<g ...${a} class=${cls} style=${at(drag ? drag.x : x, drag ? drag.y : y)} data-kind=${kindOf(id)} data-owner=${owner}
      onPointerDown=${onDown ? (e) => onDown(e, id) : null}>
    <${PawnShape} kind=${kindOf(id)} colour=${colour} label=${shortId(id)} lost=${lost}
      origin=${originSeat(view, id, owner) === null ? null : sideColour(view, originSeat(view, id, owner))} />
  </g>`;
}

export function Die({ x, y, n, size = 18 }) {
  const s = size, q = s / 4;
  const spots = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[n] || [];
  return html`<g transform=${`translate(${x}, ${y})`} class="wdie" role="img" aria-label=${String(n)}>
    <rect width=${s} height=${s} rx="3" />${spots.map(([i, j]) => html`<circle cx=${i * q} cy=${j * q} r=${s / 11} />`)}</g>`;
}

// --------------------------------------------------------------------------------------------------- map
function SunIcon({ x, y }) {
  return html`<g transform=${`translate(${x}, ${y})`} class="wicon-sun" aria-hidden="true">
    ${[0, 1, 2, 3, 4, 5, 6, 7].map((k) => html`<path d=${`M${7 * Math.cos(k * 0.785)} ${7 * Math.sin(k * 0.785)}L${11 * Math.cos(k * 0.785)} ${11 * Math.sin(k * 0.785)}`} />`)}
    <circle r="6" /></g>`;
}
function WorldIcon({ x, y }) {
  return html`<g transform=${`translate(${x}, ${y})`} class="wicon-world" aria-hidden="true">
    <circle r="8" /><ellipse rx="12" ry="3.5" transform="rotate(-20)" /></g>`;
}

function tileLabel(t, view, tile) {
  const per = [0, 1].map((s) => {
    const mine = tile.card.pieces.filter((p) => p.owner === s);
    if (!mine.length) return null;
    const P = mine.filter((p) => p.kind === "P").length;
    return t("worlds.a11y.side_pieces", { side: sideName(t, view, s), p: P, f: mine.length - P });
  }).filter(Boolean);
  return t("worlds.a11y.card", { kind: t("worlds.card_kind." + tile.kind), card: tile.id, pieces: per.join("; ") || t("worlds.empty") });
}

function MapBoard({ view, L, hl, t }) {
  const eligible = new Set(view.eligible || []);
  const fought = new Set(view.fought || []);
  const inCombat = view.combat ? view.combat.card : null;
  const out = [];
  for (const s of L.systems) {
    const home = s.sys.starting_system_of;
    const homeSeat = home === null ? null : view.sides.indexOf(home);
    const homeText = home ? t(s.w < 260 ? "worlds.home_short" : "worlds.home_of", { side: sideName(t, view, homeSeat) }) : "";
    out.push(html`<g class=${"wsystem" + (home ? " home" : "")} transform=${`translate(${s.x}, ${s.y})`}>
      <rect width=${s.w} height=${s.h} rx="12" class="wsystem-frame"
        style=${homeSeat !== null && homeSeat >= 0 ? { stroke: sideColour(view, homeSeat) } : null} />
      ${home ? html`<rect width=${s.w} height=${s.h} rx="12" fill="url(#w-hatch)" pointer-events="none" />` : null}
      <text x="10" y="18" class="wsystem-name" style=${fitStyle(t("worlds.system", { id: s.sys.id }), s.w - 20, 13)}>${t("worlds.system", { id: s.sys.id })}</text>
      ${home ? html`<text x="10" y=${18 + TILE.HOME_LINE} class="wsystem-home" style=${fitStyle(homeText, s.w - 20, 11)}>${homeText}</text>` : null}
      ${s.tiles.map((tile) => {
        const place = "card:" + tile.id;
        const a = placeAttrs(hl, place, tileLabel(t, view, tile), "wtile " + tile.kind);
        const extra = (eligible.has(tile.id) ? " eligible" : "") + (fought.has(tile.id) ? " fought" : "") + (inCombat === tile.id ? " in-combat" : "");
        const attack = hl.targets.get("attack:" + tile.id);
        return html`<g ...${a} class=${a.class + extra} data-card=${tile.id}>
          <rect x=${tile.x} y=${tile.y} width=${tile.w} height=${tile.h} rx="9" class="wtile-body" />
        </g>
        <g aria-hidden="true" pointer-events="none">
          ${tile.kind === "sun" ? html`<${SunIcon} x=${tile.x + 17} y=${tile.y + 15} />` : html`<${WorldIcon} x=${tile.x + 17} y=${tile.y + 15} />`}
          <text x=${tile.x + 34} y=${tile.y + 20} class="wtile-name" style=${fitStyle(tile.id, tile.w - 40 - (attack ? attackWidth(tile) + 6 : 0), 14)}>${tile.id}</text>
          ${fought.has(tile.id) && inCombat !== tile.id ? html`<text x=${tile.x + tile.w - 8} y=${tile.y + 19} class="wtile-tag" text-anchor="end">${t("worlds.fought")}</text>` : null}
          ${!tile.card.pieces.length ? html`<text x=${tile.x + TILE.PAD} y=${tile.y + TILE.HEAD + 14} class="wtile-empty">${t("worlds.empty")}</text>` : null}
        </g>
        ${attack ? html`<${AttackBadge} tile=${tile} t=${t} />` : null}`;
      })}
    </g>`);
  }
  const pieces = piecesById(view);
  const pawns = Object.entries(L.pawns).map(([id, p]) => html`<${Pawn} key=${id} id=${id} owner=${pieces[id].owner} view=${view} t=${t}
    x=${p.x} y=${p.y} hl=${hl} live=${false} />`);
  return html`${out}<g class="wpawns map">${pawns}</g>`;
}

// ------------------------------------------------------------------------------------------------ combat
function Score({ x, y, w, h, view, lane, seat, base, t, num, empty = false }) {
  const b = lane.battle;
  const cls = ["wscore"];
  const lines = [];
  const cx = x + w / 2;
  if (b && b.totals.length) {
    const won = b.result === String(seat), tie = b.result === "tie";
    cls.push(won ? "won" : tie ? "tie" : "lostside");
    const energy = b.energy[seat] || 0;
    lines.push(html`<text x=${cx} y=${y + 24} class="wscore-total" text-anchor="middle">${num(b.totals[seat])}</text>`);
    // power (+ energy) + the die under the total, shrunk to stay inside the box when energy makes it three terms
    const sum = energy ? `${num(b.power[seat] - energy)}+${num(energy)}+` : `${num(b.power[seat])}+`;
    lines.push(html`<text x=${cx - 1} y=${y + 42} class="wscore-small" text-anchor="end" style=${fitStyle(sum, w / 2 - 7, 11)}>${sum}</text>`);
    lines.push(html`<${Die} x=${cx + 1} y=${y + 30} n=${b.dice[seat]} size=${15} />`);
  } else if (empty) { // a battle of the allocation draft with no piece on this side yet (Fight waits for it)
    cls.push("empty");
    const say = t("worlds.lane_empty");
    lines.push(html`<text x=${cx} y=${y + h / 2 + 4} class="wscore-empty" text-anchor="middle" style=${fitStyle(say, w - 10, 11)}>${say}</text>`);
  } else if (base !== null && base !== undefined) {
    lines.push(html`<text x=${cx} y=${y + 24} class="wscore-power" text-anchor="middle">${num(base)}</text>`);
    lines.push(html`<text x=${cx} y=${y + 41} class="wscore-small" text-anchor="middle">${t("worlds.power_short")}</text>`);
  }
  const ev = b ? b.events[seat] : null;
  if (ev) lines.push(html`<g class="wscore-event"><rect x=${cx - 17} y=${y - 4} width="34" height="14" rx="4" />
    <text x=${cx} y=${y + 6.5} text-anchor="middle">${ev}</text></g>`);
  const colour = sideColour(view, seat);
  return html`<g class=${cls.join(" ")}><rect x=${x + 2} y=${y + 3} width=${w - 4} height=${h - 6} rx="7" style=${{ stroke: colour }} />${lines}</g>`;
}

function laneLabel(t, view, c, lane, left) {
  const who = (seat, ids) => t("worlds.a11y.group", { side: sideName(t, view, seat), n: ids.length });
  return t("worlds.a11y.lane", { n: lane.i + 1, left: who(left, lane.left), right: who(1 - left, lane.right) });
}

function CombatBoard({ view, L, hl, t, num, odds, drag, onDown, allocating }) {
  const c = view.combat;
  const left = L.left, g = L.geo;
  const alive = piecesById(view);
  const lost = lostIn(view);
  const info = cardInfo(view, c.card);
  const baseOf = {};
  if (odds && odds.value) odds.index.forEach((lane, k) => { baseOf[lane] = odds.value.battles[k]; });
  const title = t("worlds.combat_on", { card: c.card, kind: t("worlds.card_kind." + (info ? info.kind : "world")) });
  const sub = t("worlds.attacks", { attacker: sideName(t, view, c.attacker), defender: sideName(t, view, c.defender) });
  const head = html`<g class="wcombat-head">
    <text x=${g.PAD + 4} y=${g.PAD + 17} class="wcombat-title" style=${fitStyle(title, L.width - 2 * g.PAD - 8, 15)}>${title}</text>
    <text x=${g.PAD + 4} y=${g.PAD + 33} class="wcombat-sub" style=${fitStyle(sub, L.width - 2 * g.PAD - 8, 12)}>${sub}</text></g>`;
  const lanes = L.lanes.map((lane) => {
    const b = lane.battle;
    const current = b ? lane.i === c.current && !b.done && c.step !== "retreat" && c.step !== "convert" : false;
    const place = "lane:" + lane.i;
    const a = placeAttrs(hl, place, laneLabel(t, view, c, lane, left), "wlane" + (current ? " current" : "") + (b && b.done ? " done" : ""));
    const xs = lane.x + g.BADGE + (L.width - 2 * g.PAD - g.BADGE - 2 * g.SCORE - g.MID) / 2;
    const q = baseOf[lane.i];
    const midX = xs + g.SCORE + g.MID / 2;
    let mid = html`<path transform=${`translate(${midX - 7}, ${lane.y + lane.h / 2 - 11})`} d=${SWORDS} class="wvs-icon" />`;
    if (b && b.result === "tie") mid = html`<text x=${midX} y=${lane.y + lane.h / 2 + 5} class="wvs tie" text-anchor="middle">=</text>`;
    else if (q && lane.left.length && lane.right.length && !(b && b.totals.length)) {
      mid = html`${mid}<text x=${midX} y=${lane.y + lane.h / 2 + 17} class="wodds" text-anchor="middle">${num(Math.round((100 * q.win) / 36))}%</text>`;
    }
    // the lane (a place) is its frame only; what is written on it lies above, letting taps through (names of
    // buttons must hold their visible text, and the lane's name says it all)
    const emptyL = !!allocating && !lane.left.length, emptyR = !!allocating && !lane.right.length;
    return html`<g ...${a} data-lane=${String(lane.i)} data-anchor=${lane.anchor} data-empty=${emptyL || emptyR ? "yes" : "no"}>
      <rect x=${lane.x} y=${lane.y} width=${lane.w} height=${lane.h} rx="10" class="wlane-body" /></g>
      <g class=${"wlane-deco" + (current ? " current" : "")} aria-hidden="true" pointer-events="none">
        <circle cx=${lane.x + 15} cy=${lane.y + lane.h / 2} r="11" class="wlane-badge" />
        <text x=${lane.x + 15} y=${lane.y + lane.h / 2 + 4.5} class="wlane-num" text-anchor="middle">${num(lane.i + 1)}</text>
        <${Score} x=${xs} y=${lane.y} w=${g.SCORE} h=${lane.h} view=${view} lane=${lane} seat=${left} base=${q && lane.left.length ? q.s_power : null} t=${t} num=${num} empty=${emptyL} />
        ${mid}
        <${Score} x=${xs + g.SCORE + g.MID} y=${lane.y} w=${g.SCORE} h=${lane.h} view=${view} lane=${lane} seat=${1 - left} base=${q && lane.right.length ? q.o_power : null} t=${t} num=${num} empty=${emptyR} />
      </g>`;
  });
  let band = null;
  const B = L.band;
  if (B) {
    const place = B.kind === "pool" ? "pool" : "sun";
    const label = B.kind === "pool" ? t("worlds.pool_label", { side: sideName(t, view, B.owner) })
      : t(c.step === "retreat" ? "worlds.sun_label" : "worlds.sun_name", { card: B.card });
    const a = placeAttrs(hl, place, label, "wband " + B.kind);
    band = html`<g ...${a}><rect x=${B.x} y=${B.y} width=${B.w} height=${B.h} rx="10" class="wband-body" /></g>
      <g aria-hidden="true" pointer-events="none">
      ${B.kind === "sun" ? html`<${SunIcon} x=${B.x + 16} y=${B.y + 12} />` : null}
      <text x=${B.x + (B.kind === "sun" ? 32 : 10)} y=${B.y + 16} class="wband-label" style=${fitStyle(label, B.w - 44, 12)}>${label}</text>
      ${B.kind === "pool" && !B.ids.length ? html`<text x=${B.x + 10} y=${B.y + g.BAND_HEAD + 24} class="wtile-empty" aria-hidden="true">${allocating ? t("worlds.pool_done") : ""}</text>` : null}</g>`;
  }
  const pawns = Object.entries(L.pawns).map(([id, p]) => {
    const piece = alive[id];
    const owner = piece ? piece.owner : lost[id] !== undefined ? lost[id] : c.participants[0].includes(id) ? 0 : 1;
    const place = "pc:" + id;
    const live = hl.interactive && (hl.sources.has(place) || hl.targets.has(place) || hl.selected === place);
    return html`<${Pawn} key=${id} id=${id} owner=${owner} view=${view} t=${t} x=${p.x} y=${p.y} hl=${hl} live=${live}
      lost=${!piece} drag=${drag && drag.pid === id ? drag : null} onDown=${onDown && piece ? onDown : null} />`;
  });
  const marks = Object.entries(L.pawns).filter(([id]) => hl.targets.has("pc:" + id)).map(([id, p]) => html`<${TargetMark} x=${p.x} y=${p.y}
    r=${PAWN / 2 + 5} kind=${hl.targets.get("pc:" + id).kind} />`);
  return html`${head}${lanes}${band}<g class="wpawns">${pawns}</g><g class="marks">${marks}</g>`;
}

// ------------------------------------------------------------------------------------------------- board
/** The board's size in CSS pixels, measured before the first paint and on every resize; `live` turns true two
 *  frames after a measure that changed the size (pieces glide when the game moves them, never because the board was
 *  laid out again for another size: a scroll bar coming, a panel opening, the window or the phone turning). */
function useSize(ref) {
  const [size, setSize] = useState(lastSize);
  const [live, setLive] = useState(false);
  const frame = useRef(0);
  const current = useRef(size);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const settle = () => {
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => { frame.current = requestAnimationFrame(() => setLive(true)); });
    };
    const measure = () => {
      const w = el.clientWidth, h = el.clientHeight;
      if (w < 60 || h < 60) return;
      const s = current.current;
      if (Math.abs(s.w - w) <= 1 && Math.abs(s.h - h) <= 1) return;
      current.current = lastSize = { w, h };
      setSize(lastSize);
      setLive(false);
      settle();
    };
    measure();
    settle();
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    if (ro) ro.observe(el);
    return () => { if (ro) ro.disconnect(); cancelAnimationFrame(frame.current); };
  }, []);
  return { ...size, live };
}

/** Drag a pawn of the allocation draft onto a battle (or back to the pool); a short press stays a tap. */
function useDrag(svgRef, view, ui, setUi, enabled) {
  const [drag, setDrag] = useState(null);
  const st = useRef(null);
  function toSvg(e) {
    const svg = svgRef.current;
    const m = svg && svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
  function onDown(e, pid) {
    if (!enabled || (e.pointerType === "mouse" && e.button !== 0)) return;
    st.current = { pid, sx: e.clientX, sy: e.clientY, on: false, id: e.pointerId, target: e.currentTarget };
    const move = (ev) => {
      const s = st.current;
      if (!s || ev.pointerId !== s.id) return;
      if (!s.on && Math.hypot(ev.clientX - s.sx, ev.clientY - s.sy) > 8) {
        s.on = true;
        // the board's tap and pan gestures let go of this pointer: from now on it drags the pawn
        const vp = s.target.closest("[data-testid=board]");
        s.cancelling = true; // this listener sees the cancel too (capture phase): it is not the end of the drag
        if (vp) vp.dispatchEvent(new PointerEvent("pointercancel", { pointerId: s.id, bubbles: true }));
        s.cancelling = false;
      }
      if (s.on) { ev.preventDefault(); setDrag({ pid: s.pid, ...toSvg(ev) }); }
    };
    const up = (ev) => {
      const s = st.current;
      if (!s || ev.pointerId !== s.id || s.cancelling) return;
      window.removeEventListener("pointermove", move, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      st.current = null;
      setDrag(null);
      if (!s.on || ev.type === "pointercancel") return;
      const hit = document.elementFromPoint(ev.clientX, ev.clientY);
      const el = hit && hit.closest ? hit.closest("[data-place]") : null;
      const place = el ? el.getAttribute("data-place") : null;
      const d = allocDraft(view, ui);
      let lane;
      if (place && place.startsWith("lane:")) lane = Number(place.slice(5));
      else if (place === "pool") lane = null;
      else if (place && place.startsWith("pc:")) {
        const id = place.slice(3);
        const k = d.lanes.findIndex((l) => l.anchor === id || l.pieces.includes(id));
        lane = k >= 0 ? k : null;
      } else return;
      setUi({ alloc: assign(d, s.pid, lane) });
    };
    window.addEventListener("pointermove", move, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
  }
  return { drag, onDown };
}

/** The Attack badge holds its word where the card has room for it beside its name, and is a round 34 px swords
 *  button otherwise (narrow cards on a wide map: the word covered the card's name); its spoken name is the same. */
function attackWidth(tile) { return tile.w >= 220 ? 120 : 34; }

function AttackBadge({ tile, t }) {
  const w = attackWidth(tile);
  const x = tile.x + tile.w - w - 4, y = tile.y + 2;
  return html`<g data-place=${"attack:" + tile.id} class="place is-target wattack" tabindex="0" role="button"
      aria-label=${t("worlds.attack_card", { card: tile.id })}>
    <rect x=${x} y=${y} width=${w} height="34" rx="17" />
    <path transform=${`translate(${w > 34 ? x + 12 : x + 10}, ${y + 10})`} d=${SWORDS} class="wattack-icon" />
    ${w > 34 ? html`<text x=${x + 24 + (w - 24) / 2} y=${y + 22} text-anchor="middle"
      style=${fitStyle(t("worlds.attack"), w - 36, 14)}>${t("worlds.attack")}</text>` : null}</g>`;
}

function Defs() {
  return html`<defs>
    <pattern id="w-hatch" patternUnits="userSpaceOnUse" width="9" height="9" patternTransform="rotate(45)">
      <rect width="9" height="9" fill="none" /><path d="M0 0v9" class="whatch" /></pattern>
  </defs>`;
}

export function Board(props) {
  const { view, ui = {}, setUi = () => {}, t, legal = [], interactive } = props;
  const num = props.num || ((n) => String(n));
  const wrap = useRef(null);
  const svgRef = useRef(null);
  const size = useSize(wrap);
  const allocating = !!(interactive && view.combat && view.combat.step === "allocate" && legal.some((a) => a.type === "allocate"));
  const retreating = !!(interactive && view.combat && view.combat.step === "retreat" && legal.some((a) => a.type === "retreat"));
  const combatMode = !!(view.combat && !ui.showMap);
  // on phones the board is as tall as its content needs (up to most of the screen): the layout is chosen for that
  // room, not for the measured height, which then follows (--worlds-board-h on the frame's viewport)
  const narrow = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(max-width: 980px)").matches;
  const H = narrow ? Math.min(window.innerHeight * 0.8, size.w * 1.75) : size.h;
  const L = useMemo(() => (combatMode ? combatLayout(view, ui, size.w, H, allocating) : mapLayout(view, size.w, H)),
    [view, combatMode && (ui.alloc || null), size.w, H, allocating, combatMode]);
  useLayoutEffect(() => {
    const vp = wrap.current && wrap.current.closest(".board-viewport");
    if (!vp) return;
    if (narrow) vp.style.setProperty("--worlds-board-h", Math.ceil(Math.min(H, (L.height * size.w) / L.width) + 14) + "px");
    else vp.style.removeProperty("--worlds-board-h");
  });
  const lq = combatMode ? laneQuery(view, ui, allocating) : null;
  const oddsValue = useOdds(lq ? lq.query : null);
  const odds = lq ? { index: lq.index, value: oddsValue } : null;
  const { drag, onDown } = useDrag(svgRef, view, ui, setUi, allocating);
  let hl = props.hl;
  if (allocating && combatMode) hl = allocationHl(view, ui, hl);
  else if (retreating && combatMode) hl = retreatHl(legal, ui, hl);
  const viewH = narrow ? L.height : L.viewH; // top-aligned: the battles do not jump when a band comes or goes
  const title = t("worlds.board_title", { step: t("worlds.step." + step(view)) });
  return html`<div class="worlds-board" ref=${wrap} data-mode=${L.mode}>
    <svg ref=${svgRef} viewBox=${`0 0 ${L.width} ${viewH}`} role="group" aria-label=${title} data-testid="worlds-board"
        data-step=${step(view)} data-you=${me(view) ?? "none"} class=${"wboard " + L.mode + (size.live ? " live" : "")}>
      <${Defs} />
      ${L.mode === "map" ? html`<${MapBoard} view=${view} L=${L} hl=${hl} t=${t} />`
        : html`<${CombatBoard} view=${view} L=${L} hl=${hl} t=${t} num=${num} odds=${odds} drag=${drag}
            onDown=${allocating ? onDown : null} allocating=${allocating} />`}
    </svg></div>`;
}
