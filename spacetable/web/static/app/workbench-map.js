// The Full Metal map editor (/workbench/map, issue 25; docs/workbench-map.md). A map is its layers {width, height,
// terrain, ore, zones} (rows in the .fmp alphabet); the server starts, checks, spreads ore, reads and writes .fmp
// (/api/workbench/fullmetal/map/*, spacetable/games/fullmetal/mapeditor.py), so the rules are checked in one place. Painting:
// drag with a mouse, a pen or a finger; or move the cursor with the arrow keys and paint with Space. Every problem
// names its rule and links to it in the players' guide. "Play" starts a match on the map (map=custom, map_content);
// "Save" keeps it as a named set of the workbench (POST /api/workbench/sets, content of the kind fullmetal/maps).
import { html, useEffect, useMemo, useRef, useState } from "./lib.js";
import { api, rememberSeat, seatLink } from "./api.js";
import { accountApi, isSignedIn, useAccount } from "./account.js";
import { t } from "./i18n.js";
import { ruleHref } from "./rules.js";
import { Button, notify, notifyError } from "./ui.js";
import { centre, hexPoints, neighbours, R, MARGIN } from "/static/games/fullmetal-hex.js";
import { fillOf, HexSwatch, Patterns } from "/static/games/fullmetal-board.js";

const S3 = Math.sqrt(3);
/** Brushes: the five terrains of FM-2.1, off-map (FM-1.1), an ore and no ore; keys 1-8 choose them. */
const BRUSHES = [
  { id: "sea", ch: "." }, { id: "reef", ch: "*" }, { id: "swamp", ch: "%" }, { id: "plain", ch: "$" },
  { id: "mountain", ch: "#" }, { id: "offmap", ch: "?" }, { id: "ore", ore: "2" }, { id: "noore", ore: "." },
];
const HISTORY = 50;

const setAt = (row, x, ch) => row.slice(0, x) + ch + row.slice(x + 1);

/** Paint `brush` on the cells within `radius` of (x, y): a new map (the old one is left as it was). */
export function paint(map, x, y, brush, radius) {
  let cells = [[x, y]];
  if (radius > 0) cells = cells.concat(neighbours(x, y));
  cells = cells.filter(([cx, cy]) => cx >= 0 && cy >= 0 && cx < map.width && cy < map.height);
  if (brush.ch) {
    const terrain = map.terrain.slice();
    for (const [cx, cy] of cells) terrain[cy] = setAt(terrain[cy], cx, brush.ch);
    let ore = map.ore;
    if (ore && (brush.ch === "?" || brush.ch === ".")) { // ore never stays on sea or off the map
      ore = ore.slice();
      for (const [cx, cy] of cells) ore[cy] = setAt(ore[cy], cx, ".");
    }
    return { ...map, terrain, ore };
  }
  if (!map.ore && brush.ore === ".") return map;
  const ore = (map.ore || map.terrain.map((r) => ".".repeat(r.length))).slice();
  for (const [cx, cy] of cells) {
    const tch = map.terrain[cy][cx];
    ore[cy] = setAt(ore[cy], cx, brush.ore === "2" && (tch === "." || tch === "?") ? "." : brush.ore);
  }
  return { ...map, ore };
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=windows-1252" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

/** The board: every cell of the rectangle (off-map ones faint, so they can be painted back), ore, problem marks
 *  and the keyboard cursor. One drag paints one stroke. */
function Board({ map, marks, cursor, onStroke, onPaint, onCursor, brushName }) {
  const svgRef = useRef(null);
  const drag = useRef(null);
  const cells = useMemo(() => {
    const out = [];
    for (let y = 0; y < map.height; y++) for (let x = 0; x < map.width; x++) {
      const [cx, cy] = centre(x, y);
      out.push({ x, y, cx, cy, pts: hexPoints(cx, cy, R) });
    }
    return out;
  }, [map.width, map.height]);
  const W = MARGIN.left + MARGIN.right + R * (1.5 * map.width + 0.5);
  const H = MARGIN.top + MARGIN.bottom + R * S3 * (map.height + 0.5);

  function cellAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const k = el && el.getAttribute && el.getAttribute("data-cell");
    if (!k) return null;
    const [x, y] = k.split(",").map(Number);
    return [x, y];
  }
  function down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const c = cellAt(e);
    if (!c) return;
    e.preventDefault();
    svgRef.current.setPointerCapture && svgRef.current.setPointerCapture(e.pointerId);
    drag.current = c.join(",");
    onStroke();
    onPaint(c[0], c[1]);
    onCursor(c);
  }
  function move(e) {
    if (!drag.current) return;
    const c = cellAt(e);
    if (!c || c.join(",") === drag.current) return;
    drag.current = c.join(",");
    onPaint(c[0], c[1]);
  }
  function up() { drag.current = null; }

  const marked = new Set(marks.map((c) => c.join(",")));
  return html`<svg ref=${svgRef} class="wbm-svg" viewBox=${`0 0 ${W.toFixed(0)} ${H.toFixed(0)}`} aria-hidden="true" focusable="false"
      data-testid="wbm-svg" data-brush=${brushName}
      onPointerDown=${down} onPointerMove=${move} onPointerUp=${up} onPointerCancel=${up} onLostPointerCapture=${up}>
    <${Patterns} />
    ${cells.map((c) => {
      const tch = map.terrain[c.y][c.x];
      const off = tch === "?";
      return html`<polygon key=${c.x + "," + c.y} points=${c.pts} data-cell=${c.x + "," + c.y} data-t=${tch}
        class=${"wbm-hex" + (off ? " off" : "") + (marked.has(c.x + "," + c.y) ? " marked" : "")}
        fill=${off ? "transparent" : fillOf(tch, "low")} />`;
    })}
    ${map.ore ? cells.filter((c) => map.ore[c.y][c.x] !== ".").map((c) => html`<circle key=${"o" + c.x + "," + c.y}
      class="wbm-ore" cx=${c.cx} cy=${c.cy} r=${R * 0.33} pointer-events="none" />`) : null}
    ${cursor ? (() => { const [cx, cy] = centre(cursor[0], cursor[1]);
      return html`<polygon class="wbm-cursor" points=${hexPoints(cx, cy, R - 2)} pointer-events="none" />`; })() : null}
  </svg>`;
}

function ProblemList({ check, onShow }) {
  if (!check) return html`<p class="help" aria-busy="true">${t("wb.map.checking")}</p>`;
  if (check.ok) return html`<p class="wbm-ok" data-testid="wbm-valid">${t("wb.map.valid")}</p>`;
  return html`<ul class="wbm-problems" data-testid="wbm-problems">${check.problems.map((p, i) => html`<li key=${i} data-code=${p.code}
      data-testid=${"wbm-problem-" + p.code}>
    <span>${t("wb.map.problem." + p.code, p.params)}</span>
    ${p.rule ? html` <a href=${ruleHref("fullmetal", p.rule)} target="_blank" rel="noopener" data-testid="wbm-rule-link">${t("rules.rule", { id: p.rule })}</a>` : null}
    ${p.cells && p.cells.length ? html` <button type="button" class="linkish" onClick=${() => onShow(p.cells)}>${t("wb.map.show_cells")}</button>` : null}
  </li>`)}</ul>`;
}

function Stats({ stats }) {
  if (!stats) return null;
  const ter = stats.terrain;
  return html`<dl class="wbm-stats" data-testid="wbm-stats">
    ${["sea", "reef", "swamp", "plain", "mountain"].map((k) => html`<div><dt>${t("fm.terrain." + k)}</dt><dd>${ter[k]}</dd></div>`)}
    <div><dt>${t("wb.map.ore")}</dt><dd data-testid="wbm-ore-count">${stats.ore !== null ? stats.ore
      : t("wb.map.lattice_range", { min: stats.lattice[0], max: stats.lattice[1] })}</dd></div>
    <div><dt>${t("wb.map.landings")}</dt><dd>${stats.landings}</dd></div>
  </dl>`;
}

export function MapEditorPage({ navigate }) {
  useAccount();
  const [map, setMap] = useState(null);
  const [past, setPast] = useState([]);
  const [brush, setBrush] = useState(3);
  const [radius, setRadius] = useState(0);
  const [cursor, setCursor] = useState([0, 0]);
  const [marks, setMarks] = useState([]);
  const [start, setStart] = useState({ source: "original", seed: 1, players: 2, size: "medium", width: 24, height: 16, shape: "rectangle" });
  const [rules, setRules] = useState({ players: 2, landing_rule: "distance", landing_min_distance: 10 });
  const [check, setCheck] = useState(null);
  const [ore, setOre] = useState({ seed: 1, placement: "lattice" });
  const [name, setName] = useState("my-map");
  const [pub, setPub] = useState(false);
  const [level, setLevel] = useState(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(null);
  const [said, setSaid] = useState("");
  const fileRef = useRef(null);
  const mapRef = useRef(null);
  mapRef.current = map;

  useEffect(() => {
    // /workbench/map?set=<id> opens a saved set (the workbench's home links here), else the original map
    const id = new URLSearchParams(location.search).get("set");
    if (id) openSet(id);
    else newMap(start);
  }, []);
  useEffect(() => { document.body.dataset.wbm = map ? "ready" : ""; }, [map]);
  // live validation: the server checks the map a moment after the last change
  useEffect(() => {
    if (!map) return undefined;
    setCheck(null);
    let live = true;
    const timer = setTimeout(() => {
      api("/api/workbench/fullmetal/map/check", { body: { map, ...rules } })
        .then((r) => { if (live) setCheck(r); }).catch((e) => { if (live) notifyError(e); });
    }, 350);
    return () => { live = false; clearTimeout(timer); };
  }, [map, rules]);
  useEffect(() => {
    api("/api/lobby").then((games) => {
      const g = games.find((x) => x.id === "fullmetal");
      const agents = (g && g.agents) || [];
      const a = agents.find((x) => x.level === "easy") || agents.find((x) => x.default) || agents[0];
      setLevel(a ? a.name : null);
    }).catch(() => {});
  }, []);

  async function newMap(s) {
    try {
      const r = await api("/api/workbench/fullmetal/map/new", { body: s });
      setMap(r.map); setPast([]); setMarks([]); setCursor([0, 0]); setSaved(null);
    } catch (e) { notifyError(e); }
  }
  async function openSet(id) {
    try {
      const row = await api(`/api/workbench/sets/${encodeURIComponent(id)}`);
      const c = row.content;
      setMap({ width: c.width, height: c.height, terrain: c.terrain, ore: c.ore || null, zones: c.zones || null });
      setName(row.name); setPub(!!row.public); setSaved(row.mine ? row.id : null);
    } catch (e) { notifyError(e); newMap(start); }
  }
  function remember() { setPast((p) => [...p.slice(-HISTORY + 1), mapRef.current]); }
  function paintAt(x, y) { setMap((m) => paint(m, x, y, BRUSHES[brush], radius)); }
  function undo() {
    if (!past.length) return;
    setMap(past[past.length - 1]);
    setPast(past.slice(0, -1));
  }

  function onKey(e) {
    if (!map) return;
    const [x, y] = cursor;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      const nx = Math.min(map.width - 1, Math.max(0, x + moves[e.key][0]));
      const ny = Math.min(map.height - 1, Math.max(0, y + moves[e.key][1]));
      setCursor([nx, ny]);
      const tch = map.terrain[ny][nx];
      setSaid(t("wb.map.cursor", { cell: nx + "," + ny, terrain: tch === "?" ? t("wb.map.brush.offmap") : t("fm.terrain." + BRUSHES.find((b) => b.ch === tch).id) }));
    } else if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      remember();
      paintAt(x, y);
      setSaid(t("wb.map.painted", { cell: x + "," + y, brush: t("wb.map.brush." + BRUSHES[brush].id) }));
    } else if (/^[1-8]$/.test(e.key)) {
      setBrush(Number(e.key) - 1);
    } else if ((e.ctrlKey || e.metaKey) && e.key === "z") {
      e.preventDefault();
      undo();
    }
  }

  async function spread() {
    try {
      const r = await api("/api/workbench/fullmetal/map/spread", { body: { map, ...ore } });
      remember(); setMap({ ...map, ore: r.ore });
    } catch (e) { notifyError(e); }
  }
  function clearOre() { remember(); setMap({ ...map, ore: null }); }

  async function fmpText() { return (await api("/api/workbench/fullmetal/map/write", { body: { map } })).fmp; }
  async function exportFmp() {
    try { download((name || "map") + ".fmp", await fmpText()); } catch (e) { notifyError(e); }
  }
  async function importFmp(e) {
    const f = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!f) return;
    if (f.size > 128 * 1024) { notify({ kind: "error", text: t("wb.map.too_big") }); return; }
    const buf = await f.arrayBuffer();
    const text = new TextDecoder("windows-1252").decode(buf);
    try {
      const r = await api("/api/workbench/fullmetal/map/read", { body: { fmp: text } });
      remember(); setMap(r.map); setMarks([]); setSaved(null);
      const base = f.name.replace(/\.fmp$/i, "").replace(/[^A-Za-z0-9_-]/g, "-").replace(/^[-_]+/, "").slice(0, 64);
      if (base) setName(base);
      notify({ kind: "ok", text: t("wb.map.imported") });
    } catch (err) { notifyError(err); }
  }

  async function play(friend) {
    setBusy(true);
    try {
      const n = rules.players;
      const config = { map: "custom", map_content: await fmpText(), players: n, landing_rule: rules.landing_rule,
        landing_min_distance: rules.landing_min_distance };
      const ai = {};
      if (!friend) for (let i = 1; i < n; i++) ai[i] = level ?? null; // null: the game's default AI
      let pname = "";
      try { pname = localStorage.getItem("spacetable.name") || ""; } catch { /* private mode */ }
      const res = await api("/api/matches", { body: { game: "fullmetal", config, ai_seats: ai, join_seat: 0, player_name: pname } });
      rememberSeat(res.match.id, res.seat, res.token);
      navigate(seatLink(res.match.id, res.seat, res.token));
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }

  async function save() {
    setBusy(true);
    try {
      // the fullmetal/maps content (spacetable/games/fullmetal/fmp.py: MapDoc): the layers, without absent ones
      const content = { width: map.width, height: map.height, terrain: map.terrain };
      if (map.ore) content.ore = map.ore;
      if (map.zones) content.zones = map.zones;
      const r = saved ? await accountApi(`/api/workbench/sets/${encodeURIComponent(saved)}`, { name, content, public: pub }, "PUT")
        : await accountApi("/api/workbench/sets", { game: "fullmetal", kind: "maps", name, content, public: pub });
      setSaved(saved || r.id);
      notify({ kind: "ok", text: t("wb.map.saved", { name }) });
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }

  const b = BRUSHES[brush];
  const canPlay = check && check.ok && !busy;
  const nameOk = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name);
  return html`<div class="wbm" data-testid="map-editor">
    <h1>${t("wb.map.title")}</h1>
    <p class="help">${t("wb.map.intro")}</p>
    <div class="wbm-layout">
      <div class="wbm-side">
        <section class="card" aria-labelledby="wbm-start-h">
          <h2 id="wbm-start-h">${t("wb.map.start")}</h2>
          <div class="option"><label for="wbm-source">${t("wb.map.source")}</label>
            <select id="wbm-source" data-testid="wbm-source" value=${start.source} onChange=${(e) => setStart({ ...start, source: e.target.value })}>
              ${["original", "generated", "empty"].map((s) => html`<option value=${s}>${t("wb.map.source." + s)}</option>`)}</select></div>
          ${start.source === "generated" ? html`
            <div class="option"><label for="wbm-seed">${t("wb.map.seed")}</label>
              <input id="wbm-seed" type="number" min="0" max="2147483647" value=${start.seed} onInput=${(e) => setStart({ ...start, seed: Number(e.target.value) || 0 })} /></div>
            <div class="option"><label for="wbm-gplayers">${t("wb.map.players")}</label>
              <select id="wbm-gplayers" value=${start.players} onChange=${(e) => setStart({ ...start, players: Number(e.target.value) })}>
                ${[2, 3, 4].map((n) => html`<option value=${n}>${n}</option>`)}</select></div>
            <div class="option"><label for="wbm-size">${t("wb.map.size")}</label>
              <select id="wbm-size" value=${start.size} onChange=${(e) => setStart({ ...start, size: e.target.value })}>
                ${["small", "medium", "large"].map((s) => html`<option value=${s}>${t("wb.map.size." + s)}</option>`)}</select></div>` : null}
          ${start.source === "empty" ? html`
            <div class="option"><label for="wbm-width">${t("wb.map.width")}</label>
              <input id="wbm-width" type="number" min="6" max="64" value=${start.width} onInput=${(e) => setStart({ ...start, width: Number(e.target.value) || 6 })} /></div>
            <div class="option"><label for="wbm-height">${t("wb.map.height")}</label>
              <input id="wbm-height" type="number" min="6" max="64" value=${start.height} onInput=${(e) => setStart({ ...start, height: Number(e.target.value) || 6 })} /></div>
            <div class="option"><label for="wbm-shape">${t("wb.map.shape")}</label>
              <select id="wbm-shape" value=${start.shape} onChange=${(e) => setStart({ ...start, shape: e.target.value })}>
                ${["rectangle", "hexagon", "round"].map((s) => html`<option value=${s}>${t("wb.map.shape." + s)}</option>`)}</select></div>` : null}
          <${Button} icon="refresh" label=${t("wb.map.start_button")} onClick=${() => newMap(start)} testid="wbm-new" />
        </section>

        <section class="card" aria-labelledby="wbm-brush-h">
          <h2 id="wbm-brush-h">${t("wb.map.brush")}</h2>
          <div class="chips" role="radiogroup" aria-label=${t("wb.map.brush")}>
            ${BRUSHES.map((x, i) => html`<button type="button" role="radio" aria-checked=${i === brush ? "true" : "false"}
              class=${"chip wbm-brush" + (i === brush ? " on" : "")} data-testid=${"wbm-brush-" + x.id} onClick=${() => setBrush(i)}>
              <kbd aria-hidden="true">${i + 1}</kbd>${x.ch && x.ch !== "?" ? html`<${HexSwatch} t=${x.ch} tide="low" size=${18} />` : null}
              ${t("wb.map.brush." + x.id)}</button>`)}</div>
          <div class="chips" role="radiogroup" aria-label=${t("wb.map.brush_size")}>
            <span class="chips-label">${t("wb.map.brush_size")}</span>
            ${[0, 1].map((r) => html`<button type="button" role="radio" aria-checked=${radius === r ? "true" : "false"}
              class=${"chip" + (radius === r ? " on" : "")} data-testid=${"wbm-radius-" + r} onClick=${() => setRadius(r)}>${t("wb.map.radius." + r)}</button>`)}</div>
          <${Button} icon="undo" label=${t("wb.map.undo")} onClick=${undo} disabled=${!past.length} testid="wbm-undo" />
        </section>

        <section class="card" aria-labelledby="wbm-ore-h">
          <h2 id="wbm-ore-h">${t("wb.map.ore")}</h2>
          <p class="help">${t("wb.map.ore_help")}</p>
          <div class="option"><label for="wbm-placement">${t("wb.map.placement")}</label>
            <select id="wbm-placement" value=${ore.placement} onChange=${(e) => setOre({ ...ore, placement: e.target.value })}>
              <option value="lattice">${t("wb.map.placement.lattice")}</option><option value="random">${t("wb.map.placement.random")}</option></select></div>
          <div class="option"><label for="wbm-ore-seed">${t("wb.map.seed")}</label>
            <input id="wbm-ore-seed" type="number" min="0" max="2147483647" value=${ore.seed} onInput=${(e) => setOre({ ...ore, seed: Number(e.target.value) || 0 })} /></div>
          <div class="wbm-row"><${Button} label=${t("wb.map.spread")} onClick=${spread} testid="wbm-spread" />
            <${Button} label=${t("wb.map.clear_ore")} onClick=${clearOre} disabled=${!map || !map.ore} testid="wbm-clear-ore" /></div>
        </section>
      </div>

      <div class="wbm-main">
        <div class="wbm-board" tabindex="0" role="application" data-testid="wbm-board" onKeyDown=${onKey}
          aria-label=${t("wb.map.board", { brush: t("wb.map.brush." + b.id) })} aria-describedby="wbm-keys">
          ${map ? html`<${Board} map=${map} marks=${marks} cursor=${cursor} brushName=${b.id} onStroke=${remember} onPaint=${paintAt} onCursor=${setCursor} />`
            : html`<div class="loading" aria-busy="true"></div>`}
        </div>
        <p id="wbm-keys" class="help">${t("wb.map.keys")}</p>
        <p class="sr-only" aria-live="polite">${said}</p>
      </div>

      <div class="wbm-side">
        <section class="card" aria-labelledby="wbm-check-h" data-testid="wbm-check">
          <h2 id="wbm-check-h">${t("wb.map.check")}</h2>
          <div class="option"><label for="wbm-players">${t("wb.map.players")}</label>
            <select id="wbm-players" data-testid="wbm-players" value=${rules.players} onChange=${(e) => setRules({ ...rules, players: Number(e.target.value) })}>
              ${[2, 3, 4].map((n) => html`<option value=${n}>${n}</option>`)}</select></div>
          <div class="option"><label for="wbm-landing">${t("wb.map.landing_rule")}</label>
            <select id="wbm-landing" value=${rules.landing_rule} onChange=${(e) => setRules({ ...rules, landing_rule: e.target.value })}>
              <option value="distance">${t("wb.map.landing_rule.distance")}</option><option value="zones">${t("wb.map.landing_rule.zones")}</option></select></div>
          ${rules.landing_rule === "distance" ? html`<div class="option"><label for="wbm-distance">${t("wb.map.distance")}</label>
            <input id="wbm-distance" type="number" min="2" max="30" value=${rules.landing_min_distance}
              onInput=${(e) => { const v = Number(e.target.value); if (v >= 2 && v <= 30) setRules({ ...rules, landing_min_distance: v }); }} /></div>` : null}
          <div aria-live="polite"><${ProblemList} check=${check} onShow=${(cells) => setMarks(cells)} /></div>
          <${Stats} stats=${check && check.stats} />
        </section>

        <section class="card" aria-labelledby="wbm-file-h">
          <h2 id="wbm-file-h">${t("wb.map.file")}</h2>
          <div class="option"><label for="wbm-name">${t("wb.map.name")}</label>
            <input id="wbm-name" type="text" maxlength="64" value=${name} data-testid="wbm-name" onInput=${(e) => setName(e.target.value)} />
            ${nameOk ? null : html`<p class="field-error" role="alert">${t("wb.map.bad_name")}</p>`}</div>
          <div class="wbm-row">
            <${Button} icon="share" label=${t("wb.map.export")} onClick=${exportFmp} disabled=${!map} testid="wbm-export" />
            <label class="btn"><span class="btn-label">${t("wb.map.import")}</span>
              <input ref=${fileRef} type="file" accept=".fmp,text/plain" class="sr-only" data-testid="wbm-import" onChange=${importFmp} /></label>
          </div>
          <label class="check"><input type="checkbox" checked=${pub} data-testid="wbm-public" onChange=${(e) => setPub(e.target.checked)} /> ${t("wb.map.public")}</label>
          <${Button} icon="check" label=${t("wb.map.save")} onClick=${save} disabled=${busy || !nameOk || !check || !check.ok || !isSignedIn()} testid="wbm-save" />
          ${isSignedIn() ? null : html`<p class="help">${t("wb.map.sign_in_to_save")}</p>`}
          ${saved ? html`<p class="help" data-testid="wbm-saved">${t("wb.map.saved_as", { name })}
            <a href=${`/api/workbench/sets/${encodeURIComponent(saved)}/export?format=fmp`} data-testid="wbm-set-fmp">${t("wb.map.download_set")}</a></p>` : null}
        </section>

        <section class="card" aria-labelledby="wbm-play-h">
          <h2 id="wbm-play-h">${t("wb.map.play")}</h2>
          <p class="help">${t("wb.map.play_help", { n: rules.players })}</p>
          <div class="wbm-row">
            <${Button} kind="primary" icon="robot" label=${t("wb.map.play_computer")} onClick=${() => play(false)} disabled=${!canPlay} testid="wbm-play-computer" />
            <${Button} icon="friend" label=${t("wb.map.play_friend")} onClick=${() => play(true)} disabled=${!canPlay} testid="wbm-play-friend" />
          </div>
        </section>
      </div>
    </div>
  </div>`;
}
