// Tremble, Humans!: the composer's panels for the small decisions, each with what the decision needs to be taken
// well (strengths, odds, values) and the server's sentence of every action on its button:
//   redraw (TH-4.2), station moves (TH-7.2 a: tap an enemy ship, then a city), ships moving themselves (TH-7.2 b:
//   tap your ship, then a city, and confirm), fight or flee (TH-9.3), the response window (TH-11.3: tap a
//   station or compensation card under the board, then a ship), losses (TH-9.7: tap the ship to lose), taking
//   the city after a loss (TH-9.9), raid or catch (TH-10.1), ignoring an army (TH-10.3: tap the card, then the
//   army), army fights (TH-10.3, TH-10.4).
import { html, Button } from "/static/app/kit.js";
import { Pic, chanceAtLeast, chanceToWin, groupStrength, me, percent, texts } from "./tremble-common.js";

/** The legal actions of a kind with their server sentences. */
function options(props, pred) {
  return props.legal.map((a, i) => ({ a, text: props.legalText[i] || a.type })).filter((o) => pred(o.a));
}

function ActionButton({ o, props, kind = "", testid }) {
  return html`<${Button} kind=${kind} label=${o.text} testid=${testid} onClick=${() => props.play(o.a)} />`;
}

export function slotOf(view, n) { return view.slots.find((sl) => sl.slot === n) || null; }

/** Strength of a seat's group at a slot, against captains or armies, with its support tokens. */
export function strengthAt(view, sl, seat, vsArmy) {
  const ships = (sl && sl.groups[String(seat)]) || [];
  return groupStrength(ships, sl && sl.city, vsArmy, (sl && sl.support[String(seat)]) || 0);
}

function Panel({ title, children, testid }) {
  return html`<div class="tr-panel" data-testid=${testid}>${title ? html`<h3>${title}</h3>` : null}${children}</div>`;
}

// ------------------------------------------------------------------------------------------------ redraw
function Redraw(props) {
  const { t } = texts(props);
  const opts = options(props, (a) => a.type === "redraw_stations" || a.type === "keep");
  return html`<${Panel} title=${t("tremble.ui.redraw_title")} testid="tremble-redraw">
    <p class="help">${t("tremble.ui.redraw_help")}</p>
    <div class="row-buttons">${opts.map((o) => html`<${ActionButton} o=${o} props=${props} kind=${o.a.type === "keep" ? "" : "primary"}
      testid=${"tremble-" + o.a.type} />`)}</div></${Panel}>`;
}

// ------------------------------------------------------------------------------------------ fight or flee
function Declare(props) {
  const { view, you } = props;
  const tx = texts(props);
  const { t } = tx;
  const c = view.contest;
  const sl = slotOf(view, c.slot);
  const seats = Object.keys(sl.groups).map(Number);
  const mine = strengthAt(view, sl, you, false);
  const others = seats.filter((s) => s !== you).map((s) => strengthAt(view, sl, s, false));
  const opts = options(props, (a) => a.type === "declare");
  return html`<${Panel} title=${t("tremble.ui.battle_at", { city: tx.name(sl.city) })} testid="tremble-declare">
    <ul class="tr-sides">${seats.map((s) => html`<li>
      <span class="seat-dot" style=${{ background: tx.colour(s) }} aria-hidden="true"></span> ${tx.who(s)}
      <span class="tr-num tr-str"><${Pic} name="strength" size=${12} />${strengthAt(view, sl, s, false)}</span>
      <span class="muted small">${c.fighters.includes(s) ? t("tremble.ui.fights") : c.order.includes(s) ? t("tremble.ui.to_decide") : ""}</span></li>`)}</ul>
    <p data-testid="tremble-odds">${t("tremble.ui.win_chance", { p: percent(chanceToWin(mine, others)) })}</p>
    <p class="help">${t("tremble.ui.declare_help")}</p>
    <div class="row-buttons">${opts.map((o) => html`<${ActionButton} o=${o} props=${props} kind=${o.a.choice === "fight" ? "primary" : ""}
      testid=${"tremble-declare-" + o.a.choice} />`)}</div></${Panel}>`;
}

// ---------------------------------------------------------------------------------------- raid or catch
function Reward(props) {
  const { view, you } = props;
  const tx = texts(props);
  const { t, num } = tx;
  const c = view.contest;
  const sl = slotOf(view, c.slot);
  const ships = sl.groups[String(you)] || [];
  const bonus = ships.reduce((n, s) => n + (s.abilities || []).filter((e) => e.op === "raid_bonus").reduce((k, e) => k + e.amount, 0), 0);
  const vsArmy = strengthAt(view, sl, you, true);
  const p = me(view, you) || {};
  const opts = options(props, (a) => a.type === "reward");
  const peeks = options(props, (a) => a.type === "use_station");
  return html`<${Panel} title=${t("tremble.ui.reward_at", { city: tx.name(sl.city) })} testid="tremble-reward">
    <dl class="tr-facts">
      <dt>${t("tremble.ui.raid")}</dt><dd>${t("tremble.ui.raid_value", { n: num(sl.city.raid + bonus) })}</dd>
      <dt>${t("tremble.ui.catch")}</dt><dd>${t("tremble.ui.catch_value", { n: num(sl.city.catch), armies: sl.city.catch_draw })}</dd>
      <dt>${t("tremble.ui.vs_armies")}</dt><dd><span class="tr-num tr-str"><${Pic} name="strength" size=${12} />${vsArmy}</span>${" "}
        <span class="muted small">${t("tremble.ui.army_need", { lo: vsArmy + 2, hi: vsArmy + 12 })}</span></dd>
    </dl>
    ${p.peek && p.peek.length ? html`<p data-testid="tremble-peek">${t("tremble.ui.peeked", { armies: p.peek.map((v) => v || "–").join(", ") })}</p>` : null}
    <p class="help">${t("tremble.ui.reward_help")}</p>
    <div class="row-buttons">${opts.map((o) => html`<${ActionButton} o=${o} props=${props} kind=${o.a.choice === "raid" ? "primary" : ""}
      testid=${"tremble-reward-" + o.a.choice} />`)}</div>
    ${peeks.length ? html`<div class="row-buttons">${peeks.map((o) => html`<${ActionButton} o=${o} props=${props} testid="tremble-peek-use" />`)}</div>` : null}
  </${Panel}>`;
}

// ------------------------------------------------------------------------------------------- army fights
function Army(props) {
  const { view, you } = props;
  const tx = texts(props);
  const { t } = tx;
  const c = view.contest;
  const sl = slotOf(view, c.slot);
  const army = c.armies[c.army_pos];
  const mine = strengthAt(view, sl, you, true);
  const opts = options(props, (a) => a.type === "army");
  return html`<${Panel} title=${t("tremble.ui.army_fight", { n: c.army_pos + 1, of: c.armies.length })} testid="tremble-army">
    <p><${Pic} name="army" size=${16} /> ${t("tremble.ui.army_n", { n: army })} ·
      <span class="tr-num tr-str"><${Pic} name="strength" size=${12} />${mine}</span></p>
    <p data-testid="tremble-odds">${t("tremble.ui.army_chance", { need: Math.max(2, army - mine), p: percent(chanceAtLeast(army, mine)) })}</p>
    <p class="help">${t("tremble.ui.army_help")}</p>
    <div class="row-buttons">${opts.map((o) => html`<${ActionButton} o=${o} props=${props} kind=${o.a.choice === "fight" ? "primary" : ""}
      testid=${"tremble-army-" + o.a.choice} />`)}</div></${Panel}>`;
}

// ------------------------------------------------------------------------------------- response window
function Respond(props) {
  const { view } = props;
  const tx = texts(props);
  const { t } = tx;
  const c = view.contest;
  const totals = c.totals || {};
  const pass = options(props, (a) => a.type === "pass");
  const uses = options(props, (a) => a.type === "use_station" || a.type === "use_compensation");
  const army = c.kind === "army" ? c.armies[c.army_pos] : null;
  const targeted = uses.some((o) => o.a.target);
  return html`<${Panel} title=${t(c.kind === "army" ? "tremble.ui.respond_army" : "tremble.ui.respond_battle")} testid="tremble-respond">
    <ul class="tr-sides">${c.in_play.map((s) => html`<li>
      <span class="seat-dot" style=${{ background: tx.colour(s) }} aria-hidden="true"></span> ${tx.who(s)}
      <span class="tr-num"><${Pic} name="dice" size=${12} />${c.dice[String(s)] ?? "–"}</span>
      <b class="tr-num">${t("tremble.ui.total_n", { n: totals[String(s)] ?? "–" })}</b></li>`)}
      ${army ? html`<li><${Pic} name="army" size=${14} /> ${t("tremble.ui.army_n", { n: army })}</li>` : null}</ul>
    <p class="help">${t(targeted ? "tremble.ui.respond_help_target" : "tremble.ui.respond_help")}</p>
    <div class="tr-uses">${uses.map((o, k) => html`<${ActionButton} o=${o} props=${props} testid=${"tremble-use-" + k} />`)}</div>
    <div class="row-buttons">${pass.map((o) => html`<${ActionButton} o=${o} props=${props} kind="primary" testid="tremble-pass" />`)}</div>
  </${Panel}>`;
}

// ------------------------------------------------------------------------------------------------ losses
function Loss(props) {
  const { view } = props;
  const tx = texts(props);
  const { t } = tx;
  const c = view.contest;
  const sl = slotOf(view, c.slot);
  const ships = options(props, (a) => a.type === "choose_loss");
  const salvage = options(props, (a) => a.type === "use_compensation");
  return html`<${Panel} title=${t("tremble.ui.loss_title", { city: sl ? tx.name(sl.city) : "" })} testid="tremble-loss">
    <p class="help">${t("tremble.ui.loss_help")}</p>
    <div class="tr-uses">${ships.map((o) => html`<${ActionButton} o=${o} props=${props} testid=${"tremble-lose-" + o.a.ship} />`)}</div>
    ${salvage.length ? html`<div class="row-buttons">${salvage.map((o) => html`<${ActionButton} o=${o} props=${props} kind="primary" testid="tremble-salvage" />`)}</div>` : null}
  </${Panel}>`;
}

function Claim(props) {
  const { t } = texts(props);
  const opts = options(props, (a) => a.type === "claim_city" || a.type === "decline");
  return html`<${Panel} title=${t("tremble.ui.claim_title")} testid="tremble-claim">
    <p class="help">${t("tremble.ui.claim_help")}</p>
    <div class="row-buttons">${opts.map((o) => html`<${ActionButton} o=${o} props=${props} kind=${o.a.type === "claim_city" ? "primary" : ""}
      testid=${"tremble-" + o.a.type} />`)}</div></${Panel}>`;
}

function Ignore(props) {
  const { t } = texts(props);
  const pass = options(props, (a) => a.type === "pass");
  const uses = options(props, (a) => a.type === "ignore_army");
  return html`<${Panel} title=${t("tremble.ui.ignore_title")} testid="tremble-ignore">
    <p class="help">${t("tremble.ui.ignore_help")}</p>
    <div class="tr-uses">${uses.map((o) => html`<${ActionButton} o=${o} props=${props} testid=${"tremble-ignore-" + o.a.army_index} />`)}</div>
    <div class="row-buttons">${pass.map((o) => html`<${ActionButton} o=${o} props=${props} kind="primary" testid="tremble-pass" />`)}</div></${Panel}>`;
}

function StationMove(props) {
  const { t } = texts(props);
  const pass = options(props, (a) => a.type === "pass");
  return html`<${Panel} title=${t("tremble.ui.station_move_title")} testid="tremble-station-move">
    <p class="help">${t("tremble.ui.station_move_help")}</p>
    <div class="row-buttons">${pass.map((o) => html`<${ActionButton} o=${o} props=${props} kind="primary" testid="tremble-pass" />`)}</div></${Panel}>`;
}

// ------------------------------------------------------------------------------- ships moving themselves
/** Ships of the seat that may move themselves (TH-7.2 b), with the slot each is at. */
export function selfMovers(view, seat, legal) {
  const a = legal.find((x) => x.type === "relocate_self");
  if (!a) return [];
  return a.moves.map((m) => {
    const sl = view.slots.find((s) => (s.groups[String(seat)] || []).some((x) => x.id === m.ship));
    return { id: m.ship, ship: sl ? sl.groups[String(seat)].find((x) => x.id === m.ship) : { id: m.ship, name: m.ship }, at: sl ? sl.slot : null };
  });
}

export function selfMoveAction(props) {
  const movers = selfMovers(props.view, props.you, props.legal);
  const moves = props.ui.moves || {};
  const wanted = movers.map((m) => ({ ship: m.id, to_slot: moves[m.id] ?? "stay" }));
  return props.legal.find((a) => a.type === "relocate_self" && JSON.stringify(a.moves) === JSON.stringify(wanted)) || null;
}

function SelfMove(props) {
  const { view, you, ui, setUi } = props;
  const tx = texts(props);
  const { t } = tx;
  const movers = selfMovers(view, you, props.legal);
  const moves = ui.moves || {};
  const action = selfMoveAction(props);
  return html`<${Panel} title=${t("tremble.ui.self_move_title")} testid="tremble-self-move">
    <p class="help">${t("tremble.ui.self_move_help")}</p>
    ${movers.map((m) => html`<div class="chips" role="group" aria-label=${tx.name(m.ship)}>
      <span class="chips-label">${tx.name(m.ship)}</span>
      ${view.slots.map((sl) => { const here = sl.slot === m.at; const on = here ? moves[m.id] === undefined : moves[m.id] === sl.slot;
        return html`<button type="button" class=${"chip" + (on ? " on" : "")} aria-pressed=${on ? "true" : "false"}
          data-testid=${`self-${m.id}-${sl.slot}`}
          onClick=${() => { const d = { ...moves }; if (here) delete d[m.id]; else d[m.id] = sl.slot; setUi({ moves: d, pick: null }); }}>
          ${sl.slot}. ${tx.name(sl.city)}${here ? " · " + t("tremble.ui.stays") : ""}</button>`; })}</div>`)}
    <div class="row-buttons"><${Button} kind="primary" icon="check" label=${t("tremble.ui.confirm_moves")} disabled=${!action}
      testid="tremble-confirm-moves" onClick=${() => action && props.play(action)} /></div></${Panel}>`;
}

/** The panel for the seat's current decision (not buying or planning, which have their own composers). */
export function DecisionPanel(props) {
  const types = new Set(props.legal.map((a) => a.type));
  const phase = props.view.phase;
  if (phase === "redraw") return html`<${Redraw} ...${props} />`;
  if (phase === "declare" && types.has("declare")) return html`<${Declare} ...${props} />`;
  if (phase === "reward" && types.has("reward")) return html`<${Reward} ...${props} />`;
  if (phase === "army" && types.has("army")) return html`<${Army} ...${props} />`;
  if (phase === "respond") return html`<${Respond} ...${props} />`;
  if (phase === "loss") return html`<${Loss} ...${props} />`;
  if (phase === "claim") return html`<${Claim} ...${props} />`;
  if (phase === "ignore_army") return html`<${Ignore} ...${props} />`;
  if (phase === "station_move") return html`<${StationMove} ...${props} />`;
  if (phase === "self_move") return html`<${SelfMove} ...${props} />`;
  return null;
}
