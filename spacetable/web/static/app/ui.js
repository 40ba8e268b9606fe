// Small shared widgets: buttons with icons, dialogs (confirmations), copy fields, notices.
import { html, useEffect, useRef, useState } from "./lib.js";
import { Icon } from "./icons.js";
import { t } from "./i18n.js";
import { openRuleHere, parseRuleUrl } from "./rules.js";

export function Button({ icon, label, onClick, kind = "", disabled, testid, iconOnly, title, type = "button", href }) {
  const cls = `btn ${kind}${iconOnly ? " icon-only" : ""}`;
  const inner = html`${icon ? html`<${Icon} name=${icon} />` : null}${iconOnly ? null : html`<span class="btn-label">${label}</span>`}`;
  if (href) {
    return html`<a class=${cls} href=${href} data-testid=${testid} title=${title || (iconOnly ? label : null)}
      aria-label=${iconOnly ? label : null} onClick=${onClick}>${inner}</a>`;
  }
  return html`<button type=${type} class=${cls} onClick=${onClick} disabled=${disabled} data-testid=${testid}
    title=${title || (iconOnly ? label : null)} aria-label=${iconOnly ? label : null}>${inner}</button>`;
}

/** A modal dialog (the browser's <dialog>: focus stays inside, Escape closes). */
export function Dialog({ open, title, onClose, children, testid }) {
  const ref = useRef(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return html`<dialog ref=${ref} class="dialog" data-testid=${testid} aria-labelledby=${testid ? testid + "-title" : null}
      onClose=${() => onClose && onClose()} onCancel=${(e) => { e.preventDefault(); onClose && onClose(); }}>
    ${open ? html`<div class="dialog-body">
      <div class="dialog-head"><h2 id=${testid ? testid + "-title" : null}>${title}</h2>
        <${Button} icon="close" label=${t("ui.close")} iconOnly onClick=${() => onClose && onClose()} kind="ghost" /></div>
      ${children}</div>` : null}
  </dialog>`;
}

/** A yes/no question in a dialog. Returns [element, ask({title, text, yes, no, danger}) -> Promise<boolean>]. */
export function useConfirm(testid = "confirm") {
  const [q, setQ] = useState(null);
  const el = html`<${Dialog} open=${!!q} title=${q ? q.title : ""} testid=${testid} onClose=${() => { if (q) { q.resolve(false); setQ(null); } }}>
    ${q ? html`<p>${q.text}</p>
      <div class="dialog-actions">
        <${Button} label=${q.no} onClick=${() => { q.resolve(false); setQ(null); }} testid=${testid + "-no"} />
        <${Button} label=${q.yes} kind=${q.danger ? "danger" : "primary"} onClick=${() => { q.resolve(true); setQ(null); }} testid=${testid + "-yes"} />
      </div>` : null}
  </${Dialog}>`;
  const ask = (opts) => new Promise((resolve) => setQ({ ...opts, resolve }));
  return [el, ask];
}

export function CopyField({ label, value, testid, hint }) {
  const [done, setDone] = useState(false);
  const input = useRef(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.current.select();
      document.execCommand("copy");
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  }
  return html`<div class="copy-field">
    <label>${label}
      <div class="copy-row"><input ref=${input} readonly value=${value} data-testid=${testid} onFocus=${(e) => e.target.select()} />
        <${Button} icon=${done ? "check" : "copy"} label=${done ? t("ui.copied") : t("ui.copy")} onClick=${copy} testid=${testid + "-copy"} /></div></label>
    ${hint ? html`<p class="muted small">${hint}</p>` : null}
  </div>`;
}

// ----------------------------------------------------------------------------------------------- notices
// One list of notices for the whole page (bottom of the screen, read out by screen readers).
const listeners = new Set();
let notices = [];
let nextId = 1;

function publish() { for (const f of listeners) f(notices); }

/** notify({kind: "error"|"info"|"ok", text, rule, ruleUrl, ruleText, ms}) */
export function notify(n) {
  const id = nextId++;
  notices = [...notices.slice(-2), { id, kind: "info", ...n }];
  publish();
  const ms = n.ms ?? (n.kind === "error" ? 9000 : 4000);
  if (ms > 0) setTimeout(() => dismiss(id), ms);
  return id;
}
export function dismiss(id) { notices = notices.filter((n) => n.id !== id); publish(); }
export function clearNotices() { notices = []; publish(); }

/** A notice from a server error (its explanation, with the rule's link when a game rule refused it). */
export function notifyError(e) {
  const err = (e && e.error) || e || {};
  notify({ kind: "error", text: err.explain || err.message || t("error.generic"), rule: err.rule, ruleUrl: err.rule_url,
    ruleText: err.rule_text });
}

export function Notices() {
  const [list, setList] = useState(notices);
  useEffect(() => { listeners.add(setList); return () => listeners.delete(setList); }, []);
  return html`<div class="notices" aria-live="assertive" data-testid="notices">
    ${list.map((n) => html`<div class=${"notice " + n.kind} key=${n.id} data-testid=${n.kind === "error" ? "error" : "notice"} role=${n.kind === "error" ? "alert" : "status"}>
      <${Icon} name=${n.kind === "error" ? "alert" : n.kind === "ok" ? "check" : "info"} />
      <div class="notice-text"><div>${n.text}</div>
        ${n.ruleText && n.ruleText !== n.text ? html`<div class="small rule-text">${n.ruleText}</div>` : null}
        ${n.rule ? (n.ruleUrl ? html`<a href=${n.ruleUrl} target="_blank" rel="noopener" data-testid="rule-link" onClick=${(e) => {
            if (e.defaultPrevented) return; // the match page's drawer took it already
            const r = parseRuleUrl(n.ruleUrl); // the match page's rules drawer opens at the rule when it can
            if (r && openRuleHere(r.game, n.rule)) e.preventDefault();
          }}>${t("rules.rule", { id: n.rule })}</a>`
          : html`<span class="small muted">${t("rules.rule", { id: n.rule })}</span>`) : null}</div>
      <${Button} icon="close" label=${t("ui.close")} iconOnly kind="ghost" onClick=${() => dismiss(n.id)} />
    </div>`)}
  </div>`;
}

/** A folded section (<details>) whose open state survives re-renders. */
export function Fold({ summary, children, open, testid, cls = "" }) {
  return html`<details class=${"fold " + cls} open=${open} data-testid=${testid}><summary>${summary}</summary>${children}</details>`;
}
