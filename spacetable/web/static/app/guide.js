// The players' guide of a game (GET /api/guide/<game>?lang=…): the page /guide/<game> (also /rules/<game>, where
// older links and refusals point: "#<rule id>" opens the section explaining that rule, highlighted), the small
// diagrams drawn by the game's own renderer from a prepared position, and the rules drawer of the match page, which
// opens at the section of the current phase or of a refused rule (app/rules.js: openRule).
import { html, useEffect, useLayoutEffect, useRef, useState } from "./lib.js";
import { api } from "./api.js";
import { Icon } from "./icons.js";
import { currentLang, num, t } from "./i18n.js";
import { NO_HL } from "./kit.js";
import { loadRenderer } from "./renderers.js";
import { parseRuleUrl, setRuleOpener } from "./rules.js";
import { Button } from "./ui.js";
import { ProgressLine } from "./progress.js";

const guides = {};

/** The guide of a game in a language (fetched once). */
export function loadGuide(gameId, lang) {
  const key = `${gameId}/${lang}`;
  if (!guides[key]) {
    guides[key] = api(`/api/guide/${encodeURIComponent(gameId)}?lang=${encodeURIComponent(lang)}`);
    guides[key].catch(() => { delete guides[key]; });
  }
  return guides[key];
}

/** Whether a section that lists `prefix` covers `rule` (spacetable/guide.py: covers). */
function covers(prefix, rule) {
  if (rule === prefix) return true;
  return /\d$/.test(prefix) ? rule.startsWith(prefix + ".") : rule.startsWith(prefix);
}

/** The id of the section explaining `rule`: the narrowest listed id covering it (spacetable/guide.py: section_of). */
export function sectionOf(guide, rule) {
  let best = null;
  for (const s of guide.sections) {
    for (const p of s.rules) if (covers(p, rule) && (!best || p.length > best[0])) best = [p.length, s.id];
  }
  return best ? best[1] : null;
}

/** The phase key of a view: the translation key the renderer's phase hook names (e.g. "arena.phase.play"). */
export function phaseKey(renderer, view) {
  try { return renderer && renderer.phase ? renderer.phase(view, (k) => k) : null; } catch { return null; }
}

/** A section's diagram: the game's renderer drawing a prepared position, not interactive. */
function Diagram({ gameId, section, label }) {
  const [data, setData] = useState(null);
  const [rend, setRend] = useState(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([api(`/api/guide/${encodeURIComponent(gameId)}/diagram/${encodeURIComponent(section)}`), loadRenderer(gameId, true)])
      .then(([d, r]) => { if (live) { setData(d); setRend(r); } }).catch(() => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [gameId, section]);
  if (failed) return null;
  if (!data || !rend) return html`<div class="guide-diagram loading" aria-busy="true"></div>`;
  const props = {
    view: data.view, seat: data.seat, you: data.seat, legal: [], legalText: [], legalCount: 0, legalComplete: true,
    hl: rend.kind === "module" ? NO_HL : NO_HL, ui: {}, setUi() {}, play() {}, check: null, fetchLegal: null, t, num, lang: currentLang(),
    seatName: (i) => t("guide.seat", { n: i + 1 }), colourOf: (i) => ["#e0524a", "#4a8fe0", "#46b86a", "#e0a63a", "#a070d8"][i % 5],
    match: { game: gameId, seats: [], status: "running" }, version: 0, toAct: [], interactive: false, last: null, replay: true, renderer: rend,
  };
  let board;
  try { board = html`<${rend.Board} ...${props} />`; } catch { return null; }
  return html`<figure class="guide-diagram" data-testid=${"guide-diagram-" + section}>
    <div class="guide-diagram-board" role="img" aria-label=${label}>${board}</div>
    <figcaption class="small muted">${t("guide.diagram", { title: label })}</figcaption></figure>`;
}

function Section({ gameId, s, target, diagrams }) {
  return html`<section class=${"guide-section" + (target ? " rule-target" : "")} id=${"g-" + s.id} data-section=${s.id}
      data-rules=${s.rules.join(" ")} aria-labelledby=${"gh-" + s.id} tabindex="-1">
    <h2 id=${"gh-" + s.id}>${s.title}${s.house ? html` <span class="tag house-tag" data-testid="house-tag">${t("guide.house")}</span>` : null}</h2>
    <div class="guide-text" dangerouslySetInnerHTML=${{ __html: s.html }}></div>
    ${s.diagram && diagrams ? html`<${Diagram} gameId=${gameId} section=${s.id} label=${s.title} />` : null}
  </section>`;
}

/** The guide's body: table of contents and sections; `at` (a section id) is scrolled to and highlighted. */
function GuideBody({ gameId, guide, at, diagrams = true, compact = false }) {
  const ref = useRef(null);
  useLayoutEffect(() => {
    if (!at || !ref.current) return;
    const el = ref.current.querySelector(`[data-section="${CSS.escape(at)}"]`);
    if (el) { el.scrollIntoView({ block: "start" }); el.focus({ preventScroll: true }); }
  }, [at, guide]);
  // a table that may scroll sideways is reachable by keyboard (focusable) and named after its section
  useLayoutEffect(() => {
    if (!ref.current) return;
    ref.current.querySelectorAll(".guide-text table").forEach((table, i) => {
      const h = table.closest("section")?.querySelector("h2");
      table.setAttribute("tabindex", "0");
      table.setAttribute("aria-label", t("rules.table", { n: i + 1, title: h ? h.textContent.trim() : "" }));
    });
  }, [guide]);
  return html`<div class="guide-body" ref=${ref}>
    <nav class="guide-toc" aria-label=${t("guide.contents")}><ol>
      ${guide.sections.map((s) => html`<li><a href=${"#g-" + s.id} onClick=${(e) => {
        e.preventDefault();
        const el = ref.current && ref.current.querySelector(`[data-section="${CSS.escape(s.id)}"]`);
        if (el) { el.scrollIntoView({ block: "start" }); el.focus({ preventScroll: true }); }
      }}>${s.title}</a></li>`)}</ol></nav>
    ${guide.sections.map((s) => html`<${Section} key=${s.id} gameId=${gameId} s=${s} target=${s.id === at} diagrams=${diagrams && !compact} />`)}
  </div>`;
}

/** The section named by the page's hash: "#g-<section>" or "#<rule id>" (refusals, older links). */
function hashTarget(guide) {
  const h = decodeURIComponent(location.hash.slice(1));
  if (!h) return null;
  if (h.startsWith("g-")) return h.slice(2);
  return sectionOf(guide, h);
}

export function GuidePage({ gameId, lobby, lang, navigate }) {
  const [guide, setGuide] = useState(null);
  const [error, setError] = useState(null);
  const [at, setAt] = useState(null);
  useEffect(() => {
    setGuide(null);
    loadGuide(gameId, lang).then((g) => { setGuide(g); setAt(hashTarget(g)); }).catch(setError);
  }, [gameId, lang]);
  useEffect(() => {
    if (!guide) return undefined;
    const f = () => setAt(hashTarget(guide));
    window.addEventListener("hashchange", f);
    return () => window.removeEventListener("hashchange", f);
  }, [guide]);
  const game = lobby.find((g) => g.id === gameId);
  if (error) return html`<div class="card gone" data-testid="rules-missing"><h1>${t("rules.missing")}</h1></div>`;
  if (!guide) return html`<div class="loading card" aria-busy="true"></div>`;
  document.title = `${guide.title} · spacetable`;
  return html`<article class="guide card" data-testid="rules-page" data-guide=${gameId} data-game=${gameId} lang=${guide.lang}>
    <header class="guide-head"><h1>${guide.title}</h1>
      <div class="row-buttons">
        ${game ? html`<${Button} icon="play" kind="primary" label=${t("lobby.learn")} href=${"/tutorial/" + gameId} testid="guide-tutorial"
          onClick=${(e) => { e.preventDefault(); navigate("/tutorial/" + gameId); }} />` : null}
        <${Button} icon="home" label=${t("nav.lobby")} href="/" testid="guide-lobby" onClick=${(e) => { e.preventDefault(); navigate("/"); }} />
      </div></header>
    ${game && game.tutorial ? html`<${ProgressLine} game=${gameId} />` : null}
    <${GuideBody} gameId=${gameId} guide=${guide} at=${at} />
  </article>`;
}

/** The rules drawer of a match page: the guide beside the board, opened at a section. Registers itself as the
 *  page's rule opener (a refusal's rule link opens it at that rule). `phase` is the renderer's phase key (phaseKey):
 *  open() opens at the section the guide names for it. Returns [element, open(section?)]. */
export function useRulesDrawer(gameId, lang, phase) {
  const [open, setOpen] = useState(null); // null: closed; else {at}
  const [guide, setGuide] = useState(null);
  const cur = useRef(null);
  // the phase key names the section; a renderer whose phase text joins several keys ("fm.phase.play · fm.tide.low")
  // is matched by the longest key it contains
  const keys = guide && phase ? Object.keys(guide.phases || {}).filter((k) => phase === k || phase.includes(k)) : [];
  keys.sort((a, b) => b.length - a.length);
  cur.current = keys.length ? guide.phases[keys[0]] : null;
  useEffect(() => {
    if (!gameId) return undefined;
    loadGuide(gameId, lang).then(setGuide).catch(() => setGuide(null));
    return undefined;
  }, [gameId, lang]);
  useEffect(() => {
    if (!gameId) return undefined;
    const opener = (game, rule) => {
      if (game !== gameId) return false;
      loadGuide(gameId, lang).then((g) => setOpen({ at: sectionOf(g, rule) || null, rule }));
      return true;
    };
    const unregister = setRuleOpener(opener);
    // a rule link anywhere on the match page (a game's own panel, an older "/rules/<game>" link) opens the drawer too
    const onClick = (e) => {
      const a = e.target && e.target.closest ? e.target.closest("a[href]") : null;
      if (!a || a.closest(".rules-drawer") || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const r = parseRuleUrl(a.getAttribute("href"));
      if (!r || r.game !== gameId) return;
      e.preventDefault();
      if (r.rule) opener(gameId, r.rule);
      else setOpen({ at: cur.current });
    };
    document.addEventListener("click", onClick, true);
    return () => { unregister(); document.removeEventListener("click", onClick, true); };
  }, [gameId, lang]);
  const show = (at) => setOpen({ at: at === undefined ? cur.current : at });
  const el = open && guide ? html`<aside class="rules-drawer card" data-testid="rules-drawer" aria-label=${t("guide.drawer")}
      data-at=${open.at || ""} lang=${guide.lang}
      onKeyDown=${(e) => { if (e.key === "Escape") setOpen(null); }}>
    <div class="drawer-head"><h2>${guide.title}</h2>
      <a class="small" href=${"/guide/" + gameId + (open.at ? "#g-" + open.at : "")} target="_blank" rel="noopener" data-testid="drawer-full">
        ${t("guide.open_page")}</a>
      <${Button} icon="close" label=${t("ui.close")} iconOnly kind="ghost" testid="rules-drawer-close" onClick=${() => setOpen(null)} /></div>
    ${open.rule ? html`<p class="small muted" data-testid="drawer-rule">${t("rules.rule", { id: open.rule })}</p>` : null}
    <${GuideBody} gameId=${gameId} guide=${guide} at=${open.at} compact=${true} />
  </aside>` : null;
  return [el, show, !!guide];
}

/** The button of the match tools that opens the drawer at the current phase's section. */
export function RulesButton({ onOpen }) {
  return html`<button type="button" class="btn tool" data-testid="rules-drawer-open" onClick=${() => onOpen()}>
    <${Icon} name="book" /><span class="btn-label">${t("guide.rules")}</span></button>`;
}
