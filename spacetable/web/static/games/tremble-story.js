// Tremble, Humans!: the results panel, step by step. A city's story (battle: start strengths, fight or flee, the
// dice, totals, the winner, lost ships and compensation cards; reward: the raid, or the catch with its army
// cards and each army fight) is read from the view's event lines (`view.events`, the engine's record of what
// happened, kept when the option log_events is on, as by default) and from the open contest. Each frame the
// match page shows adds the lines of its action, so the panel grows one step at a time with the moves.
// The event lines are the engine's own English records (spacetable/games/tremble: battle.py, reward.py); only
// their numbers and seats are read here, every word shown comes from the catalogues.
import { html, Icon } from "/static/app/kit.js";
import { Pic, texts } from "./tremble-common.js";

const num = (s) => Number(String(s).replace(/,/g, ""));
const pairs = (s, re) => [...s.matchAll(re)].map((m) => [Number(m[1]), Number(m[2])]);

/** One event line as a fact, or null when it says nothing the panel shows. */
export function fact(line) {
  let m;
  if ((m = line.match(/^battle at slot (\d+) \((.*)\): (.*)$/))) {
    return { k: "battle", slot: Number(m[1]), city: m[2], start: pairs(m[3], /seat (\d+) strength (-?\d+)/g) };
  }
  if ((m = line.match(/^seat (\d+) declares (fight|flee)$/))) return { k: "declare", seat: Number(m[1]), choice: m[2] };
  if ((m = line.match(/^seat (\d+) (re)?rolls (\d)\+(\d)$/))) return { k: "roll", seat: Number(m[1]), again: !!m[2], dice: [Number(m[3]), Number(m[4])] };
  if ((m = line.match(/^seat (\d+) uses (.*?) → totals (.*)$/))) return { k: "totals", seat: Number(m[1]), totals: pairs(m[3], /seat (\d+) (-?\d+)/g), used: true };
  if ((m = line.match(/^battle totals: (.*)$/))) return { k: "totals", totals: pairs(m[1], /seat (\d+) (-?\d+)/g) };
  if ((m = line.match(/^seat (\d+) wins the battle$/))) return { k: "win", seat: Number(m[1]) };
  if ((m = line.match(/^seat (\d+) plays (.*): no ship destroyed$/))) return { k: "salvage", seat: Number(m[1]) };
  if ((m = line.match(/^seat (\d+) loses (.*)$/))) return { k: "lost", seat: Number(m[1]), ship: m[2] };
  if ((m = line.match(/^seat (\d+) draws a compensation card$/))) return { k: "comp", seat: Number(m[1]) };
  if (line === "everybody fled; the city is discarded") return { k: "all_fled" };
  if ((m = line.match(/^claim d6: (.*)$/))) return { k: "claim_roll", rolls: pairs(m[1], /seat (\d+) (\d+)/g) };
  if ((m = line.match(/^seat (\d+) takes (.*) as a trophy after losing$/))) return { k: "claimed", seat: Number(m[1]) };
  if ((m = line.match(/^seat (\d+) raids (.*): \+([\d,]+)$/))) return { k: "raid", seat: Number(m[1]), city: m[2], amount: num(m[3]) };
  if ((m = line.match(/^seat (\d+) tries to catch (.*): armies (.*)$/))) {
    return { k: "catch", seat: Number(m[1]), city: m[2], armies: m[3].split(", ").map((x) => (x === "none" ? 0 : Number(x))) };
  }
  if ((m = line.match(/^seat (\d+) peeks at the top (\d+) army cards$/))) return { k: "peek", seat: Number(m[1]), n: Number(m[2]) };
  if ((m = line.match(/^seat (\d+) plays (.*) against army (\d+)$/))) return { k: "ignored", seat: Number(m[1]), army: Number(m[3]) };
  if ((m = line.match(/^seat (\d+) total (-?\d+) (beats|loses to) army (\d+)$/))) {
    return { k: "army", seat: Number(m[1]), total: Number(m[2]), beaten: m[3] === "beats", army: Number(m[4]) };
  }
  if ((m = line.match(/^seat (\d+) flees the army; the city is discarded$/))) return { k: "army_flee", seat: Number(m[1]) };
  if ((m = line.match(/^seat (\d+) catches (.*): \+([\d,]+)$/))) return { k: "caught", seat: Number(m[1]), city: m[2], amount: num(m[3]) };
  if (/^turn \d+ begins/.test(line) || line.startsWith("cities: ") || / plan: /.test(line)) return { k: "break" };
  return null;
}

/** The last city's story: the facts since its battle (or its raid or catch when nobody fought for it). */
export function lastStory(events) {
  let story = null;
  let closed = false;
  for (const line of events || []) {
    const f = fact(line);
    if (!f) continue;
    if (f.k === "break") { if (story) closed = true; continue; }
    const starts = f.k === "battle" || ((f.k === "raid" || f.k === "catch") && (!story || closed || story.city !== f.city));
    if (starts) { story = { city: f.city, facts: [] }; closed = false; }
    if (story && !closed) story.facts.push(f);
  }
  return story ? { ...story, closed } : null;
}

/** The story told as rows: per captain the start strength, the choice, the dice and totals; then what followed. */
export function Story({ story, props }) {
  const tx = texts(props);
  const { t, num: n } = tx;
  const rows = new Map();
  const row = (seat) => { if (!rows.has(seat)) rows.set(seat, { seat, dice: [] }); return rows.get(seat); };
  const after = [];
  let armies = null;
  for (const f of story.facts) {
    if (f.k === "battle") f.start.forEach(([s, v]) => { row(s).start = v; });
    else if (f.k === "declare") row(f.seat).choice = f.choice;
    else if (f.k === "roll") row(f.seat).dice.push(f.dice);
    else if (f.k === "totals") f.totals.forEach(([s, v]) => { row(s).total = v; });
    else if (f.k === "win") row(f.seat).won = true;
    else if (f.k === "catch") armies = { seat: f.seat, list: f.armies, fights: [] };
    else if (f.k === "army" && armies) armies.fights.push(f);
    else if (f.k === "ignored" && armies) armies.fights.push({ ...f, k: "ignored" });
    else after.push(f);
  }
  const battle = story.facts.some((f) => f.k === "battle");
  const line = (f) => {
    if (f.k === "lost") return t("tremble.ui.story_lost", { who: tx.who(f.seat), ship: tx.named(f.ship) });
    if (f.k === "salvage") return t("tremble.ui.story_salvage", { who: tx.who(f.seat) });
    if (f.k === "comp") return t("tremble.ui.story_comp", { who: tx.who(f.seat) });
    if (f.k === "all_fled") return t("tremble.ui.story_all_fled");
    if (f.k === "claim_roll") return t("tremble.ui.story_claim_roll", { rolls: f.rolls.map(([s, r]) => `${tx.who(s)} ${r}`).join(", ") });
    if (f.k === "claimed") return t("tremble.ui.story_claimed", { who: tx.who(f.seat) });
    if (f.k === "raid") return t("tremble.ui.story_raid", { who: tx.who(f.seat), n: n(f.amount) });
    if (f.k === "caught") return t("tremble.ui.story_caught", { who: tx.who(f.seat), n: n(f.amount) });
    if (f.k === "army_flee") return t("tremble.ui.story_army_flee", { who: tx.who(f.seat) });
    if (f.k === "peek") return t("tremble.ui.story_peek", { who: tx.who(f.seat), n: f.n });
    return null;
  };
  return html`<div class="tr-story" data-testid="tremble-story">
    ${battle ? html`<table class="tr-battle-table" data-testid="tremble-battle">
      <thead><tr><th scope="col">${t("tremble.ui.captain")}</th><th scope="col">${t("tremble.ui.strength")}</th>
        <th scope="col">${t("tremble.ui.dice")}</th><th scope="col">${t("tremble.ui.total")}</th></tr></thead>
      <tbody>${[...rows.values()].map((r) => html`<tr class=${r.won ? "won" : r.choice === "flee" ? "fled" : ""} data-seat=${r.seat}>
        <th scope="row"><span class="seat-dot" style=${{ background: tx.colour(r.seat) }} aria-hidden="true"></span> ${tx.who(r.seat)}
          ${r.won ? html` <span class="tr-won"><${Icon} name="trophy" size=${14} /> ${t("tremble.ui.winner")}</span>` : null}</th>
        <td>${r.start ?? "–"}</td>
        <td class="tr-dice">${r.choice === "flee" ? t("tremble.ui.fled") : r.dice.length
          ? r.dice.map((d, i) => html`<span class=${i < r.dice.length - 1 ? "tr-rerolled" : ""}>${d[0]}+${d[1]}</span>`)
          : r.choice === "fight" ? t("tremble.ui.fights") : "…"}</td>
        <td><b>${r.total ?? "–"}</b></td></tr>`)}</tbody></table>` : null}
    ${armies ? html`<div class="tr-armies-result" data-testid="tremble-catch">
      <p>${t("tremble.ui.story_catch", { who: tx.who(armies.seat) })}</p>
      <div class="tr-army-row">${armies.list.map((v) => html`<span class=${"tr-army" + (v ? "" : " none")}><${Pic} name="army" size=${13} />${v || "–"}</span>`)}</div>
      ${armies.fights.length ? html`<ul>${armies.fights.map((f) => html`<li class=${f.k === "ignored" || f.beaten ? "ok" : "bad"}>${f.k === "ignored"
        ? t("tremble.ui.story_ignored", { who: tx.who(f.seat), army: f.army })
        : t(f.beaten ? "tremble.ui.story_beats" : "tremble.ui.story_loses", { who: tx.who(f.seat), total: f.total, army: f.army })}</li>`)}</ul>` : null}
    </div>` : null}
    ${after.length ? html`<ul class="tr-after">${after.map((f) => { const s = line(f); return s ? html`<li>${s}</li>` : null; })}</ul>` : null}
  </div>`;
}
