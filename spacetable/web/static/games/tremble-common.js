// Tremble, Humans!: what the renderer's parts share (names, effect sentences, strengths, odds, small pictures).
// Texts: the game's catalogue (spacetable/games/tremble/i18n/<lang>.json, loaded with the renderer): card names
// `tremble.card.<id>` (house set), effects `tremble.op.<op>`, regions, city types, kinds, phases, and the
// renderer's own texts `tremble.ui.*`. Owner card sets have no translated names: their own (English) names, or the
// Russian ones in Russian.
import { html } from "/static/app/kit.js";

export const SEAT_COLOURS = ["#e0524a", "#4a8fe0", "#46b86a", "#e0a63a", "#a070d8"];
export const REGION_COLOURS = {
  europe: "#6f8ff0", asia: "#e2675f", africa: "#d9a441", north_america: "#4fb7d9", south_america: "#5fbf6a", oceania: "#3fc2ad",
};
export const DECK_COLOURS = { blue: "#3c6fd1", red: "#c8453f", training: "#7d879f" };
/** Credit terms of the house card set (TH-13): +50,000 now, 60,000 to repay. Owner sets may differ: not shown. */
export const HOUSE_CREDIT = { amount: 50000, repay: 60000 };

export const baseId = (id) => String(id).split("#")[0];

/** Text helpers bound to a renderer's props: names of cards, effects, places, numbers, players. */
export function texts(props) {
  const { view, t, lang } = props;
  const num = props.num || ((n) => String(n));
  const house = view && view.card_set_source === "house";
  const name = (card) => {
    if (!card) return "";
    if (house) {
      const key = "tremble.card." + baseId(card.id);
      const s = t(key);
      if (s !== key) return s;
    }
    return lang === "ru" && card.name_ru ? card.name_ru : card.name || card.id;
  };
  const term = (kind, value) => t(`tremble.${kind}.${value}`);
  const effect = (e) => {
    if (!e) return "";
    const args = {};
    for (const [k, v] of Object.entries(e)) {
      if (k === "op") continue;
      args[k] = k === "kind" || k === "city_type" || k === "region" ? term(k, v) : k === "amount" ? num(v) : v;
    }
    return t("tremble.op." + e.op, args);
  };
  /** A card named in the engine's English event lines: found in the view, else by the house set's ids. */
  const named = (english) => {
    const found = view ? findByName(view, english) : null;
    if (found) return name(found);
    const key = "tremble.card." + String(english).toLowerCase().replace(/[^a-z0-9]+/g, "_");
    const s = house ? t(key) : key;
    return s !== key ? s : english;
  };
  const who = (seat) => (props.seatName ? props.seatName(Number(seat)) : t("tremble.ui.player_n", { n: Number(seat) + 1 }));
  const colour = (seat) => (props.colourOf ? props.colourOf(Number(seat)) : SEAT_COLOURS[Number(seat) % SEAT_COLOURS.length]);
  return { t, num, name, term, effect, who, colour, house, lang, named };
}

/** The first card object ({id, name}) of the view with this English name. */
function findByName(value, english) {
  if (Array.isArray(value)) {
    for (const v of value) { const f = findByName(v, english); if (f) return f; }
  } else if (value && typeof value === "object") {
    if (value.name === english && typeof value.id === "string") return value;
    for (const v of Object.values(value)) {
      if (v && typeof v === "object") { const f = findByName(v, english); if (f) return f; }
    }
  }
  return null;
}

/** The view's record of a seat, and the seat's own private lists when the view has them. */
export function me(view, seat) {
  if (seat === null || seat === undefined) return null;
  return view.players.find((p) => p.seat === seat) || null;
}

/** Compensation cards usable now: received before this turn (TH-12.2). */
export function usable(comp, view) { return comp.received < view.turn; }

/** Bonus of one ship's passive abilities in a group at a city (TH-9.1, TH §6.3; the engine's passive_bonus). */
function passive(ship, kinds, index, city, vsArmy) {
  let total = 0;
  for (const ab of ship.abilities || []) {
    const op = ab.op;
    if (op === "str_with_kind") {
      if (kinds.some((k, i) => i !== index && k === ab.kind)) total += ab.n;
    } else if (op === "str_vs_city_type") {
      if (city && city.city_type === ab.city_type) total += ab.n;
    } else if (op === "str_vs_region") {
      if (city && city.region === ab.region) total += ab.n;
    } else if (op === "str_vs_army") {
      if (vsArmy) total += ab.n;
    } else if (op === "str_vs_captains") {
      if (!vsArmy) total += ab.n;
    } else if (op === "str_alone" && kinds.length === 1) total += ab.n;
  }
  return total;
}

/** Strength of a group of ships at a city: base + passives (+ support tokens), against captains or armies. */
export function groupStrength(ships, city, vsArmy, support = 0) {
  const kinds = ships.map((s) => s.kind);
  let total = support;
  ships.forEach((s, i) => { total += s.strength + passive(s, kinds, i, city, vsArmy); });
  return total;
}

/** Distribution of 2d6: P[sum]. */
const TWO_D6 = (() => {
  const p = new Array(13).fill(0);
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) p[a + b] += 1 / 36;
  return p;
})();

/** Chance that 2d6 + strength reaches `need` (an army fight: a tie beats the army, TH-10.4). */
export function chanceAtLeast(need, strength) {
  let p = 0;
  for (let s = 2; s <= 12; s++) if (s + strength >= need) p += TWO_D6[s];
  return p;
}

/** Chance that `mine` + 2d6 is the highest total against every other strength + 2d6 (ties for first reroll,
 *  TH-9.5; counted as a fresh fight between the same strengths). */
export function chanceToWin(mine, others) {
  if (!others.length) return 1;
  let win = 0, tie = 0;
  for (let d = 2; d <= 12; d++) {
    const total = mine + d;
    let below = 1, atMost = 1;
    for (const o of others) {
      let pb = 0, pa = 0;
      for (let e = 2; e <= 12; e++) {
        if (o + e < total) pb += TWO_D6[e];
        if (o + e <= total) pa += TWO_D6[e];
      }
      below *= pb;
      atMost *= pa;
    }
    win += TWO_D6[d] * below;
    tie += TWO_D6[d] * (atMost - below);
  }
  return tie >= 1 ? 0.5 : win / (1 - tie);
}

export function percent(p) { return Math.round(p * 100) + "%"; }

// ------------------------------------------------------------------------------------------ small pictures
/** Inline SVG pictures (no emoji, no icon font): ship kinds, strength, fuel, city types, humans, cards. */
const PICS = {
  saucer: html`<ellipse cx="12" cy="14" rx="10" ry="3.6" /><path d="M7 12.5a5 4.5 0 0 1 10 0" />`,
  tripod: html`<path d="M7 10a5 4.5 0 0 1 10 0z" /><path d="M8 10l-3 10M12 10v10M16 10l3 10" />`,
  cruiser: html`<path d="M2 14l4-5h12l4 5-4 3H6z" /><path d="M8 9V5h6v4M16 7h3" />`,
  strength: html`<path d="M13 2L5 14h6l-1 8 8-12h-6z" />`,
  fuel: html`<path d="M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z" />`,
  science: html`<path d="M9 3h6M10 3v6l-5 10a1.5 1.5 0 0 0 1.3 2h11.4a1.5 1.5 0 0 0 1.3-2L14 9V3" />`,
  culture: html`<path d="M3 9l9-5 9 5z" /><path d="M5 9v9M9.5 9v9M14.5 9v9M19 9v9M3 20h18" />`,
  industrial: html`<path d="M3 21V11l6 4v-4l6 4V5h5v16z" />`,
  humans: html`<circle cx="9" cy="7" r="3" /><path d="M3 20a6 6 0 0 1 12 0" /><circle cx="17" cy="9" r="2.4" /><path d="M15 20a5 5 0 0 1 7-3" />`,
  station: html`<circle cx="12" cy="12" r="3" /><path d="M2 12h6M16 12h6M12 2v4M12 18v4" />`,
  comp: html`<rect x="5" y="3" width="14" height="18" rx="2" /><path d="M9 8h6M9 12h6" />`,
  army: html`<path d="M12 3l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V6z" />`,
  dice: html`<rect x="3" y="3" width="18" height="18" rx="4" /><path d="M8 8h.01M16 16h.01M12 12h.01" />`,
  credit: html`<rect x="2" y="6" width="20" height="13" rx="2" /><path d="M2 10h20" />`,
  mission: html`<circle cx="12" cy="12" r="9" /><circle cx="12" cy="12" r="5" /><path d="M12 12h.01" />`,
  home: html`<path d="M3 11l9-7 9 7" /><path d="M5 10v10h14V10" />`,
  sealed: html`<rect x="5" y="10" width="14" height="10" rx="2" /><path d="M8 10V7a4 4 0 0 1 8 0v3" />`,
};

export function Pic({ name, size = 16, label, cls = "" }) {
  return html`<svg class=${"tr-pic " + cls} width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor"
    stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden=${label ? null : "true"}
    role=${label ? "img" : null} aria-label=${label || null} focusable="false">${PICS[name] || PICS.comp}</svg>`;
}
