// Tremble, Humans! («Трепещите, человеки!») renderer (game id "tremble"; rules docs/rules/tremble.md, ids TH-*), on
// the renderer interface of docs/architecture.md ("Web client"). The house card set is not the published one: the
// board names the set (TH-0.3).
//
// View JSON (game.view(state, seat)):
//   {game:"tremble", card_set, card_set_source, viewer, turn, turns, phase, lead, fuel_limit, fuel_table, to_act,
//    players:[{seat, humans, credits, credits_taken, stations:[station+tapped], trophies:[city], hand_count,
//              comp_count, comp_turns, drawn_count, known_ships:[ship],
//              hand?:[ship], comps?:[{id,name,name_ru,effect,received}], drawn?:[card], peek?:[n]}],  // ? own seat only
//    missions:[{id,name,name_ru,kind,target}], slots:[{slot, city, groups:{seat:[ship]}, support:{seat:n}}],
//    contest:{kind, slot, order, fighters, in_play, dice, totals?, armies, revealed, army_pos, winner, losers...}|null,
//    sealed:{committed:{seat:bool}, own}|null, piles, final, events:[line]}
//   ship = {id, name, name_ru, kind, deck, strength, fuel, price, abilities:[effect]}; station = {card:"station", id,
//   name, name_ru, deck, price, effect, token}; city = {id, name, name_ru, region, city_type, raid, catch, catch_draw, deck}
//
// The table (the board): the turn, the fuel limit and the missions; the cities of the turn with every captain's
// group and its strength, the armies of a catch; during buying the shop; the captains' public areas (humans,
// credits, trophies, stations). Under the board: your hand, stations and compensation cards. Decisions:
//   buy    the shop (tremble-shop.js): tap drawn cards to buy, owned cards to discard; the composer adds it up;
//   plan   composed on the board (tremble-plan.js): tap or drag ships onto cities, fuel and support in the composer;
//   the small decisions (tremble-panels.js): buttons with the server's sentences, and board gestures where the
//   decision points at something on the table (a station or card, then a ship; the ship to lose; an army).
// Results of battles and catches: tremble-story.js. Styles: tremble.css (loaded with this module).
import { html, placeAttrs, Icon, useEffect } from "/static/app/kit.js";
import { ArmyCard, CityChip, CityTags, EffectCard, MissionChip, ShipCard, ShipChip } from "./tremble-cards.js";
import { Pic, SEAT_COLOURS, REGION_COLOURS, groupStrength, me, texts, usable } from "./tremble-common.js";
import { DecisionPanel, selfMovers } from "./tremble-panels.js";
import { PlanComposer, dragShip, dropOn, isPlanning, planHighlights, planModel, planTap } from "./tremble-plan.js";
import { Shop, ShopComposer, isBuying, shopHighlights, shopModel, shopTap } from "./tremble-shop.js";
import { Story, lastStory } from "./tremble-story.js";

await new Promise((resolve) => { // the renderer's stylesheet, in before the first drawing
  if (document.querySelector("link[data-renderer=tremble]")) { resolve(); return; }
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/tremble.css";
  link.dataset.renderer = "tremble";
  link.onload = link.onerror = () => resolve();
  document.head.append(link);
});

const isSelfMoving = (props) => props.interactive && props.view.phase === "self_move" && props.legal.some((a) => a.type === "relocate_self");

// ------------------------------------------------------------------------------------------- highlights
/** Ships that move themselves (TH-7.2 b): pick one on its city, then another city. */
function selfHighlights(props) {
  const { hl, ui, view, you, legal } = props;
  const movers = selfMovers(view, you, legal);
  const sources = new Set(movers.map((m) => "ship:" + m.id));
  const targets = new Map();
  const picked = ui.pick && movers.find((m) => "ship:" + m.id === ui.pick);
  if (picked) for (const sl of view.slots) targets.set("slot:" + sl.slot, { kind: sl.slot === picked.at ? "special" : "move" });
  return { ...hl, interactive: true, sources, targets, selected: picked ? ui.pick : null };
}

function highlights(props) {
  if (isPlanning(props)) return planHighlights(props);
  if (isBuying(props)) return shopHighlights(props);
  if (isSelfMoving(props)) return selfHighlights(props);
  return props.hl;
}

// ------------------------------------------------------------------------------------------------ board
function Head({ props, tx }) {
  const { view } = props;
  const { t } = tx;
  const counts = missionCounts(view);
  return html`<header class="tr-head">
    <div class="tr-head-line">
      <span class="tr-turn" data-testid="tremble-turn">${t("tremble.ui.turn_of", { n: view.turn, of: view.turns })}</span>
      ${view.fuel_limit !== null && view.fuel_limit !== undefined ? html`<span class="tr-fuel-limit" title=${t("tremble.ui.fuel_limit_help")}>
        <${Pic} name="fuel" size=${14} />${t("tremble.ui.fuel_limit", { limit: view.fuel_limit })}</span>` : null}
      ${view.fuel_table && view.fuel_table.length ? html`<span class="tr-fuel-table" role="img"
        aria-label=${t("tremble.ui.fuel_table", { limits: view.fuel_table.join(", ") })} title=${t("tremble.ui.fuel_table", { limits: view.fuel_table.join(", ") })}>
        ${view.fuel_table.map((f, i) => html`<span class=${i + 1 === view.turn ? "now" : i + 1 < view.turn ? "past" : ""}>${f}</span>`)}</span>` : null}
      <span class="tr-set" data-testid="tremble-card-set">${tx.house ? t("tremble.card_set.house") : view.card_set}</span>
    </div>
    <div class="tr-scores" role="list" aria-label=${t("tremble.ui.captains")}>${view.players.map((p) => html`<span role="listitem"
        class=${"tr-score" + (view.to_act.includes(p.seat) ? " to-act" : "")} style=${{ "--seat": tx.colour(p.seat) }}>
      <span class="seat-dot" style=${{ background: tx.colour(p.seat) }} aria-hidden="true"></span>${tx.who(p.seat)}
      <b><${Pic} name="humans" size=${13} />${tx.num(p.humans)}</b><span class="tr-score-trophies" title=${t("tremble.ui.trophies")}>
      <${Icon} name="trophy" size=${14} />${p.trophies.length}</span></span>`)}</div>
    <div class="tr-missions" role="list" aria-label=${t("tremble.ui.missions")}>
      ${view.missions.map((m) => html`<span role="listitem"><${MissionChip} mission=${m} tx=${tx}
        counts=${html`<span class="tr-mission-counts">${counts[m.id].map((n, i) => html`<span class="tr-count"
          style=${{ "--seat": tx.colour(view.players[i].seat) }} title=${tx.who(view.players[i].seat)}>${n}</span>`)}</span>`} /></span>`)}
    </div>
  </header>`;
}

/** Trophies per mission and captain (TH-14). */
function missionCounts(view) {
  const out = {};
  for (const m of view.missions) {
    out[m.id] = view.players.map((p) => p.trophies.filter((c) => (m.kind === "region" ? c.region : c.city_type) === m.target).length);
  }
  return out;
}

function Group({ seat, ships, sl, props, hl, tx, state, total, dice, support }) {
  const { t } = tx;
  const vsCaptains = groupStrength(ships, sl.city, false, support);
  const vsArmy = groupStrength(ships, sl.city, true, support);
  const you = props.you === seat;
  return html`<div class=${"tr-group" + (state ? " " + state : "") + (you ? " mine" : "")} style=${{ "--seat": tx.colour(seat) }}
      data-testid=${"group-" + sl.slot + "-" + seat} data-strength=${total ?? vsCaptains}>
    <div class="tr-group-head">
      <span class="seat-dot" style=${{ background: tx.colour(seat) }} aria-hidden="true"></span>
      <span class="tr-group-who">${tx.who(seat)}</span>
      ${state === "sealed" ? html`<${Pic} name="sealed" size=${12} label=${t("tremble.ui.sealed")} />` : null}
      <span class="tr-num tr-str" title=${t("tremble.ui.strength_vs", { captains: vsCaptains, armies: vsArmy })}>
        <${Pic} name="strength" size=${13} />${total ?? vsCaptains}${total === undefined && vsArmy !== vsCaptains
          ? html`<span class="tr-alt">/${vsArmy}</span>` : null}</span>
      ${dice !== undefined ? html`<span class="tr-num tr-dice-n"><${Pic} name="dice" size=${12} />${dice}</span>` : null}
    </div>
    ${support ? html`<div class="tr-support-pill">${t("tremble.ui.support_n", { n: support })}</div>` : null}
    <div class="tr-ships">${ships.map((s) => html`<${ShipChip} key=${s.id} ship=${s} tx=${tx} hl=${hl} place=${"ship:" + s.id}
      drag=${state === "draft" ? dragShip : null} />`)}</div>
  </div>`;
}

function City({ sl, props, hl, tx, plan, sealedOwn }) {
  const { view } = props;
  const { t, num } = tx;
  const c = view.contest;
  const active = c && c.slot === sl.slot && view.phase !== "plan";
  const place = "slot:" + sl.slot;
  const missionHit = view.missions.some((m) => (m.kind === "region" ? sl.city.region : sl.city.city_type) === m.target);
  const groups = Object.entries(sl.groups).map(([seat, ships]) => ({ seat: Number(seat), ships })).sort((a, b) => a.seat - b.seat);
  if (plan) {
    const mine = plan.slots.find((x) => x.slot === sl.slot);
    const sup = plan.supportAt(sl.slot);
    if (mine && (mine.mine.length || sup)) groups.push({ seat: props.you, ships: mine.mine, state: "draft", support: sup });
  } else if (sealedOwn) {
    const g = (sealedOwn.groups || []).find((x) => x.slot === sl.slot);
    const hand = (me(view, props.you) || {}).hand || [];
    if (g) groups.push({ seat: props.you, ships: g.ships.map((id) => hand.find((s) => s.id === id) || { id, name: id, kind: "saucer", strength: 0, fuel: 0 }), state: "sealed" });
  }
  const cls = ["tr-city", "deck-" + sl.city.deck];
  if (active) cls.push("is-contest");
  if (hl.targets.has(place)) cls.push("is-target");
  if (hl.last.has(place)) cls.push("is-last");
  if (hl.hover.has(place)) cls.push("is-hover");
  const label = t("tremble.ui.city_label", { slot: sl.slot, city: tx.name(sl.city), raid: num(sl.city.raid), catch: num(sl.city.catch) });
  const drop = plan ? dropOn(props, sl.slot) : {};
  return html`<article class=${cls.join(" ")} data-slot=${sl.slot} data-testid=${"city-" + sl.slot}
      style=${{ "--region": REGION_COLOURS[sl.city.region] || "#888" }}>
    <div ...${placeAttrs(hl, place, label, "tr-city-hit")} ...${drop}></div>
    <header class="tr-city-head">
      <span class="tr-slot" aria-hidden="true">${sl.slot}</span>
      <b class="tr-city-name">${tx.name(sl.city)}</b>
      ${missionHit ? html`<${Pic} name="mission" size=${14} cls="tr-mission-hit" label=${t("tremble.ui.counts_for_mission")} />` : null}
    </header>
    <${CityTags} city=${sl.city} tx=${tx} />
    <div class="tr-city-values">
      <span title=${t("tremble.ui.raid")}><b>${t("tremble.ui.raid")}</b> ${num(sl.city.raid)}</span>
      <span title=${t("tremble.ui.catch")}><b>${t("tremble.ui.catch")}</b> ${num(sl.city.catch)}${" "}
        <span class="muted">· ${t("tremble.ui.armies_n", { n: sl.city.catch_draw })}</span></span>
    </div>
    <div class="tr-groups">${groups.map((g) => html`<${Group} key=${g.seat + (g.state || "")} seat=${g.seat} ships=${g.ships} sl=${sl}
      props=${props} hl=${hl} tx=${tx} state=${g.state} support=${g.support ?? (sl.support[String(g.seat)] || 0)}
      total=${active && c.totals && c.totals[String(g.seat)] !== undefined ? c.totals[String(g.seat)] : undefined}
      dice=${active && c.dice[String(g.seat)] !== undefined ? c.dice[String(g.seat)] : undefined} />`)}
      ${groups.length ? null : html`<p class="tr-empty">${t(view.phase === "plan" ? "tremble.ui.no_group_yet" : "tremble.ui.nobody")}</p>`}</div>
    ${active && c.kind === "army" && c.revealed.length ? html`<div class="tr-army-row" role="group" aria-label=${t("tremble.ui.armies")}>
      ${c.armies.map((v, i) => html`<${ArmyCard} value=${v} index=${i} tx=${tx} hl=${hl} place=${"army:" + i}
        state=${i < c.army_pos ? "beaten" : i === c.army_pos ? "current" : ""} />`)}</div>` : null}
  </article>`;
}

function Cities({ props, hl, tx }) {
  const { view } = props;
  const plan = isPlanning(props) ? planModel(view, props.you, props.ui) : null;
  const sealedOwn = view.phase === "plan" && view.sealed && view.sealed.own ? view.sealed.own : null;
  return html`<section class="tr-cities" aria-label=${tx.t("tremble.ui.cities")} data-count=${view.slots.length}>
    ${view.slots.map((sl) => html`<${City} key=${sl.slot + sl.city.id} sl=${sl} props=${props} hl=${hl} tx=${tx} plan=${plan} sealedOwn=${sealedOwn} />`)}
  </section>`;
}

function Tableaux({ props, tx }) {
  const { view } = props;
  const { t, num } = tx;
  const committed = (view.sealed && view.sealed.committed) || {};
  return html`<section class="tr-tableaux" aria-label=${t("tremble.ui.captains")}>
    ${view.players.map((p) => html`<div class=${"tr-player" + (view.to_act.includes(p.seat) ? " to-act" : "")} style=${{ "--seat": tx.colour(p.seat) }}
        data-testid=${"captain-" + p.seat}>
      <div class="tr-player-head">
        <span class="seat-dot" style=${{ background: tx.colour(p.seat) }} aria-hidden="true"></span>
        <b class="tr-player-name">${tx.who(p.seat)}</b>
        ${view.sealed && committed[String(p.seat)] !== undefined ? html`<span class="tr-state">${committed[String(p.seat)]
          ? html`<${Pic} name="sealed" size=${12} /> ${t("tremble.ui.has_decided")}` : t("tremble.ui.deciding")}</span>` : null}
      </div>
      <div class="tr-player-stats">
        <span class="tr-humans" title=${t("tremble.ui.humans")}><${Pic} name="humans" size=${14} /><b data-testid=${"humans-" + p.seat}>${num(p.humans)}</b></span>
        <span title=${t("tremble.ui.ships")}><${Pic} name="saucer" size=${14} />${p.hand_count}</span>
        <span title=${t("tremble.ui.comp_cards")}><${Pic} name="comp" size=${14} />${p.comp_count}</span>
        ${p.credits ? html`<span class="tr-credits" title=${t("tremble.ui.open_credits", { n: p.credits })}><${Pic} name="credit" size=${14} />${p.credits}</span>` : null}
      </div>
      ${p.stations.length ? html`<div class="tr-player-stations">${p.stations.map((st) => html`<span class=${"tr-station-chip" + (st.tapped ? " tapped" : "")}
        title=${tx.effect(st.effect)}><${Pic} name="station" size=${12} />${tx.name(st)}${st.tapped ? " · " + t("tremble.ui.used") : ""}</span>`)}</div>` : null}
      <div class="tr-trophies" role="group" aria-label=${t("tremble.ui.trophies")}>${p.trophies.length
        ? p.trophies.map((c) => html`<${CityChip} city=${c} tx=${tx} />`) : html`<span class="muted small">${t("tremble.ui.no_trophies")}</span>`}</div>
    </div>`)}
  </section>`;
}

/** How long after the seat's own action a phone keeps the board at the top while the page changes (`Board`). */
const HOLD_MS = 2500;
/** What ends that hold: the player scrolls or touches the page themselves. */
const HANDS = ["wheel", "touchstart", "keydown", "pointerdown"];

function Board(props) {
  const { view } = props;
  // on a phone the composer sits below the board: once the seat's own action is on the table, back to the board.
  // ``acted`` (the version of the seat's own latest move) and not the shown move: the other seats' sealed decisions
  // that follow at once may be shown before the page draws the seat's own
  const mine = props.acted ?? null;
  useEffect(() => {
    if (mine === null || props.replay || typeof window === "undefined" || window.innerWidth > 700) return undefined;
    const board = () => document.querySelector("[data-testid=board]");
    const el = board();
    if (!el || el.getBoundingClientRect().top >= 0) return undefined;
    el.scrollIntoView({ block: "start", behavior: "smooth" });
    // the other seats' decisions that come next change the page while it scrolls (a scroll aims at where the board
    // was when it started): for a moment, each change of the page's size aims again at the board's top, unless the
    // player scrolls or touches the page meanwhile
    if (typeof ResizeObserver === "undefined") return undefined;
    const again = new ResizeObserver(() => {
      const b = board();
      if (b && Math.abs(b.getBoundingClientRect().top) > 1) b.scrollIntoView({ block: "start", behavior: "smooth" });
    });
    const stop = () => {
      again.disconnect();
      clearTimeout(timer);
      for (const kind of HANDS) window.removeEventListener(kind, stop);
    };
    const timer = setTimeout(stop, HOLD_MS);
    for (const kind of HANDS) window.addEventListener(kind, stop, { passive: true });
    again.observe(document.body);
    return stop;
  }, [mine]);
  const tx = texts(props);
  const hl = highlights(props);
  const shop = view.phase === "buy" || view.phase === "redraw";
  return html`<div class=${"tr-board phase-" + view.phase} data-testid="tremble-board" data-phase=${view.phase}>
    <${Head} props=${props} tx=${tx} />
    ${shop ? html`<${Shop} props=${props} hl=${hl} tx=${tx} ShipCard=${ShipCard} EffectCard=${EffectCard} />` : null}
    ${view.slots.length ? html`<${Cities} props=${props} hl=${hl} tx=${tx} />` : shop
      ? html`<p class="tr-dealt-later" data-testid="tremble-cities-later"><${Pic} name="culture" size=${14} />
        ${tx.t("tremble.ui.cities_later", { n: view.players.length + 1 })}</p>` : null}
    <${StoryPanel} props=${props} tx=${tx} />
  </div>`;
}

// ------------------------------------------------------------------------------------------------- tray
/** Your cards under the board: ships (picked to plan, toggled to discard), stations and compensation cards. */
function Tray(props) {
  const { view, you } = props;
  const p = me(view, you);
  if (!p || !p.hand) return null;
  const tx = texts(props);
  const { t } = tx;
  const hl = highlights(props);
  const plan = isPlanning(props) ? planModel(view, you, props.ui) : null;
  const shop = isBuying(props) ? shopModel(view, you, props.ui) : null;
  const badge = (s) => {
    if (plan && plan.draft[s.id]) {
      const sl = view.slots.find((x) => x.slot === plan.draft[s.id]);
      return t("tremble.ui.sent_to", { slot: sl.slot, city: tx.name(sl.city) });
    }
    if (shop && shop.disc[s.id]) return t("tremble.ui.to_discard");
    const at = view.slots.find((sl) => (sl.groups[String(you)] || []).some((x) => x.id === s.id));
    return at ? t("tremble.ui.at_city", { slot: at.slot, city: tx.name(at.city) }) : null;
  };
  const stateOf = (c, kind) => {
    if (view.phase === "over") return null;
    if (kind === "station") return c.tapped ? t("tremble.ui.used_this_turn") : shop && shop.disc[c.id] ? t("tremble.ui.to_discard") : null;
    if (!usable(c, view)) return t("tremble.ui.usable_from", { turn: c.received + 1 });
    return shop && shop.compOn[c.id] ? t("tremble.ui.to_play") : null;
  };
  return html`<div class="tr-tray" data-testid="tremble-hand">
    <div class="tr-zone">
      <h2 class="tr-zone-title">${t("tremble.ui.your_ships", { n: p.hand.length })}</h2>
      <div class="tr-cards">
        ${p.hand.map((s) => html`<${ShipCard} key=${s.id} ship=${s} tx=${tx} hl=${hl} place=${"ship:" + s.id}
          on=${(plan && plan.draft[s.id]) || (shop && shop.disc[s.id])} badge=${badge(s)} drag=${plan ? dragShip : null} />`)}
        ${plan ? html`<div ...${placeAttrs(hl, "home", t("tremble.ui.home"), "tr-card tr-home")} ...${dropOn(props, null)}>
          <${Pic} name="home" size=${20} /><span>${t("tremble.ui.home")}</span></div>` : null}
      </div>
    </div>
    ${p.stations.length || p.comps.length ? html`<div class="tr-zone">
      <h2 class="tr-zone-title">${t("tremble.ui.your_effects")}</h2>
      <div class="tr-cards">
        ${p.stations.map((st) => html`<${EffectCard} key=${st.id} card=${st} kind="station" tx=${tx} hl=${hl} place=${"card:" + st.id}
          on=${(shop && shop.disc[st.id]) || (plan && plan.support[st.id])} state=${plan && plan.support[st.id]
            ? t("tremble.ui.token_on", { slot: plan.support[st.id] }) : stateOf(st, "station")} />`)}
        ${p.comps.map((c) => html`<${EffectCard} key=${c.id} card=${c} kind="comp" tx=${tx} hl=${hl} place=${"card:" + c.id}
          on=${shop && shop.compOn[c.id]} state=${stateOf(c, "comp")} />`)}
      </div>
    </div>` : null}
  </div>`;
}

// -------------------------------------------------------------------------------------------- side panel
function Composer(props) {
  if (!props.interactive || !props.legal.length) return null;
  const { t } = texts(props);
  let body;
  if (isBuying(props)) body = html`<${ShopComposer} ...${props} />`;
  else if (isPlanning(props)) body = html`<${PlanComposer} ...${props} />`;
  else body = html`<${DecisionPanel} ...${props} />`;
  if (!body) return null;
  return html`<section class="card composer tr-composer" aria-labelledby="tremble-composer-h" data-testid="composer">
    <h2 id="tremble-composer-h">${t("tremble.ui.your_move")}</h2>${body}</section>`;
}

/** The story of the last city (battle, raid, catch), on the table under the cities, growing step by step. */
function StoryPanel({ props, tx }) {
  const story = lastStory(props.view.events);
  if (!story) return null;
  return html`<section class=${"tr-story-panel" + (story.closed ? " closed" : "")} aria-labelledby="tremble-story-h" data-testid="tremble-results">
    <h3 id="tremble-story-h">${tx.t(story.closed ? "tremble.ui.results_last" : "tremble.ui.results_at", { city: tx.named(story.city) })}</h3>
    <${Story} story=${story} props=${props} />
  </section>`;
}

/** At the end: how the humans were counted (mission prizes, unpaid credits; TH-14). */
function Results(props) {
  const { view } = props;
  const final = view.final;
  if (!final) return null;
  const tx = texts(props);
  const { t, num } = tx;
  return html`<section class="card tr-results" aria-labelledby="tremble-final-h" data-testid="tremble-final-count">
    <h2 id="tremble-final-h">${t("tremble.ui.final_count")}</h2>
    <div class="tr-scroll-x"><table class="tr-final" data-testid="tremble-final"><thead><tr><th scope="col">${t("tremble.ui.captain")}</th>
      <th scope="col">${t("tremble.ui.missions")}</th><th scope="col" title=${t("tremble.ui.unpaid_credits")}>${t("tremble.ui.credits_col")}</th><th scope="col">${t("tremble.ui.humans")}</th></tr></thead>
      <tbody>${view.players.map((p, i) => html`<tr><th scope="row">${tx.who(p.seat)}</th><td>+${num(final.missions[i] || 0)}</td>
        <td>${final.credits[i] ? num(final.credits[i]) : "0"}</td><td><b>${num(p.humans)}</b></td></tr>`)}</tbody></table></div>
  </section>`;
}

/** Your own numbers and the missions race (TH-14). */
function Status(props) {
  const { view, you } = props;
  const tx = texts(props);
  const { t, num } = tx;
  const p = me(view, you);
  const counts = missionCounts(view);
  return html`<section class="card tr-status" aria-labelledby="tremble-status-h" data-testid="tremble-status">
    <h2 id="tremble-status-h">${t("tremble.ui.status")}</h2>
    <${Tableaux} props=${props} tx=${tx} />
    ${p ? html`<p data-testid="tremble-you">${t("tremble.ui.you_have", { humans: num(p.humans), ships: p.hand_count, credits: p.credits })}</p>` : null}
    <table class="tr-mission-table"><caption>${t("tremble.ui.missions")}</caption>
      <thead><tr><th scope="col">${t("tremble.ui.mission")}</th>${view.players.map((q) => html`<th scope="col" title=${tx.who(q.seat)}>
        <span class="seat-dot" style=${{ background: tx.colour(q.seat) }}></span><span class="sr-only">${tx.who(q.seat)}</span></th>`)}</tr></thead>
      <tbody>${view.missions.map((m) => {
        const c = counts[m.id];
        const best = Math.max(...c);
        return html`<tr><th scope="row">${tx.name(m)} <span class="muted small">${m.kind === "region" ? tx.term("region", m.target) : tx.term("city_type", m.target)}</span></th>
          ${c.map((n) => html`<td class=${n && n === best ? "lead" : ""}>${n}</td>`)}</tr>`;
      })}</tbody></table>
    <p class="help">${t("tremble.ui.missions_help")}</p>
  </section>`;
}

function Legend(props) {
  const tx = texts(props);
  const { t } = tx;
  return html`<div class="tr-legend" data-testid="tremble-legend">
    <ul class="legend-list">
      ${["saucer", "tripod", "cruiser"].map((k) => html`<li><${Pic} name=${k} size=${16} /> ${tx.term("kind", k)}</li>`)}
      <li><${Pic} name="strength" size=${14} /> ${t("tremble.ui.legend_strength")}</li>
      <li><${Pic} name="fuel" size=${14} /> ${t("tremble.ui.legend_fuel")}</li>
      <li><${Pic} name="humans" size=${14} /> ${t("tremble.ui.legend_humans")}</li>
      <li><${Pic} name="mission" size=${14} /> ${t("tremble.ui.legend_mission")}</li>
      <li><${Pic} name="sealed" size=${14} /> ${t("tremble.ui.legend_sealed")}</li>
      <li><${Pic} name="army" size=${14} /> ${t("tremble.ui.legend_army")}</li>
      <li><${Pic} name="dice" size=${14} /> ${t("tremble.ui.legend_dice")}</li>
    </ul>
    <p class="small">${t("tremble.ui.legend_regions")}</p>
    <div class="tr-tags">${Object.keys(REGION_COLOURS).map((r) => html`<span class="tr-tag" style=${{ "--tag": REGION_COLOURS[r] }}>${tx.term("region", r)}</span>`)}</div>
    <div class="tr-tags">${["science", "culture", "industrial"].map((c) => html`<span class="tr-tag tr-type"><${Pic} name=${c} size=${13} />${tx.term("city_type", c)}</span>`)}</div>
    <ul class="legend-list">
      <li><span class="legend-dot"></span> ${t("tremble.ui.legend_target")}</li>
      <li><span class="tr-legend-box draft"></span> ${t("tremble.ui.legend_draft")}</li>
      <li><span class="legend-last"></span> ${t("tremble.ui.legend_last")}</li>
      <li><span class="tr-legend-box contest"></span> ${t("tremble.ui.legend_contest")}</li>
    </ul>
    <p class="small muted">${t("tremble.card_set.house")}</p>
  </div>`;
}

// ---------------------------------------------------------------------------------------------- behaviour
/** Where an action is picked on the board: a station or card then a ship (or army), the ship to lose, an enemy
 *  ship then a city. Buying, planning and the other choices are composer controls (null). */
function places(a) {
  if ((a.type === "use_station" || a.type === "use_compensation") && a.target) {
    return { from: "card:" + (a.station || a.card), to: "ship:" + a.target, kind: "special" };
  }
  if (a.type === "choose_loss") return { from: null, to: "ship:" + a.ship, kind: "capture" };
  if (a.type === "ignore_army") return { from: "card:" + a.card, to: "army:" + a.army_index, kind: "capture" };
  if (a.type === "relocate_enemy") return { from: "ship:" + a.ship, to: "slot:" + a.to_slot, kind: "move" };
  return null;
}

/** What a refused tap meant, for the server to explain. */
function guess(from, to, view) {
  const p = me(view, view.viewer) || {};
  const id = (s) => s.slice(s.indexOf(":") + 1);
  if (from === null) return to.startsWith("ship:") ? { type: "choose_loss", ship: id(to) } : null;
  if (from.startsWith("card:") && to.startsWith("ship:")) {
    const station = (p.stations || []).some((st) => st.id === id(from));
    return station ? { type: "use_station", station: id(from), target: id(to) } : { type: "use_compensation", card: id(from), target: id(to) };
  }
  if (from.startsWith("ship:") && to.startsWith("slot:")) {
    const st = (p.stations || []).find((x) => x.effect.op === "relocate_enemy_ship");
    return st ? { type: "relocate_enemy", station: st.id, ship: id(from), to_slot: Number(id(to)) } : null;
  }
  return null;
}

function onPlace(place, api) {
  const { enabled, legal } = api;
  if (!enabled) return false;
  const props = { ...api, interactive: enabled };
  if (legal.some((a) => a.type === "plan")) return planTap(place, props);
  if (legal.some((a) => a.type === "buy")) return shopTap(place, props);
  if (api.view.phase === "self_move" && legal.some((a) => a.type === "relocate_self")) return selfTap(place, props);
  return false;
}

function selfTap(place, { view, you, legal, ui, setUi }) {
  const movers = selfMovers(view, you, legal);
  if (movers.some((m) => "ship:" + m.id === place)) { setUi({ pick: ui.pick === place ? null : place }); return true; }
  const picked = ui.pick && movers.find((m) => "ship:" + m.id === ui.pick);
  if (picked && place.startsWith("slot:")) {
    const slot = Number(place.slice(5));
    const moves = { ...(ui.moves || {}) };
    if (slot === picked.at) delete moves[picked.id]; else moves[picked.id] = slot;
    setUi({ moves, pick: null });
    return true;
  }
  return false;
}

function lastPlaces(entry, view) {
  const a = entry.action;
  if (!a) return [];
  if (a.type === "use_station" || a.type === "use_compensation") return ["card:" + (a.station || a.card), ...(a.target ? ["ship:" + a.target] : [])];
  if (a.type === "relocate_enemy") return ["ship:" + a.ship, "slot:" + a.to_slot];
  if (a.type === "relocate_self") return a.moves.flatMap((m) => ["ship:" + m.ship, ...(m.to_slot === "stay" ? [] : ["slot:" + m.to_slot])]);
  if (a.type === "ignore_army") return ["army:" + a.army_index];
  if (["declare", "reward", "army", "pass", "claim_city", "decline", "choose_loss"].includes(a.type)) return view.contest ? ["slot:" + view.contest.slot] : [];
  if (a.type === "plan") return (a.groups || []).map((g) => "slot:" + g.slot);
  if (a.type === "committed" && view.phase !== "plan" && view.phase !== "buy") {
    return view.slots.filter((sl) => sl.groups[String(entry.seat)]).map((sl) => "slot:" + sl.slot);
  }
  return [];
}

function phase(view, t) { return t("tremble.phase." + view.phase); }
function turn(view, t) { return t("tremble.ui.turn_of", { n: view.turn, of: view.turns }); }
function hint(props) {
  const { view, legal, ui, t } = props;
  const types = new Set(legal.map((a) => a.type));
  if (types.has("plan")) return t(ui.pick ? "tremble.ui.hint_plan_drop" : "tremble.ui.hint_plan");
  if (types.has("buy")) return t("tremble.ui.hint_buy");
  if (view.phase === "self_move") return t("tremble.ui.hint_self_move");
  if (types.has("choose_loss")) return t("tremble.ui.hint_loss");
  if (types.has("relocate_enemy")) return t("tremble.ui.hint_station_move");
  if (types.has("ignore_army")) return t("tremble.ui.hint_ignore");
  if (legal.some((a) => a.target)) return t("tremble.ui.hint_respond");
  return t("tremble.ui.hint_panel");
}
function seatColour(view, seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
function ending(outcome, view, t) {
  if (outcome.kind !== "score") return null;
  return t("tremble.ui.ending");
}

export default {
  Board, Tray, Composer, Status, Results, Legend,
  places, guess, onPlace, lastPlaces, phase, turn, hint, seatColour, ending,
};
