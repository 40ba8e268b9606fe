// Cosmic Arena renderer (game id "arena"; rules docs/rules/arena.md, ids AR-*), on the renderer interface of
// docs/architecture.md ("Web client").
//
// View JSON (game.view(state, seat)):
//   {game:"arena", board:"6x4"|"5x5", width, height, phase:"place"|"play"|"over", setup, home,
//    seat_colours:{"0":"red","1":"blue"}, you:"red"|"blue"|null, to_move:"red"|"blue"|null,
//    ships:[{colour, code, cell}], reserve:{red:[codes], blue:[codes]}, unplaced:{red:[...], blue:[...]},
//    home_cells:{red:[cells], blue:[cells]}, quiet, quiet_limit, last_capturer, offer, plies,
//    layout_label? (house default layout), placement?:{committed:{seat:bool}, own:{cell:code}|null},
//    position? (arena position notation), result?:{winner, kind, points, plies}}
// Actions (docs/rules/arena.md, "Actions, JSON and notation"): move {from, to, bonus}, permute {pair}, rotate {cls, dir} (offer_end: true attaches an offer
// to end the game, AR-10.4), place {ship, cell} (alternate placement, AR-2.7), layout {cells} (simultaneous
// placement: any full layout is legal; the list holds two suggestions), accept_end, resign (core move).
//
// On the board: a move is picked by selecting a ship, then a highlighted cell (several actions on one cell, a move
// with or without a bonus teleport (AR-8.6), open the frame's menu); alternate placement by picking a ship in the
// tray below the board, then a home cell; simultaneous placement is drafted the same way and sealed in the
// composer; teleports (AR-6, AR-7), the offer to end (AR-10.4) and its acceptance are composer controls.
import { html, placeAttrs, TargetMark, at, Button } from "/static/app/kit.js";

const CELL = 100;
const PAD = 30;
const CODES = ["111", "112", "121", "122", "211", "212", "221", "222"];
const COLOURS = { red: "#d9463e", blue: "#3f7fd6" };
const PAIRS = { P111: ["111", "222"], P112: ["112", "221"], P121: ["121", "212"], P122: ["122", "211"] };
const ROTATIONS = { F: ["112", "121", "211"], D: ["122", "221", "212"] };

const cellName = (f, r) => String.fromCharCode(97 + f) + (r + 1);
const fileOf = (c) => c.charCodeAt(0) - 97;
const rankOf = (c) => parseInt(c.slice(1), 10) - 1;
const other = (c) => (c === "red" ? "blue" : "red");

function geometry(view) {
  const W = view.width, H = view.height;
  const flip = view.you === "blue"; // each player sees its own side at the bottom
  const pos = (cell) => {
    const f = fileOf(cell), r = rankOf(cell);
    const x = flip ? W - 1 - f : f, y = flip ? r : H - 1 - r;
    return [PAD + x * CELL, y * CELL];
  };
  return { W, H, flip, pos, width: PAD + W * CELL, height: H * CELL + PAD };
}

function colourName(t, c) { return c ? t("arena.colour." + c) : "–"; }
function seatOfColour(view, colour) {
  const e = Object.entries(view.seat_colours || {}).find(([, c]) => c === colour);
  return e ? Number(e[0]) : null;
}

/** Cells of the ships a teleport moves (after it: the mover's colour). */
function teleportShips(a) {
  if (!a) return [];
  if (a.type === "permute") return PAIRS[a.pair] || [];
  if (a.type === "rotate") return ROTATIONS[a.cls] || [];
  return [];
}
/** Where each ship of a teleport goes (AR-6: a pair swaps; AR-7.3: each ship takes the slot of its successor (+) or
 *  predecessor (−) in the rotation cycle 112 → 121 → 211 or 122 → 221 → 212): [[from cell, to cell]] on the board. */
const SUCC = { "112": "121", "121": "211", "211": "112", "122": "221", "221": "212", "212": "122" };
const PRED = Object.fromEntries(Object.entries(SUCC).map(([a, b]) => [b, a]));
function teleportArrows(view, colour, a) {
  const cell = (code) => (view.ships.find((x) => x.colour === colour && x.code === code) || {}).cell;
  const out = [];
  if (a.type === "permute") {
    const [x, y] = PAIRS[a.pair] || [];
    if (cell(x) && cell(y)) out.push([cell(x), cell(y)], [cell(y), cell(x)]);
  } else if (a.type === "rotate") {
    for (const code of ROTATIONS[a.cls] || []) {
      const to = cell((a.dir === "+" ? SUCC : PRED)[code]);
      if (cell(code) && to) out.push([cell(code), to]);
    }
  }
  return out;
}
/** A teleport in symbols: "111 ⇄ 222", "112 → 121 → 211 ↻". */
function teleportLabel(a) {
  if (a.type === "permute") return (PAIRS[a.pair] || []).join(" ⇄ ");
  const cyc = ROTATIONS[a.cls] || [];
  const order = a.dir === "+" ? [cyc[0], SUCC[cyc[0]], SUCC[SUCC[cyc[0]]]] : [cyc[0], PRED[cyc[0]], PRED[PRED[cyc[0]]]];
  return order.join(" → ") + " ↻";
}
const sameTeleport = (a, b) => !!a && !!b && a.type === b.type && a.pair === b.pair && a.cls === b.cls && a.dir === b.dir;

function shipCells(view, colour, codes) {
  return view.ships.filter((s) => s.colour === colour && codes.includes(s.code)).map((s) => s.cell);
}

// ------------------------------------------------------------------------------------------------ pieces
function Ship({ code, colour, x, y, size = CELL, ghost, extra = "", place, label }) {
  const s = size - 18;
  const corvette = code === "111";
  return html`<g class=${"ship " + extra + (ghost ? " ghost" : "")} style=${at(x, y)} data-place=${place} aria-label=${label}>
    <rect x="9" y="9" width=${s} height=${s} rx=${corvette ? s / 2 : 14} fill=${COLOURS[colour]} class="ship-body" />
    ${corvette ? html`<circle cx=${size / 2} cy=${size / 2} r=${s / 2 - 5} fill="none" stroke="#f5d36b" stroke-width="3" />` : null}
    <text x=${size / 2} y=${size / 2 + 6} text-anchor="middle" class="ship-code">${code}</text>
    <g class="ship-digits" transform=${`translate(${size / 2 - 24}, ${size / 2 + 16})`}>
      ${[0, 1, 2].map((k) => html`<rect x=${k * 18} y="0" width=${code[k] === "2" ? 12 : 6} height="5" rx="2" fill="#fff" opacity="0.8" />`)}
    </g>
  </g>`;
}

// ------------------------------------------------------------------------------------------------- board
function Board(props) {
  const { view, ui, t } = props;
  const g = geometry(view);
  const sealing = view.placement && !view.placement.own && props.legal.some((a) => a.type === "layout");
  const draft = sealing ? (ui.draft || {}) : {};
  let hl = props.hl;
  if (sealing) { // drafting a sealed layout: home cells are targets for the picked ship, drafted ships can be picked up
    const mine = view.home_cells[view.you] || [];
    hl = { ...hl, interactive: true, sources: new Set(Object.keys(draft)),
      targets: ui.pick ? new Map(mine.map((c) => [c, { kind: "place" }])) : new Map() };
  }
  const home = new Set(view.phase === "place" ? [...view.home_cells.red, ...view.home_cells.blue] : []);
  const backRows = view.phase === "play" && view.you ? new Set(view.home_cells[other(view.you)].filter((c) => rankOf(c) === (view.you === "red" ? view.height - 1 : 0))) : new Set();
  const shipAt = {};
  for (const s of view.ships) shipAt[s.cell] = s;
  const cells = [];
  const marks = [];
  for (let r = 0; r < g.H; r++) {
    for (let f = 0; f < g.W; f++) {
      const c = cellName(f, r);
      const [x, y] = g.pos(c);
      const ship = shipAt[c];
      const label = ship ? t("arena.cell_ship", { cell: c, colour: colourName(t, ship.colour), code: ship.code }) : c;
      const extra = ((f + r) % 2 ? "dark" : "light") + (home.has(c) ? " home" : "") + (backRows.has(c) ? " bonus-row" : "");
      cells.push(html`<g ...${placeAttrs(hl, c, label, "cell " + extra)}><rect x=${x} y=${y} width=${CELL} height=${CELL} /></g>`);
      const tg = hl.targets.get(c);
      if (tg) marks.push(html`<${TargetMark} x=${x + CELL / 2} y=${y + CELL / 2} r=${CELL / 2 - 8} kind=${tg.kind} />`);
    }
  }
  const ships = view.ships.map((s) => {
    const [x, y] = g.pos(s.cell);
    const cls = (hl.selected === s.cell ? "selected" : "") + (hl.sources.has(s.cell) ? " movable" : "") + (hl.hover.has(s.cell) ? " hover" : "");
    return html`<${Ship} key=${s.colour + s.code} code=${s.code} colour=${s.colour} x=${x} y=${y} place=${s.cell} extra=${cls} />`;
  });
  const drafted = Object.entries(draft).map(([c, code]) => {
    const [x, y] = g.pos(c);
    return html`<${Ship} key=${"draft" + code} code=${code} colour=${view.you} x=${x} y=${y} place=${c} ghost extra="draft" />`;
  });
  const own = view.placement && view.placement.own ? Object.entries(view.placement.own).map(([c, code]) => {
    const [x, y] = g.pos(c);
    return html`<${Ship} key=${"own" + code} code=${code} colour=${view.you} x=${x} y=${y} place=${c} ghost extra="sealed" />`;
  }) : [];
  const files = [];
  for (let i = 0; i < g.W; i++) {
    const f = g.flip ? g.W - 1 - i : i;
    files.push(html`<text x=${PAD + i * CELL + CELL / 2} y=${g.H * CELL + 22} class="coord">${String.fromCharCode(97 + f)}</text>`);
  }
  const ranks = [];
  for (let j = 0; j < g.H; j++) {
    const r = g.flip ? j : g.H - 1 - j;
    ranks.push(html`<text x=${PAD / 2} y=${j * CELL + CELL / 2 + 6} class="coord">${r + 1}</text>`);
  }
  const arrows = ui.teleport && view.you ? teleportArrows(view, view.you, ui.teleport).map(([from, to], k) => {
    const [x1, y1] = g.pos(from), [x2, y2] = g.pos(to);
    const ax = x1 + CELL / 2, ay = y1 + CELL / 2, bx = x2 + CELL / 2, by = y2 + CELL / 2;
    const mx = (ax + bx) / 2 - (by - ay) * 0.18, my = (ay + by) / 2 + (bx - ax) * 0.18; // bent, so that a swap shows two arrows
    return html`<path key=${k} class="arena-arrow" d=${`M${ax} ${ay} Q${mx} ${my} ${bx} ${by}`} marker-end="url(#arena-arrowhead)" />`;
  }) : [];
  return html`<svg class="arena-board" viewBox=${`0 0 ${g.width} ${g.height}`} role="group" aria-label=${t("arena.board")}
      data-testid="arena-board" data-flip=${g.flip ? "yes" : "no"}>
    <defs><marker id="arena-arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
      <path d="M0 0 L10 5 L0 10 z" class="arena-arrowhead" /></marker></defs>
    <g class="cells">${cells}</g>${files}${ranks}
    <g class="ships">${ships}${own}${drafted}</g>
    <g class="marks">${marks}</g>
    <g class="arrows" pointer-events="none" data-testid="arena-arrows">${arrows}</g>
  </svg>`;
}

// -------------------------------------------------------------------------------------------------- tray
/** Ships waiting to be placed (AR-2.7): yours can be picked; the other side's are shown for information. */
function Tray(props) {
  const { view, hl, ui, t } = props;
  if (view.phase !== "place") return html`<${TeleportPad} ...${props} /><${Reserves} view=${view} t=${t} />`;
  const sealing = view.placement && !view.placement.own && props.legal.some((a) => a.type === "layout");
  const draft = sealing ? Object.values(ui.draft || {}) : [];
  const side = (colour) => {
    const mine = colour === view.you;
    const codes = (view.unplaced[colour] || []).filter((c) => !(mine && draft.includes(c)));
    if (mine && view.placement && view.placement.own) return null;
    return html`<div class="arena-tray-side" data-colour=${colour}>
      <span class="tray-label">${mine ? t("arena.your_ships_to_place") : t("arena.ships_to_place", { colour: colourName(t, colour) })}</span>
      <div class="tray-ships">${codes.map((code) => {
        const id = "tray:" + code;
        const picked = sealing && ui.pick === code;
        const live = mine && (sealing || hl.sources.has(id));
        const h2 = live && sealing ? { ...hl, sources: new Set([id]), selected: picked ? id : null, interactive: true } : hl;
        const a = mine ? placeAttrs(h2, id, t("arena.ship_code", { colour: colourName(t, colour), code })) : {};
        return html`<svg viewBox="0 0 100 100" class=${"tray-ship " + (a.class || "")} data-place=${a["data-place"] || null}
          tabindex=${a.tabindex} role=${a.role || "img"} aria-label=${a["aria-label"] || t("arena.ship_code", { colour: colourName(t, colour), code })}
          aria-pressed=${a["aria-pressed"]} data-tray=${code} data-colour=${colour}><${Ship} code=${code} colour=${colour} x=${0} y=${0} /></svg>`;
      })}${codes.length ? null : html`<span class="muted small">${t("arena.all_placed")}</span>`}</div></div>`;
  };
  return html`<div class="arena-tray">${side(view.you || "red")}${side(other(view.you || "red"))}</div>`;
}

/** Under the board, the turn's teleports (AR-6, AR-7): tap one to see on the board the ships it moves (arrows), tap it
 *  again (or "Teleport") to do it; the ships moved glow on the board while it is looked at. */
function TeleportPad(props) {
  const { view, legal, ui, setUi, play, t, interactive, legalText } = props;
  const tps = legal.map((a, i) => [a, i]).filter(([a]) => a.type === "permute" || a.type === "rotate");
  if (!interactive || !tps.length) return null;
  const look = (a) => setUi({ teleport: a, hover: shipCells(view, view.you, teleportShips(a)) });
  const go = (a) => { setUi({ teleport: null, hover: [] }); play(finalize(a, view, ui)); };
  return html`<div class="arena-teleport-pad" role="group" aria-labelledby="arena-tp-h" data-testid="arena-teleports">
    <span class="tray-label" id="arena-tp-h">${t("arena.teleports")}</span>
    <div class="arena-tp-tiles">${tps.map(([a, i]) => {
      const on = sameTeleport(ui.teleport, a);
      return html`<button type="button" class=${"arena-tp" + (on ? " on" : "")} aria-pressed=${on ? "true" : "false"} title=${legalText[i]}
        data-testid=${"teleport-" + (a.type === "permute" ? a.pair : "R" + a.cls + a.dir)} data-arena-action=${JSON.stringify(a)}
        onClick=${() => (on ? go(a) : look(a))}><span class="arena-tp-kind">${t(a.type === "permute" ? "arena.tp_swap" : "arena.tp_rotate")}</span>
        <span class="arena-tp-codes">${teleportLabel(a)}</span></button>`;
    })}</div>
    ${ui.teleport && tps.some(([a]) => sameTeleport(ui.teleport, a)) ? html`<div class="row-buttons"><${Button} kind="primary" label=${t("arena.tp_go")}
      testid="arena-teleport-go" onClick=${() => go(ui.teleport)} /><${Button} label=${t("ui.cancel")} testid="arena-teleport-cancel"
      onClick=${() => setUi({ teleport: null, hover: [] })} /></div>` : html`<p class="help">${t("arena.tp_help")}</p>`}
  </div>`;
}

/** Under the board in play: the banished ships of both sides and the quiet-move count, always in sight. */
function Reserves({ view, t }) {
  const side = (colour) => html`<div class="arena-reserve" data-reserve-tray=${colour}>
    <span class="tray-label">${t("arena.banished_of", { colour: colourName(t, colour) })}</span>
    <span class="mini-ships">${view.reserve[colour].length ? view.reserve[colour].map((code) => html`<svg viewBox="0 0 100 100"
      class="mini-ship" role="img" aria-label=${t("arena.ship_code", { colour: colourName(t, colour), code })}><${Ship} code=${code}
      colour=${colour} x=${0} y=${0} /></svg>`) : html`<span class="muted small">${t("arena.none")}</span>`}</span></div>`;
  return html`<div class="arena-tray arena-reserves">${side(view.you || "red")}${side(other(view.you || "red"))}
    ${view.phase === "play" ? html`<div class="arena-reserve"><span class="tray-label">${t("arena.quiet_short")}</span>
      <span class="quiet-count" data-testid="arena-quiet-count">${view.quiet} / ${view.quiet_limit}</span></div>` : null}</div>`;
}

// ---------------------------------------------------------------------------------------------- composer
function Composer(props) {
  const { view, legal, legalText, ui, setUi, play, t, interactive } = props;
  if (!interactive && !(view.placement && props.legal.length)) return null;
  const idx = (pred) => legal.map((a, i) => [a, i]).filter(([a]) => pred(a));
  const parts = [];
  const accept = idx((a) => a.type === "accept_end");
  if (accept.length) {
    const winner = view.last_capturer || "blue";
    parts.push(html`<div class="banner offer" data-testid="arena-offer">
      <p>${t("arena.offer_received", { colour: colourName(t, view.offer), winner: colourName(t, winner) })}</p>
      <div class="row-buttons"><${Button} kind="primary" label=${t("arena.accept_offer")} testid="arena-accept"
        onClick=${() => play(accept[0][0])} /><span class="muted small">${t("arena.or_play_on")}</span></div></div>`);
  }
  if (view.phase === "play" && legal.some((a) => a.type === "move" || a.type === "permute" || a.type === "rotate")) {
    parts.push(html`<label class="check" data-testid="arena-offer-toggle"><input type="checkbox" checked=${!!ui.offer}
      onChange=${(e) => setUi({ offer: e.target.checked })} /> ${t("arena.offer_with_move", { winner: colourName(t, view.last_capturer || "blue") })}</label>`);
  }
  const layouts = idx((a) => a.type === "layout");
  if (layouts.length) {
    const draft = ui.draft || {};
    const n = Object.keys(draft).length;
    parts.push(html`<div class="arena-layout" data-testid="arena-layout">
      <h3>${t("arena.sealed_layout")}</h3><p class="help">${t("arena.sealed_layout_help")}</p>
      <p data-testid="arena-draft-count">${t("arena.placed_n", { n, of: 8 })}</p>
      <div class="row-buttons">
        <${Button} kind="primary" icon="check" label=${t("arena.seal")} disabled=${n !== 8} testid="arena-seal"
          onClick=${() => { const cells = { ...draft }; setUi({ draft: {}, pick: null }); play({ type: "layout", cells }); }} />
        <${Button} label=${t("arena.clear")} disabled=${n === 0} onClick=${() => setUi({ draft: {}, pick: null })} testid="arena-clear" />
      </div>
      <div class="row-buttons">${layouts.map(([a, i], k) => html`<${Button} label=${t(k === 0 ? "arena.use_house_layout" : "arena.use_mirror_layout")}
        onClick=${() => setUi({ draft: { ...a.cells }, pick: null })} testid=${"arena-suggestion-" + k} />`)}</div>
    </div>`);
  }
  if (!parts.length) return null;
  return html`<section class="card composer" aria-labelledby="arena-composer-h" data-testid="composer">
    <h2 id="arena-composer-h">${t("arena.your_move")}</h2>${parts}</section>`;
}

// ------------------------------------------------------------------------------------------------ status
function Status({ view, t, seatName }) {
  const you = view.you;
  const tokens = (colour, codes) => html`<span class="mini-ships">${codes.length ? codes.map((code) => html`<svg viewBox="0 0 100 100"
    class="mini-ship" role="img" aria-label=${t("arena.ship_code", { colour: colourName(t, colour), code })}><${Ship} code=${code} colour=${colour} x=${0} y=${0} /></svg>`)
    : html`<span class="muted">${t("arena.none")}</span>`}</span>`;
  const quietPct = Math.min(100, Math.round((100 * view.quiet) / view.quiet_limit));
  const side = (colour) => {
    const seat = seatOfColour(view, colour);
    return html`<div class="arena-side" data-reserve=${colour}>
      <div><span class="seat-dot" style=${{ background: COLOURS[colour] }} aria-hidden="true"></span>
        <b>${colourName(t, colour)}</b> ${seat !== null ? html`<span class="muted">${seatName(seat)}</span>` : null}</div>
      <div class="small">${t("arena.banished")}: ${tokens(colour, view.reserve[colour])}</div></div>`;
  };
  return html`<section class="card arena-status" data-testid="arena-status" aria-labelledby="arena-status-h">
    <h2 id="arena-status-h">${t("arena.status")}</h2>
    ${you ? html`<p data-testid="arena-you">${t("arena.you_play", { colour: colourName(t, you) })}</p>` : null}
    ${view.result ? html`<p class="arena-result" data-testid="arena-result">${t("arena.result", { colour: colourName(t, view.result.winner),
      points: view.result.points, how: t("arena.kind." + view.result.kind) })}</p>`
      : view.phase === "play" ? html`<div class="quiet" data-testid="arena-quiet">
        <div>${t("arena.quiet", { n: view.quiet, of: view.quiet_limit })}</div>
        <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax=${view.quiet_limit} aria-valuenow=${view.quiet}
          aria-label=${t("arena.quiet_short")}><span style=${{ width: quietPct + "%" }}></span></div>
        <div class="help">${t("arena.quiet_help", { colour: colourName(t, view.last_capturer || "blue"), n: view.quiet_limit })}</div></div>`
      : html`<p>${view.placement ? t("arena.both_seal") : t("arena.placing_turn", { colour: colourName(t, view.to_move) })}</p>`}
    ${view.offer && !view.result ? html`<p class="tag">${t("arena.offer_pending", { colour: colourName(t, view.offer) })}</p>` : null}
    ${side(you || "red")}${side(other(you || "red"))}
    ${view.layout_label ? html`<p class="help">${t("arena.house_layout")}</p>` : null}
  </section>`;
}

// ------------------------------------------------------------------------------------------------ legend
function Legend({ t }) {
  return html`<div class="arena-legend" data-testid="arena-legend">
    <div class="legend-row"><svg viewBox="0 0 100 100" class="mini-ship" aria-hidden="true"><${Ship} code="212" colour="red" x=${0} y=${0} /></svg>
      <p>${t("arena.legend_code")}</p></div>
    <ul class="legend-list">
      <li><b>1</b>/<b>2</b> ${t("arena.legend_sails")}</li>
      <li><b>1</b>/<b>2</b> ${t("arena.legend_cannons")}</li>
      <li><b>1</b>/<b>2</b> ${t("arena.legend_shields")}</li>
    </ul>
    <div class="legend-row"><svg viewBox="0 0 100 100" class="mini-ship" aria-hidden="true"><${Ship} code="111" colour="blue" x=${0} y=${0} /></svg>
      <p>${t("arena.legend_corvette")}</p></div>
    <ul class="legend-list">
      <li>${t("arena.legend_classes")}</li>
      <li><span class="legend-dot"></span> ${t("arena.legend_target")}</li>
      <li><span class="legend-ring"></span> ${t("arena.legend_capture")}</li>
      <li><span class="legend-last"></span> ${t("arena.legend_last")}</li>
      <li><span class="legend-bonus"></span> ${t("arena.legend_bonus_row")}</li>
    </ul>
  </div>`;
}

// ---------------------------------------------------------------------------------------------- behaviour
function places(a) {
  if (a.type === "move") return { from: a.from, to: a.to, kind: "move" };
  if (a.type === "place") return { from: "tray:" + a.ship, to: a.cell, kind: "place" };
  return null;
}

/** Captures show as rings: a move onto an enemy ship. */
function placesWithCaptures(a, view) {
  const p = places(a);
  if (p && a.type === "move" && view.ships.some((s) => s.cell === a.to && s.colour !== view.you)) p.kind = "capture";
  return p;
}

function finalize(a, view, ui) {
  if (ui && ui.offer && (a.type === "move" || a.type === "permute" || a.type === "rotate")) return { ...a, offer_end: true };
  return a;
}

/** What a tap would have meant, to ask the server why it is refused (explained with the rule's link). */
function guess(from, to) {
  if (from === null || from === undefined) return null;
  if (from.startsWith("tray:")) return to.startsWith("tray:") ? null : { type: "place", ship: from.slice(5), cell: to };
  if (to.startsWith("tray:")) return null;
  return { type: "move", from, to, bonus: null };
}

/** Simultaneous placement (AR-2.7): taps draft a layout locally; the composer seals it. */
function onPlace(place, { view, legal, ui, setUi, enabled }) {
  const sealing = enabled && view.placement && !view.placement.own && legal.some((a) => a.type === "layout");
  if (!sealing) return false;
  const draft = { ...(ui.draft || {}) };
  if (place.startsWith("tray:")) {
    setUi({ pick: place.slice(5) });
    return true;
  }
  const home = view.home_cells[view.you] || [];
  if (!home.includes(place)) return false;
  if (draft[place] && !ui.pick) { // pick a drafted ship up again
    setUi({ pick: draft[place], draft: Object.fromEntries(Object.entries(draft).filter(([c]) => c !== place)) });
    return true;
  }
  if (!ui.pick) return false;
  for (const [c, code] of Object.entries(draft)) if (code === ui.pick) delete draft[c];
  const bumped = draft[place];
  draft[place] = ui.pick;
  const left = CODES.filter((c) => !Object.values(draft).includes(c));
  setUi({ draft, pick: bumped || (left.length ? left[0] : null) });
  return true;
}

function lastPlaces(entry, view) {
  const a = entry.action;
  if (!a) return [];
  const mover = view.seat_colours[String(entry.seat)];
  if (a.type === "move") return [a.from, a.to, ...shipCells(view, mover, teleportShips(a.bonus))];
  if (a.type === "place") return [a.cell];
  return shipCells(view, mover, teleportShips(a));
}

function phase(view, t) { return t("arena.phase." + view.phase); }
function turn(view, t) {
  if (view.phase === "place") return t("arena.placement_n", { n: 16 - view.unplaced.red.length - view.unplaced.blue.length });
  return t("arena.turn_n", { n: Math.floor(view.plies / 2) + 1 });
}
function hint({ view, legal, ui, t }) {
  if (legal.some((a) => a.type === "layout")) return ui.pick ? t("arena.hint_drop", { code: ui.pick }) : t("arena.hint_draft");
  if (legal.some((a) => a.type === "place")) return t("arena.hint_place");
  if (legal.some((a) => a.type === "accept_end")) return t("arena.hint_offer");
  return t("arena.hint_move");
}
function seatColour(view, seat) { return COLOURS[view.seat_colours[String(seat)]]; }
function ending(outcome, view, t) {
  const d = outcome.details || {};
  return t("arena.ending", { colour: colourName(t, d.winner_colour), points: d.points || "", how: t("arena.kind." + outcome.kind) });
}

export default {
  Board, Tray, Composer, Status, Legend,
  places: placesWithCaptures, finalize, guess, onPlace, lastPlaces, phase, turn, hint, seatColour, ending,
};
