// The card and scenario editors, /workbench/<game>/<kind> (issue 25; docs/workbench.md): a Tremble card set, a
// Battleship Galaxies pack, a Worlds & Suns scenario edited in a form made from the kind's JSON Schema, validated
// live by the server (the catalogue's own checks, each problem at its field), saved as a named set (with an
// account), played at once against the computer, and, where the game has a simulation, balance-tested: N
// simulated games of the edited set beside the bundled set's games with the same seeds.
import { html, useEffect, useRef, useState } from "./lib.js";
import { api, rememberSeat, seatLink } from "./api.js";
import { t, num } from "./i18n.js";
import { Button, notifyError, notify } from "./ui.js";
import { accountApi, useAccount } from "./account.js";
import { Fields, normPath, setAt } from "./workbench-form.js";
import { Comparison } from "./workbench-charts.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function kindLabel(game, kind) {
  return t(`wb.form.kind.${game}.${kind}`);
}

/** The balance panel: games, seats, AI and seed; start, follow, cancel; then both results side by side. */
function BalancePanel({ game, kind, spec, content, valid, setId }) {
  const [games, setGames] = useState(200);
  const [players, setPlayers] = useState(spec.players[2]);
  const [ai, setAi] = useState(spec.default_ai);
  const [seed, setSeed] = useState(1);
  const [run, setRun] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);

  useEffect(() => () => clearTimeout(timer.current), []);
  function follow(id) {
    clearTimeout(timer.current);
    api(`/api/workbench/runs/${id}`).then((r) => {
      setRun(r);
      if (r.state === "queued" || r.state === "running" || (r.state === "done" && !r.bundled && r.bundled_state !== "cancelled" && r.bundled_state !== "failed")) {
        timer.current = setTimeout(() => follow(id), 1000);
      }
    }).catch((e) => { notifyError(e); });
  }
  async function start() {
    setBusy(true);
    try {
      const body = { game, kind, games: Number(games), seed: Number(seed), players: Number(players), ai };
      if (setId) body.set_id = setId; else body.content = content;
      const r = await accountApi("/api/workbench/runs", body);
      setRun(r);
      follow(r.id);
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }
  async function cancel() {
    try { setRun(await accountApi(`/api/workbench/runs/${run.id}`, undefined, "DELETE")); clearTimeout(timer.current); } catch (e) { notifyError(e); }
  }
  const running = run && (run.state === "queued" || run.state === "running");
  const range = [];
  for (let p = spec.players[0]; p <= spec.players[1]; p++) range.push(p);
  return html`<section class="wb-panel wb-balance" aria-labelledby="wb-balance-title" data-testid="balance-panel">
    <h2 id="wb-balance-title">${t("wb.run.title")}</h2>
    <p class="help">${t("wb.run.intro")}</p>
    <div class="wb-run-form">
      <label class="field"><span>${t("wb.run.games")}</span><input type="number" min="1" max=${spec.max_games} step="1" value=${games}
        data-testid="run-games" onInput=${(e) => setGames(e.target.value)} />
        <span class="help">${t("wb.run.games_help", { max: num(spec.max_games) })}</span></label>
      <label class="field"><span>${t("wb.run.players")}</span><select value=${players} data-testid="run-players"
        onChange=${(e) => setPlayers(Number(e.target.value))}>${range.map((p) => html`<option value=${p}>${p}</option>`)}</select></label>
      <label class="field"><span>${t("wb.run.ai")}</span><select value=${ai} data-testid="run-ai" onChange=${(e) => setAi(e.target.value)}>
        ${spec.ais.map((a) => html`<option value=${a}>${t("wb.run.ai." + a)}</option>`)}</select></label>
      <label class="field"><span>${t("wb.run.seed")}</span><input type="number" min="0" step="1" value=${seed} data-testid="run-seed"
        onInput=${(e) => setSeed(e.target.value)} /></label>
    </div>
    <div class="row-buttons">
      <${Button} icon="play" kind="primary" label=${t("wb.run.start")} onClick=${start} disabled=${busy || running || !valid} testid="run-start" />
      ${running ? html`<${Button} icon="close" label=${t("wb.run.cancel")} onClick=${cancel} testid="run-cancel" />` : null}
    </div>
    ${!valid ? html`<p class="help">${t("wb.run.fix_first")}</p>` : null}
    <div aria-live="polite" data-testid="run-status">
      ${run ? html`<p data-state=${run.state}>${t("wb.run.state." + run.state)}${run.error ? ` — ${run.error}` : ""}</p>
        ${running ? html`<progress max=${run.total} value=${run.done} aria-label=${t("wb.run.progress")}></progress>
          <span class="small"> ${t("wb.run.done_of", { done: num(run.done), total: num(run.total) })}</span>` : null}` : null}
    </div>
    ${run && run.result ? html`<${Comparison} mine=${run.result} bundled=${run.bundled || null} />` : null}
  </section>`;
}

/** Where a set comes from and where it goes: start from a bundled or saved set; save under a name; play. */
function SetBar({ game, kind, names, mySets, onLoad, content, valid, saved, setSaved, choice }) {
  const account = useAccount();
  const [name, setName] = useState(saved ? saved.name : "");
  const [pub, setPub] = useState(false);
  const [busy, setBusy] = useState(false);
  const okName = NAME.test(name);
  async function save() {
    setBusy(true);
    try {
      let res;
      if (saved && saved.name === name) {
        res = await accountApi(`/api/workbench/sets/${encodeURIComponent(saved.id)}`, { name, content, public: pub }, "PUT");
        res = { id: saved.id, ...(res || {}) };
      } else res = await accountApi("/api/workbench/sets", { game, kind, name, content, public: pub });
      setSaved({ id: res.id, name });
      notify({ kind: "ok", text: t("wb.form.saved", { name }) });
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }
  async function play() {
    setBusy(true);
    try {
      const { config } = await api(`/api/workbench/play/${game}/${kind}`, { body: { content } });
      const res = await api("/api/matches", { body: { game, config, join_seat: 0, ai_seconds: 0.5, name: t("wb.form.play_name") } });
      const seats = (res.match && res.match.seats) || [];
      for (const s of seats) {
        if (s.seat !== res.seat && s.kind === "open") {
          await api(`/api/matches/${res.match.id}/seats/${s.seat}/ai`, { body: { token: res.token, by_seat: 0 } });
        }
      }
      rememberSeat(res.match.id, res.seat, res.token);
      location.assign(seatLink(res.match.id, res.seat, res.token));
    } catch (e) { notifyError(e); setBusy(false); }
  }
  return html`<section class="wb-panel wb-setbar" aria-labelledby="wb-set-title">
    <h2 id="wb-set-title" class="sr-only">${t("wb.form.set")}</h2>
    <label class="field"><span>${t("wb.form.start_from")}</span>
      <select data-testid="start-from" value=${choice} onChange=${(e) => onLoad(e.target.value)}>
        ${names.map((n) => html`<option value=${"bundled:" + n}>${t("wb.form.bundled", { name: n })}</option>`)}
        ${mySets.map((s) => html`<option value=${"set:" + s.id}>${s.name}${s.mine === false ? ` (${t("wb.form.public")})` : ""}</option>`)}
      </select></label>
    <div class="wb-save">
      <label class="field"><span>${t("wb.form.name")}</span>
        <input type="text" value=${name} maxLength="64" data-testid="set-name" aria-invalid=${name && !okName ? "true" : null}
          aria-describedby="wb-name-help" onInput=${(e) => setName(e.target.value)} />
        <span class="help" id="wb-name-help">${t("wb.form.name_help")}</span></label>
      <label class="check"><input type="checkbox" checked=${pub} onChange=${(e) => setPub(e.target.checked)} data-testid="set-public" />
        <span>${t("wb.form.public_help")}</span></label>
      <div class="row-buttons">
        <${Button} icon="check" label=${t("wb.form.save")} onClick=${save} disabled=${busy || !okName || !valid || !account.account}
          testid="set-save" />
        <${Button} icon="play" kind="primary" label=${t("wb.form.play")} onClick=${play} disabled=${busy || !valid} testid="set-play" />
      </div>
      ${!account.account ? html`<p class="help">${t("wb.form.sign_in_to_save")}</p>` : null}
      ${saved ? html`<p class="small" data-testid="saved-as">${t("wb.form.saved", { name: saved.name })}</p>` : null}
    </div>
  </section>`;
}

export function WorkbenchEditorPage({ game, kind }) {
  const [schema, setSchema] = useState(null);
  const [names, setNames] = useState([]);
  const [mySets, setMySets] = useState([]);
  const [content, setContent] = useState(null);
  const [problems, setProblems] = useState([]);
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState(false);
  const [runSpec, setRunSpec] = useState(null);
  const [saved, setSaved] = useState(null);
  const [failed, setFailed] = useState(null);
  const [choice, setChoice] = useState("");
  const [opened, setOpened] = useState(null);
  const seq = useRef(0);
  const timer = useRef(null);
  const account = useAccount();
  const base = `/api/workbench/kinds/${encodeURIComponent(game)}/${encodeURIComponent(kind)}`;

  useEffect(() => {
    let alive = true;
    (async () => {
      try {
        const [s, list, runKinds] = await Promise.all([api(base + "/schema"), api(base + "/bundled"),
          api("/api/workbench/runs/kinds").catch(() => [])]);
        if (!alive) return;
        setSchema(s);
        const ns = list.map((x) => x.name);
        setNames(ns);
        setRunSpec(runKinds.find((k) => k.key === `${game}/${kind}`) || null);
        // /workbench/<game>/<kind>?set=<id> (the workbench home's "open") starts from that set
        const wanted = new URLSearchParams(location.search).get("set");
        const first = ns.includes("house") ? "house" : ns[0];
        if (wanted) await load("set:" + wanted);
        else if (first) await load("bundled:" + first);
      } catch (e) { if (alive) { setFailed(e); notifyError(e); } }
    })();
    return () => { alive = false; clearTimeout(timer.current); };
  }, [game, kind]);

  useEffect(() => {
    if (!account.account) { setMySets([]); return; }
    api(`/api/workbench/sets?game=${encodeURIComponent(game)}&kind=${encodeURIComponent(kind)}`).then((sets) => {
      const all = Array.isArray(sets) ? sets : [...(sets.mine || []), ...(sets.public || [])];
      setMySets(all.filter((x) => x.game === game && x.kind === kind));
    }).catch(() => {});
  }, [account.account, game, kind, saved && saved.id]);

  async function load(choice) {
    setChoice(choice);
    try {
      let c;
      if (choice.startsWith("bundled:")) {
        c = (await api(`${base}/bundled/${encodeURIComponent(choice.slice(8))}`)).content;
        setSaved(null);
      } else {
        const id = choice.slice(4);
        const s = await api(`/api/workbench/sets/${encodeURIComponent(id)}`);
        c = s.content;
        setOpened({ id, name: s.name, mine: s.mine });
        setSaved(s.mine === false ? null : { id, name: s.name });
      }
      setContent(c);
      validate(c, true);
    } catch (e) { notifyError(e); }
  }

  function validate(c, now) {
    clearTimeout(timer.current);
    setChecking(true);
    const go = async () => {
      const mine = ++seq.current;
      try {
        const r = await api(`/api/workbench/validate/${encodeURIComponent(game)}/${encodeURIComponent(kind)}`, { body: { content: c } });
        if (mine === seq.current) { setProblems(r.problems || []); setChecked(true); setChecking(false); }
      } catch (e) {
        if (mine !== seq.current) return;
        setChecking(false);
        setChecked(true);
        setProblems([{ path: "", message: (e.error && (e.error.explain || e.error.message)) || String(e.message), rule: null }]);
      }
    };
    if (now) go(); else timer.current = setTimeout(go, 400);
  }

  function change(path, v) {
    setContent((c) => {
      const next = setAt(c, normPath(path), v);
      validate(next, false);
      return next;
    });
  }

  function focusProblem(p) {
    const parts = normPath(p.path).split(".");
    // open every folded card on the way, then focus the field (or the nearest place drawn)
    for (let i = 1; i <= parts.length; i++) {
      const card = document.querySelector(`[data-testid="card-${parts.slice(0, i).join(".")}"]`);
      if (card && !card.open) card.open = true;
    }
    setTimeout(() => {
      for (let i = parts.length; i >= 0; i--) {
        const el = document.querySelector(`[data-path="${parts.slice(0, i).join(".")}"]`);
        if (el) {
          const f = el.querySelector("input, select, textarea, summary") || el;
          f.focus();
          f.scrollIntoView({ block: "center" });
          return;
        }
      }
    }, 50);
  }

  const valid = checked && !checking && problems.length === 0;
  if (failed) return html`<section class="wb-editor"><h1>${kindLabel(game, kind)}</h1><p role="alert">${t("wb.form.unavailable")}</p></section>`;
  if (!schema || content === null) return html`<div class="loading" aria-busy="true"></div>`;
  return html`<section class="wb-editor" data-testid="wb-editor" data-valid=${valid ? "yes" : "no"}>
    <div class="wb-head"><h1>${kindLabel(game, kind)}</h1>
      <a href="/workbench" class="small">${t("wb.form.back")}</a></div>
    <p class="help">${t("wb.form.intro")}</p>
    <${SetBar} game=${game} kind=${kind} names=${names} onLoad=${load} content=${content} valid=${valid}
      mySets=${opened && !mySets.some((x) => x.id === opened.id) ? [...mySets, opened] : mySets} choice=${choice}
      saved=${saved} setSaved=${setSaved} />
    <section class="wb-panel wb-check" aria-labelledby="wb-check-title" data-testid="problems">
      <h2 id="wb-check-title">${t("wb.form.check")}</h2>
      <div aria-live="polite" data-testid="check-state" data-state=${checking ? "checking" : valid ? "valid" : "invalid"}>
        ${checking ? html`<p class="muted">${t("wb.form.checking")}</p>`
          : problems.length === 0 ? html`<p class="ok">${t("wb.form.valid")}</p>`
          : html`<p class="bad">${t("wb.form.problems_n", { n: problems.length })}</p>`}
      </div>
      ${problems.length ? html`<ul class="wb-problem-list">${problems.slice(0, 50).map((p) => html`<li>
        <button type="button" class="link-button" onClick=${() => focusProblem(p)}>${p.path || t("wb.form.whole")}</button>: ${p.message}
        ${p.rule && !String(p.message).includes(p.rule) ? html` <span class="wb-rule">(${p.rule})</span>` : null}</li>`)}</ul>` : null}
    </section>
    <form class="wb-form" onSubmit=${(e) => e.preventDefault()} aria-label=${t("wb.form.fields")}>
      <${Fields} root=${schema} schema=${schema} value=${content} path="" onChange=${change} problems=${problems} />
    </form>
    ${runSpec ? html`<${BalancePanel} game=${game} kind=${kind} spec=${runSpec} content=${content} valid=${valid}
      setId=${null} />` : null}
  </section>`;
}
