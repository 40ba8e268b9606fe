// Globals for renderers written before the renderer kit (no game uses one now): they call
// Spacetable.registerRenderer(id, {render(el, view, ctx), actionText}) and may use Spacetable.h / svg.
// New renderers are ES modules on the kit (/static/app/kit.js); see docs/architecture.md, "Web client".
"use strict";
(function () {
  const renderers = {};

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

  window.Spacetable = {
    registerRenderer(id, renderer) { renderers[id] = renderer; },
    renderer(id) { return renderers[id] || null; },
    h, svg,
    get lang() { return document.documentElement.lang || "en"; },
  };
})();
