// Icons drawn inline as SVG (no icon font, no emoji: they render the same everywhere).
// Each is a list of path data on a 24x24 grid, stroked with currentColor.
import { html } from "./lib.js";

const P = {
  first: ["M6 5v14", "M18 5l-9 7 9 7z"],
  prev: ["M15 5l-7 7 7 7"],
  next: ["M9 5l7 7-7 7"],
  last: ["M18 5v14", "M6 5l9 7-9 7z"],
  skip: ["M4 5l8 7-8 7z", "M12 5l8 7-8 7z"],
  share: ["M12 15V3", "M7 8l5-5 5 5", "M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7"],
  copy: ["M9 9h10v12H9z", "M5 15H4V3h11v2"],
  flag: ["M5 21V4", "M5 4h11l-2 4 2 4H5"],
  handshake: ["M3 11l4-4 4 2 3-2 7 5", "M21 12l-5 5-3-2-2 2-3-2-5-4", "M11 9l-3 3a1.5 1.5 0 0 0 2 2l3-3"],
  leave: ["M14 4h5v16h-5", "M10 8l-4 4 4 4", "M6 12h10"],
  undo: ["M9 14L4 9l5-5", "M4 9h11a5 5 0 0 1 0 10h-4"],
  zoomIn: ["M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14z", "M20 20l-4-4", "M11 8v6", "M8 11h6"],
  zoomOut: ["M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14z", "M20 20l-4-4", "M8 11h6"],
  fit: ["M4 9V4h5", "M15 4h5v5", "M20 15v5h-5", "M9 20H4v-5"],
  close: ["M6 6l12 12", "M18 6L6 18"],
  check: ["M5 12l5 5 9-10"],
  book: ["M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2z", "M4 19V5", "M8 7h7"],
  robot: ["M6 8h12v10H6z", "M12 4v4", "M9 12h.01", "M15 12h.01", "M9 15h6", "M3 12v3", "M21 12v3"],
  friend: ["M9 11a3 3 0 1 0 0-6a3 3 0 1 0 0 6z", "M3 20a6 6 0 0 1 12 0", "M16 11a3 3 0 1 0 0-6", "M17 14a5 5 0 0 1 4 6"],
  clock: ["M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z", "M12 7v5l3 2"],
  globe: ["M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z", "M3 12h18", "M12 3c3 3 3 15 0 18", "M12 3c-3 3-3 15 0 18"],
  info: ["M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z", "M12 11v6", "M12 7h.01"],
  alert: ["M12 3l10 18H2z", "M12 10v5", "M12 18h.01"],
  eye: ["M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z", "M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z"],
  trophy: ["M8 4h8v5a4 4 0 0 1-8 0z", "M8 6H5a3 3 0 0 0 3 4", "M16 6h3a3 3 0 0 1-3 4", "M12 13v4", "M8 20h8"],
  link: ["M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1", "M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1"],
  list: ["M8 6h12", "M8 12h12", "M8 18h12", "M4 6h.01", "M4 12h.01", "M4 18h.01"],
  play: ["M7 5l12 7-12 7z"],
  pause: ["M8 5v14", "M16 5v14"],
  plus: ["M12 5v14", "M5 12h14"],
  minus: ["M5 12h14"],
  refresh: ["M20 11a8 8 0 1 0-2 6", "M20 4v7h-7"],
  home: ["M3 11l9-7 9 7", "M5 10v10h14V10"],
  legend: ["M4 5h4v4H4z", "M4 15h4v4H4z", "M11 7h9", "M11 17h9"],
};

export function Icon({ name, size = 20, label }) {
  const paths = P[name] || P.info;
  return html`<svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor"
    stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden=${label ? null : "true"}
    role=${label ? "img" : null} aria-label=${label || null} focusable="false">
    ${paths.map((d) => html`<path d=${d} />`)}</svg>`;
}

export const ICON_NAMES = Object.keys(P);
