// Interface language: catalogues /static/i18n/<lang>.json (the same files the server reads for its texts), plus
// the catalogue of each game whose renderer is loaded (GET /api/i18n/<game>/<lang>: the game package's card names,
// effects and renderer texts; addGameTexts, called by renderers.js).
// t(key, vars) formats "{name}" fields; a key missing in the language falls back to English, then to the key
// (tests/browser/test_i18n.py fails when a key the client uses is missing in any language).

export const LANGS = ["en", "fr", "nl", "ru"];
export const LANG_NAMES = { en: "English", fr: "Français", nl: "Nederlands", ru: "Русский" };

let dict = {};
let english = {};
let lang = "en";
const cache = {};
/** Games whose catalogues are loaded, and their texts merged: in the language, in English. */
const games = new Set();
let gameDict = {};
let gameEnglish = {};

function fetchJson(url) {
  return fetch(url).then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
}

async function load(code) {
  if (!cache[code]) cache[code] = fetchJson(`/static/i18n/${code}.json`);
  return cache[code];
}

function loadGame(game, code) {
  const key = `${game}/${code}`;
  if (!cache[key]) cache[key] = fetchJson(`/api/i18n/${encodeURIComponent(game)}/${code}`);
  return cache[key];
}

async function gameTexts(code) {
  const all = await Promise.all([...games].map((g) => loadGame(g, code)));
  return Object.assign({}, ...all);
}

/** Load a game's own catalogue (once; again in each language chosen later). Resolves when its texts are in. */
export async function addGameTexts(game) {
  if (games.has(game)) return;
  games.add(game);
  const [here, en] = await Promise.all([loadGame(game, lang), loadGame(game, "en")]);
  gameDict = { ...gameDict, ...here };
  gameEnglish = { ...gameEnglish, ...en };
}

export function t(key, vars) {
  let s = dict[key] ?? gameDict[key] ?? english[key] ?? gameEnglish[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined || vars[k] === null ? m : String(vars[k])));
  return s;
}

/** Like t() but returns null when no catalogue has the key (for optional, data-driven keys). */
export function tMaybe(key, vars) {
  const known = dict[key] !== undefined || english[key] !== undefined || gameDict[key] !== undefined || gameEnglish[key] !== undefined;
  return known ? t(key, vars) : null;
}

export function currentLang() { return lang; }

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  english = await load("en");
  dict = code === "en" ? english : await load(code);
  gameEnglish = await gameTexts("en");
  gameDict = code === "en" ? gameEnglish : await gameTexts(code);
  lang = code;
  try { localStorage.setItem("spacetable.lang", code); } catch { /* private mode */ }
  document.documentElement.lang = code;
  return code;
}

export function initialLang() {
  let saved = null;
  try { saved = localStorage.getItem("spacetable.lang"); } catch { /* private mode */ }
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : "en";
}

/** Numbers the way the language writes them. */
export function num(n) {
  try { return Number(n).toLocaleString(lang); } catch { return String(n); }
}
