// Tremble, Humans!: the cards as drawn on the table and in the hand (ships, stations, compensation cards, cities,
// armies, missions). Everything tappable carries data-place (the frame resolves taps); texts at least 12 px.
import { html, placeAttrs } from "/static/app/kit.js";
import { DECK_COLOURS, Pic, REGION_COLOURS, baseId } from "./tremble-common.js";

/** Highlight classes a place gets from a highlight set, plus toggles a composer keeps (cards chosen to buy...).
 *  Cards and chips are named by their own text (name, strength, fuel, effect), so no aria-label. */
export function liveAttrs(hl, id, extra, on) {
  const a = placeAttrs(hl, id, null, extra);
  if (on) a.class += " is-on is-selected";
  if (on && a.role === "button") a["aria-pressed"] = "true";
  return a;
}

/** Ship line: kind picture, name, strength, fuel. `compact` for the groups on a city card. */
export function ShipChip({ ship, tx, hl, place, extra = "", on, strength, note, drag }) {
  const a = place ? liveAttrs(hl, place, "tr-chip " + extra, on) : { class: "tr-chip " + extra };
  return html`<div ...${a} data-ship=${ship.id} title=${abilityTitle(ship, tx)}
      draggable=${drag ? "true" : null} onDragStart=${drag ? (e) => drag(e, ship.id) : null}>
    <${Pic} name=${ship.kind} size=${15} cls="tr-kind" />
    <span class="tr-chip-name">${tx.name(ship)}</span>
    <span class="tr-num tr-str" title=${tx.t("tremble.ui.strength")}><${Pic} name="strength" size=${12} /><span class="sr-only">${tx.t("tremble.ui.strength")}</span>${strength ?? ship.strength}</span>
    <span class="tr-num tr-fuel" title=${tx.t("tremble.ui.fuel")}><${Pic} name="fuel" size=${12} /><span class="sr-only">${tx.t("tremble.ui.fuel")}</span>${ship.fuel}</span>
    ${note ? html`<span class="tr-chip-note">${note}</span>` : null}
  </div>`;
}

function abilityTitle(ship, tx) {
  return (ship.abilities || []).map((e) => tx.effect(e)).join("; ") || null;
}

/** A ship as a card in the hand or the shop: name, kind, strength, fuel, price, abilities in words. */
export function ShipCard({ ship, tx, hl, place, on, badge, price = false, extra = "", drag }) {
  const a = place ? liveAttrs(hl, place, "tr-card tr-ship-card " + extra, on) : { class: "tr-card tr-ship-card " + extra };
  return html`<div ...${a} data-ship=${ship.id} style=${{ "--deck": DECK_COLOURS[ship.deck] || "#777" }}
      draggable=${drag ? "true" : null} onDragStart=${drag ? (e) => drag(e, ship.id) : null}>
    <div class="tr-card-head"><${Pic} name=${ship.kind} size=${16} cls="tr-kind" /><b class="tr-card-name">${tx.name(ship)}</b></div>
    <div class="tr-card-stats">
      <span class="tr-num tr-str"><${Pic} name="strength" size=${14} /><span class="sr-only">${tx.t("tremble.ui.strength")}</span>${ship.strength}</span>
      <span class="tr-num tr-fuel"><${Pic} name="fuel" size=${14} /><span class="sr-only">${tx.t("tremble.ui.fuel")}</span>${ship.fuel}</span>
      <span class="tr-kind-name">${tx.term("kind", ship.kind)}</span>
      ${price ? html`<span class="tr-price">${tx.num(ship.price)}</span>` : null}
    </div>
    ${(ship.abilities || []).map((e) => html`<div class="tr-ability">${tx.effect(e)}</div>`)}
    ${badge ? html`<div class="tr-badge">${badge}</div>` : null}
  </div>`;
}

/** A station (TH-11) or a compensation card (TH-12): name and effect; `state` says tapped/not yet usable. */
export function EffectCard({ card, kind, tx, hl, place, on, state, price = false, extra = "" }) {
  const cls = `tr-card tr-${kind}-card ${extra}`;
  const a = place ? liveAttrs(hl, place, cls, on) : { class: cls };
  return html`<div ...${a} data-card=${card.id}>
    <div class="tr-card-head"><${Pic} name=${kind === "station" ? "station" : "comp"} size=${16} />
      <b class="tr-card-name">${tx.name(card)}</b></div>
    <div class="tr-ability">${tx.effect(card.effect)}</div>
    ${price ? html`<div class="tr-card-stats"><span class="tr-kind-name">${tx.t("tremble.ui.station")}</span>
      <span class="tr-price">${tx.num(card.price)}</span></div>` : null}
    ${state ? html`<div class="tr-badge muted">${state}</div>` : null}
  </div>`;
}

/** City type and region of a city (missions count them, TH-14). */
export function CityTags({ city, tx }) {
  return html`<span class="tr-tags">
    <span class="tr-tag" style=${{ "--tag": REGION_COLOURS[city.region] || "#888" }}>${tx.term("region", city.region)}</span>
    <span class="tr-tag tr-type"><${Pic} name=${city.city_type} size=${13} />${tx.term("city_type", city.city_type)}</span>
  </span>`;
}

/** A small trophy or mission chip. */
export function CityChip({ city, tx }) {
  return html`<span class="tr-city-chip" style=${{ "--tag": REGION_COLOURS[city.region] || "#888" }}
      title=${`${tx.term("region", city.region)} · ${tx.term("city_type", city.city_type)}`}>
    <${Pic} name=${city.city_type} size=${12} />${tx.name(city)}</span>`;
}

export function MissionChip({ mission, tx, counts }) {
  const target = mission.kind === "region" ? tx.term("region", mission.target) : tx.term("city_type", mission.target);
  return html`<span class="tr-mission" style=${{ "--tag": REGION_COLOURS[mission.target] || "#b18cf0" }}
      title=${tx.t("tremble.ui.mission_help", { target })}>
    <${Pic} name=${mission.kind === "region" ? "mission" : mission.target} size=${13} />
    <b>${tx.name(mission)}</b><span class="muted">${target}</span>${counts || null}</span>`;
}

/** An army card revealed for a catch (TH-10.3): its strength, beaten or still to fight. */
export function ArmyCard({ value, index, state, hl, place, tx }) {
  const label = value ? tx.t("tremble.ui.army_n", { n: value }) : tx.t("tremble.ui.no_army");
  const a = place ? placeAttrs(hl, place, label, "tr-army " + (state || "")) : { class: "tr-army " + (state || "") };
  return html`<div ...${a} data-army=${index}>
    <${Pic} name="army" size=${14} /><span>${value ? value : "–"}</span></div>`;
}

export { baseId };
