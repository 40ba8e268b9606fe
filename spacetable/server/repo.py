"""The play server's queries (SRV-P1, SRV-P2, SRV-X1, SRV-X3), written once for SQLite and PostgreSQL.

Every function takes a :class:`~.storage.Tx` (``:name`` parameters). A match is stored as its config, its
seed and its action log (one row per action); the match row also keeps what the lobby lists without
loading the match (status, version, seats to act, outcome, clock) and what several processes need to share
it: ``revision`` (every change is a compare-and-set on it: :func:`change`, :func:`truncate`, and the
appends of ``storage.py``), ``epoch`` (undos), ``owner`` and ``wake_at`` (who runs its AI seats and clock,
and when). ``servers`` holds the heartbeats of the running processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .db import MatchRow, SeatRow
from .storage import Tx

MATCH_COLUMNS = tuple(c.name for c in MatchRow.__table__.columns)
SEAT_COLUMNS = tuple(c.name for c in SeatRow.__table__.columns)
Row = dict[str, Any]


def _in(name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """``(:name_0, :name_1, ...)`` and its parameters (``(NULL)`` when empty: matches nothing)."""
    if not values:
        return "(NULL)", {}
    params = {f"{name}_{i}": v for i, v in enumerate(values)}
    return "(" + ", ".join(f":{k}" for k in params) + ")", params


def _insert(table: str, columns: Iterable[str]) -> str:
    cols = list(columns)
    return f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})"


# -------------------------------------------------------------------------------------------- matches
async def insert_match(tx: Tx, row: Row, seats: list[Row]) -> None:
    await tx.execute(_insert("matches", row), row)
    for seat in seats:
        await tx.execute(_insert("seats", seat), seat)


async def match_rows(tx: Tx, ids: Sequence[str]) -> dict[str, tuple[Row, list[Row]]]:
    """``{id: (match row, [seat rows in seat order])}`` of the given matches."""
    if not ids:
        return {}
    clause, params = _in("id", ids)
    rows = await tx.fetch(f"SELECT * FROM matches WHERE id IN {clause}", params)
    out: dict[str, tuple[Row, list[Row]]] = {r["id"]: (r, []) for r in rows}
    for s in await tx.fetch(f"SELECT * FROM seats WHERE match_id IN {clause} ORDER BY match_id, seat", params):
        out[s["match_id"]][1].append(s)
    return out


async def actions_from(tx: Tx, match_id: str, start: int = 0) -> list[Row]:
    """The logged actions of a match from index ``start`` on, in order."""
    return await tx.fetch("SELECT idx, seat, action, source, created_at FROM actions WHERE match_id = :m AND idx >= :i "
                          "ORDER BY idx",
                          {"m": match_id, "i": start})


async def load(tx: Tx, match_id: str, start: int = 0) -> tuple[Row, list[Row], list[Row]] | None:
    """The match row, its seats and its actions from ``start`` on; ``None`` if there is no such match."""
    found = (await match_rows(tx, [match_id])).get(match_id)
    if found is None:
        return None
    return found[0], found[1], await actions_from(tx, match_id, start)


async def revisions(tx: Tx, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """``{id: (revision, epoch)}``: cheap check of which in-memory copies are behind (SRV-X2)."""
    if not ids:
        return {}
    clause, params = _in("id", ids)
    return {r["id"]: (r["revision"], r["epoch"])
            for r in await tx.fetch(f"SELECT id, revision, epoch FROM matches WHERE id IN {clause}", params)}


async def lobby_page(tx: Tx, status: str | None, game: str | None, offset: int, limit: int
                     ) -> tuple[list[tuple[Row, list[Row]]], bool]:
    """One page of the lobby, most recently updated first; and whether more follow."""
    where, params = [], {"n": limit + 1, "o": offset}
    if status is not None:
        where.append("status = :status")
        params["status"] = status
    if game is not None:
        where.append("game = :game")
        params["game"] = game
    sql = "SELECT id FROM matches" + (" WHERE " + " AND ".join(where) if where else "")
    ids = [r["id"] for r in await tx.fetch(sql + " ORDER BY updated_at DESC, id LIMIT :n OFFSET :o", params)]
    more = len(ids) > limit
    ids = ids[:limit]
    found = await match_rows(tx, ids)
    return [found[i] for i in ids if i in found], more


async def change(tx: Tx, match_id: str, revision: int, fields: Row, seat: tuple[int, Row] | None = None) -> bool:
    """SRV-X1: store a change of a match (not an action) if it is still at ``revision``: the match row's ``fields``
    and, optionally, one seat's row; the revision becomes ``revision + 1``. ``False``: changed by another process."""
    sets = ", ".join(f"{c} = :f_{c}" for c in fields)
    params = {"m": match_id, "r": revision, "r1": revision + 1, **{f"f_{c}": v for c, v in fields.items()}}
    if not await tx.execute(f"UPDATE matches SET revision = :r1{', ' + sets if sets else ''} WHERE id = :m AND revision = :r",
                            params):
        return False
    if seat is not None:
        index, values = seat
        sets = ", ".join(f"{c} = :s_{c}" for c in values)
        await tx.execute(f"UPDATE seats SET {sets} WHERE match_id = :m AND seat = :seat",
                         {"m": match_id, "seat": index, **{f"s_{c}": v for c, v in values.items()}})
    return True


async def truncate(tx: Tx, match_id: str, revision: int, upto: int, fields: Row) -> bool:
    """SRV-U4, SRV-X1: an undo: drop the actions from ``upto`` on, the version becomes ``upto``, the epoch and the
    revision go up by one; only if the match is still at ``revision``."""
    if not await change(tx, match_id, revision, {**fields, "version": upto}):
        return False
    await tx.execute("UPDATE matches SET epoch = epoch + 1 WHERE id = :m", {"m": match_id})
    await tx.execute("DELETE FROM actions WHERE match_id = :m AND idx >= :i", {"m": match_id, "i": upto})
    return True


async def mark_broken(tx: Tx, match_id: str, reason: str | None) -> None:
    await tx.execute("UPDATE matches SET broken = :b WHERE id = :m", {"b": reason, "m": match_id})


async def set_wake(tx: Tx, match_id: str, revision: int, wake_at: float | None, owner: str) -> bool:
    """Correct the wake time of a match at ``revision`` (and take it over) without changing the match."""
    return bool(await tx.execute("UPDATE matches SET wake_at = :w, owner = :o WHERE id = :m AND revision = :r",
                                 {"w": wake_at, "o": owner, "m": match_id, "r": revision}))


# --------------------------------------------------------------------------------- servers and leases
async def heartbeat(tx: Tx, server_id: str, host: str, pid: int, started_at: float, now: float) -> None:
    """SRV-X3: this process is alive at ``now``."""
    if not await tx.execute("UPDATE servers SET seen_at = :t WHERE id = :id", {"t": now, "id": server_id}):
        await tx.execute(_insert("servers", ("id", "host", "pid", "started_at", "seen_at")),
                         {"id": server_id, "host": host, "pid": pid, "started_at": started_at, "seen_at": now})


async def servers(tx: Tx) -> list[Row]:
    return await tx.fetch("SELECT id, host, pid, started_at, seen_at FROM servers ORDER BY started_at")


async def drop_servers(tx: Tx, ids: Sequence[str]) -> None:
    """Forget processes known to be gone (their matches are then taken over at once)."""
    if ids:
        clause, params = _in("id", ids)
        await tx.execute(f"DELETE FROM servers WHERE id IN {clause}", params)


async def drop_silent_servers(tx: Tx, before: float) -> int:
    """Forget the heartbeats of processes silent since ``before`` (their matches are taken over anyway)."""
    return await tx.execute("DELETE FROM servers WHERE seen_at < :t", {"t": before})


async def orphans(tx: Tx, horizon: float, alive: Sequence[str], limit: int) -> list[Row]:
    """SRV-X3: matches whose wake time comes before ``horizon`` and whose owner is not among the ``alive``
    processes (it died, or there was none): earliest first."""
    clause, params = _in("a", alive)
    owner = f"(owner IS NULL OR owner NOT IN {clause})" if alive else "1 = 1"
    return await tx.fetch(f"SELECT id, revision, owner, wake_at FROM matches WHERE wake_at IS NOT NULL AND wake_at <= :h "
                          f"AND {owner} ORDER BY wake_at LIMIT :n", {"h": horizon, "n": limit, **params})


async def claim(tx: Tx, match_id: str, revision: int, old_owner: str | None, me: str) -> bool:
    """Take over a match's AI seats and clock from ``old_owner`` (gone), if nothing changed meanwhile."""
    same = "owner IS NULL" if old_owner is None else "owner = :old"
    return bool(await tx.execute(f"UPDATE matches SET owner = :me WHERE id = :m AND revision = :r AND {same}",
                                 {"me": me, "m": match_id, "r": revision, "old": old_owner}))
