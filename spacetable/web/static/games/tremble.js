// Tremble, Humans! renderer (house card set — not the published cards).
//
// View JSON (game.view(state, seat)):
//   {game:"tremble", card_set, turn, turns, phase, lead, fuel_limit, to_act:[seat],
//    players:[{seat, humans, credits, credits_taken, stations:[{id,name,name_ru,effect,tapped}],
//              trophies:[city], hand_count, comp_count, known_ships:[ship],
//              hand?:[ship], comps?:[{id,name,name_ru,effect,received}], drawn?:[card], peek?:[int]}],   // ? = own seat only
//    missions:[{id,name,name_ru,kind,target}],
//    slots:[{slot, city:{id,name,name_ru,region,city_type,raid,catch,catch_draw,deck}, groups:{seat:[ship]}, support:{seat:n}}],
//    contest:{kind, slot, order, fighters, in_play, dice:{seat:n}, totals:{seat:n}, armies:[n], revealed:[n], offer, winner}|null,
//    sealed:{committed:{seat:bool}, own}|null, piles:{...}, final, events:[text]}
//   ship = {id, name, name_ru, kind, deck, strength, fuel, price, abilities:[effect]}
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const COLORS = ["#d9534f", "#5bc0de", "#5cb85c", "#f0ad4e", "#9b59b6"];

  function el(tag, attrs, text) {
    const e = tag.startsWith("svg:") ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function nm(obj, ctx) { return ctx.lang === "ru" ? (obj.name_ru || obj.name) : obj.name; }
  function money(n) { return (n || 0).toLocaleString("en-US"); }
  function shipText(s, ctx) {
    const t_ = (k) => (ctx.t ? ctx.t(k, k) : k); return `${nm(s, ctx)} (${s.kind}, ${t_("strength")} ${s.strength}, ${t_("fuel")} ${s.fuel})`; }

  function render(root, view, ctx) {
    const t = (k, f) => (ctx.t ? ctx.t(k, f) : f);
    root.innerHTML = "";
    const wrap = el("div", { class: "tremble" });
    wrap.appendChild(el("div", { class: "tremble-label", style: "font-size:12px;color:#888" }, view.card_set));
    wrap.appendChild(el("div", { class: "tremble-head" },
      `${t("turn", "Turn")} ${view.turn}/${view.turns} · ${t("phase", "phase")}: ${view.phase} · ${t("fuel", "fuel")} ${view.fuel_limit ?? "-"}`));

    // board: one card per city slot
    const W = Math.max(3, view.slots.length) * 170;
    const svg = el("svg:svg", { width: W, height: 230, viewBox: `0 0 ${W} 230`, class: "tremble-board" });
    const contest = view.contest;
    view.slots.forEach((sl, i) => {
      const x = i * 170 + 5;
      const g = el("svg:g", { "data-slot": sl.slot });
      const active = contest && contest.slot === sl.slot;
      g.appendChild(el("svg:rect", { x, y: 5, width: 160, height: 220, rx: 8,
        fill: sl.city.deck === "red" ? "#fbe9e7" : "#e3f2fd", stroke: active ? "#000" : "#999", "stroke-width": active ? 3 : 1 }));
      g.appendChild(el("svg:text", { x: x + 8, y: 24, "font-size": 14, "font-weight": "bold" }, `${sl.slot}. ${nm(sl.city, ctx)}`));
      g.appendChild(el("svg:text", { x: x + 8, y: 42, "font-size": 11 }, `${t(sl.city.region, sl.city.region)} · ${t(sl.city.city_type, sl.city.city_type)}`));
      g.appendChild(el("svg:text", { x: x + 8, y: 58, "font-size": 11 }, `${t("raid", "raid")} ${money(sl.city.raid)}`));
      g.appendChild(el("svg:text", { x: x + 8, y: 72, "font-size": 11 }, `${t("catch", "catch")} ${money(sl.city.catch)} ×${sl.city.catch_draw}`));
      let y = 92;
      for (const [seat, ships] of Object.entries(sl.groups || {})) {
        g.appendChild(el("svg:circle", { cx: x + 12, cy: y - 4, r: 6, fill: COLORS[seat % COLORS.length] }));
        const total = contest && contest.slot === sl.slot && contest.totals ? contest.totals[seat] : undefined;
        g.appendChild(el("svg:text", { x: x + 22, y, "font-size": 11 },
          `${t("seat", "seat")} ${seat}` + (total !== undefined ? ` · ${total}` : "") + (contest && contest.dice && contest.dice[seat] ? ` (${t("dice", "dice")} ${contest.dice[seat]})` : "")));
        y += 14;
        for (const s of ships) { g.appendChild(el("svg:text", { x: x + 22, y, "font-size": 10 }, shipText(s, ctx))); y += 12; }
      }
      if (active && contest.kind === "army" && contest.armies.length) {
        g.appendChild(el("svg:text", { x: x + 8, y: 218, "font-size": 11, fill: "#a00" }, `${t("armies", "armies")}: ${contest.armies.join(", ")}`));
      }
      // plan phase: clicking a city sends the legal plan putting the most ships on that slot alone
      const planHere = (ctx.legal || []).filter((a) => a.type === "plan" && a.groups.length === 1 && a.groups[0].slot === sl.slot)
        .sort((a, b) => b.groups[0].ships.length - a.groups[0].ships.length)[0];
      if (planHere) {
        g.style.cursor = "pointer";
        g.appendChild(el("svg:title", {}, `${t("attack_with_all", "attack here")}: ${actionText(planHere)}`));
        g.addEventListener("click", () => ctx.send(planHere));
      }
      svg.appendChild(g);
    });
    wrap.appendChild(svg);

    // legal actions that map to board elements or cards become clickable buttons
    const legal = ctx.legal || [];
    const actions = el("div", { class: "tremble-actions" });
    for (const a of legal.slice(0, 80)) {
      const b = el("button", { type: "button", class: "tremble-action" }, actionText(a));
      b.addEventListener("click", () => ctx.send(a));
      actions.appendChild(b);
    }
    if (legal.length > 80) actions.appendChild(el("div", {}, `… ${legal.length - 80} ${t("more", "more")}`));
    wrap.appendChild(actions);

    // players
    const table = el("table", { class: "tremble-players" });
    const hdr = el("tr");
    for (const h of ["seat", "humans", "credits", "ships", "compensations", "trophies", "stations"]) hdr.appendChild(el("th", {}, t(h, h)));
    table.appendChild(hdr);
    for (const p of view.players) {
      const tr = el("tr", { style: `border-left:6px solid ${COLORS[p.seat % COLORS.length]}` });
      tr.appendChild(el("td", {}, `${p.seat}${view.to_act.includes(p.seat) ? " ●" : ""}`));
      tr.appendChild(el("td", {}, money(p.humans)));
      tr.appendChild(el("td", {}, `${p.credits}`));
      tr.appendChild(el("td", {}, `${p.hand_count}`));
      tr.appendChild(el("td", {}, `${p.comp_count}`));
      tr.appendChild(el("td", {}, p.trophies.map((c) => nm(c, ctx)).join(", ")));
      const stTd = el("td");
      for (const s of p.stations) {
        const use = legal.find((a) => a.type === "use_station" && a.station === s.id);
        const span = el("span", { class: "tremble-station", title: JSON.stringify(s.effect) }, nm(s, ctx) + (s.tapped ? " (" + t("tapped", "used") + ")" : "") + " ");
        if (use) { span.style.cursor = "pointer"; span.style.textDecoration = "underline"; span.addEventListener("click", () => ctx.send(use)); }
        stTd.appendChild(span);
      }
      tr.appendChild(stTd);
      table.appendChild(tr);
    }
    wrap.appendChild(table);

    // private panel of this seat
    const me = view.players.find((p) => p.seat === ctx.seat);
    if (me && me.hand) {
      const panel = el("div", { class: "tremble-private" });
      panel.appendChild(el("h4", {}, `${t("your_hand", "Your hand")} (${view.card_set})`));
      const ul = el("ul");
      for (const s of me.hand) {
        const li = el("li", {}, shipText(s, ctx) + (s.abilities.length ? " — " + s.abilities.map((e) => e.op).join(", ") : ""));
        const loss = legal.find((a) => a.type === "choose_loss" && a.ship === s.id);
        if (loss) { li.style.cursor = "pointer"; li.addEventListener("click", () => ctx.send(loss)); }
        ul.appendChild(li);
      }
      panel.appendChild(ul);
      if (me.drawn && me.drawn.length) {
        panel.appendChild(el("h4", {}, t("drawn", "Drawn cards")));
        const d = el("ul");
        for (const c of me.drawn) d.appendChild(el("li", {}, `${nm(c, ctx)} — ${money(c.price)}` + (c.card === "ship" ? ` (${c.kind}, ${t("strength", "strength")} ${c.strength})` : ` (${c.effect.op})`)));
        panel.appendChild(d);
      }
      if (me.comps && me.comps.length) {
        panel.appendChild(el("h4", {}, t("compensations", "Compensation cards")));
        const d = el("ul");
        for (const c of me.comps) d.appendChild(el("li", {}, `${nm(c, ctx)} (${c.effect.op}; ${t("received", "received")} ${c.received})`));
        panel.appendChild(d);
      }
      if (view.sealed && view.sealed.own) panel.appendChild(el("div", {}, `${t("your_commit", "Your commit")}: ${actionText(view.sealed.own)}`));
      wrap.appendChild(panel);
    }
    wrap.appendChild(el("div", { class: "tremble-missions" },
      `${t("missions", "Missions")}: ` + view.missions.map((m) => `${nm(m, ctx)} (${t(m.target, m.target)})`).join(" · ")));
    const log = el("ol", { class: "tremble-events", style: "font-size:11px" });
    for (const e of view.events || []) log.appendChild(el("li", {}, e));
    wrap.appendChild(log);
    root.appendChild(wrap);
  }

  function actionText(a) {
    switch (a.type) {
      case "buy": return `buy ${a.buy.join(", ") || "nothing"}` + (a.credits ? ` +credit×${a.credits}` : "") + (a.discard.length ? ` discard ${a.discard.join(", ")}` : "") + (a.repay ? ` repay×${a.repay}` : "");
      case "plan": return a.groups.map((g) => `${g.slot}: ${g.ships.join("+")}`).join("; ") || "stay home";
      case "declare": case "reward": case "army": return `${a.type} ${a.choice}`;
      case "use_station": return `use ${a.station}` + (a.target ? ` → ${a.target}` : "");
      case "use_compensation": return `play ${a.card}` + (a.target ? ` → ${a.target}` : "");
      case "choose_loss": return `lose ${a.ship}`;
      case "claim_city": return `claim with ${a.card}`;
      case "relocate_enemy": return `${a.station}: ${a.ship} → ${a.to_slot}`;
      case "relocate_self": return a.moves.map((m) => `${m.ship} → ${m.to_slot}`).join("; ") || "stay";
      case "ignore_army": return `${a.card} vs army #${a.army_index + 1}`;
      case "committed": return "(sealed)";
      default: return a.type;
    }
  }

  if (typeof Spacetable !== "undefined") Spacetable.registerRenderer("tremble", { render, actionText });
})();
