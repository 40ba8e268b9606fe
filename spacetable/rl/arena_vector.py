"""A batch of Cosmic Arena games stepped together in compiled code (numba), pgx style.

    vec = arena_vector(4096, seed=0)          # 6x4 face, house default layout (AR-2.3)
    obs, mask = vec.reset()
    while True:
        actions = policy(obs, mask)           # int array [N], tokens of the AEC environment
        obs, mask, rewards, terminated = vec.step(actions)

* ``obs`` float32 ``[N, 617]``: the game part of the AEC observation (blocks ``ships``, ``cells``,
  ``off_board``, ``scalars`` of :class:`~spacetable.rl.encoders.arena.ArenaEncoder`) seen by the
  seat to move; the AEC environment appends a decision block that is constant here (the seat
  to move is deciding, no token chosen yet).
* ``mask`` int8 ``[N, 2410]``: legal tokens, the same vocabulary as ``spacetable.rl.env("arena")``.
* ``rewards`` float32 ``[N, 2]`` per seat: ``returns`` of the game that ended on this step
  (±1 full victory, ±½ semi-victory, AR-10.5), else 0.
* ``terminated`` bool ``[N]``: a game ended on this step. With ``auto_reset=True`` (default) that
  game is set up again at once (a new colour draw, AR-2.2) and ``obs``/``mask`` already show the
  new game; with ``auto_reset=False`` it stays over (its mask allows only ``WAIT``) until
  :meth:`ArenaVector.reset`.
* ``current_player`` int ``[N]``: the seat to move; ``red_seat`` ``[N]``: the seat playing Red.

The kernels are those of :mod:`spacetable.games.arena.fast` (tested against the reference
engine); :meth:`ArenaVector.to_state` returns game ``i`` as an engine ``ArenaState``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from spacetable.games.arena import GAME, fast
from spacetable.games.arena.board import BLUE, RED, get_face
from spacetable.games.arena.game import ArenaState
from spacetable.games.arena.setup import default_layout

from .encoders.arena import CELLS, COLS, GAME_SIZE, MOVE_TOKENS, OBS_CELLS, OBS_OFF, OBS_SCALARS, OBS_SHIPS, ArenaEncoder

N_ACTIONS = 1 + MOVE_TOKENS + 8 + 1 + 8 * CELLS
TELE0 = 1 + MOVE_TOKENS


@njit(cache=True, inline="always")
def _persp(cell: int, w: int, h: int, blue: bool) -> int:
    f = cell % w
    r = cell // w
    if blue:
        f = w - 1 - f
        r = h - 1 - r
    return r * COLS + f


@njit(cache=True, inline="always")
def _face_cell(p: int, w: int, h: int, blue: bool) -> int:
    r = p // COLS
    f = p % COLS
    if blue:
        f = w - 1 - f
        r = h - 1 - r
    return r * w + f


@njit(cache=True)
def _refresh(states: np.ndarray, i: int, geo: np.ndarray, nb: np.ndarray, ptab: np.ndarray, template: np.ndarray,
             obs: np.ndarray, mask: np.ndarray, legal: np.ndarray, marks: np.ndarray, buf: np.ndarray, full: bool) -> int:
    """Rebuild game ``i``'s legal tokens, mask and observation from its state; returns the legal count.

    Seen from the side to move, the face-dependent planes are the same for both colours (the home
    areas are symmetric under the 180° turn), so only the ship planes (``marks`` remembers the 16
    entries set last time), the off-board block and the scalars change from ply to ply; ``full``
    rewrites everything from the template (after a reset). Rows are indexed in place (no views: this
    runs once per game and step); ``ptab[blue, cell]`` is the cell seen from the side to move."""
    n = geo[2]
    old = legal[i, 0]
    for k in range(1, old + 1):
        mask[i, legal[i, k]] = 0
    mask[i, 0] = 0
    side = states[i, 16]
    blue = 1 if side == BLUE else 0
    over = states[i, 19] >= 0
    if full:
        for j in range(GAME_SIZE):
            obs[i, j] = template[side, j]
    else:
        for j in range(16):
            obs[i, marks[i, j]] = 0.0
        for j in range(OBS_OFF, GAME_SIZE):
            obs[i, j] = template[side, j]
    base = side * 8
    ebase = (1 - side) * 8
    for s in range(8):
        c = states[i, base + s]
        if c == n:
            j = OBS_OFF + s
        else:
            j = OBS_SHIPS + s * CELLS + ptab[blue, c]
        obs[i, j] = 1.0
        marks[i, s] = j
        e = states[i, ebase + s]
        if e == n:
            j = OBS_OFF + 8 + s
        else:
            j = OBS_SHIPS + (8 + s) * CELLS + ptab[blue, e]
        obs[i, j] = 1.0
        marks[i, 8 + s] = j
    sc = OBS_SCALARS
    obs[i, sc + 2] = states[i, 17] / 40.0
    if states[i, 18] == side:
        obs[i, sc + 3] = 1.0
    elif states[i, 18] >= 0:
        obs[i, sc + 4] = 1.0
    obs[i, sc + 10] = min(states[i, 21], 600) / 600.0
    if over:
        obs[i, sc + 0] = 0.0
        obs[i, sc + 8] = 0.0
        obs[i, sc + 9] = 1.0
        legal[i, 0] = 1
        legal[i, 1] = 0
        mask[i, 0] = 1
        return 0
    k = fast.gen(states[i], geo, nb, buf)
    for a in range(k):
        code = buf[a]
        if code >= fast.MOVE_CODES:
            tok = TELE0 + (code - fast.MOVE_CODES)
        else:
            bonus = code % 9
            dest = (code // 9) % 32
            ship = code // 288
            tok = 1 + (ship * CELLS + ptab[blue, dest]) * 9 + bonus
        legal[i, 1 + a] = tok
        mask[i, tok] = 1
    legal[i, 0] = k
    return k


@njit(cache=True)
def _reset_one(st: np.ndarray, init: np.ndarray, red_seat: np.ndarray, i: int, rs: np.ndarray) -> None:
    for j in range(24):
        st[j] = init[j]
    red_seat[i] = fast._randbelow(rs, 2)


@njit(cache=True)
def _reset_all(states: np.ndarray, init: np.ndarray, red_seat: np.ndarray, rs: np.ndarray, geo: np.ndarray, nb: np.ndarray,
               ptab: np.ndarray, template: np.ndarray, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray, marks: np.ndarray,
               current: np.ndarray) -> None:
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    for i in range(states.shape[0]):
        _reset_one(states[i], init, red_seat, i, rs)
        _refresh(states, i, geo, nb, ptab, template, obs, mask, legal, marks, buf, True)
        current[i] = red_seat[i] if states[i, 16] == RED else 1 - red_seat[i]


@njit(cache=True)
def _step(states: np.ndarray, actions: np.ndarray, init: np.ndarray, red_seat: np.ndarray, rs: np.ndarray, geo: np.ndarray,
          nb: np.ndarray, ptab: np.ndarray, ftab: np.ndarray, template: np.ndarray, obs: np.ndarray, mask: np.ndarray,
          legal: np.ndarray, marks: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, current: np.ndarray,
          auto_reset: bool) -> int:
    """Play ``actions[i]`` in every game; returns −1, or the first game whose action is not legal
    (nothing is changed then)."""
    for i in range(states.shape[0]):
        if mask[i, actions[i]] == 0 or (actions[i] == 0 and states[i, 19] < 0):
            return i
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    for i in range(states.shape[0]):
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False
        if states[i, 19] >= 0:  # finished and not reset: WAIT
            continue
        st = states[i]
        tok = actions[i]
        blue = 1 if st[16] == BLUE else 0
        if tok >= TELE0:
            code = fast.MOVE_CODES + (tok - TELE0)
        else:
            t = tok - 1
            bonus = t % 9
            ship = t // (9 * CELLS)
            dest = ftab[blue, (t // 9) % CELLS]
            code = (ship * 32 + dest) * 9 + bonus
        fast.play(st, code, geo, nb)
        if st[19] >= 0:
            pts = st[22] / 2.0
            ws = red_seat[i] if st[19] == RED else 1 - red_seat[i]
            rewards[i, ws] = pts
            rewards[i, 1 - ws] = -pts
            terminated[i] = True
            if auto_reset:
                _reset_one(st, init, red_seat, i, rs)
        _refresh(states, i, geo, nb, ptab, template, obs, mask, legal, marks, buf, False)
        current[i] = red_seat[i] if st[16] == RED else 1 - red_seat[i]
    return -1


@njit(cache=True)
def _sample(legal: np.ndarray, rs: np.ndarray, out: np.ndarray) -> None:
    for i in range(legal.shape[0]):
        k = legal[i, 0]
        out[i] = legal[i, 1 + fast._randbelow(rs, k)] if k > 0 else 0


@njit(cache=True)
def _uniform01(rs: np.ndarray) -> float:
    s, x = fast._splitmix(rs[0])
    rs[0] = s
    return float(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _sample_logits(legal: np.ndarray, logits: np.ndarray, temperature: float, rs: np.ndarray, out: np.ndarray) -> int:
    """P(token) ∝ exp(logit / temperature) over each game's legal tokens (read from its list, not the
    mask); returns −1, or the first game whose legal logits are not all finite."""
    w = np.empty(legal.shape[1], dtype=np.float64)  # the legal tokens' logits, then their weights
    inv = 1.0 / temperature
    for i in range(legal.shape[0]):
        k = legal[i, 0]
        if legal[i, 1] == 0:  # a finished game waits
            out[i] = 0
            continue
        top = -np.inf
        for a in range(1, k + 1):
            v = float(logits[i, legal[i, a]])
            if not np.isfinite(v):
                return i
            w[a] = v
            top = max(top, v)
        total = 0.0
        for a in range(1, k + 1):
            w[a] = np.exp((w[a] - top) * inv)
            total += w[a]
        target = _uniform01(rs) * total
        acc = 0.0
        out[i] = legal[i, k]
        for a in range(1, k + 1):
            acc += w[a]
            if acc > target:
                out[i] = legal[i, a]
                break
    return -1


class ArenaVector:
    """``n`` arena games on one face with the house default layout (see the module docstring)."""

    def __init__(self, n: int, seed: int = 0, board: str = "6x4", auto_reset: bool = True) -> None:
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.board = board
        self.auto_reset = auto_reset
        self.encoder = ArenaEncoder(GAME, GAME.normalize_config({"board": board}))
        self.n_actions = N_ACTIONS
        self.obs_size = GAME_SIZE
        assert self.encoder.n_actions == N_ACTIONS and self.encoder.game_size == GAME_SIZE
        self.geo, self.nb = fast.tables(board)
        w, h = int(self.geo[0]), int(self.geo[1])
        # cell of the face -> cell of the 6x5 grid seen from the side to move, and back (per colour)
        self._ptab = np.array([[_persp(c, w, h, b == 1) if c < w * h else 0 for c in range(32)] for b in (0, 1)], dtype=np.int64)
        self._ftab = np.array([[_face_cell(p, w, h, b == 1) for p in range(CELLS)] for b in (0, 1)], dtype=np.int64)
        red, blue = default_layout(board)
        start = ArenaState(board=board, loc=[list(red), list(blue)])
        self.init = fast.to_array(start)
        self.template = self._template(board)
        self.states = np.zeros((n, 24), dtype=np.int64)
        self.red_seat = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, GAME_SIZE), dtype=np.float32)
        self.mask = np.zeros((n, N_ACTIONS), dtype=np.int8)
        self.legal = np.zeros((n, fast.MAX_ACTIONS + 1), dtype=np.int16)  # count, then the legal tokens
        self._marks = np.zeros((n, 16), dtype=np.int64)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.current_player = np.zeros(n, dtype=np.int64)
        self._rs = np.zeros(1, dtype=np.uint64)
        self._seed(seed)

    def _seed(self, seed: int) -> None:
        self._rs[0] = np.uint64(GAME.seed_for(seed, "vector") & ((1 << 64) - 1))

    @staticmethod
    def _template(board: str) -> np.ndarray:
        """The observation parts that depend only on the face and the colour to move."""
        face = get_face(board)
        w, h = face.width, face.height
        out = np.zeros((2, GAME_SIZE), dtype=np.float32)
        for colour in (RED, BLUE):
            blue = colour == BLUE
            t = out[colour]
            for r in range(h):
                for f in range(w):
                    t[OBS_CELLS + r * COLS + f] = 1.0
            for k, col in ((1, colour), (2, 1 - colour)):
                for c in face.home(col):
                    f, r = c % w, c // w
                    if blue:
                        f, r = w - 1 - f, h - 1 - r
                    t[OBS_CELLS + k * CELLS + r * COLS + f] = 1.0
            sc = OBS_SCALARS
            t[sc + 0] = 1.0
            t[sc + 1] = 1.0 if colour == RED else 0.0
            t[sc + 8] = 1.0  # phase play
            t[sc + 11] = 1.0 if board == "5x5" else 0.0
        return out

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Set every game up again (colours drawn from the batch's generator, or from ``seed``)."""
        if seed is not None:
            self._seed(seed)
        self.legal[:, 0] = 0
        self.mask[:] = 0
        _reset_all(self.states, self.init, self.red_seat, self._rs, self.geo, self.nb, self._ptab, self.template, self.obs,
                   self.mask, self.legal, self._marks, self.current_player)
        self.rewards[:] = 0.0
        self.terminated[:] = False
        return self.obs, self.mask

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one token per game (``WAIT`` = 0 only for a finished game left unreset)."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},)")
        if acts.min() < 0 or acts.max() >= N_ACTIONS:
            raise ValueError(f"actions are tokens in 0..{N_ACTIONS - 1}")
        bad = _step(self.states, acts, self.init, self.red_seat, self._rs, self.geo, self.nb, self._ptab, self._ftab,
                    self.template, self.obs, self.mask, self.legal, self._marks, self.rewards, self.terminated,
                    self.current_player, self.auto_reset)
        if bad >= 0:
            raise ValueError(f"game {bad}: token {acts[bad]} ({self.encoder.token_name(int(acts[bad]))}) is not legal")
        return self.obs, self.mask, self.rewards, self.terminated

    def sample_actions(self, logits: Any = None, temperature: float = 1.0) -> np.ndarray:
        """A legal token per game, drawn in compiled code from the batch's generator: uniformly, or with
        ``logits`` (float ``[N, n_actions]``, e.g. a policy's output) from the softmax of
        ``logits / temperature`` over the game's legal tokens only (the masked entries are never read).
        A finished game that waits gets ``WAIT``."""
        out = np.empty(self.n, dtype=np.int64)
        if logits is None:
            _sample(self.legal, self._rs, out)
            return out
        lg = np.asarray(logits)
        if lg.shape != (self.n, N_ACTIONS):
            raise ValueError(f"logits must have shape ({self.n}, {N_ACTIONS})")
        if lg.dtype not in (np.float32, np.float64):
            lg = lg.astype(np.float64)
        if not temperature > 0:
            raise ValueError("temperature must be positive")
        bad = _sample_logits(self.legal, lg, float(temperature), self._rs, out)
        if bad >= 0:
            raise ValueError(f"game {bad}: a legal token has a non-finite logit")
        return out

    def legal_tokens(self, i: int) -> list[int]:
        k = int(self.legal[i, 0])
        return [int(x) for x in self.legal[i, 1: 1 + k]] if self.states[i, 19] < 0 else [0]

    def to_state(self, i: int) -> ArenaState:
        """Game ``i`` as a reference-engine state (for checks and for the engine's agents)."""
        st = self.states[i]
        over = st[19] >= 0
        kind = ("", "corvette", "no_action", "quiet_limit")[int(st[20])] if over else ""
        return ArenaState(board=self.board, red_seat=int(self.red_seat[i]),
                          loc=[[int(x) for x in st[0:8]], [int(x) for x in st[8:16]]],
                          phase="over" if over else "play", to_move=int(st[16]), quiet=int(st[17]), last_capturer=int(st[18]),
                          plies=int(st[21]), winner=int(st[19]) if over else -1, kind=kind,
                          points=float(st[22]) / 2.0 if over else 0.0)


def arena_vector(n: int, seed: int = 0, board: str = "6x4", auto_reset: bool = True) -> ArenaVector:
    """``n`` Cosmic Arena games stepped at once in compiled code (see :class:`ArenaVector`)."""
    return ArenaVector(n, seed, board, auto_reset)
