"""Who runs a match's AI seats and clock when several processes share the database (SRV-X3).

The process that commits a change of a match becomes its *owner* (``matches.owner``, stored with the change):
it holds the match in memory at that moment, so it is the one that runs the AI seat to move next and the
clock, and no other process does. Each process writes a heartbeat (``servers.seen_at``) every quarter of
the lease; an owner whose heartbeat is older than the lease (``--lease-seconds``) is gone, and the first
process whose periodic scan finds one of its matches due (``matches.wake_at``) takes it over with a
compare-and-set on the owner and the revision, loads it and runs what is due. A process that stops cleanly
deletes its heartbeat, so its matches are taken over at once; a process that finds the heartbeat of a
dead process of its own host (same PID namespace, no such process any more: a restart after ``kill -9``)
deletes it too. The same scan loads, in the owner, a match whose clock comes due while it is out of memory, and
when a process disappears the others check the matches they hold against the database at once (its last
changes may not have been announced).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from pathlib import Path

from . import repo
from .catchup import Catchup
from .tasks import stop_tasks

log = logging.getLogger("spacetable.server")


def host_key() -> str:
    """Host name, PID namespace and boot: two processes with the same key can see each other's PIDs."""
    parts = [socket.gethostname()[:100]]
    with contextlib.suppress(OSError):
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    with contextlib.suppress(OSError):
        parts.append(Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:36])
    return "|".join(parts)[:200]


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def new_server_id() -> str:
    return f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(4)}"


class Leases:
    def __init__(self, catchup: Catchup, lease_seconds: float = 10.0) -> None:
        self.catchup = catchup
        self.storage = catchup.storage
        self.server_id = catchup.changes.server_id
        self.matches = catchup.registry.matches
        self.lease = lease_seconds
        self.host = host_key()
        self.pid = os.getpid()
        self.started_at = time.time()
        self._task: asyncio.Task[None] | None = None
        #: matches taken over from a gone process (``/health``, tests)
        self.taken_over = 0
        self._others: set[str] = set()

    @property
    def interval(self) -> float:
        return max(0.05, self.lease / 4)

    async def start(self) -> None:
        await self.beat()
        await self.forget_dead_neighbours()
        await self.scan()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="spacetable-leases")

    async def stop(self) -> None:
        if self._task is not None:
            await stop_tasks([self._task], "lease tasks")
            self._task = None
        with contextlib.suppress(Exception):  # a clean stop frees this process's matches at once
            await self.storage.write(lambda tx: repo.drop_servers(tx, [self.server_id]))

    async def _run(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.beat()
                await self.scan()
                beats += 1
                if beats % 1000 == 0:  # now and then: heartbeats of processes gone for an hour or more
                    before = time.time() - max(3600.0, 10 * self.lease)
                    await self.storage.write(lambda tx, t=before: repo.drop_silent_servers(tx, t))
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a while; try again at the next interval
                log.warning("heartbeat or scan failed", exc_info=True)

    async def beat(self) -> None:
        me = self.server_id
        await self.storage.write(lambda tx: repo.heartbeat(tx, me, self.host, self.pid, self.started_at, time.time()))

    async def forget_dead_neighbours(self) -> None:
        """Delete the heartbeats of processes of this host that no longer exist."""
        rows = await self.storage.read(repo.servers)
        dead = [r["id"] for r in rows if r["host"] == self.host and r["pid"] != self.pid and not pid_alive(r["pid"])]
        if dead:
            log.info("forgetting %d stopped server processes of this host", len(dead))
            await self.storage.write(lambda tx: repo.drop_servers(tx, dead))

    async def alive(self) -> list[str]:
        since = time.time() - self.lease
        return [r["id"] for r in await self.storage.read(repo.servers) if r["seen_at"] >= since]

    async def scan(self, limit: int = 200) -> int:
        """Take over the due matches of gone processes, and load this process's own due matches that are out of
        memory; returns how many were loaded."""
        me = self.server_id
        others = [s for s in await self.alive() if s != me]
        gone = self._others - set(others)
        self._others = set(others)
        if gone:  # a process stopped: what it committed last may not have been announced (SRV-X2)
            await self.catchup.resync()
        horizon = time.time() + 2 * self.interval
        rows = await self.storage.read(lambda tx: repo.orphans(tx, horizon, others, limit))
        loaded = 0
        for row in rows:
            match_id = row["id"]
            if row["owner"] != me:
                claimed = await self.storage.write(lambda tx, r=row: repo.claim(tx, r["id"], r["revision"], r["owner"], me))
                if not claimed:
                    continue
                self.taken_over += 1
                log.info("took over a match", extra={"match": match_id, "from": row["owner"]})
            elif match_id in self.matches:
                continue
            if await self.catchup.adopt(match_id):
                loaded += 1
        return loaded
