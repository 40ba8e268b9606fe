// Interface language: catalogues /static/i18n/<lang>.json (the same files the server reads for its texts).
// t(key, vars) formats "{name}" fields; a key missing in the language falls back to English, then to the key
// (tests/browser/test_i18n.py fails when a key the client uses is missing in any language).

export const LANGS = ["en", "fr", "nl", "ru"];
export const LANG_NAMES = { en: "English", fr: "Français", nl: "Nederlands", ru: "Русский" };

let dict = {};
let english = {};
let lang = "en";
const cache = {};

async function load(code) {
  if (!cache[code]) {
    cache[code] = fetch(`/static/i18n/${code}.json`).then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  }
  return cache[code];
}

export function t(key, vars) {
  let s = dict[key] ?? english[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined || vars[k] === null ? m : String(vars[k])));
  return s;
}

/** Like t() but returns null when no catalogue has the key (for optional, data-driven keys). */
export function tMaybe(key, vars) {
  return dict[key] !== undefined || english[key] !== undefined ? t(key, vars) : null;
}

export function currentLang() { return lang; }

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  english = await load("en");
  dict = code === "en" ? english : await load(code);
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
