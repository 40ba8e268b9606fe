"""Ratings per game with OpenSkill (Plackett–Luce), results, history pages, statistics and leaderboards.

A match one account sits in is recorded in ``account_matches`` (rated or casual, chosen by its creator). Once the
match is over, one process (a compare-and-set on the row's state) counts it, in one transaction:

* **aborted** when a seat taken by a person never moved itself (a match abandoned at the start): nothing counts;
* otherwise every account seat gets its result (win, loss, draw) in ``account_results`` (history and statistics);
* a **rated** match, when every seat is an account, updates each account's rating for the game with
  ``openskill``'s Plackett–Luce model: one team per side (Battleship Galaxies' teams: the seats of one side),
  ranks from the outcome (winners first, a draw ties everybody). Resignations and timeouts are outcomes like any.

A rating is provisional for its first :data:`PROVISIONAL_GAMES` games; the leaderboard sorts on the conservative
``ordinal`` (mu - 3 sigma) and shows the uncertainty (sigma).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from spacetable.games import UnknownGame, get_game

from ..errors import ServiceError
from ..tasks import stop_tasks

if TYPE_CHECKING:
    from ..storage import Tx
    from .service import AccountService

log = logging.getLogger("spacetable.server.accounts")

PROVISIONAL_GAMES = 10
MODEL = PlackettLuce()


def seat_ranks(outcome: dict[str, Any], n: int) -> list[int]:
    """Each seat's place (0 best) from an outcome: winners first; then the ranking's order, seats with equal scores
    sharing a place; no winners: a draw, everybody tied."""
    winners = set(outcome.get("winners") or ())
    if not winners:
        return [0] * n
    ranking = [s for s in (outcome.get("ranking") or ()) if s not in winners]
    scores = outcome.get("scores") or []
    ranks = [1] * n
    for s in winners:
        ranks[s] = 0
    if len(ranking) + len(winners) == n:
        place, prev = 0, None
        for i, s in enumerate(ranking):
            score = scores[s] if s < len(scores) else None
            if prev is None or score != prev:
                place = i + 1
            ranks[s] = place
            prev = score
    return ranks


def result_of(outcome: dict[str, Any], seat: int) -> str:
    winners = outcome.get("winners") or ()
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def has_sides(game: Any) -> bool:
    """Whether the game's state names each seat's side (``seat_side``: Battleship Galaxies' teams)."""
    st = getattr(game, "state_type", None)
    return st is not None and ("seat_side" in getattr(st, "__dataclass_fields__", {})
                               or "seat_side" in getattr(st, "__annotations__", {}) or hasattr(st, "seat_side"))


def sides_of(match_row: dict[str, Any], n: int) -> list[int]:
    """Each seat's side: a game whose state names sides (``seat_side``, Battleship Galaxies' teams) groups seats;
    otherwise every seat is its own side (and no state is set up)."""
    try:
        game = get_game(match_row["game"])
        if not has_sides(game):
            return list(range(n))
        state = game.initial_state(json.loads(match_row["config"]), int(match_row["seed"]))
    except (UnknownGame, Exception):  # a game that cannot set up again: one side per seat
        return list(range(n))
    sides = getattr(state, "seat_side", None)
    if isinstance(sides, (list, tuple)) and len(sides) == n and all(isinstance(x, int) for x in sides):
        return list(sides)
    return list(range(n))


def rate(ratings: dict[int, tuple[float, float]], sides: list[int], ranks: list[int]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) per seat with OpenSkill's Plackett–Luce model: one team per side, a team's rank is its best
    seat's."""
    order = sorted(set(sides))
    teams = [[s for s in range(len(sides)) if sides[s] == side] for side in order]
    model_teams = [[MODEL.rating(mu=ratings[s][0], sigma=ratings[s][1]) for s in team] for team in teams]
    team_ranks = [min(ranks[s] for s in team) for team in teams]
    new = MODEL.rate(model_teams, ranks=team_ranks)
    out: dict[int, tuple[float, float]] = {}
    for team, rated in zip(teams, new, strict=True):
        for s, r in zip(team, rated, strict=True):
            out[s] = (float(r.mu), float(r.sigma))
    return out


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rating_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"game": row["game"], "mu": round(row["mu"], 3), "sigma": round(row["sigma"], 3),
            "rating": round(row["ordinal"], 3), "games": row["games"], "provisional": row["games"] < PROVISIONAL_GAMES}


class RatingKeeper:
    """Counts finished matches (a background task of each process; the compare-and-set makes it count once)."""

    def __init__(self, accounts: AccountService, interval: float = 1.0) -> None:
        self.accounts = accounts
        self.storage = accounts.storage
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        accounts.ratings = self

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="spacetable-ratings")

    async def stop(self) -> None:
        """End the rating task in bounded time (``tasks.stop_tasks``: a swallowed cancellation is repeated)."""
        if self._task is not None:
            await stop_tasks([self._task], "rating tasks")
            self._task = None

    def nudge(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.process_pending()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("counting finished matches failed; trying again")
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)

    async def process_pending(self, limit: int = 200) -> int:
        rows = await self.accounts.read(
            "SELECT am.match_id, am.rated, m.game, m.config, m.seed, m.outcome, m.updated_at FROM account_matches am "
            "JOIN matches m ON m.id = am.match_id WHERE am.state = 'pending' AND m.status = 'finished' LIMIT :n", n=limit)
        for row in rows:
            await self.count(row)
        return len(rows)

    async def count(self, match_row: dict[str, Any]) -> str:
        """Count one finished match (see the module docstring); what it became: counted, casual, aborted or ``""``
        (another process counted it first)."""
        match_id = match_row["match_id"]
        outcome = json.loads(match_row["outcome"] or "{}")
        sides: list[int] | None = None

        async def job(tx: Tx) -> str:
            nonlocal sides
            # one query: each seat, its account, whether the seat ever moved itself, and the account's rating for
            # the game (one round trip fewer than reading the ratings apart)
            seats = await tx.fetch(
                "SELECT s.seat, s.kind, b.account_id, EXISTS (SELECT 1 FROM actions a WHERE a.match_id = s.match_id "
                "AND a.seat = s.seat AND a.source = 'player') AS moved, r.mu, r.sigma FROM seats s "
                "LEFT JOIN account_seats b ON b.match_id = s.match_id AND b.seat = s.seat AND b.token_hash = s.token_hash "
                "LEFT JOIN ratings r ON r.account_id = b.account_id AND r.game = :g "
                "WHERE s.match_id = :m ORDER BY s.seat", {"m": match_id, "g": match_row["game"]})
            n = len(seats)
            bound = {r["seat"]: r["account_id"] for r in seats if r["account_id"] is not None}
            if any(r["kind"] == "human" and not r["moved"] for r in seats):
                state = "aborted"
            elif match_row["rated"] and n and len(bound) == n and len(set(bound.values())) == n:
                state = "counted"
            else:
                state = "casual"
            now = time.time()
            game = match_row["game"]
            p: dict[str, Any] = {"s": state, "g": game, "t": now, "m": match_id, "rt": state == "counted",
                                 "ft": match_row["updated_at"]}
            # the rows to write, each statement's rows with ``:name`` parameters (see ``_write``)
            rated: list[int] = []
            deltas: dict[int, float] = {}
            if state == "counted":
                if sides is None or len(sides) != n:
                    sides = sides_of(match_row, n)
                found = {r["account_id"]: r for r in seats if r["account_id"] is not None and r["mu"] is not None}
                fresh = MODEL.rating()
                before = {s: (found[bound[s]]["mu"], found[bound[s]]["sigma"]) if bound[s] in found
                          else (float(fresh.mu), float(fresh.sigma)) for s in range(n)}
                after = rate(before, sides, seat_ranks(outcome, n))
                for s in range(n):
                    mu, sigma = after[s]
                    p.update({f"mu{s}": mu, f"sg{s}": sigma, f"o{s}": ordinal(mu, sigma)})
                    deltas[s] = ordinal(mu, sigma) - ordinal(*before[s])
                    rated.append(s)
            if state != "aborted":
                for s, account_id in bound.items():
                    p.update({f"a{s}": account_id, f"s{s}": s, f"r{s}": result_of(outcome, s), f"d{s}": deltas.get(s)})
            results = [] if state == "aborted" else list(bound)
            return state if await self._write(tx, p, rated, results) else ""

        if match_row["rated"]:  # a team game's sides, before the transaction (its set-up may take a moment)
            try:
                game = get_game(match_row["game"])
                if has_sides(game):
                    n = game.num_players(json.loads(match_row["config"]))
                    sides = await asyncio.to_thread(sides_of, match_row, n)
            except Exception:  # counted with one side per seat
                sides = None
        return await self.storage.write(job)

    #: each table's columns and one row's values (seat ``{s}``), with PostgreSQL's types (see ``_write``)
    _RATINGS = (("account_id", "a{s}", "varchar"), ("game", "g", "varchar"), ("mu", "mu{s}", "float8"),
                ("sigma", "sg{s}", "float8"), ("ordinal", "o{s}", "float8"), ("games", "1", "int"),
                ("updated_at", "t", "float8"))
    _HISTORY = (("account_id", "a{s}", "varchar"), ("game", "g", "varchar"), ("match_id", "m", "varchar"),
                ("mu", "mu{s}", "float8"), ("sigma", "sg{s}", "float8"), ("at", "t", "float8"))
    _RESULTS = (("account_id", "a{s}", "varchar"), ("match_id", "m", "varchar"), ("seat", "s{s}", "int"),
                ("game", "g", "varchar"), ("result", "r{s}", "varchar"), ("rated", "rt", "boolean"),
                ("delta", "d{s}", "float8"), ("finished_at", "ft", "float8"))
    _UPSERT = (" ON CONFLICT (account_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
               "ordinal = excluded.ordinal, games = ratings.games + 1, updated_at = excluded.updated_at")
    _CAS = "UPDATE account_matches SET state = :s, done_at = :t WHERE match_id = :m AND state = 'pending'"

    async def _write(self, tx: Tx, p: dict[str, Any], rated: list[int], results: list[int]) -> bool:
        """The compare-and-set of the match's state (``False``: another process counted it first), then the ratings
        of the seats ``rated`` (an upsert), their history and the results of the seats ``results``.

        SQLite (statements cost microseconds there): one statement each. PostgreSQL: one statement in all (every
        round trip counts): the inserts are data-modifying ``WITH`` parts that take their rows only if the
        compare-and-set changed the match's row."""

        def values(cols: tuple[tuple[str, str, str], ...], seats: list[int], typed: bool) -> str:
            def one(col: tuple[str, str, str], s: int) -> str:
                v = col[1].format(s=s)
                v = v if v.isdigit() else ":" + v
                return f"CAST({v} AS {col[2]})" if typed else v

            return ", ".join("(" + ", ".join(one(c, s) for c in cols) + ")" for s in seats)

        def names(cols: tuple[tuple[str, str, str], ...]) -> str:
            return ", ".join(c[0] for c in cols)

        parts = [(t, c, seats) for t, c, seats in (("ratings", self._RATINGS, rated), ("rating_history", self._HISTORY, rated),
                                                  ("account_results", self._RESULTS, results)) if seats]
        if self.storage.dialect != "postgresql":
            if await tx.execute(self._CAS, p) != 1:
                return False
            for table, cols, seats in parts:
                await tx.execute(f"INSERT INTO {table} ({names(cols)}) VALUES {values(cols, seats, False)}"
                                 + (self._UPSERT if table == "ratings" else ""), p)
            return True
        withs = [f"cas AS ({self._CAS} RETURNING match_id)"]
        for k, (table, cols, seats) in enumerate(parts):
            withs.append(f"w{k} AS (INSERT INTO {table} ({names(cols)}) SELECT v.* FROM cas, (VALUES "
                         f"{values(cols, seats, True)}) AS v ({names(cols)})" + (self._UPSERT if table == "ratings" else "")
                         + ")")
        rows = await tx.fetch("WITH " + ", ".join(withs) + " SELECT COUNT(*) AS n FROM cas", p)
        return int(rows[0]["n"]) == 1

    # ------------------------------------------------------------------ reading
    async def profile(self, username: str) -> dict[str, Any]:
        from .service import public_account

        acc = await self.accounts.by_username(username)
        if acc is None:
            raise ServiceError(404, "no_such_player", "no such player")
        ratings = await self.accounts.read("SELECT * FROM ratings WHERE account_id = :a ORDER BY game", a=acc["id"])
        stats = await self.accounts.read(
            "SELECT game, result, COUNT(*) AS n FROM account_results WHERE account_id = :a GROUP BY game, result",
            a=acc["id"])
        per_game: dict[str, dict[str, int]] = {}
        for r in stats:
            g = per_game.setdefault(r["game"], {"played": 0, "win": 0, "loss": 0, "draw": 0})
            g[r["result"]] += int(r["n"])
            g["played"] += int(r["n"])
        by_seat = await self.accounts.read(
            "SELECT game, seat, result, COUNT(*) AS n FROM account_results WHERE account_id = :a "
            "GROUP BY game, seat, result", a=acc["id"])
        seats: dict[str, dict[int, dict[str, int]]] = {}
        for r in by_seat:
            g2 = seats.setdefault(r["game"], {}).setdefault(int(r["seat"]), {"played": 0, "win": 0, "loss": 0, "draw": 0})
            g2[r["result"]] += int(r["n"])
            g2["played"] += int(r["n"])
        return {**public_account(acc), "ratings": [rating_json(r) for r in ratings],
                "stats": [{"game": g, **v, "by_seat": [{"seat": s, **c} for s, c in sorted(seats.get(g, {}).items())]}
                          for g, v in sorted(per_game.items())]}

    async def rating_history(self, username: str, game: str) -> list[dict[str, Any]]:
        acc = await self.accounts.by_username(username)
        if acc is None:
            raise ServiceError(404, "no_such_player", "no such player")
        rows = await self.accounts.read("SELECT match_id, mu, sigma, at FROM rating_history WHERE account_id = :a "
                                        "AND game = :g ORDER BY at, id LIMIT 5000", a=acc["id"], g=game)
        return [{"match_id": r["match_id"], "mu": round(r["mu"], 3), "sigma": round(r["sigma"], 3),
                 "rating": round(ordinal(r["mu"], r["sigma"]), 3), "at": r["at"]} for r in rows]

    async def history(self, username: str, game: str | None = None, result: str | None = None,
                      opponent: str | None = None, rated: bool | None = None, offset: int = 0,
                      limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
        """One page of a player's finished matches, newest first, with every seat's name (for the page's links to
        the replays)."""
        from .names import username_key

        acc = await self.accounts.by_username(username)
        if acc is None:
            raise ServiceError(404, "no_such_player", "no such player")
        where = ["r.account_id = :a"]
        params: dict[str, Any] = {"a": acc["id"], "n": limit + 1, "o": offset}
        if game:
            where.append("r.game = :g")
            params["g"] = game
        if result:
            if result not in ("win", "loss", "draw"):
                raise ServiceError(422, "bad_request", "result is win, loss or draw")
            where.append("r.result = :res")
            params["res"] = result
        if rated is not None:
            where.append("r.rated = :rt")
            params["rt"] = rated
        if opponent:
            where.append("EXISTS (SELECT 1 FROM account_seats s2 JOIN accounts a2 ON a2.id = s2.account_id "
                         "JOIN seats t2 ON t2.match_id = s2.match_id AND t2.seat = s2.seat AND t2.token_hash = s2.token_hash "
                         "WHERE s2.match_id = r.match_id AND a2.username_key = :opp AND a2.id != r.account_id)")
            params["opp"] = username_key(opponent)
        rows = await self.accounts.read(
            "SELECT r.match_id, r.seat, r.game, r.result, r.rated, r.delta, r.finished_at, m.name, m.outcome "
            f"FROM account_results r JOIN matches m ON m.id = r.match_id WHERE {' AND '.join(where)} "
            "ORDER BY r.finished_at DESC, r.match_id LIMIT :n OFFSET :o", **params)
        more = len(rows) > limit
        rows = rows[:limit]
        players = await self.players_of([r["match_id"] for r in rows])
        from ..learn.store import learn_store

        hints = await learn_store(self.accounts.storage).hints_of([r["match_id"] for r in rows])
        out = []
        for r in rows:
            outcome = json.loads(r["outcome"]) if r["outcome"] else {}
            out.append({"match_id": r["match_id"], "seat": r["seat"], "game": r["game"], "name": r["name"],
                        "result": r["result"], "rated": bool(r["rated"]),
                        "rating_change": round(r["delta"], 3) if r["delta"] is not None else None,
                        "finished_at": r["finished_at"], "kind": outcome.get("kind"),
                        "players": players.get(r["match_id"], []), "replay": f"/replay/{r['match_id']}",
                        "hints": hints.get(r["match_id"], {}).get(r["seat"], 0)})
        return out, more

    async def players_of(self, match_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        if not match_ids:
            return {}
        names = {f"m{i}": m for i, m in enumerate(match_ids)}
        marks = ", ".join(f":{k}" for k in names)
        rows = await self.accounts.read(
            "SELECT s.match_id, s.seat, s.kind, s.name, a.username FROM seats s LEFT JOIN account_seats b "
            "ON b.match_id = s.match_id AND b.seat = s.seat AND b.token_hash = s.token_hash "
            "LEFT JOIN accounts a ON a.id = b.account_id "
            f"WHERE s.match_id IN ({marks}) ORDER BY s.match_id, s.seat", **names)
        out: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            out.setdefault(r["match_id"], []).append({"seat": r["seat"], "kind": r["kind"], "name": r["name"],
                                                      "username": r["username"]})
        return out

    async def leaderboard(self, game: str, offset: int = 0, limit: int = 50,
                          provisional: bool = False) -> tuple[list[dict[str, Any]], bool]:
        """One page of a game's leaderboard, best conservative rating first (provisional ratings left out unless
        asked for)."""
        # ``games >= 10`` written as a literal, so that the partial index ix_ratings_settled serves the page
        cond = "" if provisional else f" AND r.games >= {int(PROVISIONAL_GAMES)}"
        rows = await self.accounts.read(
            "SELECT r.*, a.username, a.display_name FROM ratings r JOIN accounts a ON a.id = r.account_id "
            f"WHERE r.game = :g{cond} ORDER BY r.ordinal DESC, r.account_id DESC LIMIT :n OFFSET :o",
            g=game, n=limit + 1, o=offset)
        more = len(rows) > limit
        return [{"rank": offset + i + 1, "username": r["username"], "display_name": r["display_name"], **rating_json(r)}
                for i, r in enumerate(rows[:limit])], more

    async def export(self, account_id: str) -> dict[str, Any]:
        """Everything stored about an account (its download), secrets left out (hashes, the TOTP secret)."""
        acc = await self.accounts.account(account_id)
        if acc is None:
            raise ServiceError(401, "signed_out", "sign in first")
        a = {"id": acc["id"], "username": acc["username"], "display_name": acc["display_name"], "email": acc["email"],
             "email_verified": bool(acc["email_verified"]), "has_password": acc["password_hash"] is not None,
             "totp": acc["totp_secret"] is not None, "lang": acc["lang"], "created_at": acc["created_at"],
             "invisible": bool(acc.get("invisible")), "last_seen": acc.get("last_seen")}
        read = self.accounts.read
        return {
            "format": "spacetable-account/1", "exported_at": time.time(), "account": a,
            "sessions": await read("SELECT created_at, seen_at, expires_at, user_agent, address FROM account_sessions "
                                   "WHERE account_id = :a ORDER BY created_at", a=account_id),
            "passkeys": await read("SELECT id, sign_count, created_at, used_at FROM passkeys WHERE account_id = :a",
                                   a=account_id),
            "seats": await read("SELECT match_id, seat, created_at FROM account_seats WHERE account_id = :a "
                                "ORDER BY created_at", a=account_id),
            "results": await read("SELECT match_id, seat, game, result, rated, delta, finished_at FROM account_results "
                                  "WHERE account_id = :a ORDER BY finished_at", a=account_id),
            "ratings": await read("SELECT game, mu, sigma, ordinal, games, updated_at FROM ratings WHERE account_id = :a",
                                  a=account_id),
            "rating_history": await read("SELECT game, match_id, mu, sigma, at FROM rating_history WHERE account_id = :a "
                                         "ORDER BY at, id", a=account_id),
            "seeks": await read("SELECT id, game, config, rated, turn_seconds, min_rating, max_rating, status, match_id, "
                                "seat, created_at FROM seeks WHERE account_id = :a ORDER BY created_at", a=account_id),
            "tutorials": await read("SELECT game, step, done, updated_at FROM tutorial_progress WHERE account_id = :a "
                                    "ORDER BY game", a=account_id),
        }
