/*
 * Worlds & Suns — combat skirmish renderer (combat chapter only; not the full game).
 *
 * View JSON (game.view(state, seat)):
 *   title, notice, house_rules[]           labels shown on top (WS-0.3, WS-A20)
 *   sides[2], seat (0|1|null), active, round, max_rounds
 *   systems[]: {id, starting_system_of (side|null),
 *               sun: {id, pieces[]}, worlds[]: {id, pieces[]}}   piece = {id, owner, side, kind: "P"|"F"}
 *   energy[2], income[2], hand_sizes[2], hand (own card codes | null), discards[2][]
 *   cards: {code: {code, name, status, text, label}}               house event deck (labelled "house rule")
 *   eligible[] (cards the active side may attack), fought[]
 *   combat: null | {card, attacker, defender, allocator, participants[2][], step, current,
 *                   battles[]: {anchor, pieces[], events[2], energy[2], power[], dice[], totals[], result, lost[2][], done},
 *                   sealed: {committed: {"0": bool, "1": bool}, own}, tie_pending[], losses[2], winner}
 *   material[2], stats {lost, combats_won, converted}, to_act[], log[], over, result
 */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const COLORS = ["#d9d9d9", "#5b6b7a"];
  const STROKES = ["#555", "#1c2833"];

  function svg(tag, attrs, parent) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    if (parent) parent.appendChild(el);
    return el;
  }
  function html(tag, attrs, parent, text) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    if (parent) parent.appendChild(el);
    return el;
  }

  function actionText(a) {
    switch (a.type) {
      case "declare_combat": return "declare combat on " + a.card;
      case "allocate": return "allocate " + a.battles.map((b) => b.pieces.join("+") + " vs " + b.anchor).join(" | ");
      case "play_event": return a.sealed ? "event (sealed)" : "event " + (a.card || "none");
      case "commit_energy": return a.sealed ? "energy (sealed)" : "energy " + a.amount;
      case "choose_tie_loss": return "tie loss " + a.piece;
      case "retreat": return "retreat " + ((a.pieces || []).join(", ") || "nothing");
      case "convert": return "convert " + (a.factory || "nothing");
      case "end_turn": return "end turn";
      default: return JSON.stringify(a);
    }
  }

  function render(el, view, ctx) {
    const t = (k, f) => (ctx && ctx.t ? ctx.t("worlds." + k, f) : f);
    const legal = (ctx && ctx.legal) || [];
    const send = (a) => ctx && ctx.send && ctx.send(a);
    el.innerHTML = "";
    const root = html("div", { class: "worlds" }, el);
    html("h3", {}, root, view.title);
    html("p", { class: "worlds-notice", style: "font-size:0.85em;color:#a33" }, root, view.notice);
    html("p", { style: "font-size:0.8em;color:#666" }, root, (view.house_rules || []).join(" · "));
    html("div", {}, root,
      t("round", "Round") + " " + view.round + "/" + view.max_rounds + " — " +
      view.sides.map((s, i) => s + ": " + t("energy", "energy") + " " + view.energy[i] + ", " +
        t("cards", "cards") + " " + view.hand_sizes[i] + ", " + t("material", "material") + " " + view.material[i]).join(" | "));

    // ---- board
    const W = Math.max(260, view.systems.length * 250);
    const H = 80 + Math.max(...view.systems.map((s) => s.worlds.length)) * 120 + 40;
    const board = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" }, root);
    const combat = view.combat;
    const pieceActs = new Map();
    for (const a of legal) {
      if (a.type === "choose_tie_loss") pieceActs.set(a.piece, a);
      if (a.type === "convert" && a.factory) pieceActs.set(a.factory, a);
    }
    view.systems.forEach((sys, si) => {
      const x0 = si * 250 + 20;
      svg("rect", { x: x0 - 10, y: 5, width: 230, height: H - 10, rx: 12, fill: sys.starting_system_of ? "#f4efe4" : "#f5f7fa", stroke: "#bbb" }, board);
      const label = svg("text", { x: x0, y: 24, "font-size": 13, "font-weight": "bold" }, board);
      label.textContent = t("system", "System") + " " + sys.id + (sys.starting_system_of ? " (" + t("start_of", "start of") + " " + sys.starting_system_of + ")" : "");
      const cards = [{ card: sys.sun, kind: "sun" }].concat(sys.worlds.map((w) => ({ card: w, kind: "world" })));
      cards.forEach((c, ci) => {
        const cy = 70 + ci * 110;
        const declare = legal.find((a) => a.type === "declare_combat" && a.card === c.card.id);
        const isCombat = combat && combat.card === c.card.id;
        const shape = c.kind === "sun"
          ? svg("circle", { cx: x0 + 30, cy, r: 26, fill: "#ffd54a", stroke: isCombat ? "#c00" : "#b8860b", "stroke-width": isCombat ? 4 : 2 }, board)
          : svg("circle", { cx: x0 + 30, cy, r: 24, fill: "#7fb3d5", stroke: isCombat ? "#c00" : "#2e6da4", "stroke-width": isCombat ? 4 : 2 }, board);
        const name = svg("text", { x: x0 + 62, y: cy - 26, "font-size": 11 }, board);
        name.textContent = c.card.id + (c.kind === "sun" ? " (" + t("sun", "sun") + ")" : "");
        if (declare) {
          shape.setAttribute("style", "cursor:pointer");
          shape.setAttribute("data-action", JSON.stringify(declare));
          const tip = svg("title", {}, shape);
          tip.textContent = t("attack", "Declare a combat here");
          shape.addEventListener("click", () => send(declare));
        }
        c.card.pieces.forEach((p, pi) => {
          const px = x0 + 64 + (pi % 8) * 19;
          const py = cy - 12 + Math.floor(pi / 8) * 20;
          const attrs = { fill: COLORS[p.owner], stroke: STROKES[p.owner], "stroke-width": 1.5 };
          const node = p.kind === "P"
            ? svg("circle", Object.assign({ cx: px + 8, cy: py + 8, r: 8 }, attrs), board)
            : svg("rect", Object.assign({ x: px, y: py, width: 16, height: 16 }, attrs), board);
          const tip = svg("title", {}, node);
          tip.textContent = p.id + " (" + p.side + ", " + (p.kind === "P" ? t("population", "Population") : t("factory", "Factory")) + ")";
          const act = pieceActs.get(p.id);
          if (act) {
            node.setAttribute("stroke", "#c00");
            node.setAttribute("stroke-width", 3);
            node.setAttribute("style", "cursor:pointer");
            node.setAttribute("data-action", JSON.stringify(act));
            node.addEventListener("click", () => send(act));
          }
        });
      });
    });

    // ---- legend: piece shapes and side colours
    const legend = svg("svg", { width: 520, height: 26, role: "img" }, root);
    let lx = 4;
    view.sides.forEach((side, i) => {
      svg("circle", { cx: lx + 8, cy: 13, r: 7, fill: COLORS[i], stroke: STROKES[i], "stroke-width": 1.5 }, legend);
      svg("rect", { x: lx + 20, y: 6, width: 14, height: 14, fill: COLORS[i], stroke: STROKES[i], "stroke-width": 1.5 }, legend);
      const tx = svg("text", { x: lx + 40, y: 18, "font-size": 12, fill: "currentColor" }, legend);
      tx.textContent = side;
      lx += 50 + side.length * 7;
    });
    const key = svg("text", { x: lx + 6, y: 18, "font-size": 12, fill: "currentColor" }, legend);
    key.textContent = "● " + t("population", "Population") + " (2)  ■ " + t("factory", "Factory") + " (1)";

    // ---- combat panel
    if (combat) {
      const box = html("div", { class: "worlds-combat", style: "border:1px solid #c00;padding:6px;margin:6px 0" }, root);
      html("strong", {}, box, t("combat", "Combat on") + " " + combat.card + " — " + t("attacker", "attacker") + " " +
        view.sides[combat.attacker] + ", " + t("step", "step") + " " + combat.step + ", " + t("losses", "losses") + " " +
        combat.losses.join("–"));
      const table = html("table", { style: "border-collapse:collapse;font-size:0.9em" }, box);
      const head = html("tr", {}, table);
      ["#", t("allocator_pieces", "allocated"), t("anchor", "anchor"), t("events", "events"), t("energy", "energy"),
        t("dice", "dice"), t("totals", "totals"), t("result", "result")].forEach((h) => html("th", { style: "padding:2px 6px" }, head, h));
      combat.battles.forEach((b, i) => {
        // current battle: a tint plus bold text, readable on light and dark page themes
        const row = html("tr", { style: i === combat.current && !b.done ? "background:rgba(204,0,0,0.18);font-weight:bold" : "" }, table);
        const res = b.result === "" ? "" : b.result === "tie" ? t("tie", "tie") : view.sides[Number(b.result)];
        [String(i + 1), b.pieces.join(", "), b.anchor, b.events.map((e) => e || "–").join(" / "),
          b.energy.map((e) => (e === null ? "?" : e)).join(" / "), b.dice.join(" / "), b.totals.join(" / "), res]
          .forEach((c) => html("td", { style: "padding:2px 6px;border-top:1px solid #ddd" }, row, c));
      });
      if (combat.step === "event" || combat.step === "energy") {
        const who = Object.entries(combat.sealed.committed).map(([s, done]) => view.sides[Number(s)] + ": " +
          (done ? t("committed", "committed") : t("waiting", "waiting"))).join(", ");
        html("div", {}, box, t("sealed", "Sealed choices") + " — " + who);
      }
    }

    // ---- private panel: hand, sealed choice and the seat's own buttons
    if (view.seat !== null && view.seat !== undefined) {
      const mine = html("div", { class: "worlds-private", style: "margin:6px 0" }, root);
      html("strong", {}, mine, t("your_hand", "Your hand") + ": ");
      if (!view.hand || !view.hand.length) html("span", {}, mine, t("empty", "(empty)"));
      (view.hand || []).forEach((code) => {
        const card = view.cards[code] || { name: code, label: "house rule", text: "" };
        const act = legal.find((a) => a.type === "play_event" && a.card === code);
        const b = html("button", { title: card.text + " [" + card.status + "]", style: "margin:2px" }, mine, card.name + " (" + card.label + ")");
        if (act) {
          b.setAttribute("data-action", JSON.stringify(act));
          b.addEventListener("click", () => send(act));
        } else b.disabled = true;
      });
      if (combat && combat.sealed && combat.sealed.own !== null && combat.sealed.own !== undefined)
        html("div", {}, mine, t("your_commit", "Your sealed choice") + ": " + JSON.stringify(combat.sealed.own));
      const energyActs = legal.filter((a) => a.type === "commit_energy");
      if (energyActs.length) {
        const row = html("div", {}, mine, t("commit_energy", "Commit energy") + ": ");
        energyActs.forEach((a) => {
          const b = html("button", { style: "margin:1px", "data-action": JSON.stringify(a) }, row, String(a.amount));
          b.addEventListener("click", () => send(a));
        });
      }
      const noEvent = legal.find((a) => a.type === "play_event" && a.card === null);
      if (noEvent) {
        const b = html("button", { "data-action": JSON.stringify(noEvent) }, mine, t("no_event", "No event"));
        b.addEventListener("click", () => send(noEvent));
      }
    }
    if (view.over && view.result) {
      const r = view.result;
      const txt = r.winners.length ? view.sides[r.winners[0]] + " " + t("wins", "wins") : t("draw", "draw");
      html("p", { style: "font-weight:bold" }, root, t("over", "Skirmish over") + ": " + txt + " (" + t("house_score", "house score: material") + " " +
        r.details.material.join("–") + "). " + r.details.reason);
    }
    const log = html("ul", { class: "worlds-log", style: "font-size:0.8em;max-height:12em;overflow:auto" }, root);
    (view.log || []).slice(-12).forEach((line) => html("li", {}, log, line));
  }

  if (typeof Spacetable !== "undefined" && Spacetable.registerRenderer) {
    Spacetable.registerRenderer("worlds", { render, actionText });
  }
})();
