"""The learning features' rows (``models.py``) through the server's storage drivers (``storage.py``: SQLite on the
event loop, PostgreSQL through its pool), so that they live in the match database and survive a restart.

* Analyses are a bounded cache: a result larger than :data:`MAX_RESULT_CHARS` is not stored (it stays in the
  process's memory only), rows older than :data:`KEEP_DAYS` go, and at most :data:`MAX_ROWS` are kept (the
  oldest go first). A stored analysis is of one exact log (the match's version) and one set of settings.
* Hint counts: one row per match and seat that asked, bumped in one statement (several processes may serve the
  match's seats).
* Tutorial progress: one row per account and game; the furthest step is kept (a replayed tutorial never moves it
  back) and "done" stays done.
"""

from __future__ import annotations

import json
import time
import weakref
from typing import Any

from ..storage import Storage, Tx

MAX_ROWS = 500
KEEP_DAYS = 180
MAX_RESULT_CHARS = 8_000_000

_stores: weakref.WeakKeyDictionary[Storage, LearnStore] = weakref.WeakKeyDictionary()


def learn_store(storage: Storage) -> LearnStore:
    """The store over ``storage`` (one per storage, made on first use)."""
    store = _stores.get(storage)
    if store is None:
        store = _stores[storage] = LearnStore(storage)
    return store


class LearnStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------------------------------ analyses
    async def analysis(self, match_id: str, version: int, settings: str) -> dict[str, Any] | None:
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch("SELECT result FROM analyses WHERE match_id = :m AND version = :v AND settings = :s",
                                  {"m": match_id, "v": version, "s": settings})

        rows = await self.storage.read(job)
        if not rows:
            return None
        data: dict[str, Any] = json.loads(rows[0]["result"])
        return data

    async def keep_analysis(self, match_id: str, version: int, settings: str, result: dict[str, Any],
                            now: float | None = None) -> bool:
        """Store a finished analysis (``False``: too large to keep, nothing stored); prunes the cache."""
        text = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
        if len(text) > MAX_RESULT_CHARS:
            return False
        now = time.time() if now is None else now

        async def job(tx: Tx) -> None:
            await tx.execute("INSERT INTO analyses (match_id, version, settings, result, created_at) "
                             "VALUES (:m, :v, :s, :r, :t) ON CONFLICT (match_id, version, settings) DO UPDATE SET "
                             "result = :r, created_at = :t",
                             {"m": match_id, "v": version, "s": settings, "r": text, "t": now})
            await tx.execute("DELETE FROM analyses WHERE created_at < :old", {"old": now - KEEP_DAYS * 86400})
            rows = await tx.fetch("SELECT created_at FROM analyses ORDER BY created_at DESC LIMIT 1 OFFSET :n",
                                  {"n": MAX_ROWS - 1})
            if rows:  # more than MAX_ROWS: the oldest go
                await tx.execute("DELETE FROM analyses WHERE created_at < :c", {"c": rows[0]["created_at"]})

        await self.storage.write(job)
        return True

    async def analyses_kept(self) -> int:
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch("SELECT COUNT(*) AS n FROM analyses")

        return int((await self.storage.read(job))[0]["n"])

    # --------------------------------------------------------------------------------------------- hints
    async def add_hint(self, match_id: str, seat: int) -> int:
        """Count one more hint for ``seat``; the seat's count now."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            await tx.execute("INSERT INTO hint_counts (match_id, seat, count) VALUES (:m, :s, 1) "
                             "ON CONFLICT (match_id, seat) DO UPDATE SET count = hint_counts.count + 1",
                             {"m": match_id, "s": seat})
            return await tx.fetch("SELECT count FROM hint_counts WHERE match_id = :m AND seat = :s",
                                  {"m": match_id, "s": seat})

        return int((await self.storage.write(job))[0]["count"])

    async def hints(self, match_id: str) -> dict[int, int]:
        """Hints used per seat in a match (seats that used none are absent)."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch("SELECT seat, count FROM hint_counts WHERE match_id = :m ORDER BY seat",
                                  {"m": match_id})

        return {int(r["seat"]): int(r["count"]) for r in await self.storage.read(job)}

    async def hints_of(self, match_ids: list[str]) -> dict[str, dict[int, int]]:
        """Hints used per seat of several matches (a history page)."""
        if not match_ids:
            return {}
        names = {f"m{i}": m for i, m in enumerate(match_ids)}
        marks = ", ".join(f":{k}" for k in names)

        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch(f"SELECT match_id, seat, count FROM hint_counts WHERE match_id IN ({marks})", names)

        out: dict[str, dict[int, int]] = {}
        for r in await self.storage.read(job):
            out.setdefault(r["match_id"], {})[int(r["seat"])] = int(r["count"])
        return out

    # ---------------------------------------------------------------------------------------- tutorials
    async def tutorials(self, account_id: str) -> dict[str, dict[str, Any]]:
        """An account's tutorial progress per game: ``{game: {"step": n, "done": bool}}``."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch("SELECT game, step, done FROM tutorial_progress WHERE account_id = :a ORDER BY game",
                                  {"a": account_id})

        return {r["game"]: {"step": int(r["step"]), "done": bool(r["done"])} for r in await self.storage.read(job)}

    async def save_tutorial(self, account_id: str, game: str, step: int, done: bool) -> dict[str, Any]:
        """Record progress (the furthest step, done once done); the game's progress now."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            params = {"a": account_id, "g": game, "s": step, "d": done, "t": time.time()}
            await tx.execute("INSERT INTO tutorial_progress (account_id, game, step, done, updated_at) "
                             "VALUES (:a, :g, :s, :d, :t) ON CONFLICT (account_id, game) DO UPDATE SET "
                             "step = CASE WHEN tutorial_progress.step < :s THEN :s ELSE tutorial_progress.step END, "
                             "done = (tutorial_progress.done OR :d), updated_at = :t", params)
            rows = await tx.fetch("SELECT step, done FROM tutorial_progress WHERE account_id = :a AND game = :g",
                                  {"a": account_id, "g": game})
            return [{"step": int(rows[0]["step"]), "done": bool(rows[0]["done"])}]

        return (await self.storage.write(job))[0]
