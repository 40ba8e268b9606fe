// The renderer kit: everything a game renderer (static/games/<id>.js) imports. The interface itself is
// described in docs/architecture.md ("Web client"); in short a renderer module does
//
//   import { html, placeAttrs, TargetMark } from "/static/app/kit.js";
//   export default { Board, places, lastPlaces, Status, Legend, Composer, phase, turn, hint, ... };
//
// and the frame (app/match.js) does the rest: selection, highlights, the menu when one place offers several
// actions, sending, refusals, animation of incoming moves, the log, the fallback list.
import { html } from "./lib.js";

export { html, h, Fragment, useState, useEffect, useMemo, useRef, useCallback, useLayoutEffect } from "./lib.js";
export { Icon } from "./icons.js";
export { Button, notify } from "./ui.js";

/** An empty highlight set (what a board gets when nothing is selectable, e.g. in replays). */
export const NO_HL = Object.freeze({
  selected: null, sources: new Set(), targets: new Map(), last: new Set(), hover: new Set(), interactive: false,
});

/** CSS classes of a place for the current highlights: place, is-source, is-selected, is-target (+ target-<kind>),
 *  is-last (part of the last move), is-hover (named by a composer control the pointer is on). */
export function placeClass(hl, id, extra = "") {
  const c = ["place"];
  if (extra) c.push(extra);
  if (hl.sources.has(id)) c.push("is-source");
  if (hl.selected === id) c.push("is-selected");
  const tg = hl.targets.get(id);
  if (tg) c.push("is-target", "target-" + (tg.kind || "move"));
  if (hl.last.has(id)) c.push("is-last");
  if (hl.hover.has(id)) c.push("is-hover");
  return c.join(" ");
}

/** Attributes for the element that stands for place `id`: the frame finds taps through data-place; places that
 *  can be picked now are focusable and named for keyboards and screen readers. */
export function placeAttrs(hl, id, label, extra = "") {
  const live = hl.interactive && (hl.sources.has(id) || hl.targets.has(id) || hl.selected === id);
  return {
    "data-place": id,
    class: placeClass(hl, id, extra),
    tabindex: live ? "0" : null,
    role: live ? "button" : null,
    "aria-label": live ? label : null,
    "aria-pressed": live && hl.selected === id ? "true" : null,
  };
}

/** The mark drawn on a target place (kinds: move, capture, place, special). Purely visual: taps go to the place. */
export function TargetMark({ x, y, r, kind = "move" }) {
  if (kind === "capture") {
    return html`<circle class="target-mark capture" cx=${x} cy=${y} r=${r} pointer-events="none" />`;
  }
  return html`<circle class="target-mark ${kind}" cx=${x} cy=${y} r=${Math.max(5, r * 0.32)} pointer-events="none" />`;
}

/** Inline style that moves a piece with a CSS transition (pieces keyed by identity glide between places). */
export function at(x, y) {
  return { transform: `translate(${x}px, ${y}px)` };
}
