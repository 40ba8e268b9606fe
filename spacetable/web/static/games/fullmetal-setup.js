// Full Metal Planète before and after play: the landing (FM-7: the ship placed on the board with its pods shown,
// turned, then confirmed), the secret deployment (FM-8: units picked from the ship's hold below the board and set
// on hexes around the dome, carriers loaded by dropping units on them, checked by the server as the draft grows)
// and the turn-21 departure decision (FM-20.1), each with its composer. Drafts live in the frame's `ui` store.
import { html, Button, notify, useEffect, useState, at } from "/static/app/kit.js";
import { R, centre, dist, footprint, keyOf, parseKey, neighbours } from "./fullmetal-hex.js";
import {
  COLOURS, deployArea, deployCellOk, deployable, draftCells, draftIds, fitsInto, index, oreWithin, ownShip, shipScore, unitName,
  unitOf,
} from "./fullmetal-model.js";
import { BargeHull, MiniPiece, ShipHull, UnitDisc } from "./fullmetal-pieces.js";

const byType = (legal, type) => legal.filter((a) => a.type === type);
const seatOf = (props) => props.seat ?? props.you ?? null;

// --------------------------------------------------------------------------------------------------- landing
/** FM-7.1: the legal orientations at each dome cell. */
function landingSites(legal) {
  const m = new Map();
  for (const a of byType(legal, "land")) {
    const k = keyOf(a.dome);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(a.orientation);
  }
  return m;
}

function landingDraft(ui, sites) {
  const d = ui.land;
  return d && sites.has(d.dome) && sites.get(d.dome).includes(d.orient) ? d : null;
}

// ------------------------------------------------------------------------------------------------ deployment
function deploying(props) {
  return props.interactive && props.view.phase === "deploy" && props.legal.some((a) => a.type === "deploy");
}

function deployState(props) {
  const { view, ui } = props;
  const ship = ownShip(view, seatOf(props));
  const draft = ui.deploy || [];
  return { ship, draft, used: new Set(draftIds(draft)), cells: draftCells(draft), pick: ui.pick ?? null };
}

/** Cells where the picked unit may go now (empty when nothing is picked). */
function deployTargets(view, st, first) {
  const out = new Map();
  const u = st.pick !== null ? unitOf(view, st.pick) : null;
  if (!u || !st.ship) return out;
  const taken = new Set(st.cells.keys());
  if (u.kind === "barge" && first) {
    const [fx, fy] = parseKey(first);
    for (const [x, y] of neighbours(fx, fy)) if (deployCellOk(view, st.ship, u, x, y, taken)) out.set(x + "," + y, { kind: "place" });
    return out;
  }
  for (const k of deployArea(view, st.ship)) {
    const [x, y] = parseKey(k);
    if (deployCellOk(view, st.ship, u, x, y, taken)) out.set(k, { kind: "place" });
  }
  for (const [k, e] of st.cells) {
    const carrier = unitOf(view, e.unit);
    if (carrier && fitsInto(view, carrier, e, u)) out.set(k, { kind: "special" });
  }
  return out;
}

/** The highlights of the landing and the deployment (the frame's picker has nothing to pick then). */
export function setupHighlights(props) {
  const { view, ui, legal } = props;
  if (!props.interactive) return null;
  if (view.phase === "land" && legal.some((a) => a.type === "land")) {
    const sites = landingSites(legal);
    const d = landingDraft(ui, sites);
    return { ...props.hl, interactive: true, sources: new Set(), selected: d ? d.dome : null,
      targets: new Map([...sites.keys()].map((k) => [k, { kind: "place" }])) };
  }
  if (deploying(props)) {
    const st = deployState(props);
    const sources = new Set([...st.cells.keys()]);
    for (const u of deployable(view, st.ship)) if (!st.used.has(u.id)) sources.add("d:" + u.id);
    return { ...props.hl, interactive: true, sources, selected: ui.first || (st.pick !== null ? "d:" + st.pick : null),
      targets: deployTargets(view, st, ui.first) };
  }
  return null;
}

function advance(view, st, draftAfter, kind) {
  const used = new Set(draftIds(draftAfter));
  const next = deployable(view, st.ship).find((u) => u.kind === kind && !used.has(u.id));
  return next ? next.id : null;
}

function removeFrom(draft, id) {
  const strip = (e) => ({ ...e, cargo: (e.cargo || []).filter((c) => (typeof c === "number" ? c : c.unit) !== id).map((c) => (typeof c === "number" ? c : strip(c))) });
  return draft.filter((e) => e.unit !== id).map(strip);
}

/** A tap the draft cannot take: the server says why (plain words, the rule's link), as for any refused tap. */
function refuse(api, action, fallback, onLegal) {
  api.setUi({ msg: null });
  const local = () => api.setUi({ msg: fallback });
  if (!api.check || !action) { local(); return; }
  api.check(action).then((res) => {
    if (res && res.legal === false) notify({ kind: "error", text: res.explain || res.message, rule: res.rule, ruleUrl: res.rule_url, ruleText: res.rule_text });
    else if (res && res.legal && onLegal) onLegal(); // the drawing was more careful than the rules: take it
    else local();
  }).catch(local);
}

/** Taps during the landing and the deployment: drafts, not actions (returns true when handled). */
export function setupOnPlace(place, api) {
  const { view, legal, ui, setUi, enabled } = api;
  if (!enabled) return false;
  if (view.phase === "land" && legal.some((a) => a.type === "land")) {
    const sites = landingSites(legal);
    if (!sites.has(place)) {
      setUi({ land: null });
      refuse(api, { type: "land", dome: parseKey(place), orientation: ui.orient || "north" }, "fm.land_bad_cell");
      return true;
    }
    const ok = sites.get(place);
    const cur = ui.land;
    let orient = (cur && cur.orient) || ui.orient || "north";
    if (cur && cur.dome === place && ok.length > 1) orient = orient === "north" ? "south" : "north";
    if (!ok.includes(orient)) orient = ok[0];
    setUi({ land: { dome: place, orient }, orient, msg: null });
    return true;
  }
  if (view.phase === "deploy" && legal.some((a) => a.type === "deploy")) {
    const st = deployState({ view, ui, seat: api.you });
    if (place.startsWith("d:")) {
      const id = Number(place.slice(2));
      setUi({ pick: st.pick === id ? null : id, first: null, msg: null });
      return true;
    }
    if (st.pick === null) {
      const e = st.cells.get(place);
      if (e) setUi({ deploy: st.draft.filter((x) => x !== e), pick: e.unit, first: null, msg: null });
      else setUi({ msg: "fm.deploy_pick_first" });
      return true;
    }
    const u = unitOf(view, st.pick);
    const targets = deployTargets(view, st, ui.first);
    const tg = targets.get(place);
    if (!tg) {
      if (u.kind === "barge" && ui.first && deployTargets(view, st, null).get(place)) setUi({ first: place, msg: null });
      else {
        const at = u.kind === "barge" && ui.first ? [parseKey(ui.first), parseKey(place)] : u.kind === "barge" ? null : parseKey(place);
        const draft = at ? [...st.draft, { unit: u.id, at }] : null;
        refuse(api, draft && { type: "deploy", units: draft }, "fm.deploy_bad_cell",
          () => api.setUi({ deploy: draft, pick: advance(view, st, draft, u.kind), first: null, msg: null }));
      }
      return true;
    }
    let draft;
    if (tg.kind === "special") {
      const host = st.cells.get(place);
      draft = st.draft.map((e) => (e === host ? { ...e, cargo: [...(e.cargo || []), u.id] } : e));
    } else if (u.kind === "barge" && !ui.first) {
      setUi({ first: place, msg: null });
      return true;
    } else {
      const at = u.kind === "barge" ? [parseKey(ui.first), parseKey(place)] : parseKey(place);
      draft = [...st.draft, { unit: u.id, at }];
    }
    setUi({ deploy: draft, pick: advance(view, st, draft, u.kind), first: null, msg: null });
    return true;
  }
  return false;
}

// ----------------------------------------------------------------------------------------------------- ghosts
/** Drafts drawn on the board: the ship about to land, the units about to be deployed and the deployment area. */
export function SetupGhosts(props) {
  const { view, ui, g } = props;
  if (!props.interactive) return null;
  const seat = seatOf(props);
  const colour = COLOURS[(seat ?? 0) % 4];
  if (view.phase === "land") {
    const d = landingDraft(ui, landingSites(props.legal));
    if (!d) return null;
    const cells = footprint(parseKey(d.dome), d.orient);
    const [x, y] = centre(cells[0][0], cells[0][1]);
    const pods = cells.slice(1).map((c) => { const [px, py] = centre(c[0], c[1]); return [px - x, py - y]; });
    const r = view.config.landing_clear_radius;
    const clear = g.cells.filter((c) => dist([c.x, c.y], cells[0]) <= r);
    const { occ } = index(view);
    const ore = clear.filter((c) => { const u = occ.get(c.k); return u && u.kind === "ore"; });
    return html`<g class="fm-ghost fm-landing" data-testid="fm-landing-ghost" data-dome=${d.dome} data-orient=${d.orient}
        data-cleared=${String(ore.length)}>
      <g class="fm-area fm-clear">${clear.map((c) => html`<polygon points=${c.pts} />`)}</g>
      ${ore.map((c) => html`<path class="fm-cleared" d=${`M${c.cx - 7} ${c.cy - 7}l14 14m0 -14l-14 14`} />`)}
      ${cells.map((c) => { const h = g.at.get(keyOf(c)); return h ? html`<polygon points=${h.pts} class="fm-ghost-cell" />` : null; })}
      <g style=${at(x, y)}><${ShipHull} pods=${pods} colour=${colour} turrets=${[true, true, true]} cargo=${0} />
        <path class="fm-orient" d=${d.orient === "north" ? `M0 ${-R * 2.6}l-7 9h14z` : `M0 ${R * 2.6}l-7 -9h14z`} /></g></g>`;
  }
  if (view.phase === "deploy" && props.legal.some((a) => a.type === "deploy")) {
    const st = deployState(props);
    const area = [...deployArea(view, st.ship)].map((k) => g.at.get(k)).filter(Boolean);
    const pieces = st.draft.map((e) => {
      const u = unitOf(view, e.unit);
      if (!u) return null;
      const cells = Array.isArray(e.at[0]) ? e.at : [e.at];
      const [x, y] = centre(cells[0][0], cells[0][1]);
      const shown = { ...u, cargo: e.cargo || [] };
      if (u.kind === "barge") {
        const [x2, y2] = centre(cells[1][0], cells[1][1]);
        return html`<g key=${"d" + u.id} style=${at(x, y)} class="fm-draft"><${BargeHull} u=${shown} colour=${colour} dx=${x2 - x} dy=${y2 - y} /></g>`;
      }
      return html`<g key=${"d" + u.id} style=${at(x, y)} class="fm-draft"><${UnitDisc} u=${shown} colour=${colour} /></g>`;
    });
    const first = ui.first ? g.at.get(ui.first) : null;
    return html`<g class="fm-ghost" data-testid="fm-deploy-draft" data-count=${String(st.draft.length)}>
      <g class="fm-area">${area.map((c) => html`<polygon points=${c.pts} />`)}</g>${pieces}
      ${first ? html`<circle cx=${first.cx} cy=${first.cy} r=${R * 0.6} class="fm-first" />` : null}</g>`;
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ composers
function LandingComposer(props) {
  const { view, legal, legalText, ui, setUi, play, t } = props;
  const sites = landingSites(legal);
  const d = landingDraft(ui, sites);
  const i = d ? legal.findIndex((a) => a.type === "land" && keyOf(a.dome) === d.dome && a.orientation === d.orient) : -1;
  const other = d && sites.get(d.dome).length > 1;
  return html`<div data-testid="fm-landing">
    <h3>${t("fm.landing")}</h3>
    <p class="help">${t("fm.landing_help", { n: view.config.landing_min_distance })}</p>
    <div class="segmented" role="radiogroup" aria-label=${t("fm.pods_facing")}>
      ${["north", "south"].map((o) => html`<button type="button" role="radio" aria-checked=${(d ? d.orient : ui.orient || "north") === o ? "true" : "false"}
        class=${(d ? d.orient : ui.orient || "north") === o ? "on" : ""} data-testid=${"fm-orient-" + o}
        disabled=${d && !sites.get(d.dome).includes(o)}
        onClick=${() => setUi({ orient: o, land: d ? { ...d, orient: o } : null })}>${t("fm.orient." + o)}</button>`)}
    </div>
    ${d ? html`<p data-testid="fm-landing-choice">${legalText[i]}</p>
      <p class="help" data-testid="fm-landing-cleared">${t("fm.landing_cleared", { r: view.config.landing_clear_radius,
        n: oreWithin(view, parseKey(d.dome), view.config.landing_clear_radius).length })}</p>`
      : html`<p class="muted small">${t("fm.landing_pick")}</p>`}
    ${ui.msg ? html`<p class="fm-msg" role="status">${t(ui.msg)}</p>` : null}
    <div class="row-buttons">
      <${Button} kind="primary" icon="check" label=${t("fm.land_here")} disabled=${i < 0} testid="fm-land"
        onClick=${() => { setUi({ land: null }); play(legal[i]); }} />
      ${other ? html`<${Button} icon="refresh" label=${t("fm.turn_ship")} testid="fm-turn-ship"
        onClick=${() => setUi({ land: { ...d, orient: d.orient === "north" ? "south" : "north" } })} />` : null}
    </div>
  </div>`;
}

function DeployComposer(props) {
  const { view, legal, ui, setUi, play, t, check } = props;
  const st = deployState(props);
  const all = deployable(view, st.ship);
  const [verdict, setVerdict] = useState(null);
  const sig = JSON.stringify(st.draft);
  useEffect(() => {
    let live = true;
    if (!st.draft.length || !check) { setVerdict(null); return undefined; }
    check({ type: "deploy", units: st.draft }).then((r) => { if (live) setVerdict({ sig, ...r }); }).catch(() => { if (live) setVerdict(null); });
    return () => { live = false; };
  }, [sig]);
  const ok = verdict && verdict.sig === sig ? verdict.legal : null;
  const formations = byType(legal, "deploy");
  const suggest = (a) => setUi({ deploy: a.units.map((e) => ({ ...e })), pick: null, first: null, msg: null });
  const pickU = st.pick !== null ? unitOf(view, st.pick) : null;
  return html`<div data-testid="fm-deploy">
    <h3>${t("fm.deployment")}</h3>
    <p class="help">${t("fm.deploy_help", { r: view.config.deploy_radius })}</p>
    <p data-testid="fm-deploy-count">${t("fm.placed_n", { n: st.used.size, of: all.length })}</p>
    ${pickU ? html`<p class="fm-picked">${t(pickU.kind === "barge" ? (ui.first ? "fm.barge_second" : "fm.barge_first") : "fm.place_picked",
      { unit: unitName(t, pickU) })}</p>` : null}
    ${ui.msg ? html`<p class="fm-msg" role="status">${t(ui.msg)}</p>` : null}
    ${ok === false ? html`<p class="fm-msg" role="status" data-testid="fm-deploy-problem">${verdict.explain || verdict.message}</p>` : null}
    <div class="row-buttons">
      <${Button} kind="primary" icon="check" label=${t("fm.seal_deploy")} testid="fm-seal-deploy" disabled=${ok === false}
        onClick=${() => { const units = st.draft; setUi({ deploy: [], pick: null, first: null }); play({ type: "deploy", units }); }} />
      <${Button} icon="undo" label=${t("fm.clear")} testid="fm-deploy-clear" disabled=${!st.draft.length}
        onClick=${() => setUi({ deploy: [], pick: null, first: null, msg: null })} />
    </div>
    ${formations.length ? html`<div class="row-buttons" role="group" aria-label=${t("fm.suggestions")}>
      <span class="muted small">${t("fm.suggestions")}:</span>
      ${formations.filter((a) => a.units.length).map((a, k) => html`<${Button} label=${t(k === 0 ? "fm.suggest_all" : "fm.suggest_half", { n: a.units.length })}
        testid=${"fm-suggest-" + k} onClick=${() => suggest(a)} />`)}</div>` : null}
    <p class="help">${t("fm.deploy_rest")}</p>
  </div>`;
}

function DepartureComposer(props) {
  const { view, legal, ui, setUi, play, t } = props;
  const acts = byType(legal, "decide_departure");
  const ships = Object.keys(acts[0].choices).map(Number);
  const leave = ui.leave || {};
  const choice = Object.fromEntries(ships.map((s) => [String(s), leave[s] ? "leave" : "stay"]));
  const action = acts.find((a) => ships.every((s) => a.choices[String(s)] === choice[String(s)]));
  return html`<div data-testid="fm-departure">
    <h3>${t("fm.departure")}</h3>
    <p class="help">${t("fm.departure_help")}</p>
    ${ships.map((id) => {
      const s = unitOf(view, id);
      const sc = s ? shipScore(view, s) : { score: 0, ore: 0, units: 0, turrets: 0 };
      return html`<div class="fm-ship-choice" data-ship=${id}>
        <div><b>${s ? unitName(t, s) : id}</b> <span class="muted small">${t("fm.would_score", sc)}</span></div>
        <div class="segmented" role="radiogroup" aria-label=${s ? unitName(t, s) : String(id)}>
          ${["stay", "leave"].map((c) => html`<button type="button" role="radio" aria-checked=${choice[String(id)] === c ? "true" : "false"}
            class=${choice[String(id)] === c ? "on" : ""} data-testid=${`fm-${c}-${id}`}
            onClick=${() => setUi({ leave: { ...leave, [id]: c === "leave" } })}>${t("fm.choice." + c)}</button>`)}</div></div>`;
    })}
    <div class="row-buttons"><${Button} kind="primary" icon="check" label=${t("fm.seal_departure")} testid="fm-seal-departure"
      disabled=${!action} onClick=${() => play(action)} /></div>
  </div>`;
}

/** What a seat that already sealed its choice sees until the others have (FM-8.1, FM-20.1). */
function Sealed({ view, t }) {
  const own = view.sealed && view.sealed.own;
  if (own === null || own === undefined) return null;
  const n = Array.isArray(own) ? own.length : Object.values(own).filter((v) => v === "leave").length;
  return html`<p data-testid="fm-sealed">${t(view.phase === "deploy" ? "fm.sealed_deploy" : "fm.sealed_departure", { n })}</p>`;
}

/** The composer's part for the landing, the deployment and the departure decision (null otherwise). */
export function SetupComposer(props) {
  const { view, legal } = props;
  if (view.phase === "land" && props.interactive && legal.some((a) => a.type === "land")) return html`<${LandingComposer} ...${props} />`;
  if (deploying(props)) return html`<${DeployComposer} ...${props} />`;
  if (view.phase === "depart" && props.interactive && legal.some((a) => a.type === "decide_departure")) return html`<${DepartureComposer} ...${props} />`;
  if ((view.phase === "deploy" || view.phase === "depart") && view.sealed && view.sealed.own !== null && view.sealed.own !== undefined) {
    return html`<${Sealed} view=${view} t=${props.t} />`;
  }
  return null;
}

/** Below the board during the deployment: the units still in the hold, to pick and place. */
export function DeployTray(props) {
  const { view, t } = props;
  const hl = setupHighlights(props);
  const st = deployState(props);
  const seat = seatOf(props);
  const left = deployable(view, st.ship).filter((u) => !st.used.has(u.id));
  return html`<div class="fm-tray" data-testid="fm-deploy-tray">
    <span class="tray-label">${t("fm.in_the_hold", { ship: unitName(t, st.ship) })}</span>
    <div class="fm-tray-items">${left.map((u) => {
      const id = "d:" + u.id;
      const a = hl ? { "data-place": id, class: "place fm-item" + (hl.selected === id ? " is-selected" : " is-source"), tabindex: "0", role: "button",
        "aria-pressed": hl.selected === id ? "true" : "false", "aria-label": unitName(t, u) } : { class: "fm-item" };
      return html`<span ...${a} data-unit=${u.id}><${MiniPiece} kind=${u.kind} colour=${COLOURS[(seat ?? 0) % 4]} />
        <span class="fm-item-label">${unitName(t, u)}</span></span>`;
    })}${left.length ? null : html`<span class="muted small">${t("fm.hold_empty")}</span>`}</div>
  </div>`;
}

export { index };
