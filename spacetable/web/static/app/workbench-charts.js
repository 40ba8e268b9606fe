// The balance run's figures as SVG charts (the plots of `spacetable simulate`, drawn in the browser): win rate by
// seat with its 95% interval and the fair share, the score spread, battles per game, game length, and each card's
// purchase and win-when-bought rates. Every chart is drawn for the edited set and the bundled set side by side, on
// the same scale, and carries a text summary for screen readers.
import { html } from "./lib.js";
import { t, num } from "./i18n.js";

const W = 320;
const H = 180;
const PAD = { l: 36, r: 8, t: 10, b: 26 };
const pct = (x) => `${Math.round(x * 1000) / 10}%`;
// A game's summary may name its own words for some figures (``terms``: figure -> the suffix of a wb.run.* key).
const term = (summary, name) => t(`wb.run.${(summary && summary.terms && summary.terms[name]) || name}`);

function Frame({ title, desc, children, testid }) {
  return html`<svg class="wb-chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`${title}. ${desc}`} data-testid=${testid}
    preserveAspectRatio="xMidYMid meet">${children}</svg>`;
}

function yAxis(max, fmt) {
  const ticks = [0, max / 2, max];
  const y = (v) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max);
  return html`<g class="wb-axis">${ticks.map((v) => html`<g><line x1=${PAD.l} x2=${W - PAD.r} y1=${y(v)} y2=${y(v)} />
    <text x=${PAD.l - 4} y=${y(v) + 4} text-anchor="end">${fmt(v)}</text></g>`)}</g>`;
}

/** Seat win rates: bars, 95% interval whiskers, the fair share as a dashed line. */
export function SeatChart({ summary, max, label, testid }) {
  const n = summary.players;
  const rates = summary.seat_win_rate;
  const ci = summary.seat_win_ci || rates.map((r) => [r, r]);
  const iw = (W - PAD.l - PAD.r) / n;
  const y = (v) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max);
  const desc = rates.map((r, i) => t("wb.run.seat_desc", { seat: i + 1, rate: pct(r), lo: pct(ci[i][0]), hi: pct(ci[i][1]) })).join("; ");
  return html`<${Frame} title=${`${t("wb.run.seat_chart")} — ${label}`} desc=${desc} testid=${testid}>
    ${yAxis(max, pct)}
    ${rates.map((r, i) => html`<g>
      <rect class="wb-bar" x=${PAD.l + i * iw + iw * 0.2} width=${iw * 0.6} y=${y(r)} height=${y(0) - y(r)} />
      <line class="wb-ci" x1=${PAD.l + (i + 0.5) * iw} x2=${PAD.l + (i + 0.5) * iw} y1=${y(ci[i][1])} y2=${y(ci[i][0])} />
      <line class="wb-ci" x1=${PAD.l + (i + 0.4) * iw} x2=${PAD.l + (i + 0.6) * iw} y1=${y(ci[i][1])} y2=${y(ci[i][1])} />
      <line class="wb-ci" x1=${PAD.l + (i + 0.4) * iw} x2=${PAD.l + (i + 0.6) * iw} y1=${y(ci[i][0])} y2=${y(ci[i][0])} />
      <text class="wb-label" x=${PAD.l + (i + 0.5) * iw} y=${H - 8} text-anchor="middle">${t("wb.run.seat_n", { n: i + 1 })}</text></g>`)}
    <line class="wb-fair" x1=${PAD.l} x2=${W - PAD.r} y1=${y(summary.fair_share ?? 1 / n)} y2=${y(summary.fair_share ?? 1 / n)} />
  </${Frame}>`;
}

/** A histogram ``{start, width, counts}`` as bars, on a shared count scale. */
export function HistChart({ hist, max, title, label, unit, testid }) {
  const counts = hist.counts || [];
  const k = Math.max(1, counts.length);
  const iw = (W - PAD.l - PAD.r) / k;
  const y = (v) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / Math.max(1, max));
  const lo = hist.start;
  const hi = hist.start + hist.width * counts.length - 1;
  const total = counts.reduce((a, b) => a + b, 0);
  let mid = 0;
  let acc = 0;
  for (let i = 0; i < counts.length; i++) { acc += counts[i]; if (acc * 2 >= total) { mid = hist.start + i * hist.width; break; } }
  const desc = t("wb.run.hist_desc", { lo: num(lo), hi: num(hi), mid: num(mid), unit });
  return html`<${Frame} title=${`${title} — ${label}`} desc=${desc} testid=${testid}>
    ${yAxis(Math.max(1, max), (v) => num(Math.round(v)))}
    ${counts.map((c, i) => html`<rect class="wb-bar wb-hist" x=${PAD.l + i * iw + 0.5} width=${Math.max(1, iw - 1)} y=${y(c)} height=${y(0) - y(c)} />`)}
    <text class="wb-label" x=${PAD.l} y=${H - 8}>${num(lo)}</text>
    <text class="wb-label" x=${W - PAD.r} y=${H - 8} text-anchor="end">${num(hi)} ${unit}</text>
  </${Frame}>`;
}

/** Each card: how often it was bought (per seat and game) and how often its buyer won, this set against the bundled. */
export function CardTable({ mine, bundled }) {
  const cards = [...new Set([...Object.keys(mine.purchase_rate || {}), ...Object.keys((bundled && bundled.purchase_rate) || {})])];
  cards.sort((a, b) => ((mine.purchase_rate[b] || 0) - (mine.purchase_rate[a] || 0)) || a.localeCompare(b));
  const bar = (v, cls) => html`<svg class="wb-mini" viewBox="0 0 100 10" aria-hidden="true" focusable="false">
    <rect class=${cls} x="0" y="1" width=${Math.max(0.5, Math.min(100, v * 100))} height="8" /></svg>`;
  const cell = (v) => (v === undefined ? html`<td>—</td>` : html`<td><span>${pct(v)}</span>${bar(v, "wb-bar")}</td>`);
  const ci = (c) => {
    const r = (mine.win_when_bought_ci || {})[c];
    return r ? html`<span class="muted small"> (${pct(r[0])}–${pct(r[1])})</span>` : null;
  };
  return html`<div class="wb-table-wrap"><table class="wb-cards" data-testid="run-cards">
    <caption>${term(mine, "cards_caption")}</caption>
    <thead><tr><th scope="col">${t("wb.run.card")}</th><th scope="col">${term(mine, "bought_mine")}</th><th scope="col">${term(mine, "bought_bundled")}</th>
      <th scope="col">${term(mine, "won_mine")}</th><th scope="col">${term(mine, "won_bundled")}</th></tr></thead>
    <tbody>${cards.map((c) => html`<tr><th scope="row">${c}</th>${cell(mine.purchase_rate[c])}${cell(bundled && bundled.purchase_rate[c])}
      <td><span>${mine.win_when_bought[c] === undefined ? "—" : pct(mine.win_when_bought[c])}</span>${ci(c)}</td>
      ${cell(bundled && bundled.win_when_bought[c])}</tr>`)}</tbody></table></div>`;
}

/** The whole comparison: the key figures in a table, then each chart for both sets side by side. */
export function Comparison({ mine, bundled }) {
  const both = [mine, bundled].filter(Boolean);
  const seatMax = Math.min(1, Math.max(...both.flatMap((s) => (s.seat_win_ci || []).map((c) => c[1])), ...both.flatMap((s) => s.seat_win_rate)) * 1.1);
  const histMax = (key) => Math.max(1, ...both.flatMap((s) => (s[key] && s[key].counts) || []));
  const row = (label, f) => html`<tr><th scope="row">${label}</th><td>${f(mine)}</td><td>${bundled ? f(bundled) : "—"}</td></tr>`;
  const pair = (render) => html`<div class="wb-pair"><figure><figcaption>${t("wb.run.this_set")}</figcaption>${render(mine, "mine")}</figure>
    ${bundled ? html`<figure><figcaption>${t("wb.run.bundled_set")}</figcaption>${render(bundled, "bundled")}</figure>` : null}</div>`;
  return html`<div class="wb-compare" data-testid="run-compare">
    <div class="wb-table-wrap"><table class="wb-figures" data-testid="run-figures">
      <caption>${t("wb.run.figures")}</caption>
      <thead><tr><th scope="col"></th><th scope="col">${t("wb.run.this_set")}</th><th scope="col">${t("wb.run.bundled_set")}</th></tr></thead>
      <tbody>
        ${row(t("wb.run.games"), (s) => num(s.games))}
        ${mine.seat_win_rate.map((_, i) => row(t("wb.run.seat_win", { seat: i + 1 }), (s) => html`${pct(s.seat_win_rate[i])} <span class="muted small">(${pct(s.seat_win_ci[i][0])}–${pct(s.seat_win_ci[i][1])})</span>`))}
        ${row(t("wb.run.deviation"), (s) => pct(s.max_seat_deviation))}
        ${row(term(mine, "battles"), (s) => num(Math.round(s.battles_per_game * 100) / 100))}
        ${row(t("wb.run.length"), (s) => num(Math.round(s.actions_per_game * 10) / 10))}
        ${row(term(mine, "score_median"), (s) => num(s.score_p50))}
      </tbody></table></div>
    <h3>${t("wb.run.seat_chart")}</h3>
    ${pair((s, k) => html`<${SeatChart} summary=${s} max=${seatMax} label=${k === "mine" ? t("wb.run.this_set") : t("wb.run.bundled_set")} testid=${"seat-chart-" + k} />`)}
    <h3>${term(mine, "score_chart")}</h3>
    ${pair((s, k) => html`<${HistChart} hist=${s.score_histogram} max=${histMax("score_histogram")} title=${term(mine, "score_chart")}
      label=${k === "mine" ? t("wb.run.this_set") : t("wb.run.bundled_set")} unit=${term(mine, "thousand_humans")} testid=${"score-chart-" + k} />`)}
    <h3>${term(mine, "battles_chart")}</h3>
    ${pair((s, k) => html`<${HistChart} hist=${s.battles_histogram} max=${histMax("battles_histogram")} title=${term(mine, "battles_chart")}
      label=${k === "mine" ? t("wb.run.this_set") : t("wb.run.bundled_set")} unit="" testid=${"battles-chart-" + k} />`)}
    <h3>${t("wb.run.length_chart")}</h3>
    ${pair((s, k) => html`<${HistChart} hist=${s.length_histogram} max=${histMax("length_histogram")} title=${t("wb.run.length_chart")}
      label=${k === "mine" ? t("wb.run.this_set") : t("wb.run.bundled_set")} unit=${t("wb.run.actions")} testid=${"length-chart-" + k} />`)}
    <h3>${term(mine, "cards_chart")}</h3>
    <${CardTable} mine=${mine} bundled=${bundled} />
  </div>`;
}
