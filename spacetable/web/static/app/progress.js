// Tutorial progress (issue 22): kept in the browser (localStorage "spacetable.tutorials": {game: {step, done, steps}})
// for everybody, and with the account when signed in (GET /api/account/tutorials, POST /api/account/tutorials/<game>),
// so that it follows the player to every device. The two are merged: the furthest step, done once done.
import { html, useEffect, useState } from "./lib.js";
import { accountApi, isSignedIn, useAccount } from "./account.js";
import { t } from "./i18n.js";

const STORE = "spacetable.tutorials";

export function tutorialProgress() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}

function store(all) {
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* private mode */ }
}

function merged(a, b) {
  a = a || {}; b = b || {};
  return { step: Math.max(a.step || 0, b.step || 0), done: !!(a.done || b.done), steps: a.steps || b.steps || null };
}

function send(game, p) {
  if (!isSignedIn() || !Number.isInteger(p.step)) return;
  accountApi(`/api/account/tutorials/${encodeURIComponent(game)}`, { step: p.step, done: !!p.done }).catch(() => { /* kept locally */ });
}

/** Record progress in a game's tutorial (merged with what was kept); sent to the account when signed in. */
export function saveProgress(game, patch) {
  const all = tutorialProgress();
  const mine = { ...(all[game] || {}), ...patch };
  if (patch.step !== undefined && all[game] && all[game].step > patch.step) mine.best = Math.max(all[game].best || 0, all[game].step);
  all[game] = mine;
  store(all);
  send(game, { step: Math.max(mine.step || 0, mine.best || 0), done: mine.done });
}

/** A game's progress as this browser and the account know it (fetched again when the account changes). */
export function useTutorialProgress(game) {
  const account = useAccount();
  const [p, setP] = useState(() => tutorialProgress()[game] || {});
  useEffect(() => {
    setP(tutorialProgress()[game] || {});
    if (!account.account) return;
    accountApi("/api/account/tutorials", undefined, "GET").then((d) => {
      const remote = (d.progress || {})[game];
      const all = tutorialProgress();
      const local = all[game];
      const m = merged(local, remote);
      if (local) all[game] = { ...local, done: m.done, steps: m.steps, best: Math.max(local.best || 0, m.step) };
      else if (remote) all[game] = { step: remote.step, done: remote.done, steps: remote.steps };
      store(all);
      setP(all[game] || {});
      // a guest's progress is carried to the account on the first visit signed in
      if (local && (!remote || (local.step || 0) > remote.step || (local.done && !remote.done))) send(game, m);
    }).catch(() => { /* signed out meanwhile: the browser's copy stands */ });
  }, [game, account.account && account.account.id]);
  return p;
}

/** The line the guide page shows under its title. */
export function ProgressLine({ game }) {
  const p = useTutorialProgress(game);
  const step = Math.max(p.step || 0, p.best || 0);
  const text = p.done ? t("tutorial.progress_done")
    : step > 0 && p.steps ? t("tutorial.progress_step", { n: step + 1, of: p.steps }) : t("tutorial.progress_none");
  const account = useAccount();
  return html`<p class="muted small tutorial-progress-line" data-testid="tutorial-progress-line"
    data-done=${p.done ? "yes" : "no"} data-step=${String(step)}>${text}${account.account ? html` · ${t("tutorial.progress_saved")}` : null}</p>`;
}
