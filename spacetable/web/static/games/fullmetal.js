// Full Metal Planète renderer (game id "fullmetal"; rules docs/rules/fullmetal.md, ids FM-*), on the renderer
// interface of docs/architecture.md ("Web client"). Modules beside it: fullmetal-hex.js (geometry, FM-1),
// fullmetal-model.js (reading the view), fullmetal-pieces.js (unit drawings), fullmetal-board.js (the board),
// fullmetal-setup.js (landing, deployment and departure composers), fullmetal-panels.js (status, reports, legend,
// holds), fullmetal.css.
//
// View JSON (game.view(state, seat)): {game, phase: land|deploy|play|depart|over, turn, tide, width, height, map,
//   terrain: [rows of ".*%$#?"], viewer, players: [{seat, colour, pool, saved, eliminated, resigned, ships}],
//   controller: [seat per colour or -1], order, active, land_order, units: [{id, kind, colour, cells: [[x, y]...],
//   carrier?, cargo?, shots?, neutralized_by?, locked?, stranded?, turrets?, captor?, value?, builds?}],
//   pontoons, reserve, departed, graveyard, retreat_window, retreat_only, cover: [a digit per cell, per player],
//   sealed: {committed, own}, cards_left, config, forecast? (own: {turn: tide})}
// Legal actions are single steps (FM-D50): move, retreat, load, unload, transfer, enter, exit, build, fire, assault,
// capture, capture_ship, repair, take_off, end_turn; land, deploy and decide_departure before and after play.
//
// On the board: select a unit (or an item in a hold below the board), then tap a marked hex: a dot moves there, a
// ring fires or captures, a green mark loads, unloads, enters or exits. A hex offering several actions (move or
// build, fire with one partner or another) opens the frame's menu. A unit that moved stays selected, so a path is
// walked one tap per step. Landing, deployment, the end of the turn, take-off and the turn-21 decision are composers.
import { html, Button } from "/static/app/kit.js";
import { keyOf } from "./fullmetal-hex.js";
import { COLOURS, cellsOf, index, mine, unitOf } from "./fullmetal-model.js";
import { Board } from "./fullmetal-board.js";
import { SetupComposer, setupOnPlace } from "./fullmetal-setup.js";
import { Legend, Results, Status, Tray, lastTurn } from "./fullmetal-panels.js";

const STYLE = "/static/games/fullmetal.css";
if (typeof document !== "undefined" && !document.querySelector(`link[href="${STYLE}"]`)) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLE;
  document.head.append(link);
}

// --------------------------------------------------------------------------------------------- the picker
const hexes = (view, id) => cellsOf(unitOf(view, id));
const dest = (to) => (Array.isArray(to) && Array.isArray(to[0]) ? to.map(keyOf) : [keyOf(to)]);
const spots = (froms, tos, kind) => froms.flatMap((from) => tos.map((to) => ({ from, to, kind })));

/** Where each legal action is picked: from the unit's hexes (or its "c:<id>" item in a hold) to the hex tapped. */
function places(a, view) {
  switch (a.type) {
    case "move": {
      const u = unitOf(view, a.unit);
      const last = a.path[a.path.length - 1];
      const to = u && u.kind === "barge" ? keyOf(last[1]) : keyOf(last);
      return spots(cellsOf(u), [to], "move");
    }
    case "retreat": {
      const u = unitOf(view, a.unit);
      const to = u && u.kind === "barge" ? keyOf(a.to[1]) : keyOf(a.to);
      return spots(cellsOf(u), [to], "move");
    }
    case "load": {
      const item = unitOf(view, a.item);
      const out = spots(hexes(view, a.carrier), cellsOf(item), "special");
      if (item && item.kind !== "ore" && item.kind !== "pontoon") out.push(...spots(cellsOf(item), hexes(view, a.carrier), "special"));
      return out;
    }
    case "enter":
      return [...spots(hexes(view, a.unit), hexes(view, a.ship), "special"), ...spots(hexes(view, a.ship), hexes(view, a.unit), "special")];
    case "unload":
    case "exit": {
      const item = a.type === "unload" ? a.item : a.unit;
      const carrier = a.type === "unload" ? a.carrier : a.ship;
      const to = typeof a.to === "number" ? hexes(view, a.to) : dest(a.to);
      const out = spots(["c:" + item], to, typeof a.to === "number" ? "special" : "place");
      const c = unitOf(view, carrier);
      if (c && c.kind !== "ship" && typeof a.to !== "number") out.push(...spots(cellsOf(c), to, "place"));
      return out;
    }
    case "transfer":
      return { from: "c:" + a.item, to: "c:" + a.to, kind: "special" };
    case "build":
      return spots(hexes(view, a.wl), [keyOf(a.to)], "place");
    case "fire":
      return spots([...hexes(view, a.a), ...hexes(view, a.b)], [keyOf(a.target)], "capture");
    case "assault":
      return spots(hexes(view, a.mover), [keyOf(a.path[a.path.length - 1])], "capture");
    case "capture":
      return spots([...hexes(view, a.a), ...hexes(view, a.b)], hexes(view, a.target), "capture");
    case "capture_ship":
      return spots(hexes(view, a.destroyer), hexes(view, a.ship), "capture");
    case "repair":
      return spots(hexes(view, a.ship), [keyOf(a.pod)], "special");
    case "land":
      return { from: null, to: keyOf(a.dome), kind: "place" };
    default:
      return null; // deploy, decide_departure, take_off, end_turn, resign: composer controls
  }
}

const SPOTS = new WeakMap();
function spotsOf(legal, view) {
  let s = SPOTS.get(legal);
  if (!s || s.view !== view) {
    const all = legal.flatMap((a) => { const p = places(a, view); return Array.isArray(p) ? p : p ? [p] : []; });
    s = { view, sources: new Set(all.map((p) => p.from).filter((f) => f !== null)), direct: new Set(all.filter((p) => p.from === null).map((p) => p.to)) };
    SPOTS.set(legal, s);
  }
  return s;
}

/** After a step the unit stays selected (where it now stands), so a path is walked tap by tap. */
function follow(a, view) {
  const u = unitOf(view, a.unit ?? a.item ?? a.wl);
  if (a.type === "move" || a.type === "retreat") {
    const to = a.type === "move" ? a.path[a.path.length - 1] : a.to;
    return u && u.kind === "barge" ? keyOf(to[1]) : keyOf(to);
  }
  if ((a.type === "exit" || a.type === "unload") && Array.isArray(a.to)) return dest(a.to)[0];
  if (a.type === "build") return keyOf(unitOf(view, a.wl).cells[0]);
  return null;
}

/** What a refused tap meant, so that the server says why it is refused (with the rule's link). */
function guess(from, to, view) {
  if (!from || to.includes(":") && !to.startsWith("c:")) return null;
  const { occ, byId } = index(view);
  if (from.startsWith("c:")) {
    const item = byId.get(Number(from.slice(2)));
    if (!item || to.startsWith("c:")) return null;
    const holder = byId.get(item.carrier);
    const target = occ.get(to);
    const where = target && target.kind !== "ore" ? target.id : to.split(",").map(Number);
    if (holder && holder.kind === "ship") return { type: "exit", unit: item.id, ship: holder.id, to: where };
    return holder ? { type: "unload", carrier: holder.id, item: item.id, to: where } : null;
  }
  const u = occ.get(from);
  if (!u || to.startsWith("c:")) return null;
  const cell = to.split(",").map(Number);
  const there = occ.get(to);
  if (!there) {
    const path = u.kind === "barge" ? [[u.cells[0], cell]] : [cell];
    return { type: "move", unit: u.id, path };
  }
  if (there.kind === "ship" && mine(view, there)) return { type: "enter", unit: u.id, ship: there.id };
  if (there.kind === "ore" || (mine(view, there) && there.kind !== "ship")) return { type: "load", carrier: u.id, item: there.id };
  if (["tank", "gt", "mb", "turret"].includes(u.kind)) {
    const partner = view.units.find((o) => o.id !== u.id && mine(view, o) && ["tank", "gt", "mb", "turret"].includes(o.kind) && o.cells.length && o.carrier === undefined);
    if (there.kind === "ship") return { type: "capture_ship", destroyer: u.id, ship: there.id };
    if (partner) return { type: "fire", a: Math.min(u.id, partner.id), b: Math.max(u.id, partner.id), target: cell };
  }
  return null;
}

/** Taps the picker does not handle: drafts of the landing and the deployment, and looking at any hex. */
function onPlace(place, api) {
  if (setupOnPlace(place, api)) return true;
  if (place.includes(":")) return false;
  const s = api.enabled ? spotsOf(api.legal, api.view) : null;
  if (api.selected !== null && api.selected !== undefined) return false; // a target, or a refusal to explain
  if (s && (s.sources.has(place) || s.direct.has(place))) return false;
  api.setUi({ inspect: api.ui.inspect === place ? null : place });
  return true;
}

function lastPlaces(entry, view) {
  const a = entry.action;
  if (!a) return [];
  const cells = (c) => (c === undefined || c === null ? [] : typeof c === "number" ? hexes(view, c) : dest(c));
  switch (a.type) {
    case "move": return a.path.flatMap((c) => dest(c));
    case "retreat": return dest(a.to);
    case "fire": return [keyOf(a.target), ...hexes(view, a.a), ...hexes(view, a.b)];
    case "assault": return [...a.path.flatMap((c) => dest(c)), ...a.shots.map((s) => keyOf(s.target))];
    case "capture": return [...hexes(view, a.target), ...hexes(view, a.a), ...hexes(view, a.b)];
    case "capture_ship": return hexes(view, a.ship);
    case "load": return [...hexes(view, a.carrier)];
    case "enter": return hexes(view, a.ship);
    case "unload": case "exit": return cells(a.to);
    case "build": return [keyOf(a.to)];
    case "repair": return [keyOf(a.pod)];
    case "land": return hexes(view, view.units.find((u) => u.kind === "ship" && u.colour === entry.seat)?.id);
    case "deploy": return (a.units || []).flatMap((e) => dest(e.at));
    default: return [];
  }
}

// ---------------------------------------------------------------------------------------------- composer
function PlayComposer(props) {
  const { view, legal, legalText, play, t } = props;
  const end = legal.findIndex((a) => a.type === "end_turn");
  const offs = legal.map((a, i) => [a, i]).filter(([a]) => a.type === "take_off");
  const me = view.players[view.viewer] || { pool: 0 };
  const keep = Math.min(10, 5 * Math.floor(me.pool / 5));
  const retreat = legal.some((a) => a.type === "retreat");
  return html`<div data-testid="fm-play">
    <p class="fm-ap" data-testid="fm-ap">${t("fm.ap_to_spend", { n: me.pool })}</p>
    ${retreat ? html`<p class="help">${t("fm.retreat_note")}</p>` : null}
    ${offs.length ? html`<div class="row-buttons">${offs.map(([a, i]) => html`<${Button} icon="check" label=${legalText[i]} testid=${"fm-take-off-" + a.ship}
      onClick=${() => play(a)} />`)}</div>` : null}
    <div class="row-buttons">
      <${Button} kind="primary" label=${t("fm.end_turn")} testid="fm-end-turn" disabled=${end < 0} onClick=${() => play(legal[end])} />
      <span class="muted small">${end < 0 ? t("fm.cannot_end") : t("fm.end_turn_keeps", { n: keep })}</span>
    </div>
  </div>`;
}

function Composer(props) {
  const { view, t } = props;
  const setup = SetupComposer(props);
  const playing = props.interactive && view.phase === "play" && props.legal.length;
  if (!setup && !playing) return null;
  return html`<section class="card composer fm-composer" aria-labelledby="fm-composer-h" data-testid="composer">
    <h2 id="fm-composer-h">${t("fm.your_move")}</h2>${setup || html`<${PlayComposer} ...${props} />`}</section>`;
}

// ------------------------------------------------------------------------------------------ status texts
function phase(view, t) {
  return t("fm.phase." + view.phase) + " · " + t("fm.tide." + view.tide);
}

function turn(view, t) {
  const base = t("fm.turn_of", { n: Math.min(view.turn, lastTurn(view)), of: lastTurn(view) });
  const p = view.phase === "play" && view.active !== null ? view.players[view.active] : null;
  return p ? base + " · " + t("fm.ap_n", { n: p.pool }) : base;
}

function hint({ view, legal, ui, hl, t }) {
  if (legal.some((a) => a.type === "land")) return t(ui.land ? "fm.hint_land_confirm" : "fm.hint_land");
  if (legal.some((a) => a.type === "deploy")) return t(ui.pick !== null && ui.pick !== undefined ? "fm.hint_deploy_drop" : "fm.hint_deploy");
  if (legal.some((a) => a.type === "decide_departure")) return t("fm.hint_depart");
  if (hl && hl.selected) return t("fm.hint_target");
  if (legal.some((a) => a.type === "retreat")) return t("fm.hint_retreat");
  return t("fm.hint_select");
}

function seatColour(view, seat) { return COLOURS[seat % 4]; }

/** A refused tap in a few plain words (the frame keeps the rule's link for the whole rule), not the rule's paragraph. */
const REFUSALS = ["FM-1.1", "FM-2.2", "FM-4.1", "FM-4.3", "FM-9.2", "FM-10.1", "FM-10.2", "FM-10.3", "FM-10.4", "FM-11.1", "FM-11.2",
  "FM-11.3", "FM-12.2", "FM-12.3", "FM-15.3", "FM-15.5", "FM-16.1", "FM-16.2", "FM-16.4", "FM-17.1"];
function refusal(res, t) {
  const rule = String(res.rule || "");
  if (REFUSALS.includes(rule)) return t("fm.refused." + rule);
  const text = String(res.explain || res.message || "");
  const cut = text.search(/[:;(]/); // the first clause of the rule's sentence
  return cut > 20 ? text.slice(0, cut).trim() + "." : text;
}

/** The board opens zoomed (the kit's focus), on a desktop too (the whole planet fitted makes units of 14 px): once
 *  landed, centred on the seat's own units with hexes about 46 px wide (a unit about 30 px); before the landing on
 *  the middle of the map, hexes about 40 px wide (phones only). The mini-map in the status moves around. */
function focus(view, seat) {
  if (seat === null || seat === undefined) return null;
  const ship = view.units.find((u) => u.kind === "ship" && u.colour === seat && u.cells.length);
  if (ship) {
    const own = view.units.filter((u) => u.cells && u.cells.length && u.carrier === undefined && mine(view, u));
    const cx = own.reduce((n, u) => n + u.cells[0][0], 0) / own.length, cy = own.reduce((n, u) => n + u.cells[0][1], 0) / own.length;
    const near = own.reduce((b, u) => (Math.hypot(u.cells[0][0] - cx, u.cells[0][1] - cy) < Math.hypot(b.cells[0][0] - cx, b.cells[0][1] - cy) ? u : b), ship);
    return { place: keyOf(near.cells[0]), size: 46, key: "ship", always: true };
  }
  if (view.phase !== "land") return null;
  let x = Math.floor(view.width / 2), y = Math.floor(view.height / 2);
  while (view.terrain[y][x] === "?" && x > 0) x -= 1;
  return { place: x + "," + y, size: 40, key: "land" };
}

function ending(outcome, view, t) {
  const d = (outcome.details && outcome.details.departed) || [];
  if (!d.length) return t("fm.ending_none");
  return d.map((x) => t("fm.departed_short", { colour: t("fm.colour." + (x.colour % 4)), score: x.score, turn: x.turn })).join(" · ");
}

export default {
  drag: true, // a unit may also be dragged onto its target (onto the ship to enter it, onto ore to load it...)
  Board, Tray, Composer, Status, Results, Legend,
  places, follow, guess, onPlace, lastPlaces, phase, turn, hint, seatColour, ending, focus, refusal,
};
