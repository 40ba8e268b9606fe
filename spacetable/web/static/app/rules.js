// A game's rules document (/rules/<game>#<rule id>): the server renders it with an anchor per rule id, so the
// rule links of refusals land on the rule's statement, highlighted.
import { html, useEffect, useLayoutEffect, useRef, useState } from "./lib.js";
import { api } from "./api.js";
import { t } from "./i18n.js";

export function RulesPage({ gameId, lobby }) {
  const [doc, setDoc] = useState(null);
  const [error, setError] = useState(null);
  const ref = useRef(null);
  useEffect(() => {
    api(`/api/rules/${encodeURIComponent(gameId)}`).then(setDoc).catch((e) => setError(e));
  }, [gameId]);
  useLayoutEffect(() => {
    if (!doc || !ref.current) return undefined;
    const show = () => {
      const id = decodeURIComponent(location.hash.slice(1));
      ref.current.querySelectorAll(".rule-target").forEach((el) => el.classList.remove("rule-target"));
      if (!id) return;
      const el = document.getElementById(id);
      if (!el) return;
      const block = el.classList.contains("rule-anchor-extra") ? el.parentElement.closest("[id]") || el.parentElement : el;
      block.classList.add("rule-target");
      block.scrollIntoView({ block: "center" });
    };
    show();
    window.addEventListener("hashchange", show);
    return () => window.removeEventListener("hashchange", show);
  }, [doc]);
  // wide tables scroll sideways: each is reachable by keyboard (focusable) and named after the heading above it
  useLayoutEffect(() => {
    if (!doc || !ref.current) return;
    ref.current.querySelectorAll("table").forEach((table, i) => {
      let h = table.previousElementSibling;
      while (h && !/^H[1-6]$/.test(h.tagName)) h = h.previousElementSibling;
      table.setAttribute("tabindex", "0");
      table.setAttribute("aria-label", t("rules.table", { n: i + 1, title: h ? h.textContent.trim() : "" }));
    });
  }, [doc]);
  const game = lobby.find((g) => g.id === gameId);
  if (error) return html`<div class="card gone" data-testid="rules-missing"><h1>${t("rules.missing")}</h1></div>`;
  if (!doc) return html`<div class="loading card" aria-busy="true"></div>`;
  return html`<article class="rules card" data-testid="rules-page" data-game=${gameId}>
    <p class="muted small">${t("rules.note")}</p>
    ${game ? null : null}
    <div class="rules-doc" lang="en" ref=${ref} dangerouslySetInnerHTML=${{ __html: doc.html }}></div>
  </article>`;
}
