// Tremble, Humans!: buying as a shop (TH-4.3, TH-4.4, TH-4.5, TH-4.6, TH-13). The cards drawn for you lie on the board with their
// prices: tap the ones to buy; the ships and stations of your hand (under the board) are tapped to discard when a
// limit asks for it; compensation cards that give humans, credits and repayments are composer controls. The
// composer adds it all up (price, the automatic discount of a station, your humans after) and says at once whether
// the purchase is allowed (the server's legal list when it is complete, else the server's check, with the rule in
// plain words); the confirm button seals it.
import { html, Button, useEffect, useState } from "/static/app/kit.js";
import { HOUSE_CREDIT, Pic, me, texts, usable } from "./tremble-common.js";
import { Refusal, checkThenPlay } from "./tremble-plan.js";

export const isBuying = (props) => props.interactive && props.legal.some((a) => a.type === "buy");

const sorted = (xs) => [...xs].sort();
const keyOf = (a) => JSON.stringify([a.credits || 0, a.repay || 0, sorted(a.buy || []), sorted(a.discard || []), sorted(a.comp || [])]);

export function shopModel(view, seat, ui) {
  const p = me(view, seat) || {};
  const drawn = p.drawn || [];
  const on = ui.buy || {};
  const disc = ui.discard || {};
  const compOn = ui.comp || {};
  const gains = (p.comps || []).filter((c) => usable(c, view) && c.effect.op === "gain_humans");
  const buy = drawn.filter((c) => on[c.id]);
  const prices = buy.map((c) => c.price || 0);
  const top = prices.length ? Math.max(...prices) : 0;
  const discountStation = (p.stations || []).find((st) => !st.tapped && st.effect.op === "price_discount") || null;
  const discount = discountStation && buy.length ? Math.min(discountStation.effect.amount, top) : 0;
  const cost = prices.reduce((a, b) => a + b, 0) - discount;
  const credits = ui.credits || 0;
  const repay = ui.repay || 0;
  const gain = gains.filter((c) => compOn[c.id]).reduce((n, c) => n + c.effect.amount, 0);
  const owned = [...(p.hand || []), ...(p.stations || [])];
  const action = {
    type: "buy", credits, buy: buy.map((c) => c.id), discard: owned.filter((c) => disc[c.id]).map((c) => c.id), repay,
    comp: gains.filter((c) => compOn[c.id]).map((c) => c.id),
  };
  return { p, drawn, buy, on, disc, compOn, gains, discountStation, discount, cost, credits, repay, gain, action, owned };
}

/** The board's shop during buying: the cards drawn for the seat, face up with prices (others' face down). */
export function shopHighlights(props) {
  const { hl, view, you, ui } = props;
  const m = shopModel(view, you, ui);
  const sources = new Set([...m.drawn.map((c) => "card:" + c.id), ...m.owned.map((c) => (c.kind ? "ship:" : "card:") + c.id),
    ...m.gains.map((c) => "card:" + c.id)]);
  return { ...hl, interactive: true, sources, targets: new Map(), selected: null };
}

/** Taps while buying: toggle a drawn card (buy), an owned ship or station (discard), a compensation card (play). */
export function shopTap(place, { view, you, ui, setUi }) {
  const m = shopModel(view, you, ui);
  const id = place.slice(place.indexOf(":") + 1);
  const flip = (key, cur) => setUi({ [key]: { ...cur, [id]: !cur[id] }, refusal: null });
  if (place.startsWith("card:") && m.drawn.some((c) => c.id === id)) { flip("buy", m.on); return true; }
  if (place.startsWith("card:") && m.gains.some((c) => c.id === id)) { flip("comp", m.compOn); return true; }
  if (m.owned.some((c) => c.id === id)) { flip("discard", m.disc); return true; }
  return false;
}

function Stepper({ label, value, min = 0, max, onChange, testid, help }) {
  return html`<div class="tr-stepper" role="group" aria-label=${label} data-testid=${testid}>
    <span class="tr-stepper-label">${label}</span>
    <${Button} icon="minus" iconOnly label=${label + " −"} disabled=${value <= min} onClick=${() => onChange(value - 1)} testid=${testid + "-minus"} />
    <output class="tr-stepper-value" data-testid=${testid + "-value"}>${value}</output>
    <${Button} icon="plus" iconOnly label=${label + " +"} disabled=${max !== undefined && value >= max} onClick=${() => onChange(value + 1)} testid=${testid + "-plus"} />
    ${help ? html`<span class="help">${help}</span>` : null}
  </div>`;
}

export function ShopComposer(props) {
  const { view, you, ui, setUi, legal, legalComplete } = props;
  const tx = texts(props);
  const { t, num } = tx;
  const m = shopModel(view, you, ui);
  const buys = legal.filter((a) => a.type === "buy");
  const complete = legalComplete !== false;
  const key = keyOf(m.action);
  const match = complete ? buys.find((a) => keyOf(a) === key) : null;
  const maxCredits = complete ? Math.max(0, ...buys.map((a) => a.credits || 0)) : undefined;
  const maxRepay = complete ? Math.max(0, ...buys.map((a) => a.repay || 0)) : m.p.credits || 0;
  const [why, setWhy] = useState(null);
  useEffect(() => { // say at once why a composition is refused (the server's words), or that it is fine
    setWhy(null);
    if (match || !props.check) return undefined;
    let gone = false;
    const id = setTimeout(() => {
      props.check(m.action).then((res) => { if (!gone) setWhy(res && res.legal ? { ok: true } : res); }).catch((e) => {
        // a check that could not be made (ApiError.unanswered) leaves the purchase to the server
        if (!gone && e && e.unanswered) setWhy({ unchecked: true });
      });
    }, 200);
    return () => { gone = true; clearTimeout(id); };
  }, [key]);
  const ok = !!match || (why && why.ok);
  const sendable = ok || !!(why && why.unchecked);
  const house = tx.house;
  const credit = house ? HOUSE_CREDIT : null;
  const after = m.p.humans + m.gain - m.cost + (credit ? m.credits * credit.amount - m.repay * credit.repay : 0);
  return html`<div class="tr-shop-composer" data-testid="tremble-shop">
    <h3>${t("tremble.ui.shop_title", { turn: view.turn })}</h3>
    <p class="help">${t("tremble.ui.shop_help")}</p>
    <div class="tr-money"><${Pic} name="humans" size=${16} /> ${t("tremble.ui.your_humans", { n: num(m.p.humans) })}</div>
    ${m.gains.length ? html`<div class="chips" role="group" aria-label=${t("tremble.ui.play_gains")}>
      <span class="chips-label">${t("tremble.ui.play_gains")}</span>
      ${m.gains.map((c) => html`<button type="button" class=${"chip" + (m.compOn[c.id] ? " on" : "")} aria-pressed=${m.compOn[c.id] ? "true" : "false"}
        data-testid=${"gain-" + c.id} onClick=${() => setUi({ comp: { ...m.compOn, [c.id]: !m.compOn[c.id] } })}>
        ${tx.name(c)} +${num(c.effect.amount)}</button>`)}</div>` : null}
    <${Stepper} label=${t("tremble.ui.credits_take")} value=${m.credits} max=${maxCredits} testid="tremble-credits"
      onChange=${(v) => setUi({ credits: v, repay: 0, refusal: null })}
      help=${credit ? t("tremble.ui.credit_help", { amount: num(credit.amount), repay: num(credit.repay) }) : t("tremble.ui.credit_help_other")} />
    ${m.p.credits ? html`<${Stepper} label=${t("tremble.ui.credits_repay")} value=${m.repay} max=${maxRepay} testid="tremble-repay"
      onChange=${(v) => setUi({ repay: v, credits: 0, refusal: null })} help=${t("tremble.ui.open_credits", { n: m.p.credits })} />` : null}
    <table class="tr-bill" data-testid="tremble-bill"><tbody>
      ${m.buy.map((c) => html`<tr><td>${tx.name(c)}</td><td class="num">−${num(c.price)}</td></tr>`)}
      ${m.discount ? html`<tr><td>${t("tremble.ui.discount", { station: tx.name(m.discountStation) })}</td><td class="num">+${num(m.discount)}</td></tr>` : null}
      ${m.gain ? html`<tr><td>${t("tremble.ui.gains")}</td><td class="num">+${num(m.gain)}</td></tr>` : null}
      ${credit && m.credits ? html`<tr><td>${t("tremble.ui.credits_n", { n: m.credits })}</td><td class="num">+${num(m.credits * credit.amount)}</td></tr>` : null}
      ${credit && m.repay ? html`<tr><td>${t("tremble.ui.repay_n", { n: m.repay })}</td><td class="num">−${num(m.repay * credit.repay)}</td></tr>` : null}
      ${!m.buy.length && !m.gain && !m.credits && !m.repay ? html`<tr><td colspan="2" class="muted">${t("tremble.ui.buy_nothing")}</td></tr>` : null}
      ${credit || (!m.credits && !m.repay) ? html`<tr class="total"><th scope="row">${t("tremble.ui.humans_after")}</th>
        <td class="num" data-testid="tremble-after">${num(after)}</td></tr>` : null}
    </tbody></table>
    ${m.action.discard.length ? html`<p class="small">${t("tremble.ui.discarding", { cards: m.owned.filter((c) => m.disc[c.id]).map((c) => tx.name(c)).join(", ") })}</p>` : null}
    <p class=${"tr-verdict " + (ok ? "ok" : why && !why.unchecked ? "bad" : "")} data-testid="tremble-buy-verdict" aria-live="polite">
      ${ok ? t("tremble.ui.buy_ok") : why && why.unchecked ? "" : why ? why.explain || why.message || t("tremble.ui.refused") : complete ? t("tremble.ui.buy_checking") : ""}
      ${!ok && why && why.rule ? html` <a href=${why.rule_url || "#"} target="_blank" rel="noopener">${why.rule}</a>` : null}</p>
    <div class="row-buttons">
      <${Button} kind="primary" icon="check" label=${t("tremble.ui.confirm_buy")} disabled=${!sendable} testid="tremble-confirm-buy"
        onClick=${() => (match ? props.play(match) : checkThenPlay(props, m.action))} />
      <${Button} label=${t("tremble.ui.clear")} testid="tremble-clear-buy"
        onClick=${() => setUi({ buy: {}, discard: {}, comp: {}, credits: 0, repay: 0, refusal: null })} />
    </div>
    <${Refusal} res=${ui.refusal} t=${t} />
  </div>`;
}

/** The shop on the board: your drawn cards (tap to buy), the others' face down, who has already decided. */
export function Shop({ props, hl, tx, ShipCard, EffectCard }) {
  const { view, you, ui } = props;
  const { t } = tx;
  const m = shopModel(view, you, ui);
  const buying = isBuying(props);
  const mine = me(view, you);
  const committed = (view.sealed && view.sealed.committed) || {};
  const own = view.phase === "buy" && view.sealed && view.sealed.own ? view.sealed.own : null; // your sealed purchase
  const chosen = (c) => (own ? own.buy.includes(c.id) : m.on[c.id]);
  return html`<section class="tr-shop" aria-label=${t("tremble.ui.shop")} data-testid="tremble-shop-board">
    ${mine && mine.drawn ? html`<div class="tr-shop-row">
      <h2 class="tr-zone-title">${view.phase === "redraw" ? t("tremble.ui.drawn_stations") : t("tremble.ui.drawn_for_you")}</h2>
      <div class="tr-cards">${mine.drawn.length ? mine.drawn.map((c) => c.card === "ship"
        ? html`<${ShipCard} ship=${c} tx=${tx} hl=${hl} place=${buying ? "card:" + c.id : null} on=${chosen(c)} price
            badge=${chosen(c) ? t("tremble.ui.to_buy") : null} extra="tr-shop-card" />`
        : html`<${EffectCard} card=${c} kind="station" tx=${tx} hl=${hl} place=${buying ? "card:" + c.id : null} on=${chosen(c)} price
            state=${chosen(c) ? t("tremble.ui.to_buy") : null} extra="tr-shop-card" />`)
        : html`<p class="muted">${committed[String(you)] ? t("tremble.ui.bought_sealed") : t("tremble.ui.nothing_drawn")}</p>`}</div>
      ${own ? html`<p class="tr-sealed-own"><${Pic} name="sealed" size=${14} /> ${t("tremble.ui.your_sealed")}</p>` : null}
    </div>` : null}
    <div class="tr-shop-others">${view.players.filter((p) => p.seat !== you).map((p) => html`<div class="tr-other-draw">
      <span class="seat-dot" style=${{ background: tx.colour(p.seat) }} aria-hidden="true"></span>
      <span>${tx.who(p.seat)}</span>
      <span class="tr-backs" role="img" aria-label=${t("tremble.ui.cards_drawn", { n: p.drawn_count })}>${Array.from({ length: p.drawn_count }, () => html`<span class="tr-back"></span>`)}</span>
      <span class="muted small">${committed[String(p.seat)] ? t("tremble.ui.has_decided") : t("tremble.ui.deciding")}</span></div>`)}</div>
  </section>`;
}
