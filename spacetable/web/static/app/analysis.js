// Post-game analysis of a finished match (issue 22): the Analyse button starts the server's background job,
// the panel polls it, then draws each seat's winning chances move by move (an SVG chart, dice and draws
// marked) and lists the costly decisions with the move the evaluator preferred. Each seat's curve and
// decisions are judged from what that seat knew at the time.
import { html, useEffect, useState } from "./lib.js";
import { api } from "./api.js";
import { t } from "./i18n.js";
import { Button } from "./ui.js";

const W = 320, H = 140, PAD = 6;

/** Per seat: [chances before the first move, after each move] as that seat saw them. */
function seriesOf(result) {
  if (result.shared) {
    const a = result.shared;
    return a.points.length ? Array.from({ length: a.seats }, (_, s) => [a.points[0].before[s], ...a.points.map((p) => p.after[s])]) : [];
  }
  return result.seats.map((a, s) => (a.points.length ? [a.points[0].before[s], ...a.points.map((p) => p.after[s])] : []));
}

function flaggedOf(result) {
  const views = result.shared ? [result.shared] : result.seats;
  const out = [];
  for (const a of views) for (const i of a.flagged) out.push(a.points[i]);
  return out.sort((x, y) => y.loss - x.loss);
}

function chancesOf(result) {
  const a = result.shared || result.seats[0];
  return a.points.filter((p) => p.chance).map((p) => p.index + 1);
}

export function Chart({ result, colourOf, seatName }) {
  const series = seriesOf(result);
  const n = Math.max(1, ...series.map((s) => s.length - 1));
  const x = (i) => PAD + ((W - 2 * PAD) * i) / n;
  const y = (c) => H - PAD - (H - 2 * PAD) * c;
  return html`<figure class="analysis-chart">
    <svg data-testid="analysis-chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${t("analysis.chart")}>
      <line x1=${PAD} x2=${W - PAD} y1=${y(0.5)} y2=${y(0.5)} stroke="currentColor" stroke-opacity="0.25" />
      ${chancesOf(result).map((i) => html`<line class="chance-mark" x1=${x(i)} x2=${x(i)} y1=${PAD} y2=${H - PAD}
        stroke="currentColor" stroke-opacity="0.3" stroke-dasharray="2 3" />`)}
      ${series.map((s, seat) => html`<polyline fill="none" stroke-width="2" stroke=${colourOf(seat)}
        points=${s.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(" ")}><title>${seatName(seat)}</title></polyline>`)}
      ${flaggedOf(result).filter((p) => series[p.seat] && series[p.seat].length > p.index).map((p) => html`<circle
        class="best-mark" data-testid="analysis-best-mark" data-move=${p.index + 1} cx=${x(p.index).toFixed(1)}
        cy=${y(series[p.seat][p.index]).toFixed(1)} r="4" fill="none" stroke-width="2" stroke=${colourOf(p.seat)}><title>${
        t("analysis.move", { n: p.index + 1 })}: ${t("analysis.preferred", { move: p.preferred })}</title></circle>`)}
    </svg>
    <figcaption class="muted small">${t("analysis.chart")} · ${t("analysis.chance_marks")} · ${t("analysis.best_marks")}</figcaption>
  </figure>`;
}

export function AnalysisPanel({ matchId, seatName, colourOf, onPick }) {
  const [job, setJob] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/api/matches/${matchId}/analysis`).then(setJob).catch(() => setJob({ status: "none" }));
  }, [matchId]);
  useEffect(() => {
    if (!job || (job.status !== "queued" && job.status !== "running")) return undefined;
    const id = setTimeout(() => api(`/api/matches/${matchId}/analysis`).then(setJob).catch((e) => setError(e.error || {})), 1000);
    return () => clearTimeout(id);
  }, [job]);
  const start = () => api(`/api/matches/${matchId}/analysis`, { method: "POST" }).then(setJob).catch((e) => setError(e.error || {}));
  if (!job) return null;
  const flagged = job.result ? flaggedOf(job.result) : [];
  return html`<section class="card analysis" data-testid="analysis" aria-label=${t("analysis.title")}>
    <h3>${t("analysis.title")}</h3>
    ${job.status === "none" || job.status === "failed" ? html`<${Button} icon="play" label=${t("analysis.button")} onClick=${start} testid="analyse" />` : null}
    ${job.status === "failed" ? html`<p class="error">${t("analysis.failed")}</p>` : null}
    ${error ? html`<p class="error">${error.message || t("analysis.failed")}</p>` : null}
    ${job.status === "queued" || job.status === "running" ? html`<p aria-busy="true" data-testid="analysis-running">${t("analysis.running")}</p>` : null}
    ${job.result ? html`<${Chart} result=${job.result} colourOf=${colourOf} seatName=${seatName} />
      <h4>${t("analysis.flagged")}</h4>
      ${flagged.length ? html`<ol class="analysis-flags" data-testid="analysis-flags">${flagged.map((p) => html`<li>
        <button type="button" class="linklike" onClick=${() => onPick(p.index + 1)}>${t("analysis.move", { n: p.index + 1 })}</button>
        <b>${seatName(p.seat, { you: false })}</b>: ${p.move} — <span data-testid="analysis-preferred">${t("analysis.preferred", { move: p.preferred })}</span>
        <span class="loss">${t("analysis.loss", { points: Math.round(100 * p.loss) })}</span></li>`)}</ol>`
        : html`<p class="muted">${t("analysis.none")}</p>`}` : null}
  </section>`;
}
