// spacetable client core: renderer registry, i18n and small DOM helpers.
// Game renderers (static/games/<id>.js) call Spacetable.registerRenderer(id, {render, actionText}).
"use strict";
(function () {
  const renderers = {};
  const loading = {};
  let dict = {};
  let fallbackDict = {};
  let lang = "en";
  const LANGS = ["en", "fr", "nl", "ru"];

  function t(key, fallback, vars) {
    let s = dict[key] ?? fallbackDict[key] ?? fallback ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.split("{" + k + "}").join(String(v));
    return s;
  }

  async function fetchDict(code) {
    const r = await fetch(`/static/i18n/${code}.json`);
    return r.ok ? r.json() : {};
  }

  async function setLang(code) {
    if (!LANGS.includes(code)) code = "en";
    if (!Object.keys(fallbackDict).length) fallbackDict = await fetchDict("en");
    dict = code === "en" ? fallbackDict : await fetchDict(code);
    lang = code;
    localStorage.setItem("spacetable.lang", code);
    document.documentElement.lang = code;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n, el.textContent); });
  }

  function initialLang() {
    const saved = localStorage.getItem("spacetable.lang");
    if (saved && LANGS.includes(saved)) return saved;
    const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
    return LANGS.includes(nav) ? nav : "en";
  }

  // h("div.cls", {attrs}, children...) – tiny element builder
  function h(tag, attrs, ...children) {
    const [name, ...classes] = tag.split(".");
    const el = document.createElement(name);
    if (classes.length) el.className = classes.join(" ");
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function svg(tag, attrs, ...children) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  }

  function loadRenderer(gameId, available) {
    if (renderers[gameId] || !available) return Promise.resolve(renderers[gameId] || null);
    if (!loading[gameId]) {
      loading[gameId] = new Promise((resolve) => {
        const s = document.createElement("script");
        s.src = `/static/games/${encodeURIComponent(gameId)}.js`;
        s.onload = () => resolve(renderers[gameId] || null);
        s.onerror = () => resolve(null);
        document.head.append(s);
      });
    }
    return loading[gameId];
  }

  window.Spacetable = {
    registerRenderer(id, renderer) { renderers[id] = renderer; },
    renderer(id) { return renderers[id] || null; },
    loadRenderer, t, setLang, initialLang, h, svg,
    get lang() { return lang; },
    LANGS,
  };
})();
