// A form made from a content kind's JSON Schema (issue 25, the card and scenario editors; docs/workbench.md).
// Every field shows its title, its meaning (the schema's description) and its allowed range; a list of records
// (cards, ships, missions...) is a list of folding cards that can be added, duplicated and removed; problems from
// the server's validation are shown at their fields (and, for a folded card, on the card's summary). A shape the
// form does not draw as fields (a free-form mapping) is edited as JSON in place.
import { html, useState } from "./lib.js";
import { Button } from "./ui.js";
import { t, num } from "./i18n.js";

/** "ships[3].price", "ships/3/price", "$.ships.3.price" -> "ships.3.price" (the form's one way to name a place). */
export function normPath(path) {
  if (Array.isArray(path)) return path.map(String).join(".");
  return String(path || "").replace(/^\$/, "").split(/[./[\]]+/).filter((p) => p !== "").join(".");
}

/** The schema a node stands for: $ref followed, a nullable anyOf reduced to its non-null member. */
export function resolve(root, schema) {
  let s = schema || {};
  for (let i = 0; i < 16 && s.$ref; i++) {
    const name = s.$ref.replace(/^#\/(\$defs|definitions)\//, "");
    const rest = { ...s };
    delete rest.$ref;
    s = { ...((root.$defs || root.definitions || {})[name] || {}), ...rest };
  }
  const alt = s.anyOf || s.oneOf;
  if (alt) {
    const others = alt.filter((a) => a.type !== "null");
    if (others.length === 1) {
      const rest = { ...s };
      delete rest.anyOf; delete rest.oneOf;
      return { ...resolve(root, others[0]), ...rest, nullable: others.length !== alt.length };
    }
  }
  if (s.allOf && s.allOf.length === 1) {
    const rest = { ...s };
    delete rest.allOf;
    return { ...resolve(root, s.allOf[0]), ...rest };
  }
  return s;
}

function typeOf(s) {
  if (Array.isArray(s.type)) return s.type.find((x) => x !== "null") || "string";
  if (s.type) return s.type;
  if (s.properties) return "object";
  if (s.enum) return "enum";
  if (s.const !== undefined) return "const";
  return "any";
}

/** A new record of a schema: its defaults, else an empty value of each required field. */
export function blank(root, schema) {
  const s = resolve(root, schema);
  if (s.default !== undefined) return JSON.parse(JSON.stringify(s.default));
  const type = typeOf(s);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (type === "object") {
    const out = {};
    for (const k of s.required || []) out[k] = blank(root, (s.properties || {})[k] || {});
    return out;
  }
  if (type === "array") return [];
  if (type === "integer" || type === "number") return s.minimum ?? s.exclusiveMinimum ?? 0;
  if (type === "boolean") return false;
  if (type === "string") return "";
  return null;
}

/** "0 – 100 000, a multiple of 10 000": the allowed range of a number or the length of a text. */
export function rangeText(s) {
  const parts = [];
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : undefined);
  if (lo !== undefined && hi !== undefined) parts.push(t("wb.form.range", { min: num(lo), max: num(hi) }));
  else if (lo !== undefined) parts.push(t(s.exclusiveMinimum !== undefined ? "wb.form.above" : "wb.form.at_least", { min: num(lo) }));
  else if (hi !== undefined) parts.push(t(s.exclusiveMaximum !== undefined ? "wb.form.below" : "wb.form.at_most", { max: num(hi) }));
  if (s.multipleOf) parts.push(t("wb.form.multiple", { step: num(s.multipleOf) }));
  if (s.maxLength) parts.push(t("wb.form.max_length", { n: s.maxLength }));
  if (s.minItems !== undefined || s.maxItems !== undefined) {
    parts.push(t("wb.form.items", { min: s.minItems ?? 0, max: s.maxItems ?? "∞" }));
  }
  return parts.join("; ");
}

/** Problems at ``path`` itself, and how many lie below it. */
function problemsAt(problems, path) {
  const here = [];
  let below = 0;
  for (const p of problems) {
    const where = normPath(p.path);
    if (where === path) here.push(p);
    else if (path === "" || where.startsWith(path + ".")) below += 1;
  }
  return { here, below };
}

function idOf(path) { return "wb-f-" + (path || "root").replace(/[^A-Za-z0-9_-]/g, "_"); }

function titleOf(s, key) {
  return s.title || String(key).replace(/_/g, " ");
}

function Problems({ list, id }) {
  if (!list.length) return null;
  return html`<ul class="wb-field-problems" id=${id} data-testid="field-problems">
    ${list.map((p) => html`<li>${p.message}${p.rule && !String(p.message).includes(p.rule) ? html` <span class="wb-rule">(${p.rule})</span>` : null}</li>`)}</ul>`;
}

/** One field: a number, a text, a choice, a yes/no, a record (fieldset), a list, or JSON. */
export function Field({ root, schema, value, path, name, onChange, problems, required }) {
  const s = resolve(root, schema);
  const type = typeOf(s);
  const id = idOf(path);
  const { here } = problemsAt(problems, path);
  const bad = here.length > 0;
  const label = titleOf(s, name);
  const hintId = id + "-hint";
  const probId = id + "-problems";
  const hint = [s.description, rangeText(s)].filter(Boolean).join(" — ");
  const described = [hint ? hintId : null, bad ? probId : null].filter(Boolean).join(" ") || null;
  const help = hint ? html`<span class="help" id=${hintId}>${hint}</span>` : null;

  if (type === "object" && s.properties) {
    return html`<fieldset class="wb-group" data-path=${path}>
      <legend>${label}</legend>${s.description ? html`<p class="help">${s.description}</p>` : null}
      <${Problems} list=${here} id=${probId} />
      <${Fields} root=${root} schema=${s} value=${value || {}} path=${path} onChange=${onChange} problems=${problems} />
    </fieldset>`;
  }
  if (type === "array") {
    const items = resolve(root, s.items || {});
    if (typeOf(items) === "object" && items.properties) {
      return html`<${CardList} root=${root} schema=${s} items=${items} value=${value || []} path=${path} label=${label}
        onChange=${onChange} problems=${problems} />`;
    }
  }
  if (type === "boolean") {
    return html`<div class="wb-field" data-path=${path}>
      <label class="check"><input type="checkbox" id=${id} checked=${!!value} aria-invalid=${bad ? "true" : null}
        aria-describedby=${described} onChange=${(e) => onChange(path, e.target.checked)} /><span>${label}</span></label>
      ${help}<${Problems} list=${here} id=${probId} /></div>`;
  }
  if (s.enum || type === "enum") {
    const opts = s.enum || [];
    return html`<div class="wb-field field" data-path=${path}><label for=${id}>${label}${required ? " *" : ""}</label>
      <select id=${id} value=${value === null || value === undefined ? "" : String(value)} aria-invalid=${bad ? "true" : null}
        aria-describedby=${described} onChange=${(e) => onChange(path, opts.find((o) => String(o) === e.target.value) ?? e.target.value)}>
        ${s.nullable || value === undefined ? html`<option value="">—</option>` : null}
        ${opts.map((o) => html`<option value=${String(o)}>${String(o)}</option>`)}</select>
      ${help}<${Problems} list=${here} id=${probId} /></div>`;
  }
  if (type === "integer" || type === "number") {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : null);
    const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : null);
    const step = s.multipleOf || (type === "integer" ? 1 : "any");
    return html`<div class="wb-field field" data-path=${path}><label for=${id}>${label}${required ? " *" : ""}</label>
      <input type="number" id=${id} inputmode=${type === "integer" ? "numeric" : "decimal"} value=${value ?? ""}
        min=${min} max=${max} step=${step} aria-invalid=${bad ? "true" : null} aria-describedby=${described}
        data-testid=${"field-" + path}
        onInput=${(e) => {
          const raw = e.target.value;
          if (raw === "") { onChange(path, s.nullable ? null : raw); return; }
          const n = Number(raw);
          onChange(path, Number.isFinite(n) ? n : raw);
        }} />
      ${help}<${Problems} list=${here} id=${probId} /></div>`;
  }
  if (type === "string") {
    const long = (s.maxLength || 0) > 200 || (typeof value === "string" && value.length > 80);
    const common = { id, value: value ?? "", "aria-invalid": bad ? "true" : null, "aria-describedby": described,
      maxLength: s.maxLength, "data-testid": "field-" + path,
      onInput: (e) => onChange(path, e.target.value === "" && s.nullable ? null : e.target.value) };
    return html`<div class="wb-field field" data-path=${path}><label for=${id}>${label}${required ? " *" : ""}</label>
      ${long ? html`<textarea rows="3" ...${common}></textarea>` : html`<input type="text" ...${common} />`}
      ${help}<${Problems} list=${here} id=${probId} /></div>`;
  }
  // a value edited as JSON has no fields of its own: the problems inside it are shown at it, each with its place
  const inside = problems.filter((p) => normPath(p.path).startsWith(path + "."))
    .map((p) => ({ ...p, message: `${normPath(p.path).slice(path.length + 1)}: ${p.message}` }));
  const all = [...here, ...inside];
  const jsonDescribed = [hint ? hintId : null, all.length ? probId : null].filter(Boolean).join(" ") || null;
  return html`<${JsonField} value=${value} path=${path} label=${label} help=${help} described=${jsonDescribed}
    onChange=${onChange} here=${all} probId=${probId} id=${id} />`;
}

/** A value the form has no fields for (a mapping, a list of values, a free shape), edited as JSON. */
function JsonField({ value, path, label, help, described, onChange, here, probId, id }) {
  const [text, setText] = useState(null);
  const [broken, setBroken] = useState(false);
  const shown = text ?? JSON.stringify(value ?? null, null, 1);
  return html`<div class="wb-field field" data-path=${path}><label for=${id}>${label} <span class="muted small">(${t("wb.form.json")})</span></label>
    <textarea id=${id} rows=${Math.min(10, shown.split("\n").length + 1)} value=${shown} spellcheck="false"
      aria-invalid=${broken || here.length ? "true" : null} aria-describedby=${described}
      onInput=${(e) => {
        setText(e.target.value);
        try { onChange(path, JSON.parse(e.target.value)); setBroken(false); } catch { setBroken(true); }
      }}></textarea>
    ${help}${broken ? html`<p class="field-error" role="alert">${t("wb.form.bad_json")}</p>` : null}
    <${Problems} list=${here} id=${probId} /></div>`;
}

/** The fields of an object schema, required ones first in the schema's order. */
export function Fields({ root, schema, value, path, onChange, problems }) {
  const s = resolve(root, schema);
  const props = s.properties || {};
  const req = new Set(s.required || []);
  const keys = Object.keys(props);
  // fields the content has that the schema does not list are kept as they are (never dropped)
  return html`<div class="wb-fields">${keys.map((k) => html`<${Field} key=${k} root=${root} schema=${props[k]} value=${value[k]}
    path=${path ? path + "." + k : k} name=${k} onChange=${onChange} problems=${problems} required=${req.has(k)} />`)}</div>`;
}

function cardName(item, i) {
  if (item && typeof item === "object") {
    for (const k of ["id", "name", "key", "title"]) if (typeof item[k] === "string" && item[k]) return item[k];
  }
  return "#" + (i + 1);
}

/** A list of records (cards): each one folds; add, duplicate and remove. */
function CardList({ root, schema, items, value, path, label, onChange, problems }) {
  const [open, setOpen] = useState({});
  const { here } = problemsAt(problems, path);
  const limit = schema.maxItems ?? Infinity;
  const floor = schema.minItems ?? 0;
  function set(list) { onChange(path, list); }
  function add() { set([...value, blank(root, items)]); setOpen({ ...open, [value.length]: true }); }
  function dup(i) {
    const copy = JSON.parse(JSON.stringify(value[i]));
    if (copy && typeof copy.id === "string") copy.id = copy.id + "_2";
    const list = [...value.slice(0, i + 1), copy, ...value.slice(i + 1)];
    set(list);
    setOpen({ ...open, [i + 1]: true });
  }
  function remove(i) { set(value.filter((_, j) => j !== i)); setOpen({}); }
  return html`<section class="wb-list" data-path=${path} aria-label=${label}>
    <h3>${label} <span class="muted small">(${t("wb.form.count", { n: value.length })})</span></h3>
    ${schema.description ? html`<p class="help">${schema.description}</p>` : null}
    <${Problems} list=${here} id=${idOf(path) + "-problems"} />
    ${value.map((item, i) => {
      const p = path + "." + i;
      const { here: h, below } = problemsAt(problems, p);
      const n = h.length + below;
      const name = cardName(item, i);
      return html`<details class=${"wb-card" + (n ? " wb-bad" : "")} key=${i} open=${!!open[i]} data-testid=${"card-" + p}
          onToggle=${(e) => { if (e.target.open !== !!open[i]) setOpen({ ...open, [i]: e.target.open }); }}>
        <summary><span class="wb-card-name">${name}</span>
          ${n ? html`<span class="wb-card-problems">${t("wb.form.problems_n", { n })}</span>` : null}</summary>
        ${open[i] ? html`<div class="wb-card-body">
          <${Problems} list=${h} id=${idOf(p) + "-problems"} />
          <${Fields} root=${root} schema=${items} value=${item || {}} path=${p} onChange=${onChange} problems=${problems} />
          <div class="row-buttons">
            <${Button} icon="copy" label=${t("wb.form.duplicate", { name })} onClick=${() => dup(i)} disabled=${value.length >= limit} testid=${"dup-" + p} />
            <${Button} icon="close" kind="danger-outline" label=${t("wb.form.remove", { name })} onClick=${() => remove(i)}
              disabled=${value.length <= floor} testid=${"remove-" + p} />
          </div></div>` : null}
      </details>`;
    })}
    <div class="row-buttons"><${Button} icon="plus" label=${t("wb.form.add", { what: label })} onClick=${add}
      disabled=${value.length >= limit} testid=${"add-" + path} /></div>
  </section>`;
}

/** ``content`` with the value at ``path`` (a normalised path) replaced; the rest shared, not copied. */
export function setAt(content, path, v) {
  if (!path) return v;
  const [head, ...rest] = path.split(".");
  const tail = rest.join(".");
  if (Array.isArray(content)) {
    const out = content.slice();
    out[Number(head)] = setAt(content[Number(head)], tail, v);
    return out;
  }
  return { ...(content || {}), [head]: setAt((content || {})[head], tail, v) };
}
