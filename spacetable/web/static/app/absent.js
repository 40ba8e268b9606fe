// Absent players (issue 21; docs/play.md): the time control and what a lapse does, chosen in the lobby's create
// form; "waiting on X for 2 days" (durations in the reader's language); the match's clock panel (banks, a player on
// vacation, "Claim the win" once the absent seat's time is out); vacation in the account's settings.
import { html, useEffect, useState } from "./lib.js";
import { api } from "./api.js";
import { accountApi, isSignedIn } from "./account.js";
import { currentLang, t } from "./i18n.js";
import { Button, notify, notifyError } from "./ui.js";

export const CLOCK_KINDS = ["none", "move", "increment", "days"];

/** A duration in the reader's language ("2 days", "2 jours", "2 dagen", "2 дня"): its largest unit. */
export function duration(seconds) {
  const s = Math.max(0, seconds);
  const [unit, n] = s >= 86400 ? ["day", Math.floor(s / 86400)] : s >= 3600 ? ["hour", Math.floor(s / 3600)]
    : s >= 60 ? ["minute", Math.floor(s / 60)] : ["second", Math.floor(s)];
  try {
    return new Intl.NumberFormat(currentLang(), { style: "unit", unit, unitDisplay: "long" }).format(n);
  } catch { return `${n} ${unit}`; }
}

/** "Waiting on Ann for 2 days" for a running match (``null`` when nobody is awaited or the wait is not known). */
export function waitingText(m, now, seatName) {
  if (!m || m.status !== "running" || !m.turn_started_at || !m.to_act || !m.to_act.length) return null;
  const who = m.to_act.map((i) => (seatName ? seatName(i) : (m.seats[i] && m.seats[i].name) || t("seat.player_n", { n: i + 1 })));
  return t("absent.waiting_on", { who: who.join(", "), time: duration(now - m.turn_started_at) });
}

/** The time control and lapse fields of the create form: ``value`` is ``{kind, seconds, increment, days, lapse}``. */
export function TimeControlFields({ value, onChange, game }) {
  const set = (k) => (e) => onChange({ ...value, [k]: e.target.value });
  const lapses = ["forfeit", "claim", "computer", ...(game && game.lapse_pass ? ["pass"] : [])];
  return html`<div class="option" data-testid="time-control">
    <label for="clock-kind">${t("absent.clock")}</label>
    <select id="clock-kind" data-testid="clock-kind" value=${value.kind} onChange=${set("kind")}>
      ${CLOCK_KINDS.map((k) => html`<option value=${k}>${t("absent.clock_" + k)}</option>`)}</select>
    ${value.kind === "move" ? html`<label class="inline-field">${t("absent.seconds_per_move")}
      <input type="number" min="10" max="86400" step="1" value=${value.seconds} data-testid="clock-seconds" onInput=${set("seconds")} /></label>` : null}
    ${value.kind === "increment" ? html`<label class="inline-field">${t("absent.minutes_bank")}
      <input type="number" min="1" max="360" step="1" value=${value.minutes} data-testid="clock-minutes" onInput=${set("minutes")} /></label>
      <label class="inline-field">${t("absent.increment")}
      <input type="number" min="0" max="600" step="1" value=${value.increment} data-testid="clock-increment" onInput=${set("increment")} /></label>` : null}
    ${value.kind === "days" ? html`<label class="inline-field">${t("absent.days_per_move")}
      <input type="number" min="1" max="14" step="1" value=${value.days} data-testid="clock-days" onInput=${set("days")} /></label>` : null}
    ${value.kind !== "none" ? html`<label class="inline-field">${t("absent.lapse")}
      <select data-testid="clock-lapse" value=${value.lapse} onChange=${set("lapse")}>
        ${lapses.map((k) => html`<option value=${k}>${t("absent.lapse_" + k)}</option>`)}</select></label>
      <p class="help">${t("absent.lapse_help_" + value.lapse)}</p>` : html`<p class="help">${t("absent.clock_help")}</p>`}
  </div>`;
}

export const defaultTimeControl = () => ({ kind: "none", seconds: 120, minutes: 10, increment: 5, days: 3, lapse: "forfeit" });

/** The creation body's fields for a time control value. */
export function timeControlBody(v) {
  if (v.kind === "none") return {};
  const clock = v.kind === "move" ? { kind: "move", seconds: Number(v.seconds) }
    : v.kind === "increment" ? { kind: "increment", seconds: Number(v.minutes) * 60, increment: Number(v.increment) }
      : { kind: "days", days: Number(v.days) };
  return { clock, lapse: v.lapse };
}

/** A time control in words: "2 minutes per move", "10 minutes + 5 seconds per move", "Correspondence: 3 days per
 *  move", "No clock" (``kind``: none, move, increment or days; ``seconds``: a turn's time or the bank). */
export function timeControlText(kind, seconds, increment) {
  if (!kind || kind === "none" || !seconds) return t("absent.clock_none");
  if (kind === "increment") return t("absent.shown_increment", { time: duration(seconds), inc: duration(increment || 0) });
  return t(kind === "days" ? "absent.shown_days" : "absent.shown_move", { time: duration(seconds) });
}

/** The time control of a challenge or a seek (``clock``: as posted, or ``null`` with plain ``turn_seconds``) and
 *  what a lapse does, in words. */
export function offerTimeText(offer) {
  const c = offer.clock;
  const text = c ? timeControlText(c.kind, c.kind === "days" ? (c.days || 0) * 86400 : c.seconds, c.increment)
    : timeControlText(offer.turn_seconds ? "move" : "none", offer.turn_seconds, 0);
  return offer.lapse && offer.lapse !== "forfeit" ? `${text} · ${t("absent.lapse_" + offer.lapse)}` : text;
}

/** The match's clock: its kind, the banks, who is on vacation, and "Claim the win" for a waiting seat. */
export function ClockPanel({ match, matchId, seat, token, seatName, now }) {
  const [clock, setClock] = useState(null);
  const key = `${match.version}:${match.status}:${match.seats.map((s) => s.kind).join()}`;
  async function load() {
    try { setClock(await api(`/api/matches/${matchId}/clock`)); } catch { /* try again at the next change */ }
  }
  useEffect(() => {
    load();
    const every = setInterval(() => { if (!document.hidden) load(); }, 30000);
    return () => clearInterval(every);
  }, [matchId, key]);
  if (!clock || clock.kind === "none") return null;
  const kindText = timeControlText(clock.kind, clock.turn_seconds, clock.increment);
  const waiting = match.status === "running" && seat !== null && !match.to_act.includes(seat);
  const lapsed = (clock.lapsed || []).filter((s) => s !== seat);
  const canClaim = waiting && token && lapsed.length && ["claim", "pass"].includes(clock.lapse);
  async function claim() {
    try {
      await api(`/api/matches/${matchId}/claim`, { body: { seat }, headers: { "X-Seat-Token": token } });
      notify({ kind: "ok", text: t("absent.claimed") });
    } catch (e) { notifyError(e); }
  }
  return html`<section class="card clock-panel" data-testid="clock-panel" aria-label=${t("absent.clock")}>
    <p data-testid="clock-kind-shown">${kindText} · ${t("absent.lapse_" + clock.lapse)}</p>
    ${clock.banks ? html`<ul class="banks">${clock.banks.map((b, i) => html`<li data-testid="bank">${seatName(i)}: ${duration(b)}</li>`)}</ul>` : null}
    ${Object.entries(clock.vacation || {}).map(([s, until]) => html`<p class="tag" data-testid="on-vacation">
      ${t("absent.on_vacation", { who: seatName(Number(s)), time: duration(until - now) })}</p>`)}
    ${lapsed.length ? html`<p data-testid="time-out">${t("absent.time_out", { who: lapsed.map(seatName).join(", ") })}</p>` : null}
    ${canClaim ? html`<${Button} kind="primary" icon="trophy" label=${t("absent.claim")} onClick=${claim} testid="claim-win" />` : null}
  </section>`;
}

/** Vacation in the account's settings: on/off, the days left this year. */
export function VacationSettings() {
  const [v, setV] = useState(null);
  useEffect(() => { if (isSignedIn()) api("/api/account/vacation").then(setV).catch(() => {}); }, []);
  if (!v) return null;
  async function turn(on) {
    try { setV(await accountApi("/api/account/vacation", { on }, "PUT")); } catch (e) { notifyError(e); }
  }
  return html`<div data-testid="vacation"><h2>${t("absent.vacation")}</h2>
    <p>${t("absent.vacation_help", { n: v.allowance_days })}</p>
    <p data-testid="vacation-left">${t("absent.vacation_left", { n: v.days_left })}</p>
    ${v.on ? html`<p data-testid="vacation-on">${t("absent.vacation_on", { date: new Date(v.until * 1000).toLocaleDateString(currentLang()) })}</p>
      <button class="btn" type="button" data-testid="vacation-off" onClick=${() => turn(false)}>${t("absent.vacation_end")}</button>`
      : html`<button class="btn" type="button" data-testid="vacation-start" disabled=${v.days_left <= 0}
        onClick=${() => turn(true)}>${t("absent.vacation_start")}</button>`}</div>`;
}
