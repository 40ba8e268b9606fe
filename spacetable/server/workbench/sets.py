"""Content sets stored per account (table ``workbench_sets``): create, list, read, change, delete.

The store checks ownership and visibility (a private set is "not found" to anybody but its owner) and bounds what
an account may keep (:data:`MAX_SETS`); the routes validate the content before it gets here. Content is kept as its
canonical JSON text.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from ..errors import ServiceError
from ..storage import Storage, Tx

#: sets an account may keep (of all kinds together)
MAX_SETS = 200
#: rows a listing returns at most
MAX_LISTED = 500
_SUMMARY = ("s.id, s.game, s.kind, s.name, s.public, s.size, s.created_at, s.updated_at, s.account_id, "
            "a.username, a.display_name")


def _summary(row: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    return {"id": row["id"], "game": row["game"], "kind": row["kind"], "key": f"{row['game']}/{row['kind']}",
            "name": row["name"], "public": bool(row["public"]), "size": int(row["size"]),
            "created_at": row["created_at"], "updated_at": row["updated_at"],
            "owner": {"username": row["username"], "display_name": row["display_name"]},
            "mine": viewer is not None and row["account_id"] == viewer}


def not_found() -> ServiceError:
    return ServiceError(404, "no_such_set", "no such set")


class SetStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def create(self, account_id: str, game: str, kind: str, name: str, content: str, public: bool) -> str:
        set_id = secrets.token_hex(8)
        now = time.time()

        async def job(tx: Tx) -> None:
            have = await tx.fetch("SELECT COUNT(*) AS n FROM workbench_sets WHERE account_id = :a", {"a": account_id})
            if int(have[0]["n"]) >= MAX_SETS:
                raise ServiceError(409, "too_many_sets", f"an account keeps at most {MAX_SETS} sets; delete one first")
            await self._name_free(tx, account_id, game, kind, name, None)
            await tx.execute("INSERT INTO workbench_sets (id, account_id, game, kind, name, content, size, public, "
                             "created_at, updated_at) VALUES (:id, :a, :g, :k, :n, :c, :s, :p, :t, :t)",
                             {"id": set_id, "a": account_id, "g": game, "k": kind, "n": name, "c": content,
                              "s": len(content.encode("utf-8")), "p": public, "t": now})

        await self.storage.write(job)
        return set_id

    @staticmethod
    async def _name_free(tx: Tx, account_id: str, game: str, kind: str, name: str, other_than: str | None) -> None:
        rows = await tx.fetch("SELECT id FROM workbench_sets WHERE account_id = :a AND game = :g AND kind = :k "
                              "AND name = :n", {"a": account_id, "g": game, "k": kind, "n": name})
        if any(r["id"] != other_than for r in rows):
            raise ServiceError(409, "name_taken", f"you already have a set named {name!r} of this kind")

    async def listing(self, viewer: str | None, game: str | None = None, kind: str | None = None,
                      owner: str | None = None, public_only: bool = False) -> list[dict[str, Any]]:
        """The sets ``viewer`` may see (theirs and the public ones), newest first; filtered by game, kind, owner."""
        where = ["(s.public = :t OR s.account_id = :v)"] if not public_only else ["s.public = :t"]
        params: dict[str, Any] = {"t": True, "v": viewer or "", "lim": MAX_LISTED}
        for col, value in (("game", game), ("kind", kind), ("account_id", owner)):
            if value is not None:
                where.append(f"s.{col} = :{col}")
                params[col] = value

        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch(f"SELECT {_SUMMARY} FROM workbench_sets s JOIN accounts a ON a.id = s.account_id "
                                  f"WHERE {' AND '.join(where)} ORDER BY s.updated_at DESC, s.id LIMIT :lim", params)

        return [_summary(r, viewer) for r in await self.storage.read(job)]

    async def owned(self, account_id: str) -> list[dict[str, Any]]:
        """Every set of an account with its content (the account's data export)."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch("SELECT id, game, kind, name, public, content, created_at, updated_at FROM "
                                  "workbench_sets WHERE account_id = :a ORDER BY created_at, id", {"a": account_id})

        return [{**r, "public": bool(r["public"]), "content": json.loads(r["content"])}
                for r in await self.storage.read(job)]

    async def get(self, set_id: str, viewer: str | None) -> dict[str, Any]:
        """A set with its content; 404 when there is none or it is private and not ``viewer``'s."""
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch(f"SELECT {_SUMMARY}, s.content FROM workbench_sets s JOIN accounts a "
                                  "ON a.id = s.account_id WHERE s.id = :i", {"i": set_id})

        rows = await self.storage.read(job)
        if not rows or not (rows[0]["public"] or rows[0]["account_id"] == viewer):
            raise not_found()
        return {**_summary(rows[0], viewer), "content": json.loads(rows[0]["content"])}

    async def update(self, set_id: str, owner: str, name: str | None, content: str | None,
                     public: bool | None) -> None:
        async def job(tx: Tx) -> None:
            rows = await tx.fetch("SELECT * FROM workbench_sets WHERE id = :i", {"i": set_id})
            if not rows or rows[0]["account_id"] != owner:
                raise not_found()
            row = rows[0]
            if name is not None:
                await self._name_free(tx, owner, row["game"], row["kind"], name, set_id)
            await tx.execute("UPDATE workbench_sets SET name = :n, content = :c, size = :s, public = :p, "
                             "updated_at = :t WHERE id = :i",
                             {"n": row["name"] if name is None else name,
                              "c": row["content"] if content is None else content,
                              "s": row["size"] if content is None else len(content.encode("utf-8")),
                              "p": row["public"] if public is None else public, "t": time.time(), "i": set_id})

        await self.storage.write(job)

    async def delete(self, set_id: str, owner: str) -> None:
        async def job(tx: Tx) -> int:
            return await tx.execute("DELETE FROM workbench_sets WHERE id = :i AND account_id = :a",
                                    {"i": set_id, "a": owner})

        if not await self.storage.write(job):
            raise not_found()
