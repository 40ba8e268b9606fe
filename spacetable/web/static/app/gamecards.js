// What the lobby shows of each game besides the server's data: a picture (inline SVG), the typical length and a
// few named presets (translation keys preset.<game>.<id> and preset.<game>.<id>.help). A game missing here gets
// the generic picture and one preset with its defaults. Texts: game.<id>.name, game.<id>.tagline, game.<id>.length.
import { html } from "./lib.js";

function ArenaPicture() {
  const cells = [];
  for (let r = 0; r < 3; r++) for (let f = 0; f < 4; f++) {
    cells.push(html`<rect x=${10 + f * 25} y=${8 + r * 25} width="25" height="25" fill=${(r + f) % 2 ? "#27305a" : "#323d70"} />`);
  }
  const ship = (x, y, c, code) => html`<g><rect x=${x} y=${y} width="19" height="19" rx="4" fill=${c} /><text x=${x + 9.5} y=${y + 13}
    font-size="8" text-anchor="middle" fill="#fff" font-family="monospace" font-weight="bold">${code}</text></g>`;
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false">${cells}
    ${ship(13, 61, "#d9463e", "111")}${ship(63, 36, "#d9463e", "212")}${ship(38, 11, "#3f7fd6", "221")}${ship(88, 11, "#3f7fd6", "122")}
    <path d="M72 45 L47 22" stroke="#f5d36b" stroke-width="2.5" stroke-dasharray="3 3" /></svg>`;
}

function FullmetalPicture() {
  const hex = (cx, cy, fill) => {
    const pts = [0, 1, 2, 3, 4, 5].map((k) => `${cx + 11 * Math.cos((k * Math.PI) / 3)},${cy + 11 * Math.sin((k * Math.PI) / 3)}`).join(" ");
    return html`<polygon points=${pts} fill=${fill} stroke="#1b2238" stroke-width="1" />`;
  };
  const out = [];
  const fills = ["#5b8fd6", "#d9c58f", "#9aa86a", "#8a6e4b", "#d9c58f", "#8fb6b0"];
  let k = 0;
  for (let c = 0; c < 6; c++) for (let r = 0; r < 4; r++) out.push(hex(14 + c * 17, 14 + r * 19 + (c % 2) * 9.5, fills[(k++ * 7 + c) % fills.length]));
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false">${out}
    <circle cx="48" cy="52" r="5" fill="#f0b429" stroke="#222" /><rect x="70" y="30" width="14" height="9" rx="2" fill="#d33" />
    <rect x="30" y="24" width="12" height="8" rx="2" fill="#36c" /></svg>`;
}

function TremblePicture() {
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false">
    <rect width="120" height="90" fill="#1c2140" /><rect x="8" y="58" width="14" height="26" fill="#3d4670" /><rect x="26" y="48" width="12" height="36" fill="#4a5585" />
    <rect x="42" y="62" width="18" height="22" fill="#3d4670" /><rect x="64" y="40" width="10" height="44" fill="#4a5585" /><rect x="78" y="56" width="16" height="28" fill="#3d4670" />
    <rect x="98" y="50" width="14" height="34" fill="#4a5585" />
    <ellipse cx="60" cy="24" rx="26" ry="7" fill="#9aa3c7" /><ellipse cx="60" cy="20" rx="11" ry="7" fill="#c9d2f0" />
    <path d="M48 30 L38 58 L82 58 L72 30 Z" fill="#f5d36b" opacity="0.35" /></svg>`;
}

function WorldsPicture() {
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false">
    <rect width="120" height="90" fill="#141a33" /><circle cx="30" cy="45" r="16" fill="#f0b429" />
    <ellipse cx="30" cy="45" rx="44" ry="14" fill="none" stroke="#3d4a80" stroke-width="1.5" />
    <circle cx="74" cy="48" r="8" fill="#4aa3c9" /><circle cx="98" cy="30" r="6" fill="#b86b4a" />
    <rect x="88" y="58" width="7" height="7" fill="#e0524a" /><rect x="98" y="58" width="7" height="7" fill="#4a8fe0" />
    <rect x="64" y="62" width="7" height="7" fill="#e0524a" /></svg>`;
}

function GalaxiesPicture() {
  const hex = (cx, cy, fill) => {
    const pts = [0, 1, 2, 3, 4, 5].map((k) => `${cx + 8 * Math.cos(((k + 0.5) * Math.PI) / 3)},${cy + 8 * Math.sin(((k + 0.5) * Math.PI) / 3)}`).join(" ");
    return html`<polygon points=${pts} fill=${fill} stroke="#2a3360" stroke-width="0.8" />`;
  };
  const out = [];
  for (let r = 0; r < 6; r++) for (let q = 0; q < 8; q++) out.push(hex(12 + q * 14 + (r % 2) * 7, 10 + r * 12, "#151b38"));
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false"><rect width="120" height="90" fill="#0e1329" />${out}
    <circle cx="33" cy="22" r="10" fill="#4a8fe0" opacity="0.9" /><rect x="74" y="55" width="20" height="9" rx="3" fill="#c9564a" />
    <circle cx="62" cy="30" r="3" fill="#4a8fe0" /><circle cx="70" cy="30" r="3" fill="#4a8fe0" /><circle cx="66" cy="36" r="3" fill="#4a8fe0" />
    <path d="M66 36 L82 55" stroke="#f5d36b" stroke-width="2" stroke-dasharray="3 3" /></svg>`;
}

function GenericPicture() {
  return html`<svg viewBox="0 0 120 90" class="game-picture" aria-hidden="true" focusable="false">
    <rect width="120" height="90" fill="#161c36" /><circle cx="60" cy="45" r="20" fill="#7a86c2" />
    <ellipse cx="60" cy="45" rx="38" ry="9" fill="none" stroke="#f0b429" stroke-width="2" transform="rotate(-15 60 45)" /></svg>`;
}

export const CARDS = {
  arena: {
    Picture: ArenaPicture,
    presets: [
      { id: "classic", config: {} },
      { id: "free", config: { setup: "free" } },
      { id: "secret", config: { setup: "free", placement: "simultaneous" } },
      { id: "big", config: { board: "5x5" } },
    ],
  },
  fullmetal: {
    Picture: FullmetalPicture,
    presets: [
      { id: "original", config: { preset: "original" } },
      { id: "pc", config: { preset: "pc" } },
      { id: "fmg", config: { preset: "fmg" } },
      { id: "quick", config: { preset: "original", map: "generated", map_size: "small" } },
    ],
  },
  galaxies: {
    Picture: GalaxiesPicture,
    presets: [
      { id: "skirmish", config: { mission: "m2-skirmish" } },
      { id: "intro", config: { mission: "m1-first-contact" } },
      { id: "pan-base", config: { mission: "m5-pan-base", players: 3 } },
      { id: "double-front", config: { mission: "m4-double-front", players: 4 } },
    ],
  },
  tremble: {
    Picture: TremblePicture,
    presets: [{ id: "standard", config: {} }],
  },
  worlds: {
    Picture: WorldsPicture,
    presets: [
      { id: "s1-example", config: { scenario: "s1-example" } },
      { id: "border-worlds", config: { scenario: "border-worlds" } },
      { id: "sun-orbit", config: { scenario: "sun-orbit" } },
      { id: "native-uprising", config: { scenario: "native-uprising" } },
      { id: "grand-melee", config: { scenario: "grand-melee" } },
    ],
  },
};

export function cardOf(gameId) {
  return CARDS[gameId] || { Picture: GenericPicture, presets: [{ id: "default", config: {} }], generic: true };
}
