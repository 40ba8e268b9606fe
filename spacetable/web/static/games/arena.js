// Cosmic Arena renderer (game id "arena"; spec AR-*; docs/rules/arena.md).
//
// View JSON (game.view(state, seat)):
//   {game:"arena", board:"6x4"|"5x5", width, height, phase:"place"|"play"|"over", setup, home,
//    seat_colours:{"0":"red","1":"blue"}, you:"red"|"blue"|null, to_move:"red"|"blue"|null,
//    ships:[{colour, code, cell}], reserve:{red:[codes], blue:[codes]}, unplaced:{red:[...], blue:[...]},
//    home_cells:{red:[cells], blue:[cells]}, quiet, quiet_limit, last_capturer, offer, plies,
//    layout_label? (house default layout), placement?:{committed:{seat:bool}, own:{cell:code}|null},
//    position? (arena position notation), result?:{winner, kind, points, plies}}
// Legal actions (ctx.legal) use the spec §5 JSON shapes: move (with optional bonus), permute, rotate,
// place, layout, accept_end.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 64;
  const PAD = 26;

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  function sv(tag, attrs, ...kids) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }

  function teleText(b) {
    if (!b) return "";
    return b.type === "permute" ? b.pair : `R${b.cls}${b.dir}`;
  }

  function actionText(a) {
    if (!a || typeof a !== "object") return String(a);
    const offer = a.offer_end ? "=" : "";
    switch (a.type) {
      case "move": return `${a.from}-${a.to}${a.bonus ? "/" + teleText(a.bonus) : ""}${offer}`;
      case "permute": case "rotate": return teleText(a) + offer;
      case "accept_end": return "accept";
      case "resign": return "resign";
      case "place": return `${a.ship}@${a.cell}`;
      case "layout": return typeof a.cells === "object" ? "layout" : "layout (sealed)";
      default: return JSON.stringify(a);
    }
  }

  // per-element UI state survives re-renders of the same element
  const uiState = new WeakMap();

  function render(root, view, ctx) {
    const t = (k, f) => (ctx && ctx.t ? ctx.t(k, f) : f);
    const legal = (ctx && ctx.legal) || [];
    const ui = uiState.get(root) || { selected: null, pendingDest: null, ship: null, draft: {} };
    uiState.set(root, ui);
    const W = view.width, H = view.height;
    const cellName = (f, r) => String.fromCharCode(97 + f) + (r + 1);
    const flip = view.you === "blue"; // each player sees its own edge at the bottom
    const pos = (name) => {
      const f = name.charCodeAt(0) - 97, r = parseInt(name.slice(1), 10) - 1;
      const x = flip ? W - 1 - f : f, y = flip ? r : H - 1 - r;
      return [PAD + x * CELL, PAD + y * CELL];
    };
    const shipAt = {};
    for (const s of view.ships) shipAt[s.cell] = s;
    const moves = legal.filter((a) => a.type === "move");
    const teleports = legal.filter((a) => a.type === "permute" || a.type === "rotate");
    const places = legal.filter((a) => a.type === "place");
    if (ui.selected && !moves.some((a) => a.from === ui.selected)) ui.selected = null;
    const targets = new Set(moves.filter((a) => a.from === ui.selected).map((a) => a.to));
    const placeCells = new Set(places.filter((a) => a.ship === ui.ship).map((a) => a.cell));
    const homeMine = new Set((view.home_cells && view.you && view.phase === "place") ? view.home_cells[view.you] : []);
    // simultaneous placement (AR-2.7): any layout may be sealed; the seat composes one in a local draft
    const sealing = legal.some((a) => a.type === "layout");
    if (!sealing) ui.draft = {};
    const draftCells = sealing ? Object.keys(ui.draft) : [];
    const draftOf = (code) => draftCells.find((c) => ui.draft[c] === code);

    const svgW = PAD * 2 + W * CELL, svgH = PAD * 2 + H * CELL;
    const board = sv("svg", { viewBox: `0 0 ${svgW} ${svgH}`, width: svgW, height: svgH, class: "arena-board", role: "img",
      "aria-label": t("arena.board", "Arena board") });
    for (let r = 0; r < H; r++) {
      for (let f = 0; f < W; f++) {
        const name = cellName(f, r);
        const [x, y] = pos(name);
        let fill = (f + r) % 2 ? "#1d2340" : "#262d52";
        if (homeMine.has(name)) fill = "#2f3d6b";
        const drafting = sealing && homeMine.has(name) && (ui.ship !== null || ui.draft[name] !== undefined);
        const clickable = targets.has(name) || placeCells.has(name) || drafting;
        const rect = sv("rect", { x, y, width: CELL, height: CELL, fill, stroke: "#0c0f1f", "data-cell": name });
        board.append(rect);
        if (clickable) {
          const mark = sv("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 6, fill: "none", stroke: "#f5d36b",
            "stroke-width": 3, "stroke-dasharray": "5 4", "data-target": name, style: "cursor:pointer" });
          const onclick = () => {
            if (drafting) {
              const prev = draftOf(ui.ship);
              if (ui.ship === null) delete ui.draft[name]; // click a drafted ship to take it back
              else { if (prev !== undefined) delete ui.draft[prev]; ui.draft[name] = ui.ship; }
              ui.ship = null;
              render(root, view, ctx);
            } else if (targets.has(name)) {
              const options = moves.filter((a) => a.from === ui.selected && a.to === name);
              if (options.length === 1) { ui.selected = null; ctx.send(options[0]); }
              else { ui.pendingDest = name; render(root, view, ctx); }
            } else {
              const a = places.find((p) => p.ship === ui.ship && p.cell === name);
              ui.ship = null;
              if (a) ctx.send(a);
            }
          };
          mark.addEventListener("click", onclick);
          rect.addEventListener("click", onclick);
          rect.setAttribute("style", "cursor:pointer");
          board.append(mark);
        }
      }
    }
    for (let i = 0; i < W; i++) {
      const f = flip ? W - 1 - i : i;
      board.append(sv("text", { x: PAD + i * CELL + CELL / 2, y: svgH - 8, "text-anchor": "middle", fill: "#aab", "font-size": 13 },
        String.fromCharCode(97 + f)));
    }
    for (let j = 0; j < H; j++) {
      const r = flip ? j : H - 1 - j;
      board.append(sv("text", { x: 10, y: PAD + j * CELL + CELL / 2 + 5, "text-anchor": "middle", fill: "#aab", "font-size": 13 }, r + 1));
    }
    for (const s of view.ships) {
      const [x, y] = pos(s.cell);
      const mine = s.colour === view.you;
      const movable = mine && moves.some((a) => a.from === s.cell);
      const g = sv("g", { "data-ship": s.code, "data-colour": s.colour, "data-cell": s.cell, style: movable ? "cursor:pointer" : "" });
      const colour = s.colour === "red" ? "#d0453f" : "#3f7bd0";
      const sel = ui.selected === s.cell;
      g.append(sv("rect", { x: x + 7, y: y + 7, width: CELL - 14, height: CELL - 14, rx: s.code === "111" ? 25 : 9, fill: colour,
        stroke: sel ? "#f5d36b" : "#0c0f1f", "stroke-width": sel ? 4 : 2 }));
      g.append(sv("text", { x: x + CELL / 2, y: y + CELL / 2 + 6, "text-anchor": "middle", fill: "#fff", "font-size": 17,
        "font-family": "monospace", "font-weight": "bold" }, s.code));
      if (targets.has(s.cell)) g.addEventListener("click", () => board.querySelector(`[data-target="${s.cell}"]`).dispatchEvent(new Event("click")));
      else if (movable) g.addEventListener("click", () => { ui.selected = sel ? null : s.cell; ui.pendingDest = null; render(root, view, ctx); });
      board.append(g);
    }

    for (const c of draftCells) {
      const [x, y] = pos(c);
      const g = sv("g", { "data-draft": ui.draft[c], "data-cell": c, style: "cursor:pointer;opacity:0.7" });
      g.append(sv("rect", { x: x + 7, y: y + 7, width: CELL - 14, height: CELL - 14, rx: ui.draft[c] === "111" ? 25 : 9,
        fill: view.you === "red" ? "#d0453f" : "#3f7bd0", stroke: "#f5d36b", "stroke-width": 2, "stroke-dasharray": "4 3" }));
      g.append(sv("text", { x: x + CELL / 2, y: y + CELL / 2 + 6, "text-anchor": "middle", fill: "#fff", "font-size": 17,
        "font-family": "monospace", "font-weight": "bold" }, ui.draft[c]));
      g.addEventListener("click", () => board.querySelector(`[data-target="${c}"]`).dispatchEvent(new Event("click")));
      board.append(g);
    }

    const panel = el("div", { class: "arena-panel" });
    const colourWord = (c) => (c === "red" ? t("arena.red", "Red") : c === "blue" ? t("arena.blue", "Blue") : "–");
    if (view.result) {
      const semi = view.result.points !== "1–0";
      panel.append(el("p", { class: "arena-result", "data-testid": "arena-result" },
        `${colourWord(view.result.winner)} ${t("arena.wins", "wins")} ${view.result.points} (${t("arena.kind." + view.result.kind, view.result.kind)})`
        + (semi ? ` — ${t("arena.semi", "semi-victory")}` : "")));
    } else if (view.placement) { // simultaneous placement: both seats act at once (AR-2.7)
      panel.append(el("p", {}, t("arena.both_seal", "Both sides seal a layout; they are revealed together.")));
    } else {
      panel.append(el("p", {}, `${t("arena.to_move", "To move")}: ${colourWord(view.to_move)} · ${t("arena.quiet", "quiet")} ${view.quiet}/${view.quiet_limit}`
        + ` · ${t("arena.last_capturer", "last capturer")}: ${colourWord(view.last_capturer)}`
        + (view.offer ? ` · ${t("arena.offer_from", "offer from")} ${colourWord(view.offer)}` : "")));
    }
    if (view.you) panel.append(el("p", {}, `${t("arena.you_are", "You play")} ${colourWord(view.you)}`));
    for (const c of ["red", "blue"]) {
      panel.append(el("p", { "data-reserve": c }, `${t("arena.reserve", "Reserve")} ${colourWord(c)}: ${view.reserve[c].join(" ") || "–"}`));
    }
    if (view.layout_label) panel.append(el("p", { class: "hint" }, t("arena.house_layout", view.layout_label)));

    // bonus choice after picking a triggering destination (AR-8.6: move, then "bonus or decline")
    if (ui.pendingDest && ui.selected) {
      const opts = moves.filter((a) => a.from === ui.selected && a.to === ui.pendingDest);
      const box = el("div", { class: "arena-bonus" }, el("span", {}, t("arena.bonus", "Bonus teleport?") + " "));
      for (const a of opts) {
        box.append(el("button", { type: "button", "data-arena-action": actionText(a),
          onclick: () => { ui.selected = null; ui.pendingDest = null; ctx.send(a); } },
        a.bonus ? teleText(a.bonus) : t("arena.no_bonus", "no bonus")));
      }
      panel.append(box);
    }
    if (teleports.length) {
      const box = el("div", { class: "arena-teleports" }, el("span", {}, t("arena.teleports", "Teleports") + ": "));
      for (const a of teleports) box.append(el("button", { type: "button", "data-arena-action": actionText(a), onclick: () => ctx.send(a) }, actionText(a)));
      panel.append(box);
    }
    if (places.length) {
      const ships = [...new Set(places.map((a) => a.ship))];
      const box = el("div", { class: "arena-place" }, el("span", {}, t("arena.place_ship", "Place a ship") + ": "));
      for (const code of ships) {
        box.append(el("button", { type: "button", "data-ship-choice": code, class: ui.ship === code ? "selected" : "",
          onclick: () => { ui.ship = ui.ship === code ? null : code; render(root, view, ctx); } }, code));
      }
      panel.append(box);
    }
    const layouts = legal.filter((a) => a.type === "layout");
    if (layouts.length) {
      const box = el("div", { class: "arena-layouts" }, el("span", {}, t("arena.layout", "Sealed layout") + ": "));
      layouts.forEach((a, i) => box.append(el("button", { type: "button", onclick: () => ctx.send(a) },
        i === 0 ? t("arena.layout_default", "default layout") : t("arena.layout_mirror", "mirrored layout"))));
      panel.append(box);
      // own layout: pick a ship, then a home cell; send when all 8 stand (AR-2.7: any layout is legal)
      const own = el("div", { class: "arena-draft" }, el("span", {}, t("arena.own_layout", "Or compose your own") + ": "));
      for (const code of ["111", "112", "121", "122", "211", "212", "221", "222"]) {
        own.append(el("button", { type: "button", "data-draft-ship": code, class: ui.ship === code ? "selected" : "",
          title: draftOf(code) || "", onclick: () => { ui.ship = ui.ship === code ? null : code; render(root, view, ctx); } },
        draftOf(code) ? `${code}@${draftOf(code)}` : code));
      }
      const send = el("button", { type: "button", "data-arena-send-layout": "1",
        onclick: () => { const cells = { ...ui.draft }; ui.draft = {}; ui.ship = null; ctx.send({ type: "layout", cells }); } },
      t("arena.send_layout", "Seal this layout"));
      if (draftCells.length !== 8) send.setAttribute("disabled", "");
      own.append(send, el("button", { type: "button", onclick: () => { ui.draft = {}; ui.ship = null; render(root, view, ctx); } },
        t("arena.clear", "Clear")));
      panel.append(own);
    }
    if (view.placement) {
      const own = view.placement.own;
      panel.append(el("p", {}, own ? `${t("arena.your_layout", "Your sealed layout")}: ${Object.entries(own).map(([c, s]) => s + c).join(" ")}`
        : t("arena.waiting_layouts", "Layouts are revealed when both are in.")));
    }
    const accept = legal.find((a) => a.type === "accept_end");
    if (accept) panel.append(el("button", { type: "button", onclick: () => ctx.send(accept) }, t("arena.accept", "Accept the offer to end")));
    if (view.position) panel.append(el("p", { class: "hint arena-position" }, el("code", {}, view.position)));

    root.replaceChildren(el("div", { class: "arena", style: "display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start" }, board, panel));
  }

  window.Spacetable.registerRenderer("arena", { render, actionText });
})();
