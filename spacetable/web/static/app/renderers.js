// Finding a game's renderer. static/games/<id>.js is either
//  * a renderer module (export default {Board, places, ...}: the interface of docs/architecture.md, "Web client"), or
//  * an older script that calls Spacetable.registerRenderer(id, {render(el, view, ctx), actionText}) (no game
//    uses one now): it is wrapped by LegacyBoard below, and its games are
//    played through the action list (opened, not folded) and whatever the old drawing makes clickable.
// A game without a file gets the generic renderer (its view shown as data).
// The game's own catalogue (card names, its renderer's texts: spacetable/games/<id>/i18n/) is loaded with it.
import { html, useEffect, useRef } from "./lib.js";
import { t, currentLang, addGameTexts } from "./i18n.js";

const loaded = {};

export function loadRenderer(gameId, available) {
  if (!loaded[gameId]) {
    loaded[gameId] = (async () => {
      if (available) {
        try {
          const [mod] = await Promise.all([import(`/static/games/${encodeURIComponent(gameId)}.js`), addGameTexts(gameId)]);
          if (mod && mod.default && mod.default.Board) return { kind: "module", ...mod.default };
        } catch (e) {
          console.warn(`renderer ${gameId}:`, e);
        }
        const legacy = window.Spacetable && window.Spacetable.renderer(gameId);
        if (legacy) return legacyRenderer(legacy);
      }
      return legacyRenderer(window.SpacetableGeneric, true);
    })();
  }
  return loaded[gameId];
}

function legacyRenderer(r, generic = false) {
  return { kind: generic ? "generic" : "legacy", legacy: r, Board: LegacyBoard };
}

/** Draws with an older renderer into its own element, after every update. */
function LegacyBoard(props) {
  const ref = useRef(null);
  const r = props.renderer.legacy;
  useEffect(() => {
    if (!ref.current) return;
    const ctx = {
      seat: props.seat, legal: props.legal, legalCount: props.legalCount, legalComplete: props.legalComplete,
      fetchLegal: props.fetchLegal, check: props.check, send: props.play, version: props.version, match: props.match,
      t: (key, fallback, vars) => {
        const s = t(key, vars);
        return s === key && fallback !== undefined ? fallback : s;
      },
      lang: currentLang(),
    };
    try {
      r.render(ref.current, props.view, ctx);
    } catch (e) {
      console.warn("renderer failed; showing the data", e);
      window.SpacetableGeneric.render(ref.current, props.view, ctx);
    }
  });
  return html`<div class="legacy-board" ref=${ref}></div>`;
}
