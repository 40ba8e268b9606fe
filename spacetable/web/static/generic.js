// Generic fallback renderer: used for any game without static/games/<id>.js.
// Shows the seat's view as a readable tree; private parts are whatever the view holds for this seat.
"use strict";
(function () {
  const { h } = window.Spacetable;

  function node(value, key) {
    if (value === null || typeof value !== "object") {
      return h("span.leaf", { "data-key": key ?? null }, value === null ? "–" : String(value));
    }
    if (Array.isArray(value)) {
      if (value.every((v) => v === null || typeof v !== "object")) {
        return h("span.leaf", { "data-key": key ?? null }, value.map((v) => (v === null ? "–" : String(v))).join(", ") || "∅");
      }
      return h("ol.tree", {}, value.map((v, i) => h("li", {}, node(v, String(i)))));
    }
    return h("dl.tree", {}, Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-field": k }, node(v, k))]));
  }

  window.SpacetableGeneric = {
    render(el, view, ctx) {
      el.replaceChildren(h("div.generic-view", { "data-testid": "view-json" },
        h("p.hint", {}, ctx.t("generic.hint", "This game has no board drawing yet; its state is shown as data.")),
        node(view)));
    },
    actionText(action) {
      if (action === null || action === undefined) return "…";
      if (typeof action !== "object") return String(action);
      const parts = [];
      for (const [k, v] of Object.entries(action)) {
        if (k === "type" || v === null || v === undefined || v === false) continue;
        parts.push(`${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
      }
      return [action.type ?? "", ...parts].join(" ").trim() || JSON.stringify(action);
    },
  };
})();
