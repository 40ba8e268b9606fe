// Worlds & Suns — combat skirmish renderer (game id "worlds"; rules docs/rules/worlds.md, ids WS-*), on the renderer
// interface of docs/architecture.md ("Web client"). Only the combat chapter of the game is known (WS-0.3): the
// notices say so behind the status card's info button.
//
// Decisions and where they are taken (WS-2 to WS-6):
//   declare_combat  tap a card marked in gold (a source), then its "Attack" badge (the target), or the composer
//   end_turn        composer button
//   allocate        drag your pieces onto the battles (or tap a piece, then a battle; the pool takes them back),
//                   order the battles in the composer, then "Fight" (any split, any order: WS-4.2, WS-4.4, WS-D2)
//   play_event      the cards of your hand under the board (each with its text, or why it cannot be played now)
//   commit_energy   composer stepper with live totals and exact odds (the game's calculator, WS-9)
//   choose_tie_loss tap the piece you lose (WS-5.6)
//   retreat         tap Populations on the World, then the Sun (or the composer's button); "stay" in the composer
//   convert         tap one of the loser's Factories (WS-6.4); "leave them" in the composer
// Files: worlds-model.js (reading the view, drafts, odds), worlds-layout.js (geometry), worlds-board.js (the board),
// worlds-composer.js, worlds-panels.js (status, results, legend, the hand), worlds.css.
import { notify } from "/static/app/kit.js";
import { t } from "/static/app/i18n.js";
import { allocDraft, assign, shownCombat, sideColour, sideName, step } from "./worlds-model.js";
import { Board, retreatCandidates } from "./worlds-board.js";
import { Composer } from "./worlds-composer.js";
import { Legend, Results, Status, Tray } from "./worlds-panels.js";

const STYLE = "/static/games/worlds.css";
if (typeof document !== "undefined" && !document.querySelector(`link[href="${STYLE}"]`)) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLE;
  document.head.append(link);
}

/** Where each legal action is picked on the board (null: in the composer or the hand). */
function places(a) {
  switch (a.type) {
    case "declare_combat": return { from: "card:" + a.card, to: "attack:" + a.card, kind: "capture" };
    case "choose_tie_loss": return { from: null, to: "pc:" + a.piece, kind: "capture" };
    case "convert": return a.factory ? { from: null, to: "pc:" + a.factory, kind: "capture" } : null;
    default: return null;
  }
}

/** Taps that build a draft: the allocation (WS-4) and the Populations that retreat (WS-6.3). */
function onPlace(place, { view, legal, ui, setUi, play, enabled }) {
  if (!enabled || !view.combat || ui.showMap) return false;
  const c = view.combat;
  if (c.step === "allocate" && legal.some((a) => a.type === "allocate")) {
    const d = allocDraft(view, ui);
    const mine = new Set(c.participants[c.allocator]);
    if (place.startsWith("pc:")) {
      const id = place.slice(3);
      if (mine.has(id)) { setUi({ alloc: { ...d, pick: d.pick === id ? null : id } }); return true; }
      const lane = d.lanes.findIndex((l) => l.anchor === id);
      if (lane >= 0 && d.pick) setUi({ alloc: next(view, d, assign(d, d.pick, lane), d.pick) });
      else if (lane >= 0) notify({ kind: "info", text: t("worlds.tap_battle_help"), ms: 5000 });
      return true;
    }
    if (place.startsWith("lane:")) {
      if (d.pick) setUi({ alloc: next(view, d, assign(d, d.pick, Number(place.slice(5))), d.pick) });
      else notify({ kind: "info", text: t("worlds.tap_battle_help"), ms: 5000 }); // nothing selected: say what to do
      return true;
    }
    if (place === "pool") { if (d.pick) setUi({ alloc: assign(d, d.pick, null) }); return true; }
    return false;
  }
  if (c.step === "retreat" && legal.some((a) => a.type === "retreat")) {
    const cands = retreatCandidates(legal);
    const chosen = ui.retreat || [];
    if (place.startsWith("pc:") && cands.includes(place.slice(3))) {
      const id = place.slice(3);
      setUi({ retreat: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] });
      return true;
    }
    if (place === "sun" && chosen.length) { setUi({ retreat: [] }); play({ type: "retreat", pieces: chosen }); return true; }
  }
  return false;
}

/** After a piece is placed from the pool, the next one waiting there is picked (quick tapping). */
function next(view, before, d, placed) {
  if (before.lanes.some((l) => l.pieces.includes(placed))) return d;
  const c = view.combat;
  const used = new Set(d.lanes.flatMap((l) => l.pieces));
  const rest = c.participants[c.allocator].filter((id) => !used.has(id));
  return rest.length ? { ...d, pick: rest[0] } : d;
}

/** What a refused tap meant, so that the server says why (with the rule's link). */
function guess(from, to, view) {
  if (!to) return null;
  if (to.startsWith("card:") || to.startsWith("attack:")) return { type: "declare_combat", card: to.slice(to.indexOf(":") + 1) };
  if (!to.startsWith("pc:")) return null;
  const id = to.slice(3);
  switch (step(view)) {
    case "tie": return { type: "choose_tie_loss", piece: id };
    case "convert": return { type: "convert", factory: id };
    case "retreat": return { type: "retreat", pieces: [id] };
    default: return null;
  }
}

/** The places of the move shown: the card attacked, the battles formed or fought, the pieces moved or taken. */
function lastPlaces(entry, view) {
  const a = entry.action;
  if (!a) return [];
  const c = view.combat;
  const fought = (cb) => {
    let k = -1;
    (cb ? cb.battles : []).forEach((b, i) => { if (b.totals.length) k = i; });
    return k;
  };
  switch (a.type) {
    case "declare_combat": return ["card:" + a.card];
    case "allocate": return c ? c.battles.map((_, i) => "lane:" + i) : [];
    case "play_event": case "commit_energy": case "choose_tie_loss": {
      if (!c) { const lc = shownCombat(view); return lc ? ["card:" + lc.card] : []; }
      if (c.step === "event" || c.step === "energy") {
        const k = fought(c);
        return [a.type === "play_event" || a.sealed || k < 0 ? "lane:" + c.current : "lane:" + k];
      }
      return ["lane:" + Math.max(0, fought(c))];
    }
    case "retreat": return [...(a.pieces || []).map((p) => "pc:" + p), ...(a.pieces && a.pieces.length ? ["sun"] : [])];
    case "convert": return a.factory ? ["pc:" + a.factory] : [];
    default: return [];
  }
}

function phase(view, t) { return t("worlds.step." + step(view)); }
function turn(view, t) { return t("worlds.round_short", { n: view.round, of: view.max_rounds }); }

function hint({ view, legal, t }) {
  const has = (type) => legal.some((a) => a.type === type);
  if (has("declare_combat")) return t("worlds.hint.declare");
  if (has("end_turn")) return t("worlds.hint.end");
  if (has("allocate")) return t("worlds.hint.allocate");
  if (has("play_event")) return t("worlds.hint.event");
  if (has("commit_energy")) return t("worlds.hint.energy");
  if (has("choose_tie_loss")) return t("worlds.hint.tie");
  if (has("retreat")) return t("worlds.hint.retreat");
  if (has("convert")) return t("worlds.hint.convert");
  return null;
}

function seatColour(view, seat) { return sideColour(view, seat); }

/** The result's sentence: who has more material (the house score, WS-8.4) and why the skirmish ended (WS-8.3). */
function ending(outcome, view, t) {
  const d = outcome.details || {};
  if (!d.material) return null;
  const why = /WS-8\.3a/.test(d.reason || "") ? "a" : /WS-8\.3b/.test(d.reason || "") ? "b" : /WS-8\.3c/.test(d.reason || "") ? "c" : null;
  const score = outcome.winners && outcome.winners.length
    ? t("worlds.ending_win", { side: sideName(t, view, outcome.winners[0]), a: d.material[0], b: d.material[1] })
    : t("worlds.ending_draw", { a: d.material[0], b: d.material[1] });
  return why ? `${score} ${t("worlds.end_reason." + why)}` : score;
}

export default {
  Board, Tray, Composer, Status, Results, Legend,
  places, onPlace, guess, lastPlaces, phase, turn, hint, seatColour, ending,
};
