"""The lobby (SRV-S1, SRV-P4, SRV-X4): creating matches, lobby pages and summaries.

A creation is checked whole before anything is stored (config, seats, seed, AI agents) and stored in one
transaction. Lobby pages and summaries of matches out of memory come from the database rows, so the lobby is
the same from every process; a match in memory and up to date is summarised from memory.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Any

from spacetable.core.errors import ConfigError
from spacetable.games import UnknownGame, get_game

from . import repo
from .ai import agent_registry
from .ailoop import AiSeats
from .changes import Changes, seat_fields
from .clocks import time_control
from .db import dumps
from .errors import ServiceError
from .limits import Limits
from .live import LiveMatch, Seat, hash_token, public_config
from .registry import Registry

log = logging.getLogger("spacetable.server")


class Lobby:
    """Creation of matches (into the registry, through the storage) and the lobby's pages."""

    def __init__(self, registry: Registry, changes: Changes, limits: Limits, ai_seats: AiSeats) -> None:
        self.registry = registry
        self.changes = changes
        self.storage = changes.storage
        self.limits = limits
        self.ai_seats = ai_seats
        #: the absent players' policies (``absence.Lapses``, issue 21); set by the app, none without accounts
        self.lapses: Any = None

    async def create(
        self,
        game_id: str,
        config: dict[str, Any] | None,
        seed: int | None = None,
        name: str = "",
        ai_seats: dict[int, str | None] | None = None,
        ai_seconds: float = 1.0,
        turn_seconds: float | None = None,
        open_seed: bool = False,
        join_seat: int | None = None,
        player_name: str = "",
        client: str | None = None,
        *,
        clock: dict[str, Any] | None = None,
        lapse: str | None = None,
        lapse_agent: str | None = None,
    ) -> tuple[LiveMatch, str | None]:
        """Create a match (and take ``join_seat`` at once): everything is checked first and the match, its seats
        and the joined seat are stored in one transaction, so a refused request stores nothing. ``client``: the
        creator's address, which a computer-only match counts for (bounds and fair AI time, SRV-AI5)."""
        try:
            game = get_game(game_id)
        except UnknownGame:
            raise ServiceError(404, "unknown_game", f"unknown game {game_id!r}") from None
        size = len(dumps(config or {}).encode("utf-8", "surrogatepass"))
        if size > self.limits.max_config:
            raise ServiceError(413, "too_large",
                               f"the config is {size} bytes; at most {self.limits.max_config} are accepted")
        try:
            cfg = game.normalize_config(config)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from None
        if not 0.01 <= ai_seconds <= 120:
            raise ServiceError(422, "bad_config", "ai_seconds must be in 0.01..120")
        if turn_seconds is not None and not 1 <= turn_seconds <= 30 * 86400:
            raise ServiceError(422, "bad_config", "turn_seconds must be in 1..2592000 (30 days)")
        clock_kind, turn_seconds, increment = time_control(clock, turn_seconds)
        lapses = self.lapses  # the absent players' policies (server/absence)
        policy = lapses.check(game, lapse, lapse_agent, turn_seconds) if lapse is not None and lapses else None
        if seed is not None and not open_seed:
            raise ServiceError(422, "bad_config", "a chosen seed needs \"open_seed\": true: every seat then sees it "
                               "before joining (SRV-S1)")
        if seed is None:
            seed = secrets.randbits(62)
        if not 0 <= seed < 2**63:
            raise ServiceError(422, "bad_config", "seed must be in 0..2**63-1")
        n = game.num_players(cfg)
        seats = [Seat() for _ in range(n)]
        agents, default = agent_registry(game) if ai_seats else ({}, "")
        for seat, agent in (ai_seats or {}).items():
            if not 0 <= seat < n:
                raise ServiceError(422, "bad_config", f"AI seat {seat} out of range 0..{n - 1}")
            if agent is not None and agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
            seats[seat] = Seat(kind="ai", name=f"AI ({agent or default})", agent=agent or default)
        token = None
        if join_seat is not None:
            if not 0 <= join_seat < n:
                raise ServiceError(422, "bad_config", f"join_seat {join_seat} out of range 0..{n - 1}")
            if seats[join_seat].kind != "open":
                raise ServiceError(422, "bad_config", f"join_seat {join_seat} is an AI seat")
            token = secrets.token_urlsafe(18)
            seats[join_seat] = Seat("human", (player_name or f"Player {join_seat + 1}")[:100], hash_token(token), None)
        self.ai_seats.check_ai_only(seats, ai_seconds, client)
        try:
            state = game.initial_state(cfg, seed)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from None
        t = time.time()
        m = LiveMatch(
            id=secrets.token_hex(8), game=game, name=name[:200], config=cfg, seed=seed, status="open", ai_seconds=ai_seconds,
            turn_seconds=turn_seconds, turn_started_at=None, created_at=t, updated_at=t, seats=seats, state=state,
            open_seed=open_seed, owner=self.changes.server_id, clock_kind=clock_kind, clock_increment=increment,
        )
        self.maybe_start(m)
        row = {
            "id": m.id, "game": game.id, "name": m.name, "config": dumps(m.config), "seed": m.seed, "version": 0,
            "ai_seconds": m.ai_seconds, "turn_seconds": m.turn_seconds, "created_at": m.created_at,
            "open_seed": m.open_seed, "broken": None, "revision": 0, "epoch": 0, **self.changes.match_fields(m),
            "clock_kind": clock_kind, "clock_increment": increment if clock_kind == "increment" else None,
        }
        seat_rows = [{"match_id": m.id, "seat": i, **seat_fields(s)} for i, s in enumerate(m.seats)]
        await self.changes.fanout.watch(m.id)
        try:
            async def job(tx: Any) -> None:
                await repo.insert_match(tx, row, seat_rows)
                if policy is not None:  # the lapse policy chosen at creation, in the same transaction
                    await lapses.insert(tx, m.id, *policy)

            await self.storage.write(job)
        except Exception as exc:
            self.changes.fanout.unwatch(m.id)
            log.exception("storing a new match failed")
            raise ServiceError(503, "storage_error", "the match could not be stored; nothing was created") from exc
        self.registry.matches[m.id] = m
        self.ai_seats.remember(m.id, client)
        self.registry.evict_over_cap()
        log.info("match created", extra={"match": m.id, "game": game.id})
        self.changes.after_change(m)
        return m, token

    @staticmethod
    def maybe_start(m: LiveMatch) -> bool:
        if m.status == "open" and all(s.kind != "open" for s in m.seats):
            m.status = "running"
            m.turn_started_at = m.started_at = time.time()
            out = m.game.outcome(m.state)
            if out is not None:
                m.status, m.outcome = "finished", out.to_json()
            return True
        return False

    async def summary(self, match_id: str) -> dict[str, Any]:
        """A match's summary; a broken match's comes from its stored row, with the reason (SRV-P4)."""
        try:
            return (await self.registry.get(match_id)).summary()
        except ServiceError as exc:
            if exc.code != "broken":
                raise
        found = (await self.storage.read(lambda tx: repo.match_rows(tx, [match_id]))).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        return self.row_summary(*found)

    def row_summary(self, row: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
        """A summary built from stored rows (lobby pages, broken matches), the same fields as ``LiveMatch.summary``."""
        try:
            game_name = get_game(row["game"]).name
        except UnknownGame:
            game_name = row["game"]
        status = row["status"]
        deadline = None
        if status == "running" and row["turn_seconds"] and row["turn_started_at"] is not None \
                and row.get("clock_kind") != "increment":  # a bank's deadline needs the log: the wake time instead
            deadline = row["turn_started_at"] + row["turn_seconds"]
        elif status == "running" and row.get("clock_kind") == "increment":
            deadline = row.get("wake_at")
        return {
            "id": row["id"], "game": row["game"], "game_name": game_name, "name": row["name"],
            "config": public_config(json.loads(row["config"])), "status": status, "version": row["version"],
            "players": len(seats), "seats": [Seat(s["kind"], s["name"], None, s["agent"]).public(s["seat"]) for s in seats],
            "to_act": json.loads(row["to_act"]) if row["to_act"] and status == "running" else [],
            "outcome": json.loads(row["outcome"]) if row["outcome"] else None,
            "ai_seconds": row["ai_seconds"], "turn_seconds": row["turn_seconds"], "deadline": deadline,
            "clock": {"kind": row.get("clock_kind") or ("move" if row["turn_seconds"] else "none"),
                      "increment": row.get("clock_increment") or 0.0},
            "turn_started_at": row["turn_started_at"] if status == "running" else None,
            "undo_request": json.loads(row["undo_request"]) if row["undo_request"] else None,
            "created_at": row["created_at"], "updated_at": row["updated_at"], "open_seed": bool(row["open_seed"]),
            "seed": row["seed"] if row["open_seed"] or status == "finished" else None,
            "broken": self.registry.broken.get(row["id"], row["broken"]),
        }

    async def full_config(self, match_id: str) -> dict[str, Any]:
        """The whole stored config (player content included) of a match, loaded or not."""
        m = self.registry.matches.get(match_id)
        if m is not None:
            return m.config
        found = (await self.storage.read(lambda tx: repo.match_rows(tx, [match_id]))).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        config: dict[str, Any] = json.loads(found[0]["config"])
        return config

    async def page(self, status: str | None = None, game: str | None = None, offset: int = 0,
                    limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
        """One page of the lobby from the database (loaded or not), most recent first; and whether more follow. A
        match in memory and up to date is summarised from memory; the page is the same from every process."""
        page, more = await self.storage.read(lambda tx: repo.lobby_page(tx, status, game, offset, limit))
        out = []
        for row, seats in page:
            m = self.registry.matches.get(row["id"])
            out.append(m.summary() if m is not None and m.revision == row["revision"] else self.row_summary(row, seats))
        return out, more
