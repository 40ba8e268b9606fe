// Tremble, Humans!: the plan composed on the board (TH-6). A ship is tapped (or dragged) from the hand onto a city
// card, split groups are simply ships sent to different cities; fuel cards and fuel stations widen the turn's
// budget (TH-6.3), city-support tokens are placed on a city (TH-6.4). The composer in the side panel shows the
// fuel budget, the live strength at every city, a summary and the seal button; the plan is checked by the
// server (ctx.check) before it is sealed, and a refusal is explained in plain words with the rule's link.
// The server may list only a selection of the thousands of legal plans (legalComplete false): the plan is built
// from the view, never picked from that list.
import { html, Button } from "/static/app/kit.js";
import { Pic, groupStrength, me, texts, usable } from "./tremble-common.js";

export const isPlanning = (props) => props.interactive && props.legal.some((a) => a.type === "plan");

/** The draft of a plan from the view and the composer's store `ui` (draft: ship -> slot, fuel toggles, tokens). */
export function planModel(view, seat, ui) {
  const p = me(view, seat) || {};
  const hand = p.hand || [];
  const draft = ui.draft || {};
  const slots = view.slots.map((sl) => ({ ...sl, mine: hand.filter((s) => draft[s.id] === sl.slot) }));
  const used = hand.reduce((n, s) => n + (draft[s.id] ? s.fuel : 0), 0);
  const fuelStations = (p.stations || []).filter((st) => !st.tapped && st.effect.op === "extra_fuel");
  const fuelCards = (p.comps || []).filter((c) => usable(c, view) && c.effect.op === "extra_fuel");
  const supports = (p.stations || []).filter((st) => !st.tapped && st.effect.op === "city_support");
  const on = ui.fuel || {};
  const bonus = [...fuelStations, ...fuelCards].reduce((n, c) => n + (on[c.id] ? c.effect.n : 0), 0);
  const limit = view.fuel_limit || 0;
  const support = ui.support || {};
  const supportAt = (slot) => supports.reduce((n, st) => n + (support[st.id] === slot ? st.effect.n : 0), 0);
  const action = {
    type: "plan",
    groups: slots.filter((sl) => sl.mine.length).map((sl) => ({ slot: sl.slot, ships: sl.mine.map((s) => s.id) })),
    fuel_cards: fuelCards.filter((c) => on[c.id]).map((c) => c.id),
    stations: [
      ...fuelStations.filter((st) => on[st.id]).map((st) => ({ station: st.id })),
      ...supports.filter((st) => support[st.id]).map((st) => ({ station: st.id, slot: support[st.id] })),
    ],
  };
  return { hand, draft, slots, used, limit, bonus, budget: limit + bonus, fuelStations, fuelCards, supports, support, supportAt, action, on };
}

/** The planning highlights: every ship of the hand can be picked, then every city is a target. */
export function planHighlights(props) {
  const { hl, ui, view, you } = props;
  const m = planModel(view, you, ui);
  const sources = new Set([...m.hand.map((s) => "ship:" + s.id), ...m.supports.map((st) => "card:" + st.id)]);
  const targets = new Map();
  if (ui.pick) {
    for (const sl of view.slots) targets.set("slot:" + sl.slot, { kind: "place" });
    if (ui.pick.startsWith("ship:") && m.draft[ui.pick.slice(5)]) targets.set("home", { kind: "place" });
    if (ui.pick.startsWith("card:") && m.support[ui.pick.slice(5)]) targets.set("home", { kind: "place" });
  }
  return { ...hl, interactive: true, sources, targets, selected: ui.pick || null };
}

/** Taps while planning: pick a ship or a token, drop it on a city (or back home). */
export function planTap(place, { view, ui, setUi, you }) {
  const m = planModel(view, you, ui);
  if (place.startsWith("ship:") || place.startsWith("card:")) {
    const id = place.slice(place.indexOf(":") + 1);
    const known = place.startsWith("ship:") ? m.hand.some((s) => s.id === id) : m.supports.some((st) => st.id === id);
    if (!known) return false;
    setUi({ pick: ui.pick === place ? null : place, refusal: null });
    return true;
  }
  if (!ui.pick) return place.startsWith("slot:") || place === "home";
  const id = ui.pick.slice(ui.pick.indexOf(":") + 1);
  const token = ui.pick.startsWith("card:");
  if (place.startsWith("slot:")) {
    const slot = Number(place.slice(5));
    if (token) setUi({ support: { ...m.support, [id]: slot }, pick: null, refusal: null });
    else setUi({ draft: { ...m.draft, [id]: slot }, pick: null, refusal: null });
    return true;
  }
  if (place === "home") {
    if (token) { const s = { ...m.support }; delete s[id]; setUi({ support: s, pick: null, refusal: null }); }
    else { const d = { ...m.draft }; delete d[id]; setUi({ draft: d, pick: null, refusal: null }); }
    return true;
  }
  return false;
}

/** Drag a ship from the hand (or a city) onto a city card: the same as two taps. */
export function dragShip(e, id) {
  e.dataTransfer.setData("text/x-tremble-ship", id);
  e.dataTransfer.effectAllowed = "move";
}
export function dropOn(props, slot) {
  return {
    onDragOver: (e) => { if (e.dataTransfer.types.includes("text/x-tremble-ship")) { e.preventDefault(); e.currentTarget.classList.add("is-drop"); } },
    onDragLeave: (e) => e.currentTarget.classList.remove("is-drop"),
    onDrop: (e) => {
      e.preventDefault();
      e.currentTarget.classList.remove("is-drop");
      const id = e.dataTransfer.getData("text/x-tremble-ship");
      const m = planModel(props.view, props.you, props.ui);
      if (!id || !m.hand.some((s) => s.id === id)) return;
      const d = { ...m.draft };
      if (slot === null) delete d[id]; else d[id] = slot;
      props.setUi({ draft: d, pick: null, refusal: null });
    },
  };
}

/** A refusal from the server, in plain words with the rule's link. */
export function Refusal({ res, t }) {
  if (!res) return null;
  return html`<div class="tr-refusal" role="alert" data-testid="tremble-refusal">
    <p>${res.explain || res.message || t("tremble.ui.refused")}</p>
    ${res.rule ? html`<p class="small">${t("tremble.ui.rule")} <a href=${res.rule_url || "#"} target="_blank" rel="noopener">${res.rule}</a></p>` : null}
  </div>`;
}

/** Check an action with the server, then play it, or keep the refusal for the composer to show. A check that could
 *  not be made (its rate limit reached, offline, a server error) does not hold the move back: the action goes to the
 *  server, which checks every action it is sent, and a refusal comes back as any other. */
export async function checkThenPlay(props, action, key = "refusal") {
  if (!props.check) { props.play(action); return; }
  let res = null;
  try { res = await props.check(action); } catch (e) {
    if (e && e.unanswered) { props.play(action); return; }  // ApiError.unanswered
    res = { legal: false, explain: (e && e.error && e.error.message) || String(e) };
  }
  if (res && res.legal) props.play(action);
  else props.setUi({ [key]: res || { legal: false } });
}

/** Over the fuel budget: which ship to take back home (the one with the least fuel that is enough alone, else the
 *  thirstiest), said once in a polite live region that changes only when the excess does. */
function overFuel(m, tx) {
  const n = m.used - m.budget;
  const sent = m.hand.filter((s) => m.draft[s.id]).sort((a, b) => a.fuel - b.fuel);
  const ship = sent.find((s) => s.fuel >= n) || sent[sent.length - 1];
  if (!ship) return tx.t("tremble.ui.over_fuel", { n });
  return tx.t("tremble.ui.over_fuel_ship", { n, ship: tx.name(ship), fuel: ship.fuel });
}

export function PlanComposer(props) {
  const { view, you, ui, setUi } = props;
  const tx = texts(props);
  const { t } = tx;
  const m = planModel(view, you, ui);
  const over = m.used > m.budget;
  const pct = m.budget ? Math.min(100, Math.round((100 * m.used) / m.budget)) : 0;
  const toggleFuel = (id) => setUi({ fuel: { ...m.on, [id]: !m.on[id] }, refusal: null });
  const planned = m.slots.filter((sl) => sl.mine.length || m.supportAt(sl.slot));
  const home = m.hand.filter((s) => !m.draft[s.id]);
  return html`<div class="tr-plan" data-testid="tremble-plan">
    <h3>${t("tremble.ui.plan_title", { turn: view.turn })}</h3>
    <p class="help">${t("tremble.ui.plan_help")}</p>
    <div class=${"tr-fuel-meter" + (over ? " over" : "")} data-testid="tremble-fuel">
      <div class="tr-fuel-line"><${Pic} name="fuel" size=${16} />
        <b>${t("tremble.ui.fuel_used", { used: m.used, budget: m.budget })}</b>
        <span class="muted small">${m.bonus ? t("tremble.ui.fuel_limit_bonus", { limit: m.limit, bonus: m.bonus }) : t("tremble.ui.fuel_limit", { limit: m.limit })}</span></div>
      <div class="tr-bar" role="progressbar" aria-valuemin="0" aria-valuemax=${m.budget} aria-valuenow=${m.used}
        aria-label=${t("tremble.ui.fuel")}><span style=${{ width: pct + "%" }}></span></div>
      <p class="tr-warn" data-testid=${over ? "tremble-over-fuel" : null} role="status">${over ? overFuel(m, tx) : null}</p>
    </div>
    ${m.fuelStations.length || m.fuelCards.length ? html`<div class="chips" role="group" aria-label=${t("tremble.ui.fuel_extra")}>
      <span class="chips-label">${t("tremble.ui.fuel_extra")}</span>
      ${[...m.fuelStations, ...m.fuelCards].map((c) => html`<button type="button" class=${"chip" + (m.on[c.id] ? " on" : "")}
        aria-pressed=${m.on[c.id] ? "true" : "false"} data-testid=${"fuel-" + c.id} onClick=${() => toggleFuel(c.id)}>
        ${tx.name(c)} +${c.effect.n}</button>`)}</div>` : null}
    ${m.supports.length ? html`<div class="tr-supports" role="group" aria-label=${t("tremble.ui.support_tokens")}>
      ${m.supports.map((st) => html`<div class="chips">
        <span class="chips-label">${tx.name(st)} (+${st.effect.n})</span>
        ${view.slots.map((sl) => html`<button type="button" class=${"chip" + (m.support[st.id] === sl.slot ? " on" : "")}
          aria-pressed=${m.support[st.id] === sl.slot ? "true" : "false"} data-testid=${`support-${st.id}-${sl.slot}`}
          onClick=${() => { const s = { ...m.support }; if (s[st.id] === sl.slot) delete s[st.id]; else s[st.id] = sl.slot; setUi({ support: s, refusal: null }); }}>
          ${sl.slot}. ${tx.name(sl.city)}</button>`)}</div>`)}
      <p class="help">${t("tremble.ui.support_help")}</p></div>` : null}
    <div class="tr-summary" data-testid="tremble-plan-summary">
      <h4>${t("tremble.ui.summary")}</h4>
      ${planned.length ? html`<ul>${planned.map((sl) => html`<li data-slot=${sl.slot}>
        <b>${sl.slot}. ${tx.name(sl.city)}</b>: ${sl.mine.map((s) => tx.name(s)).join(", ") || t("tremble.ui.token_only")}
        <span class="tr-num tr-str"><${Pic} name="strength" size=${12} />${groupStrength(sl.mine, sl.city, false, m.supportAt(sl.slot))}</span>
      </li>`)}</ul>` : html`<p class="muted">${t("tremble.ui.no_attack")}</p>`}
      ${home.length ? html`<p class="small"><${Pic} name="home" size=${13} /> ${t("tremble.ui.stay_home", { ships: home.map((s) => tx.name(s)).join(", ") })}</p>` : null}
    </div>
    <div class="row-buttons">
      <${Button} kind="primary" icon="check" label=${planned.length ? t("tremble.ui.seal_plan") : t("tremble.ui.seal_no_attack")}
        testid="tremble-seal-plan" onClick=${() => checkThenPlay(props, m.action)} />
      <${Button} label=${t("tremble.ui.clear")} disabled=${!Object.keys(m.draft).length && !Object.keys(m.support).length}
        testid="tremble-clear-plan" onClick=${() => setUi({ draft: {}, support: {}, pick: null, refusal: null })} />
    </div>
    <${Refusal} res=${ui.refusal} t=${t} />
    <p class="muted small">${t("tremble.ui.plan_sealed_note")}</p>
  </div>`;
}
