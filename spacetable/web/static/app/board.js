// The board frame shared by every game: a viewport that zooms and pans (wheel with Ctrl, pinch, drag when zoomed,
// buttons), taps resolved to places (elements with data-place), the small menu shown when one place offers several
// actions, and the picker: selection -> legal targets -> send.
import { html, useEffect, useLayoutEffect, useMemo, useRef, useState } from "./lib.js";
import { Icon } from "./icons.js";
import { t } from "./i18n.js";
import { notify } from "./ui.js";

const MAX_SCALE = 4;
/** Viewports at most this wide (phones) honour a renderer's focus. */
const FOCUS_WIDTH = 700;

/** Zoomable, pannable board area. `onPlace(id, point)` is called for a tap (or Enter/Space) on a [data-place];
 *  `onDrag(from, to, point)` when a piece that can be picked (.is-source, .is-selected) is dragged onto a place.
 *  `focus` ({place, size, key}), on a narrow screen, zooms so that the place is about `size` px wide and centred
 *  (a big board opens on the player's own pieces on a phone): once per `resetKey` and focus key (default: the
 *  place), and not when the player has zoomed since that key was asked for. */
export function BoardViewport({ children, onPlace, onDrag, resetKey, label, footer, testid = "board", focus }) {
  const outer = useRef(null);
  const [z, setZ] = useState({ s: 1, x: 0, y: 0 });
  const zr = useRef(z);
  zr.current = z;
  const pointers = useRef(new Map());
  const gesture = useRef(null);
  const focused = useRef(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => { setZ({ s: 1, x: 0, y: 0 }); }, [resetKey]);
  const focusKey = focus ? `${resetKey}|${focus.key ?? focus.place}` : null;
  /** Zoom so that place `id` is about `size` px wide, centred; false when it is not drawn (yet). */
  function zoomTo(id, size, keep = false) {
    const el = outer.current;
    const hit = el && el.querySelector(`[data-place="${CSS.escape(id)}"]`);
    if (!hit) return false;
    const r = hit.getBoundingClientRect(), o = el.getBoundingClientRect(), cur = zr.current;
    if (!r.width) return true;
    const px = (r.left + r.width / 2 - o.left - cur.x) / cur.s, py = (r.top + r.height / 2 - o.top - cur.y) / cur.s;
    const s = keep ? cur.s : Math.min(MAX_SCALE, Math.max(1, ((size || 44) * cur.s) / r.width));
    setZ(clamp(s, el.clientWidth / 2 - px * s, el.clientHeight / 2 - py * s));
    return true;
  }
  useEffect(() => {
    const el = outer.current;
    // a renderer's focus applies on phones; one marked `always` (a board too big to read whole) everywhere
    if (!focus || !el || focused.current === focusKey || (el.clientWidth > FOCUS_WIDTH && !focus.always)) return;
    if (!el.querySelector(`[data-place="${CSS.escape(focus.place)}"]`)) return; // not drawn yet: tried again after the next render
    focused.current = focusKey;
    zoomTo(focus.place, focus.size);
  });
  // a renderer's overview (a mini-map) asks to show a place: {detail: {place, size?}} (the zoom kept when zoomed)
  useEffect(() => {
    const el = outer.current;
    if (!el) return undefined;
    const go = (e) => { const d = e.detail || {}; if (d.place) zoomTo(d.place, d.size || 44, zr.current.s > 1.001); };
    el.addEventListener("spacetable:focus", go);
    return () => el.removeEventListener("spacetable:focus", go);
  }, []);

  /** The drawing's box in the viewport at scale 1: the whole viewport, or, for an svg drawn with its viewBox
   *  letterboxed (preserveAspectRatio "meet", the default), the part the viewBox covers, so that zooming and panning
   *  never show the empty bands beside a board whose shape differs from the viewport's. */
  function drawing(el) {
    const w = el.clientWidth, h = el.clientHeight, whole = { x0: 0, y0: 0, x1: w, y1: h };
    const svg = el.querySelector(".board-stage > svg");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width || !vb.height || (svg.getAttribute("preserveAspectRatio") || "").includes("slice")) return whole;
    const r = svg.getBoundingClientRect(), o = el.getBoundingClientRect(), cur = zr.current;
    const sw = r.width / cur.s, sh = r.height / cur.s;
    if (!sw || !sh) return whole;
    const k = Math.min(sw / vb.width, sh / vb.height);
    const x0 = (r.left - o.left - cur.x) / cur.s + (sw - vb.width * k) / 2;
    const y0 = (r.top - o.top - cur.y) / cur.s + (sh - vb.height * k) / 2;
    return { x0, y0, x1: x0 + vb.width * k, y1: y0 + vb.height * k };
  }
  function clamp(s, x, y) {
    const el = outer.current;
    s = Math.min(MAX_SCALE, Math.max(1, s));
    if (!el || s === 1) return { s, x: 0, y: 0 };
    const d = drawing(el);
    // per axis: a drawing larger than the window covers it (no panning past its edges); a smaller one is centred
    const fit = (len, a, b, v) => ((b - a) * s <= len ? (len - (a + b) * s) / 2 : Math.min(-a * s, Math.max(len - b * s, v)));
    return { s, x: fit(el.clientWidth, d.x0, d.x1, x), y: fit(el.clientHeight, d.y0, d.y1, y) };
  }
  function zoomAt(factor, cx, cy) {
    focused.current = focusKey; // the player zooms: the focus asked for now is not applied any more
    const { s, x, y } = zr.current;
    const ns = Math.min(MAX_SCALE, Math.max(1, s * factor));
    setZ(clamp(ns, cx - ((cx - x) * ns) / s, cy - ((cy - y) * ns) / s));
  }
  function local(e) {
    const r = outer.current.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  useEffect(() => {
    const el = outer.current;
    const wheel = (e) => {
      if (!e.ctrlKey) return; // plain wheel scrolls the page; Ctrl+wheel (and trackpad pinch) zooms the board
      e.preventDefault();
      const p = local(e);
      zoomAt(Math.exp(-e.deltaY / 300), p.x, p.y);
    };
    el.addEventListener("wheel", wheel, { passive: false });
    return () => el.removeEventListener("wheel", wheel);
  }, []);

  function down(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const p = local(e);
    pointers.current.set(e.pointerId, { ...p, sx: p.x, sy: p.y });
    const pts = [...pointers.current.values()];
    if (pts.length === 2) {
      const [a, b] = pts;
      gesture.current = { kind: "pinch", d0: Math.hypot(a.x - b.x, a.y - b.y) || 1, m0: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, z0: zr.current };
      try { outer.current.setPointerCapture(e.pointerId); } catch { /* not capturable */ }
    } else if (pts.length === 1) {
      // a press on a piece that can be picked may become a drag onto a target (the same as two taps)
      const src = onDrag && e.target.closest ? e.target.closest("[data-place].is-source, [data-place].is-selected") : null;
      gesture.current = { kind: "tap", z0: zr.current, from: src ? src.getAttribute("data-place") : null };
    }
  }
  function move(e) {
    const rec = pointers.current.get(e.pointerId);
    if (!rec) return;
    const p = local(e);
    rec.x = p.x; rec.y = p.y;
    const g = gesture.current;
    if (!g) return;
    if (g.kind === "pinch") {
      focused.current = focusKey;
      const [a, b] = [...pointers.current.values()];
      if (!b) return;
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const m = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const ns = Math.min(MAX_SCALE, Math.max(1, g.z0.s * (d / g.d0)));
      setZ(clamp(ns, m.x - ((g.m0.x - g.z0.x) * ns) / g.z0.s, m.y - ((g.m0.y - g.z0.y) * ns) / g.z0.s));
    } else if (g.kind === "tap" && Math.hypot(p.x - rec.sx, p.y - rec.sy) > 8 && (g.from || g.z0.s > 1)) {
      g.kind = g.from ? "drag" : "pan";
      if (g.from) setDragging(true);
      try { outer.current.setPointerCapture(e.pointerId); } catch { /* not capturable */ }
    }
    if (g.kind === "pan") setZ(clamp(g.z0.s, g.z0.x + p.x - rec.sx, g.z0.y + p.y - rec.sy));
  }
  function up(e) {
    const rec = pointers.current.get(e.pointerId);
    pointers.current.delete(e.pointerId);
    const g = gesture.current;
    if (!rec || !g) return;
    if (g.kind === "tap" && pointers.current.size === 0 && Math.hypot(rec.x - rec.sx, rec.y - rec.sy) <= 8) {
      const hit = e.target && e.target.closest ? e.target.closest("[data-place]") : null;
      if (hit && onPlace) onPlace(hit.getAttribute("data-place"), { x: e.clientX, y: e.clientY });
    }
    if (g.kind === "drag") {
      setDragging(false);
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const hit = under && under.closest ? under.closest("[data-place]") : null;
      if (hit && outer.current.contains(hit) && hit.getAttribute("data-place") !== g.from) {
        onDrag(g.from, hit.getAttribute("data-place"), { x: e.clientX, y: e.clientY });
      }
    }
    if (pointers.current.size === 0) gesture.current = null;
    else if (g.kind === "pinch") gesture.current = { kind: "pan-end", z0: zr.current };
  }
  function cancel(e) { pointers.current.delete(e.pointerId); if (!pointers.current.size) { gesture.current = null; setDragging(false); } }
  function key(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const hit = e.target.closest && e.target.closest("[data-place]");
    if (!hit) return;
    e.preventDefault();
    const r = hit.getBoundingClientRect();
    onPlace && onPlace(hit.getAttribute("data-place"), { x: r.left + r.width / 2, y: r.top + r.height / 2 });
  }
  const zoomed = z.s > 1.001;
  const centre = (f) => () => { const el = outer.current; zoomAt(f, el.clientWidth / 2, el.clientHeight / 2); };
  return html`<div class=${"board-viewport" + (zoomed ? " zoomed" : "") + (dragging ? " dragging" : "")} ref=${outer} data-testid=${testid}
      onPointerDown=${down} onPointerMove=${move} onPointerUp=${up} onPointerCancel=${cancel} onKeyDown=${key}
      role="group" aria-label=${label}>
    <div class="board-stage" style=${{ transform: `translate(${z.x}px, ${z.y}px) scale(${z.s})` }}>${children}</div>
  </div>
  <div class="board-toolbar">
    <div class="board-footer">${footer}</div>
    <div class="zoom-controls" role="group" aria-label=${t("board.zoom")}>
      <button type="button" class="btn icon-only ghost" aria-label=${t("board.zoom_out")} title=${t("board.zoom_out")} disabled=${!zoomed}
        onClick=${centre(1 / 1.4)}><${Icon} name="zoomOut" /></button>
      <button type="button" class="btn icon-only ghost" aria-label=${t("board.zoom_in")} title=${t("board.zoom_in")} disabled=${z.s >= MAX_SCALE}
        onClick=${centre(1.4)}><${Icon} name="zoomIn" /></button>
      <button type="button" class="btn icon-only ghost" aria-label=${t("board.fit")} title=${t("board.fit")} disabled=${!zoomed}
        onClick=${() => setZ({ s: 1, x: 0, y: 0 })}><${Icon} name="fit" /></button>
    </div>
  </div>`;
}

/** A tray of places outside the zoomed board (pieces waiting to be placed...): taps work like on the board. */
export function Tray({ children, onPlace, label }) {
  function click(e) {
    const hit = e.target.closest && e.target.closest("[data-place]");
    if (hit && onPlace) onPlace(hit.getAttribute("data-place"), { x: e.clientX, y: e.clientY });
  }
  function key(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const hit = e.target.closest && e.target.closest("[data-place]");
    if (!hit) return;
    e.preventDefault();
    const r = hit.getBoundingClientRect();
    onPlace && onPlace(hit.getAttribute("data-place"), { x: r.left + r.width / 2, y: r.top + r.height / 2 });
  }
  return html`<div class="tray" onClick=${click} onKeyDown=${key} role="group" aria-label=${label} data-testid="tray">${children}</div>`;
}

/** The small menu shown where one place offers several actions; item texts come from the server. */
export function ActionMenu({ menu, onPick, onClose }) {
  const ref = useRef(null);
  const [pos, setPos] = useState(null);
  useLayoutEffect(() => {
    if (!menu || !ref.current) return;
    const r = ref.current.getBoundingClientRect();
    const x = Math.max(8, Math.min(menu.x, window.innerWidth - r.width - 8));
    const y = Math.max(8, Math.min(menu.y + 12, window.innerHeight - r.height - 8));
    setPos({ x, y });
    const first = ref.current.querySelector("button");
    if (first) first.focus();
  }, [menu]);
  useEffect(() => {
    if (!menu) return undefined;
    const away = (e) => { if (ref.current && !ref.current.contains(e.target)) onClose(); };
    const esc = (e) => { if (e.key === "Escape") onClose(); };
    const timer = setTimeout(() => document.addEventListener("pointerdown", away), 0);
    document.addEventListener("keydown", esc);
    return () => { clearTimeout(timer); document.removeEventListener("pointerdown", away); document.removeEventListener("keydown", esc); };
  }, [menu]);
  if (!menu) return null;
  const style = pos ? { left: pos.x + "px", top: pos.y + "px" } : { left: menu.x + "px", top: menu.y + "px", visibility: "hidden" };
  return html`<div class="action-menu" ref=${ref} style=${style} role="menu" data-testid="action-menu" aria-label=${t("board.choose")}>
    <div class="action-menu-title">${t("board.choose")}</div>
    ${menu.items.map((it, i) => html`<button type="button" role="menuitem" class="action-menu-item" data-testid=${"menu-item-" + i}
        data-action=${JSON.stringify(it.action)} onClick=${() => onPick(it.action)}>${it.text}</button>`)}
    <button type="button" role="menuitem" class="action-menu-item cancel" onClick=${onClose}>${t("ui.cancel")}</button>
  </div>`;
}

/**
 * The picker: which places can be picked now, and what a tap does. The renderer's places(action, view) maps each
 * legal action to {from, to, kind} (or a list of them, when the action can be picked from several pieces or at
 * several places): `from` is the place to select first (a piece; null: none), `to` the place to tap then (null: the
 * action is not picked on the board; a composer offers it). The optional renderer.follow(action, view, ui) names
 * the place to keep selected once the action is played (a piece moving on step by step).
 */
export function usePicker({ renderer, view, legal, legalText, enabled, play, check, ui, setUi, decisionKey, you }) {
  const [selected, setSelected] = useState(null);
  const [menu, setMenu] = useState(null);
  const follow = useRef(null); // renderer.follow: the place to select once the next decision arrives
  // before the paint: the piece that moved on shows selected in the same frame as its new place (no blink)
  useLayoutEffect(() => { setSelected(follow.current); follow.current = null; setMenu(null); }, [decisionKey]);

  const spots = useMemo(() => {
    if (!enabled || !renderer.places) return [];
    const out = [];
    legal.forEach((a, i) => {
      let p = null;
      try { p = renderer.places(a, view, ui); } catch (e) { console.warn("places()", e); }
      for (const q of Array.isArray(p) ? p : [p]) { // one spot, or several (an action picked from either of two pieces)
        if (q && q.to !== null && q.to !== undefined) out.push({ i, action: a, from: q.from ?? null, to: q.to, kind: q.kind || "move" });
      }
    });
    return out;
  }, [legal, view, enabled, renderer, ui]);

  const sources = useMemo(() => new Set(spots.filter((s) => s.from !== null).map((s) => s.from)), [spots]);
  const sel = selected !== null && sources.has(selected) ? selected : null;
  const targets = useMemo(() => {
    const m = new Map();
    for (const s of spots) {
      if (s.from === sel || (s.from === null && sel === null)) {
        const prev = m.get(s.to);
        m.set(s.to, { kind: prev && prev.kind === "capture" ? "capture" : s.kind, count: (prev ? prev.count : 0) + 1 });
      }
    }
    return m;
  }, [spots, sel]);

  function finalize(a) { return renderer.finalize ? renderer.finalize(a, view, ui) : a; }
  function send(a) {
    setSelected(null); setMenu(null);
    try { follow.current = renderer.follow ? renderer.follow(a, view, ui) ?? null : null; } catch { follow.current = null; }
    play(finalize(a));
  }

  function choose(acts, pt) {
    acts = acts.filter((s, k) => acts.findIndex((o) => o.i === s.i) === k); // an action listed once
    if (acts.length === 1) send(acts[0].action);
    else setMenu({ x: pt.x, y: pt.y, items: acts.map((s) => ({ action: s.action, text: legalText[s.i] || JSON.stringify(s.action) })) });
  }

  async function explain(from, to) {
    let guess = null;
    try { guess = renderer.guess ? renderer.guess(from, to, view, ui) : null; } catch { guess = null; }
    if (guess && check) {
      const res = await check(finalize(guess)).catch(() => null);
      if (res && !res.legal) {
        // a renderer may say it shorter, for players (renderer.refusal(res) -> text): the rule stays one link away
        let short = null;
        try { short = renderer.refusal ? renderer.refusal(res, t) : null; } catch { short = null; }
        if (short) notify({ kind: "error", text: short, rule: res.rule, ruleUrl: res.rule_url, ms: 5000 });
        else notify({ kind: "error", text: res.explain || res.message, rule: res.rule, ruleUrl: res.rule_url, ruleText: res.rule_text });
        return;
      }
    }
    notify({ kind: "error", text: t(from !== null ? "play.cannot_go_there" : "play.nothing_here") });
  }

  function onPlace(place, pt) {
    setMenu(null);
    if (renderer.onPlace) {
      let handled = false;
      try { handled = renderer.onPlace(place, { view, legal, ui, setUi, play: send, enabled, selected: sel, you, check }); } catch (e) { console.error(e); }
      if (handled) return;
    }
    if (!enabled) {
      if (legal.length === 0) notify({ kind: "info", text: t("play.not_your_turn") });
      return;
    }
    if (sel !== null) {
      const acts = spots.filter((s) => s.from === sel && s.to === place);
      if (acts.length) { choose(acts, pt); return; }
      if (place === sel) { setSelected(null); return; }
      if (sources.has(place)) { setSelected(place); return; }
      explain(sel, place);
      return;
    }
    const direct = spots.filter((s) => s.from === null && s.to === place);
    if (direct.length) { choose(direct, pt); return; }
    if (sources.has(place)) { setSelected(place); return; }
    explain(null, place);
  }

  /** A piece dragged onto a place: the same as selecting it and tapping there. */
  function onDrag(from, to, pt) {
    setMenu(null);
    if (!enabled || !sources.has(from)) return;
    const acts = spots.filter((s) => s.from === from && s.to === to);
    if (acts.length) { setSelected(from); choose(acts, pt); return; }
    setSelected(from);
    explain(from, to);
  }

  const hl = {
    selected: sel, sources, targets, interactive: enabled,
    last: new Set(), hover: new Set((ui && ui.hover) || []),
  };
  return { hl, onPlace, onDrag, menu, closeMenu: () => setMenu(null), pick: send, select: setSelected, selected: sel };
}
