// Full Metal Planète renderer for the spacetable web client (plain ES2020, no libraries).
//
// View JSON (game.view(state, seat)):
//   {game, phase, turn, tide, width, height, terrain: [rows of ".*%$#?"], viewer,
//    players: [{seat, colour, pool, saved, eliminated, resigned, ships: [ids]}],
//    controller: [seat per colour or -1], order, active, units: [{id, kind, colour,
//    cells: [[x,y]...], carrier?, cargo?, shots?, neutralized_by?, locked?, stranded?,
//    turrets? (ships), captor?}], pontoons: [[x,y]], reserve, departed, cover: [per player
//    a string of one digit per cell], retreat_window, retreat_only (unit ids; [] = all),
//    cards_left, forecast? (own only: {turn: tide}), sealed, config}
// Board elements standing for legal actions are clickable: click one of your units to select
// it, then a highlighted cell to send the matching action (move, unload, exit, fire, build...).
(function () {
  "use strict";
  const COLOURS = ["#d33", "#36c", "#2a2", "#d9a400"];
  const FILL = { ".": "#5b8fd6", "*": "#8fb6b0", "%": "#9aa86a", "$": "#d9c58f", "#": "#8a6e4b" };
  const CODE = { ship: "S", turret: "U", tank: "T", gt: "G", mb: "M", barge: "B", crab: "C", wl: "W", pontoon: "P", ore: "o" };
  const SVGNS = "http://www.w3.org/2000/svg";
  const R = 13;
  let selected = null;

  function landAt(ch, tide) {
    if (ch === "$" || ch === "#") return true;
    if (ch === "*") return tide === "low";
    if (ch === "%") return tide !== "high";
    return false;
  }
  function centre(x, y) {
    return [R * (1.5 * x + 1), R * (Math.sqrt(3) * (y + 0.5 * (x % 2)) + Math.sqrt(3) / 2)];
  }
  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function hexPoints(cx, cy) {
    const pts = [];
    for (let k = 0; k < 6; k++) pts.push((cx + R * Math.cos(k * Math.PI / 3)).toFixed(1) + "," + (cy + R * Math.sin(k * Math.PI / 3)).toFixed(1));
    return pts.join(" ");
  }
  function key(c) { return c[0] + "," + c[1]; }
  function actionUnit(a) { return a.unit ?? a.carrier ?? a.wl ?? a.mover ?? a.a ?? a.destroyer ?? a.ship ?? null; }
  function actionCell(a) {
    const t = a.path ? a.path[a.path.length - 1] : (a.to ?? a.target ?? a.dome ?? a.pod ?? null);
    if (!Array.isArray(t)) return null;
    return Array.isArray(t[0]) ? t[0] : t;
  }
  function actionText(a) {
    const c = actionCell(a);
    const at = c ? " → " + key(c) : "";
    switch (a.type) {
      case "move": return "move " + a.unit + at;
      case "fire": return "fire " + a.a + "+" + a.b + at;
      case "end_turn": return "end turn";
      case "land": return "land" + at + (a.orientation ? " " + a.orientation : "");
      case "deploy": return a.units ? "deploy " + a.units.length + " units" : "deploy (sealed)";
      case "decide_departure": return a.choices ? "departure " + JSON.stringify(a.choices) : "departure (sealed)";
      default: return a.type + (actionUnit(a) !== null ? " " + actionUnit(a) : "") + at;
    }
  }

  function render(root, view, ctx) {
    const t = (k, f) => (ctx && ctx.t ? ctx.t(k, f) : f);
    const legal = (ctx && ctx.legal) || [];
    root.innerHTML = "";
    const wrap = document.createElement("div");
    wrap.className = "fm-wrap";
    root.appendChild(wrap);
    const info = document.createElement("div");
    info.className = "fm-info";
    const me = view.viewer;
    const pools = view.players.map(p => `${t("player", "Player")} ${p.seat} (${p.colour}): ${p.pool} AP +${p.saved}` +
      (p.eliminated ? " ✗" : "")).join(" · ");
    info.textContent = `${t("turn", "Turn")} ${view.turn} · ${t("tide", "tide")} ${view.tide} · ${view.phase} · ${pools}`;
    wrap.appendChild(info);
    if (view.forecast && Object.keys(view.forecast).length) {
      const fc = document.createElement("div");
      fc.className = "fm-forecast";
      fc.textContent = t("forecast", "Your forecast") + ": " + Object.entries(view.forecast).map(([k, v]) => `t${k} ${v}`).join(", ");
      wrap.appendChild(fc);
    }
    const w = R * (1.5 * view.width + 0.5), h = R * Math.sqrt(3) * (view.height + 0.5);
    const svg = el("svg", { viewBox: `0 0 ${w.toFixed(0)} ${h.toFixed(0)}`, class: "fm-board", width: "100%" });
    wrap.appendChild(svg);
    const byCell = {};
    for (const u of view.units) for (const c of u.cells) byCell[key(c)] = u;
    const pontoons = new Set((view.pontoons || []).map(key));
    const targets = {};
    for (const a of legal) {
      const c = actionCell(a);
      if (!c) continue;
      const u = actionUnit(a);
      if (selected !== null && u !== selected && view.phase === "play") continue;
      (targets[key(c)] = targets[key(c)] || []).push(a);
    }
    const enemyCover = (i) => {
      let best = 0;
      (view.cover || []).forEach((row, p) => { if (p !== me) best = Math.max(best, +row[i]); });
      return best;
    };
    for (let y = 0; y < view.height; y++) {
      for (let x = 0; x < view.width; x++) {
        const ch = view.terrain[y][x];
        if (ch === "?") continue;
        const [cx, cy] = centre(x, y);
        let fill = FILL[ch];
        if ((ch === "*" || ch === "%") && !landAt(ch, view.tide)) fill = "#6f9fd8";
        const cell = el("polygon", { points: hexPoints(cx, cy), fill, stroke: "#333", "stroke-width": "0.5" }, svg);
        const k = key([x, y]);
        if (me !== null && me !== undefined && enemyCover(y * view.width + x) >= 2)
          el("polygon", { points: hexPoints(cx, cy), fill: "rgba(255,0,0,0.22)", "pointer-events": "none" }, svg);
        if (pontoons.has(k)) el("circle", { cx, cy, r: R * 0.8, fill: "none", stroke: "#444", "stroke-width": 2 }, svg);
        if (targets[k] && (selected !== null || view.phase !== "play")) {
          cell.setAttribute("stroke", "#fff");
          cell.setAttribute("stroke-width", "2");
          cell.style.cursor = "pointer";
          cell.addEventListener("click", () => { const a = targets[k][0]; selected = null; ctx.send(a); });
        }
        const u = byCell[k];
        if (!u) continue;
        if (u.kind === "ore") { el("circle", { cx, cy, r: R * 0.35, fill: "#222" }, svg); continue; }
        const col = u.colour >= 0 ? COLOURS[u.colour % 4] : "#777";
        const attrs = { cx, cy, r: R * 0.62, fill: col };
        if (u.neutralized_by) { attrs.stroke = "#fff"; attrs["stroke-dasharray"] = "2,2"; attrs["stroke-width"] = 2; }
        if (selected === u.id) { attrs.stroke = "#ff0"; attrs["stroke-width"] = 3; }
        const disc = el("circle", attrs, svg);
        let label = CODE[u.kind] || "?";
        if (u.kind === "ship") {
          const idx = u.cells.findIndex(c => key(c) === k);
          label = idx === 0 ? "S" : (u.turrets[idx - 1] >= 0 ? "U" : "x");
        } else if (u.cargo && u.cargo.length) label += u.cargo.length;
        const text = el("text", { x: cx, y: cy + R * 0.28, "font-size": R * 0.75, "text-anchor": "middle", fill: "#fff", "pointer-events": "none" }, svg);
        text.textContent = label;
        const own = view.controller[u.colour] === me;
        if (own && legal.some(a => actionUnit(a) === u.id)) {
          disc.style.cursor = "pointer";
          disc.addEventListener("click", () => { selected = selected === u.id ? null : u.id; render(root, view, ctx); });
        }
      }
    }
    const bar = document.createElement("div");
    bar.className = "fm-bar";
    for (const a of legal.filter(a => ["end_turn", "take_off", "deploy", "decide_departure"].includes(a.type))) {
      const b = document.createElement("button");
      b.textContent = actionText(a);
      b.addEventListener("click", () => ctx.send(a));
      bar.appendChild(b);
    }
    wrap.appendChild(bar);
  }

  if (typeof Spacetable !== "undefined" && Spacetable.registerRenderer) {
    Spacetable.registerRenderer("fullmetal", { render, actionText });
  }
})();
