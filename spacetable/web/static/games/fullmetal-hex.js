// Full Metal Planète board geometry (rules docs/rules/fullmetal.md, FM-1): flat-topped hexes in vertical columns,
// odd columns half a hex lower (odd-q, FM-1.2), neighbours in the order N, NE, SE, S, SW, NW (FM-1.3), cube
// distance (FM-1.4), centres (FM-1.5). Places on the board are the cells, named "x,y" like the game's notation.

/** Hex radius in SVG units (the viewport scales the drawing). */
export const R = 20;
const S3 = Math.sqrt(3);
/** Room for the coordinates on the rim. */
export const MARGIN = { left: 30, top: 26, right: 30, bottom: 26 };

export const key = (x, y) => x + "," + y;
export const keyOf = (c) => c[0] + "," + c[1];
export function parseKey(k) {
  const i = k.indexOf(",");
  return [Number(k.slice(0, i)), Number(k.slice(i + 1))];
}

/** FM-1.3: the six neighbours of (x, y), N, NE, SE, S, SW, NW (off-map ones included; see onMap). */
export function neighbours(x, y) {
  if (x % 2 === 0) return [[x, y - 1], [x + 1, y - 1], [x + 1, y], [x, y + 1], [x - 1, y], [x - 1, y - 1]];
  return [[x, y - 1], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x - 1, y + 1], [x - 1, y]];
}

/** FM-1.4: hex distance through cube coordinates. */
export function dist(a, b) {
  const q1 = a[0], r1 = a[1] - (a[0] - (a[0] & 1)) / 2;
  const q2 = b[0], r2 = b[1] - (b[0] - (b[0] & 1)) / 2;
  const dq = q1 - q2, dr = r1 - r2;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

/** FM-7.1: the cells of a landed ship, dome first, pods on N/SE/SW (north) or NE/S/NW (south). */
export const ORIENT = { north: [0, 2, 4], south: [1, 3, 5] };
export function footprint(dome, orientation) {
  const n = neighbours(dome[0], dome[1]);
  return [dome, ...ORIENT[orientation].map((d) => n[d])];
}

const cache = new Map();

/** The static drawing of a map: every on-map cell with its centre and hexagon points; memoised per map. */
export function geometry(view) {
  const id = view.width + "x" + view.height + ":" + view.terrain.join("");
  let g = cache.get(id);
  if (g) return g;
  const W = view.width, H = view.height;
  const cells = [];
  const at = new Map();
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = view.terrain[y][x];
      if (t === "?") continue;
      const [cx, cy] = centre(x, y);
      const c = { x, y, k: key(x, y), t, cx, cy, pts: hexPoints(cx, cy, R) };
      cells.push(c);
      at.set(c.k, c);
    }
  }
  g = {
    W, H, cells, at,
    width: MARGIN.left + MARGIN.right + R * (1.5 * W + 0.5),
    height: MARGIN.top + MARGIN.bottom + R * S3 * (H + 0.5),
    onMap: (x, y) => at.has(key(x, y)),
    centre,
  };
  if (cache.size > 8) cache.clear();
  cache.set(id, g);
  return g;
}

/** FM-1.5, shifted by the margins. */
export function centre(x, y) {
  return [MARGIN.left + R * (1.5 * x + 1), MARGIN.top + R * (S3 * (y + 0.5 * (x & 1)) + S3 / 2)];
}

export function hexPoints(cx, cy, r) {
  let s = "";
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3;
    s += (k ? " " : "") + (cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1);
  }
  return s;
}

/** FM-2.1: is terrain `t` land under `tide`? (reef at low tide only, swamp except at high tide) */
export function landAt(t, tide) {
  if (t === "$" || t === "#") return true;
  if (t === "*") return tide === "low";
  if (t === "%") return tide !== "high";
  return false;
}
