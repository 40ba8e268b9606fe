// Replays and reviews: step through a match with the buttons or ←/→/Home/End. A running match is reviewed from
// your own seat's view (your sealed choices shown, the others' hidden); once it is over everything is shown to
// everybody, seen from any seat.
import { html, useEffect, useMemo, useRef, useState } from "./lib.js";
import { api, mySeats } from "./api.js";
import { BoardViewport } from "./board.js";
import { t, num } from "./i18n.js";
import { Icon } from "./icons.js";
import { NO_HL } from "./kit.js";
import { Gone, Log, Result, seatNamer } from "./parts.js";
import { PACE } from "./match.js";
import { loadRenderer } from "./renderers.js";
import { Button } from "./ui.js";
import { AnalysisPanel } from "./analysis.js";

export function ReplayPage({ matchId, lobby, navigate, lang }) {
  const cred = useMemo(() => mySeats()[matchId] || null, [matchId]);
  const [meta, setMeta] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(null);
  const [asSeat, setAsSeat] = useState(cred ? cred.seat : null);
  const [frame, setFrame] = useState(null);
  const [renderer, setRenderer] = useState(null);
  const [playing, setPlaying] = useState(false);
  const stepRef = useRef(step);
  stepRef.current = step;

  const seatQ = cred ? `seat=${cred.seat}&` : "";
  useEffect(() => {
    api(`/api/matches/${matchId}/review?${seatQ}lang=${lang}`, { token: cred && cred.token }).then((d) => {
      setMeta(d);
      const want = Number(new URLSearchParams(location.search).get("step"));
      setStep((s) => (s !== null ? Math.min(s, d.steps) : Number.isFinite(want) && want > 0 ? Math.min(want, d.steps) : d.steps));
      const g = lobby.find((x) => x.id === d.match.game);
      loadRenderer(d.match.game, g ? g.renderer : false).then((r) => setRenderer(() => r));
    }).catch((e) => setError(e.error || { code: "not_found" }));
  }, [matchId, lang]);

  useEffect(() => {
    if (!meta || step === null) return;
    const as = meta.reveal && asSeat !== null ? `as_seat=${asSeat}&` : "";
    api(`/api/matches/${matchId}/review/${step}?${seatQ}${as}lang=${lang}`, { token: cred && cred.token })
      .then(setFrame).catch((e) => setError(e.error || { code: "not_found" }));
  }, [meta, step, asSeat, lang]);

  useEffect(() => {
    function key(e) {
      if (!meta || /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement && document.activeElement.tagName)) return;
      const s = stepRef.current;
      const go = { ArrowLeft: s - 1, ArrowRight: s + 1, Home: 0, End: meta.steps }[e.key];
      if (go === undefined) return;
      e.preventDefault();
      setPlaying(false);
      setStep(Math.max(0, Math.min(meta.steps, go)));
    }
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [meta]);

  useEffect(() => {
    if (!playing || !meta) return undefined;
    if (step >= meta.steps) { setPlaying(false); return undefined; }
    const id = setTimeout(() => setStep((s) => Math.min(meta.steps, s + 1)), PACE);
    return () => clearTimeout(id);
  }, [playing, step, meta]);

  if (error) return html`<${Gone} error=${error} matchId=${matchId} navigate=${navigate} />`;
  if (!meta || !frame || !renderer) return html`<div class="loading card" aria-busy="true"><p>${t("conn.connecting")}</p></div>`;
  const m = meta.match;
  const game = lobby.find((g) => g.id === m.game);
  const levels = Object.fromEntries(((game && game.agents) || []).map((a) => [a.name, a.level]));
  const seatName = seatNamer(m, levels, cred ? cred.seat : null);
  const view = frame.view;
  const colourOf = (i) => {
    try { return (renderer.seatColour && renderer.seatColour(view, i)) || ["#e0524a", "#4a8fe0", "#46b86a", "#e0a63a", "#a070d8"][i % 5]; } catch { return "#888"; }
  };
  const last = new Set();
  if (frame.last && frame.last.action && renderer.lastPlaces) {
    try { for (const p of renderer.lastPlaces(frame.last, view) || []) last.add(p); } catch { /* drawing only */ }
  }
  const viewer = frame.viewer;
  const props = {
    view, seat: viewer, you: viewer, legal: [], legalText: [], legalCount: 0, legalComplete: true, hl: renderer.kind === "module" ? { ...NO_HL, last } : NO_HL,
    ui: {}, setUi() {}, play() {}, check: null, fetchLegal: null, t, num, lang, seatName, colourOf, match: m, version: step,
    toAct: frame.to_act, interactive: false, last: frame.last, replay: true, renderer,
  };
  const go = (s) => { setPlaying(false); setStep(Math.max(0, Math.min(meta.steps, s))); };
  let phase = null;
  try { phase = renderer.phase ? renderer.phase(view, t) : null; } catch { phase = null; }
  return html`<div class="match replay" data-testid="replay-page" data-match=${matchId}>
    <h1 class="sr-only" data-testid="page-title">${meta.reveal ? t("replay.title") : t("replay.review")}: ${game ? t("game." + m.game + ".name") : m.game_name}</h1>
    <section class="board-col" aria-label=${t("match.board")}>
      <div class="statusbar">
        <span class="turn">${meta.reveal ? t("replay.title") : t("replay.review")}: ${game ? t("game." + m.game + ".name") : m.game_name}</span>
        ${phase ? html`<span class="phase">${phase}</span>` : null}
        <span data-testid="replay-step" class="turn-label">${step} / ${meta.steps}</span>
      </div>
      <div class="replay-controls" role="group" aria-label=${t("replay.controls")}>
        <${Button} icon="first" iconOnly label=${t("replay.first")} onClick=${() => go(0)} testid="replay-first" />
        <${Button} icon="prev" iconOnly label=${t("replay.prev")} onClick=${() => go(step - 1)} testid="replay-prev" />
        <${Button} icon=${playing ? "pause" : "play"} iconOnly label=${t(playing ? "replay.pause" : "replay.play")}
          onClick=${() => { if (step >= meta.steps) setStep(0); setPlaying(!playing); }} testid="replay-play" />
        <${Button} icon="next" iconOnly label=${t("replay.next")} onClick=${() => go(step + 1)} testid="replay-next" />
        <${Button} icon="last" iconOnly label=${t("replay.last")} onClick=${() => go(meta.steps)} testid="replay-end" />
        ${meta.reveal ? html`<label class="inline-field">${t("replay.seen_by")}
          <select data-testid="replay-as" value=${asSeat === null ? "" : String(asSeat)} onChange=${(e) => setAsSeat(e.target.value === "" ? null : Number(e.target.value))}>
            <option value="">${t("replay.spectator")}</option>
            ${m.seats.map((_, i) => html`<option value=${String(i)}>${seatName(i)}</option>`)}</select></label>`
          : html`<span class="muted small">${viewer === null ? t("replay.as_spectator") : t("replay.as_you")}</span>`}
      </div>
      <div class="board-wrap">
        <${BoardViewport} resetKey=${matchId} label=${t("match.board")}><${renderer.Board} ...${props} /></${BoardViewport}>
      </div>
      ${renderer.Tray ? html`<div class="tray"><${renderer.Tray} ...${props} /></div>` : null}
      <p class="hint" data-testid="replay-last">${frame.last ? html`<b>${seatName(frame.last.seat, { you: false })}</b>: ${frame.last.text || t("log.hidden")}` : t("replay.start")}</p>
    </section>
    <aside class="side">
      ${step === meta.steps && m.outcome ? html`<${Result} match=${m} mySeat=${cred ? cred.seat : null} seatName=${seatName} renderer=${renderer}
        view=${view} navigate=${navigate} matchId=${matchId} />` : null}
      ${renderer.Status ? html`<${renderer.Status} ...${props} />` : null}
      ${meta.hints && Object.keys(meta.hints).length ? html`<p class="muted small" data-testid="replay-hints">${t("learn.hints_by_seat",
        { list: Object.entries(meta.hints).map(([s, n]) => `${seatName(Number(s), { you: false })}: ${n}`).join(", ") })}</p>` : null}
      <${Log} log=${meta.log} seatName=${seatName} colourOf=${colourOf} current=${step - 1} onPick=${go} />
      ${m.status === "finished" ? html`<${AnalysisPanel} matchId=${matchId} seatName=${seatName} colourOf=${colourOf} onPick=${go} />` : null}
      <div class="controls card">
        ${m.status !== "finished" ? html`<${Button} icon="prev" label=${t("replay.back_to_match")} href=${"/match/" + matchId}
          onClick=${(e) => { e.preventDefault(); navigate("/match/" + matchId); }} testid="back-to-match" />` : null}
        <${Button} icon="home" label=${t("nav.lobby")} href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }} />
      </div>
    </aside>
  </div>`;
}
