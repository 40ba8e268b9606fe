"""Arena AI players: alpha-beta with iterative deepening, a transposition table and a
time budget (compiled with numba on the :mod:`.fast` arrays), an MCTS with compiled
random rollouts, and the random player. ``AGENTS`` is the registry the server uses;
``AGENT_SPECS`` gives the same players to the game's ``agents()`` hook.

Evaluation (side to move's view): ship values on the board (frigate 100, destroyer 130,
cruiser 180; the corvette is priceless and its loss ends the game), a small bonus for
advanced 2-sail ships, a penalty for enemy ships next to the own corvette, and the
pending quiet-limit semi-victory (AR-10.2) growing with ``quiet``. Terminal values:
full victory ±100000, semi-victory ±50000, minus the distance in plies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from spacetable.ai.base import Agent, RandomAgent
from spacetable.ai.mcts import MCTSAgent
from spacetable.core.game import Action, Game
from spacetable.core.hooks import AgentSpec
from spacetable.core.rng import Rng

from . import fast, tables
from .board import CODES, RED
from .setup import default_layout
from .solver import LOSS, WIN

INF = 1_000_000
MATE_BOUND = fast.MATE_BOUND  # |score| above this is a terminal (game-over) score
TT_BITS = 20
SHIP_VALUE = np.array([0, 100, 100, 130, 100, 130, 130, 180], dtype=np.int64)


def _zobrist_table() -> np.ndarray:
    """Fixed-seed random keys (docs/rules/arena.md, position keys): rows 0–15 colour×ship by location,
    16 side, 17 quiet, 18 last capturer."""
    rng = Rng.from_seed("arena-zobrist")
    z = np.zeros((19, 41), dtype=np.int64)
    for i in range(19):
        for j in range(41):
            z[i, j] = np.int64(rng.next_u64() - (1 << 63))
    return z


ZOB = _zobrist_table()


@njit(cache=True)
def _hash(st: np.ndarray, zob: np.ndarray) -> np.int64:
    h = np.int64(0)
    for i in range(16):
        h ^= zob[i, st[i]]
    h ^= zob[16, st[16]]
    h ^= zob[17, st[17]]
    h ^= zob[18, st[18] + 1]
    return h


@njit(cache=True)
def evaluate(st: np.ndarray, geo: np.ndarray, nb: np.ndarray, values: np.ndarray) -> int:
    """Static evaluation for the side to move (see module docstring)."""
    w = geo[0]
    h = geo[1]
    n = geo[2]
    side = st[16]
    score = 0
    for c in range(2):
        sign = 1 if c == side else -1
        base = c * 8
        ecorv = st[(1 - c) * 8]
        for s in range(1, 8):
            cell = st[base + s]
            if cell == n:
                continue
            v = values[s]
            rank = cell // w
            adv = rank if c == 0 else h - 1 - rank
            if s & 4:
                v += 4 * adv
            # pressure on the enemy corvette
            if (nb[cell] >> ecorv) & 1:
                v += 25
            score += sign * v
    sw = st[18] if st[18] >= 0 else 1
    semi = 6 * st[17]
    score += semi if sw == side else -semi
    return score


@njit(cache=True)
def _terminal(child: np.ndarray, me: int, ply: int) -> int:
    v = child[22] * 50000 - ply
    return v if child[19] == me else -v


@njit(cache=True)
def _is_capture(st: np.ndarray, code: int, n: int) -> int:
    """Value+1 of the ship captured by a move code, 0 if none."""
    if code >= 2304:
        return 0
    d = (code // 9) % 32
    eb = (1 - st[16]) * 8
    for e in range(8):
        if st[eb + e] == d:
            return 1 + (1000 if e == 0 else e)
    return 0


@njit(cache=True, inline="always")
def _to_tt(v: int, ply: int) -> int:
    """Terminal scores (|v| > MATE_BOUND: ±(points·50000 − plies from the root)) are stored as distances
    from the stored node, so a TT hit at another ply (or in a later search) keeps the exact distance."""
    if v > MATE_BOUND:
        return v + ply
    if v < -MATE_BOUND:
        return v - ply
    return v


@njit(cache=True, inline="always")
def _from_tt(v: int, ply: int) -> int:
    """Inverse of :func:`_to_tt` at the probing node's ply."""
    if v > MATE_BOUND:
        return v - ply
    if v < -MATE_BOUND:
        return v + ply
    return v


_QSIG = "int64(int64[::1], int64, int64, int64, int64, int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[::1])"
_SSIG = ("int64(int64[::1], int64, int64, int64, int64, int64[::1], int64[::1], int64[::1], int64[:, ::1], "
         "int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[::1])")


@njit(_QSIG, cache=True)
def _qsearch(st, alpha, beta, ply, qd, geo, nb, values, moves, ctr):  # type: ignore[no-untyped-def]
    ctr[0] += 1
    stand = evaluate(st, geo, nb, values)
    if stand >= beta or qd == 0:
        return stand
    if stand > alpha:
        alpha = stand
    n = geo[2]
    cnt = fast.gen(st, geo, nb, moves[ply])
    child = np.empty(24, dtype=np.int64)
    side = st[16]
    for i in range(cnt):
        code = moves[ply, i]
        if _is_capture(st, code, n) == 0 or code % 9 != 0:
            continue
        for j in range(24):
            child[j] = st[j]
        fast.play(child, code, geo, nb)
        if child[19] >= 0:
            v = _terminal(child, side, ply + 1)
        else:
            v = -_qsearch(child, -beta, -alpha, ply + 1, qd - 1, geo, nb, values, moves, ctr)
        if v >= beta:
            return v
        if v > alpha:
            alpha = v
    return alpha


@njit(_SSIG, cache=True)
def _search(st, depth, alpha, beta, ply, geo, nb, values, zob, ttk, ttv, ttd, ttf, ttm, hist, moves, scores, ctr):  # type: ignore[no-untyped-def]
    if depth <= 0:
        return _qsearch(st, alpha, beta, ply, 6, geo, nb, values, moves, ctr)
    ctr[0] += 1
    if ctr[0] > ctr[1]:
        ctr[2] = 1
        return 0
    n = geo[2]
    key = _hash(st, zob)
    slot = key & ((1 << 20) - 1)
    tmove = -1
    alpha0 = alpha
    if ttk[slot] == key:
        tmove = ttm[slot]
        if ttd[slot] >= depth and ply > 0:
            v = _from_tt(ttv[slot], ply)
            f = ttf[slot]
            if f == 0:
                return v
            if f == 1 and v >= beta:
                return v
            if f == 2 and v <= alpha:
                return v
    cnt = fast.gen(st, geo, nb, moves[ply])
    side = st[16]
    for i in range(cnt):
        code = moves[ply, i]
        if code == tmove:
            scores[ply, i] = 1 << 40
        else:
            cap = _is_capture(st, code, n)
            scores[ply, i] = cap * (1 << 20) + hist[side, code]
    best = -INF
    bestm = moves[ply, 0]
    child = np.empty(24, dtype=np.int64)
    for i in range(cnt):
        # selection sort step: bring the best remaining move to position i
        bi = i
        for j in range(i + 1, cnt):
            if scores[ply, j] > scores[ply, bi]:
                bi = j
        if bi != i:
            tm = moves[ply, i]
            moves[ply, i] = moves[ply, bi]
            moves[ply, bi] = tm
            ts = scores[ply, i]
            scores[ply, i] = scores[ply, bi]
            scores[ply, bi] = ts
        code = moves[ply, i]
        for j in range(24):
            child[j] = st[j]
        fast.play(child, code, geo, nb)
        if child[19] >= 0:
            v = _terminal(child, side, ply + 1)
        else:
            v = -_search(child, depth - 1, -beta, -alpha, ply + 1, geo, nb, values, zob, ttk, ttv, ttd, ttf, ttm,
                         hist, moves, scores, ctr)
        if ctr[2]:
            return 0
        if v > best:
            best = v
            bestm = code
            if ply == 0:
                ctr[3] = code
                ctr[4] = v
        if v > alpha:
            alpha = v
        if alpha >= beta:
            hist[side, code] += depth * depth
            break
    flag = 0
    if best <= alpha0:
        flag = 2
    elif best >= beta:
        flag = 1
    ttk[slot] = key
    ttv[slot] = _to_tt(best, ply)
    ttd[slot] = depth
    ttf[slot] = flag
    ttm[slot] = bestm
    return best


_WARM: list[bool] = []


def _warm_up(tb: SearchTables) -> None:
    """Load (or compile) the search kernels once per process, before any move's clock starts. The recursive
    kernels carry explicit signatures: numba's on-disk cache of lazily typed recursive functions crashes."""
    if _WARM:
        return
    geo, nb = fast.tables("6x4")
    red, blue = default_layout("6x4")
    st = np.array([*red, *blue, 0, 0, -1, -1, 0, 0, 0, 0], dtype=np.int64)
    ctr = np.zeros(5, dtype=np.int64)
    ctr[1] = 50
    _search(st, 2, -INF, INF, 0, geo, nb, SHIP_VALUE, ZOB, tb.ttk.copy(), tb.ttv.copy(), tb.ttd.copy(), tb.ttf.copy(),
            tb.ttm.copy(), tb.hist.copy(), tb.moves, tb.scores, ctr)
    _WARM.append(True)


class SearchTables:
    """Transposition table and history heuristic, kept between moves of one agent."""

    def __init__(self) -> None:
        size = 1 << TT_BITS
        self.ttk = np.zeros(size, dtype=np.int64)
        self.ttv = np.zeros(size, dtype=np.int64)
        self.ttd = np.zeros(size, dtype=np.int64)
        self.ttf = np.zeros(size, dtype=np.int64)
        self.ttm = np.full(size, -1, dtype=np.int64)
        self.hist = np.zeros((2, fast.MOVE_CODES + 8), dtype=np.int64)
        self.moves = np.zeros((64, fast.MAX_ACTIONS), dtype=np.int64)
        self.scores = np.zeros((64, fast.MAX_ACTIONS), dtype=np.int64)


def search(st: np.ndarray, board: str, seconds: float, max_depth: int = 40, tables: SearchTables | None = None,
           node_limit: int | None = None) -> tuple[int, int, int, int]:
    """Iterative deepening alpha-beta from fast state ``st``.

    Returns ``(best code, value, completed depth, nodes)``; the time budget is enforced
    between iterations and, inside one, by a node limit from the measured speed."""
    geo, nb = fast.tables(board)
    tb = tables or SearchTables()
    tb.hist //= 4
    _warm_up(tb)
    start = time.perf_counter()
    deadline = start + seconds
    ctr = np.zeros(5, dtype=np.int64)
    legal = fast.legal_codes(st, board)
    if not legal:
        raise ValueError("no legal action")
    best, value, done, total = legal[0], 0, 0, 0
    rate = 200_000.0
    for depth in range(1, max_depth + 1):
        now = time.perf_counter()
        left = deadline - now
        if left <= 0 and done > 0:
            break
        ctr[:] = 0
        ctr[1] = node_limit if node_limit is not None else max(2000, int(rate * max(left, 0.0)))
        ctr[3] = best
        t0 = time.perf_counter()
        v = _search(st.copy(), depth, -INF, INF, 0, geo, nb, SHIP_VALUE, ZOB, tb.ttk, tb.ttv, tb.ttd, tb.ttf, tb.ttm,
                    tb.hist, tb.moves, tb.scores, ctr)
        dt = time.perf_counter() - t0
        total += int(ctr[0])
        if ctr[2]:
            break
        best, value, done = int(ctr[3]), int(v), depth
        if dt > 0.01:
            rate = ctr[0] / dt
        if value > 99000:  # a forced full victory was found (full victory = 100000 − plies)
            break
        if len(legal) == 1:
            break
    return best, value, done, total


class AlphaBetaAgent:
    """Alpha-beta agent with a time budget per move (AR-D7: never offers; accepts an offer
    only when its search value for continuing is below the agreed result)."""

    name = "alphabeta"

    def __init__(self, seed: int = 0, seconds: float = 1.0, node_limit: int | None = None) -> None:
        self.rng = Rng.from_seed(seed)
        self.seconds = seconds
        self.node_limit = node_limit
        self.tables = SearchTables()
        self.last: dict[str, Any] = {}

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        legal = game.legal_actions(state, player)
        if not legal:
            raise ValueError("no legal action")
        if state.phase == "place":
            return _placement_choice(state, legal, self.rng)
        st = fast.to_array(state)
        code, value, depth, nodes = search(st, state.board, self.seconds, tables=self.tables, node_limit=self.node_limit)
        self.last = {"value": value, "depth": depth, "nodes": nodes}
        if legal[-1].get("type") == "accept_end":
            colour = state.to_move
            semi_winner = state.last_capturer if state.last_capturer >= 0 else 1
            agreed = 50000 if semi_winner == colour else -50000
            if value < agreed:
                return legal[-1]
        return fast.code_to_action(state, code)


class EndgameAgent(AlphaBetaAgent):
    """Alpha-beta in the middle game, the retrograde solver's tables (:mod:`.tables`, AR-11) once at most two
    ships a side are left: a won position is converted along the table's fastest win, a lost one resists
    longest, and an undecided one (or a win the quiet limit of AR-10.2 may cut short) is searched among the
    moves that keep the table's value only. Any table in the cache folder is used; the (2, 2) one is built
    by ``python -m spacetable.games.arena.tables`` (the small ones on demand)."""

    name = "endgame"

    def __init__(self, seed: int = 0, seconds: float = 1.0, node_limit: int | None = None) -> None:
        super().__init__(seed, seconds, node_limit)
        self.child_nodes = max(2000, (node_limit or 200_000) // 20)

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        legal = game.legal_actions(state, player)
        if state.phase != "play" or not legal or legal[-1].get("type") == "accept_end":
            return super().choose(game, state, player)  # placement, and offers (AR-10.4) as alpha-beta decides
        st = fast.to_array(state)
        code = self.table_move(st, state.board)
        if code is None:
            return super().choose(game, state, player)
        return fast.code_to_action(state, code)

    def table_move(self, st: np.ndarray, board: str) -> int | None:
        """The move the tables choose in ``st`` (None when no table covers it)."""
        n = int(fast.tables(board)[0][2])
        tb = tables.table_for(board, *tables.counts(st, n))
        if tb is None:
            return None
        status, plies = tables.probe(tb, st)
        geo, nb = fast.tables(board)
        side = int(st[16])
        scored: list[tuple[int, int, int]] = []  # (result for the mover: 1 win, 0 undecided, -1 loss, plies, code)
        for code in fast.legal_codes(st, board):
            child = st.copy()
            fast.play(child, code, geo, nb)
            if child[19] >= 0:  # the game ended (corvette, no action, quiet limit): its real result
                scored.append((1 if child[19] == side else -1, 0, code))
                continue
            c_status, c_plies = tables.probe(tb, child)
            result = 1 if c_status == LOSS else -1 if c_status == WIN else 0
            scored.append((result, c_plies + 1, code))
        self.last = {"table": f"{tb.red_max}{tb.blue_max}", "status": int(status), "plies": plies}
        best = max(r for r, _, _ in scored)
        keep = [x for x in scored if x[0] == best]
        quiet_left = fast.QUIET_LIMIT - int(st[17])
        if best == 1 and min(p for _, p, _ in keep) < quiet_left:
            return min(keep, key=lambda x: (x[1], x[2]))[2]  # the fastest win, within the quiet limit
        if best == -1:
            return max(keep, key=lambda x: (x[1], -x[2]))[2]  # the longest resistance
        return self.search_among(st, board, [c for _, _, c in keep])

    def search_among(self, st: np.ndarray, board: str, codes: list[int]) -> int:
        """The best of ``codes`` by alpha-beta (the full search's choice when it is one of them)."""
        code, _, _, _ = search(st, board, self.seconds, tables=self.tables, node_limit=self.node_limit)
        if code in codes or len(codes) == 1:
            return code if code in codes else codes[0]
        geo, nb = fast.tables(board)
        side = int(st[16])
        best, best_v = codes[0], -INF - 1
        for c in codes:
            child = st.copy()
            fast.play(child, c, geo, nb)
            if child[19] >= 0:
                v = INF if child[19] == side else -INF
            else:
                v = -search(child, board, self.seconds, max_depth=12, tables=self.tables, node_limit=self.child_nodes)[1]
            if v > best_v:
                best, best_v = c, v
        return best


def _placement_choice(state: Any, legal: list[Action], rng: Rng) -> Action:
    """Free placement for AIs: follow the default layout where possible, else random (AR-2.7)."""
    if legal[0].get("type") == "layout":
        return legal[0]
    red, blue = default_layout(state.board)
    slots = red if state.to_move == RED else blue
    face = state.face
    for a in legal:
        s = CODES.index(a["ship"])
        if face.cell_name(slots[s]) == a["cell"]:
            return a
    return rng.choice(legal)


class ArenaMCTS(MCTSAgent):
    """The generic MCTS (``spacetable.ai.mcts``) with compiled random rollouts."""

    name = "mcts"

    def _rollout(self, game: Game[Any], state: Any) -> list[float]:
        if state.phase != "play":
            return super()._rollout(game, state)
        st = fast.to_array(state)
        geo, nb = fast.tables(state.board)
        rs = np.array([self.rng.next_u64()], dtype=np.uint64)
        fast.random_playout(st, rs, geo, nb, np.empty(0, dtype=np.int64))
        pts = st[22] / 2.0
        w = state.seat_of(int(st[19]))
        out = [-pts, -pts]
        out[w] = pts
        return out


#: No clock for the levels: their budgets are node or playout counts, so a level plays the same in any
#: process, on any machine and under any load (its seconds per move are measured by the ladder).
NO_CLOCK = 1e9
HARD_NODES = 200_000
MEDIUM_NODES = 3_000
EASY_PLAYOUTS = 300



def _named(agent: Any, name: str) -> Any:
    agent.name = name
    return agent


AGENTS: dict[str, Callable[[int, float], Agent]] = {
    "endgame": lambda seed=0, seconds=1.0, **_: EndgameAgent(seed, NO_CLOCK, node_limit=HARD_NODES),
    "shallow": lambda seed=0, seconds=1.0, **_: _named(AlphaBetaAgent(seed, NO_CLOCK, node_limit=MEDIUM_NODES), "shallow"),
    "playouts": lambda seed=0, seconds=1.0, **_: _named(ArenaMCTS(iterations=EASY_PLAYOUTS, seconds=None, seed=seed), "playouts"),
    "alphabeta": lambda seed=0, seconds=1.0, **_: AlphaBetaAgent(seed, seconds),
    "mcts": lambda seed=0, seconds=1.0, **_: ArenaMCTS(iterations=None, seconds=seconds, seed=seed),
    "random": lambda seed=0, seconds=1.0, **_: RandomAgent(seed),
}
DEFAULT_AGENT = "endgame"

#: The players offered by the lobby and the terminal (:meth:`Game.agents`), the default first: the three
#: levels on fixed budgets, then the clock-driven searches (``--seconds``) and the random baseline.
AGENT_SPECS = (
    AgentSpec("endgame", AGENTS["endgame"], level="hard",
              description=f"alpha-beta ({HARD_NODES:,} nodes per iteration) and the endgame tables of AR-11"),
    AgentSpec("shallow", AGENTS["shallow"], level="medium",
              description=f"alpha-beta on a small budget ({MEDIUM_NODES:,} nodes per iteration)"),
    AgentSpec("playouts", AGENTS["playouts"], level="easy",
              description=f"Monte Carlo tree search, {EASY_PLAYOUTS} compiled random playouts per move"),
    AgentSpec("alphabeta", AGENTS["alphabeta"], description="alpha-beta search on the clock (seconds per move)"),
    AgentSpec("mcts", AGENTS["mcts"], description="Monte Carlo tree search on the clock, compiled playouts"),
    AgentSpec("random", AGENTS["random"], description="a uniformly random legal action (a baseline)"),
)
