// The designer's workbench home (/workbench, docs/workbench.md): the content kinds with links to their editors
// (/workbench/map for Full Metal maps, /workbench/<game>/<kind> for the others), the signed-in designer's sets
// (open, play, export, share, delete), the public sets of others, and importing one file (.json as exported, or a
// map's .fmp). Names and other people's texts are written as text (Preact escapes them), never as markup.
// Shared helpers for the editors: setsApi, editorUrl, playWithSet, kindLabel.
import { html, useEffect, useState } from "./lib.js";
import { ApiError, api, rememberSeat, seatLink } from "./api.js";
import { accountApi, useAccount } from "./account.js";
import { currentLang, t, tMaybe } from "./i18n.js";
import { Button, notify, notifyError, useConfirm } from "./ui.js";

/** A set's name: what the server's catalogue accepts (letters, digits, '-' and '_'; never a path). */
export const NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}";

/** The page of a kind's editor (the map editor for Full Metal maps, the form editor for the others). */
export function editorUrl(key, setId) {
  const base = key === "fullmetal/maps" ? "/workbench/map" : `/workbench/${key}`;
  return setId ? `${base}?set=${encodeURIComponent(setId)}` : base;
}

/** A kind's name in the interface language (the server's label when no translation exists). */
export function kindLabel(kind) {
  return tMaybe(`wb.sets.kind.${kind.key || `${kind.game}/${kind.kind}`}`) || kind.label || kind.key;
}

function gameLabel(game) { return tMaybe(`game.${game}.name`) || game; }

/** The workbench API's set calls (as the signed-in account). */
export const setsApi = {
  list: (query = "") => api(`/api/workbench/sets${query}`),
  get: (id) => api(`/api/workbench/sets/${encodeURIComponent(id)}`),
  create: (body) => accountApi("/api/workbench/sets", body),
  change: (id, body) => accountApi(`/api/workbench/sets/${encodeURIComponent(id)}`, body, "PUT"),
  remove: (id) => accountApi(`/api/workbench/sets/${encodeURIComponent(id)}`, undefined, "DELETE"),
  exportUrl: (id, format) => `/api/workbench/sets/${encodeURIComponent(id)}/export${format ? `?format=${format}` : ""}`,
};

/** Start a match against the computer with a set (the account's seat 0), then open it. */
export async function playWithSet(set, navigate) {
  const config = set.game === "tremble" || set.game === "fullmetal" ? { players: 2 } : {};
  const res = await accountApi("/api/account/matches", { game: set.game, config, content_set: set.id,
    ai_seats: { 1: null }, join_seat: 0 });
  rememberSeat(res.match.id, res.seat, res.token);
  navigate(seatLink(res.match.id, res.seat, res.token));
}

/** Send one file to the import route: an exported .json set, or a kind's own text format (a map's .fmp). */
export async function importFile(file, key, name, csrf, check) {
  const text = await file.text();
  const path = check ? "/api/workbench/import/check" : "/api/workbench/import";
  let url = path;
  let type = "application/json";
  if (!/\.json$/i.test(file.name)) {
    const [game, kind] = key.split("/");
    url = `${path}?${new URLSearchParams({ game, kind, name })}`;
    type = "text/plain";
  }
  const r = await fetch(url, { method: "POST", body: text, headers: { "Content-Type": type, "Accept-Language": currentLang(),
    ...(csrf ? { "X-CSRF-Token": csrf } : {}) } });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(data.error || { code: "http_" + r.status }, r.status);
  return data;
}

function Problems({ problems }) {
  if (!problems || !problems.length) return null;
  return html`<ul class="wb-problems" data-testid="wb-problems">${problems.map((p, i) => html`<li key=${i}>
    ${p.path ? html`<code>${p.path}</code> ` : ""}${p.message}${p.rule ? html` <small>(${p.rule})</small>` : ""}</li>`)}</ul>`;
}

function SetRow({ set, kinds, navigate, refresh, mine }) {
  const [confirmDialog, ask] = useConfirm("wb-confirm");
  const kind = kinds.find((k) => k.key === set.key) || { key: set.key };
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  async function run(f) { try { await f(); } catch (e) { notifyError(e); } }
  const share = () => run(async () => { await setsApi.change(set.id, { public: !set.public }); refresh(); });
  const remove = () => run(async () => {
    const sure = await ask({ title: t("wb.sets.delete"), text: t("wb.sets.delete_confirm", { name: set.name }),
      yes: t("wb.sets.delete"), no: t("wb.sets.keep"), danger: true });
    if (!sure) return;
    await setsApi.remove(set.id);
    notify({ text: t("wb.sets.deleted", { name: set.name }) });
    refresh();
  });
  return html`<tr data-testid=${"wb-set-" + set.name}>
    <th scope="row">${set.name}</th>
    <td>${gameLabel(set.game)} · ${kindLabel(kind)}</td>
    <td>${mine ? (set.public ? t("wb.sets.public") : t("wb.sets.private"))
      : html`<a href=${"/player/" + encodeURIComponent(set.owner.username)} onClick=${go("/player/" + encodeURIComponent(set.owner.username))}>${set.owner.display_name}</a>`}</td>
    <td class="wb-actions">
      <a class="btn" href=${editorUrl(set.key, set.id)} onClick=${go(editorUrl(set.key, set.id))}>${t("wb.sets.open")}</a>
      <${Button} label=${t("wb.sets.play")} onClick=${() => run(() => playWithSet(set, navigate))} testid=${"wb-play-" + set.name} />
      <a class="btn" href=${setsApi.exportUrl(set.id)} download>${t("wb.sets.export")}</a>
      ${kind.has_text ? html`<a class="btn" href=${setsApi.exportUrl(set.id, "fmp")} download>${t("wb.sets.export_fmp")}</a>` : ""}
      ${mine ? html`<${Button} label=${set.public ? t("wb.sets.make_private") : t("wb.sets.make_public")} onClick=${share}
          testid=${"wb-share-" + set.name} />
        <${Button} label=${t("wb.sets.delete")} kind="danger" onClick=${remove} testid=${"wb-delete-" + set.name} />` : ""}
      ${confirmDialog}</td></tr>`;
}

function SetTable({ sets, kinds, navigate, refresh, mine, testid, empty }) {
  if (!sets.length) return html`<p data-testid=${testid + "-empty"}>${empty}</p>`;
  return html`<div class="wb-scroll"><table class="wb-sets" data-testid=${testid}><thead><tr>
      <th scope="col">${t("wb.sets.name")}</th><th scope="col">${t("wb.sets.kind")}</th>
      <th scope="col">${mine ? t("wb.sets.sharing") : t("wb.sets.owner")}</th><th scope="col">${t("wb.sets.actions")}</th></tr></thead>
    <tbody>${sets.map((s) => html`<${SetRow} key=${s.id} set=${s} kinds=${kinds} navigate=${navigate} refresh=${refresh} mine=${mine} />`)}</tbody></table></div>`;
}

function ImportForm({ kinds, account, refresh }) {
  const [key, setKey] = useState("fullmetal/maps");
  const [name, setName] = useState("");
  const [file, setFile] = useState(null);
  const [problems, setProblems] = useState(null);
  const [busy, setBusy] = useState(false);
  const needsKind = file && !/\.json$/i.test(file.name);
  async function submit(e) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setProblems(null);
    try {
      const res = await importFile(file, key, name || file.name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
        account.csrf, false);
      notify({ text: t("wb.sets.imported", { name: res.name }) });
      setFile(null);
      e.target.reset();
      refresh();
    } catch (err) {
      if (err.error && err.error.problems) setProblems(err.error.problems);
      notifyError(err);
    } finally { setBusy(false); }
  }
  return html`<form class="wb-import" onSubmit=${submit} data-testid="wb-import">
    <label>${t("wb.sets.file")}<input type="file" accept=".json,.fmp,application/json,text/plain" data-testid="wb-import-file"
      onChange=${(e) => setFile(e.target.files[0] || null)} required /></label>
    ${needsKind ? html`<label>${t("wb.sets.kind")}<select value=${key} onChange=${(e) => setKey(e.target.value)} data-testid="wb-import-kind">
      ${kinds.filter((k) => k.has_text).map((k) => html`<option value=${k.key}>${kindLabel(k)}</option>`)}</select></label>
      <label>${t("wb.sets.name")}<input value=${name} maxlength="64" pattern=${NAME_PATTERN}
        onInput=${(e) => setName(e.target.value)} data-testid="wb-import-name" /></label>` : ""}
    <${Button} type="submit" label=${t("wb.sets.import")} disabled=${busy || !file} testid="wb-import-go" />
    <p class="hint">${t("wb.sets.import_hint")}</p>
    <${Problems} problems=${problems} /></form>`;
}

export function WorkbenchPage({ navigate }) {
  const account = useAccount();
  const [kinds, setKinds] = useState(null);
  const [sets, setSets] = useState({ mine: [], public: [] });
  const [n, setN] = useState(0);
  const refresh = () => setN((x) => x + 1);
  useEffect(() => { api("/api/workbench/kinds").then(setKinds).catch((e) => { notifyError(e); setKinds([]); }); }, []);
  useEffect(() => { setsApi.list().then(setSets).catch(notifyError); }, [n, account.account && account.account.username]);
  if (!kinds) return html`<div class="loading" aria-busy="true"></div>`;
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  return html`<section class="workbench-page" aria-labelledby="wb-h" data-testid="workbench">
    <h1 id="wb-h">${t("wb.sets.title")}</h1>
    <p>${t("wb.sets.intro")}</p>
    <h2>${t("wb.sets.kinds")}</h2>
    <ul class="wb-kinds" data-testid="wb-kinds">${kinds.map((k) => html`<li key=${k.key}>
      <a class="wb-kind" href=${editorUrl(k.key)} onClick=${go(editorUrl(k.key))} data-testid=${"wb-kind-" + k.key}>
        <strong>${kindLabel(k)}</strong><span>${gameLabel(k.game)}</span></a></li>`)}</ul>
    <h2>${t("wb.sets.mine")}</h2>
    ${account.account ? html`<${SetTable} sets=${sets.mine} kinds=${kinds} navigate=${navigate} refresh=${refresh} mine=${true}
        testid="wb-mine" empty=${t("wb.sets.none_mine")} />
      <h3>${t("wb.sets.import_title")}</h3>
      <${ImportForm} kinds=${kinds} account=${account} refresh=${refresh} />`
      : html`<p data-testid="wb-signed-out">${t("wb.sets.sign_in")} <a href="/account" onClick=${go("/account")}>${t("wb.sets.sign_in_link")}</a></p>`}
    <h2>${t("wb.sets.public_title")}</h2>
    <${SetTable} sets=${sets.public} kinds=${kinds} navigate=${navigate} refresh=${refresh} mine=${false}
      testid="wb-public" empty=${t("wb.sets.none_public")} />
  </section>`;
}

/** A player's public sets, for their profile page. */
export function PublicSets({ username, navigate }) {
  const [sets, setSets] = useState(null);
  const [kinds, setKinds] = useState([]);
  useEffect(() => {
    api(`/api/workbench/players/${encodeURIComponent(username)}/sets`).then(setSets).catch(() => setSets([]));
    api("/api/workbench/kinds").then(setKinds).catch(() => setKinds([]));
  }, [username]);
  if (!sets || !sets.length) return null;
  return html`<h2>${t("wb.sets.profile_title")}</h2>
    <${SetTable} sets=${sets} kinds=${kinds} navigate=${navigate} refresh=${() => {}} mine=${false} testid="wb-profile-sets"
      empty="" />`;
}
