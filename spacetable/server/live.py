"""A match in memory and its connected clients (SRV-V1, SRV-V2, SRV-X1).

:class:`LiveMatch` holds the replayed state of a match with per-state caches (views, legal actions,
seats to act: computed at most once per state, whoever asks) and its history (:meth:`LiveMatch.state_at`:
the state after any step, from checkpoints, for replays and undo); :class:`Subscriber` is one connected
WebSocket client with its bounded outgoing queue; :func:`make_entry` is the one place where a logged action
gets what each viewer may see of it.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.match import replay_states
from spacetable.core.serial import action_key

from . import jsonio
from .meter import METER, clock

#: A client that stops reading is cut off once this many messages wait for it.
MAX_BACKLOG = 1000
#: A match's history keeps the state after every this many steps (``state_at``: at most this many applies).
CHECKPOINT_EVERY = 32
#: Config values whose JSON text is longer than this are shown as a digest in summaries (player content:
#: maps, card sets, scenarios); ``GET /api/matches/{id}/config`` gives them whole.
CONTENT_INLINE = 512


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def public_config(config: dict[str, Any]) -> dict[str, Any]:
    """The config as summaries show it: long values (a player's own map, card set or scenario) replaced by
    ``{"content_bytes": n, "sha256": ...}`` so that lobby lists and every event stay small."""
    out: dict[str, Any] = {}
    for k, v in config.items():
        if isinstance(v, (str, dict, list)):
            text = v if isinstance(v, str) else jsonio.dumps(v)
            if len(text) > CONTENT_INLINE:
                raw = text.encode("utf-8", "surrogatepass")
                out[k] = {"content_bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
                continue
        out[k] = v
    return out


@dataclass
class Seat:
    kind: str = "open"  # open | human | ai
    name: str = ""
    token_hash: str | None = None
    agent: str | None = None

    def public(self, index: int) -> dict[str, Any]:
        return {"seat": index, "kind": self.kind, "name": self.name, "agent": self.agent}


@dataclass
class Entry:
    """One logged action with what each viewer learns of it (computed once)."""

    seat: int
    action: Action
    source: str
    views: dict[int | None, Action | None]
    text: str
    #: seats that had to act just before this action (SRV-A1b: concurrent sealed decisions)
    waiting: tuple[int, ...] = ()
    #: the action's sentence per language, written once when first needed (``render.entry_text``)
    texts: dict[str, str] = field(default_factory=dict)
    #: when it was played (the clocks' banks are counted from the log, issue 21)
    t: float = 0.0


def _text(game: Game[Any], state: Any, seat: int, action: Action) -> str:
    try:
        return str(game.action_text(state, seat, action))
    except Exception:  # a presentation helper must never break play
        return action_key(action)


def make_entry(game: Game[Any], before: Any, seat: int, action: Action, source: str, seats: int) -> Entry:
    """The log entry of ``action`` played by ``seat`` on ``before``: what each viewer (spectator ``None``, every
    seat) may know of it (``game.action_view``, SRV-V1), its notation, and the seats that were to act (SRV-A1b).
    Its sentences are written by ``render`` for the languages that read them."""
    views = {viewer: game.action_view(before, seat, action, viewer) for viewer in [None, *range(seats)]}
    return Entry(seat, action, source, views, _text(game, before, seat, action), tuple(game.to_act(before)))


def bank_step(banks: list[float], started: float, before: tuple[int, ...], after: tuple[int, ...], t: float,
              increment: float) -> float:
    """One action at time ``t`` in a match with banks (issue 21, ``clocks``): the seats that were to act since
    ``started`` and are no longer to act spend the time and gain the increment; when a seat is newly to act,
    everybody's clock restarts (SRV-C1), so the seats still to act spend what they used so far. Returns the turn's
    new start."""
    old, new = set(before), set(after)
    restart = not new <= old
    for s in old:
        if s in new and not restart:
            continue
        if 0 <= s < len(banks):
            banks[s] -= max(0.0, t - started)
            if s not in new:
                banks[s] += increment
    return t if restart else started


class Mailbox:
    """The messages waiting for one client, and the wake-up of its sender: the part of ``asyncio.Queue`` a socket's
    sender uses (one consumer, never bounded here: :class:`Subscriber` bounds it), at about half its cost per
    message (no counts of unfinished tasks, no event, no lists of waiting getters and putters)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: collections.deque[str] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: str) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> str:
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:  # cancelled while waiting
                    self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> str:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


@dataclass
class Subscriber:
    """One connected client. A client that stops reading is cut off (close 1013) once ``MAX_BACKLOG``
    messages or ``max_bytes`` bytes wait for it; it reconnects and gets a fresh snapshot. ``since`` is the
    version of the snapshot it got first: events up to it are not sent again (SRV-V3). A seat's client is bound
    to the token it showed (``token_hash``) and is closed when the seat changes hands (SRV-A4). ``texts``: the
    client asked for sentences (legal actions, log) in ``lang``; without them it gets notations only."""

    seat: int | None
    queue: Mailbox = field(default_factory=Mailbox)
    since: int = 0
    token_hash: str | None = None
    overflow: bool = False
    close_code: int | None = None
    lang: str = "en"  # the client's language for texts (``presentation``)
    texts: bool = False
    #: the most bytes of messages waiting for this client (SRV-B2, ``--ws-backlog-bytes``)
    max_bytes: int = 8 * 1024 * 1024
    #: bytes of the messages waiting now
    backlog: int = 0

    @property
    def text_lang(self) -> str | None:
        """The language of this client's texts, or ``None`` when it asked for none."""
        return self.lang if self.texts else None

    def push(self, text: str) -> None:
        if self.overflow or self.close_code is not None:
            return
        if self.queue.qsize() >= MAX_BACKLOG or self.backlog + len(text) > self.max_bytes:
            self.overflow = True
            self.close_code = 1013
            self.queue.put_nowait("")  # wakes the sender, which closes the connection
            return
        self.backlog += len(text)
        self.queue.put_nowait(text)

    async def next(self) -> str:
        """The next message to send (``""``: close with ``close_code``)."""
        text = await self.queue.get()
        self.backlog -= len(text)
        return text

    def kick(self, text: str, code: int) -> None:
        """Send ``text`` (an error message) as the last message, then close with ``code``."""
        if self.close_code is not None:
            return
        self.backlog += len(text)
        self.queue.put_nowait(text)
        self.close_code = code
        self.queue.put_nowait("")


@dataclass
class LiveMatch:
    id: str
    game: Game[Any]
    name: str
    config: dict[str, Any]
    seed: int
    status: str
    ai_seconds: float
    turn_seconds: float | None
    turn_started_at: float | None
    created_at: float
    updated_at: float
    seats: list[Seat]
    state: Any
    open_seed: bool = False
    #: issue 21: the time control (``clocks.KINDS``; ``None``: per move when ``turn_seconds`` is set), the
    #: increment a seat's bank gains after each of its turns, and when the first turn started
    clock_kind: str | None = None
    clock_increment: float = 0.0
    started_at: float | None = None
    #: SRV-X1: the stored revision and epoch this copy is at, and the process running its AI seats and clock
    revision: int = 0
    epoch: int = 0
    owner: str | None = None
    log: list[Entry] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    undo_request: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    #: seat sockets of this match waiting to authenticate (counted against ``max_match_sockets``)
    connecting: int = 0
    ai_task: asyncio.Task[None] | None = None
    clock_handle: asyncio.TimerHandle | None = None
    #: monotonic time of the last use (eviction, SRV-M1); ``evicted`` once it left memory
    last_used: float = field(default_factory=time.monotonic)
    evicted: bool = False
    #: changes announced by other processes, applied in order under the lock (SRV-X2)
    inbox: list[Any] = field(default_factory=list, repr=False)
    #: the revision and time of the last database check after a wrong token (``MatchService.behind``)
    token_recheck: tuple[int, int] = (-1, -1)
    token_recheck_at: float = 0.0
    draining: bool = False
    #: the seats other processes hold a socket of (their presence notices, ``catchup.Catchup.notice``): process ->
    #: (seats, monotonic time until which it counts); see :meth:`seats_elsewhere`
    held_elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict, repr=False)
    #: history: the initial state and the state after every ``CHECKPOINT_EVERY`` steps (filled on demand), and
    #: the last state ``state_at`` returned (stepping through a replay costs one apply per step)
    _checkpoints: dict[int, Any] = field(default_factory=dict, repr=False)
    _last_step: tuple[int, Any] | None = field(default=None, repr=False)
    #: per-state caches (SRV-V2): views, legal actions and ``to_act`` of ``state`` are computed at most
    #: once per state, whoever asks (event, snapshot, REST); they are dropped as soon as ``state`` changes.
    _cached_for: Any = field(default=None, repr=False)
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)
    #: the public fields of the views (``Game.public_view``) and their JSON, or ``(None, "")`` for a game that does
    #: not split its views; ``None`` until asked for this state
    _public: tuple[dict[str, Any] | None, str] | None = field(default=None, repr=False)
    #: each viewer's own fields (``Game.own_view``), for :meth:`view` and :meth:`view_json` alike
    _owns: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)
    #: the JSON text of each viewer's view (:meth:`view_json`)
    _view_json: dict[int | None, str] = field(default_factory=dict, repr=False)
    _legal: dict[int, list[Action]] = field(default_factory=dict, repr=False)
    _to_act: tuple[int, ...] | None = field(default=None, repr=False)
    #: the ``legal`` fields of messages per seat (``legal.legal_fields``)
    legal_sent: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)
    #: per-state texts of legal actions by (seat, language) (``render.legal_texts``)
    _legal_texts: dict[tuple[int, str], list[str]] = field(default_factory=dict, repr=False)
    #: per-revision JSON texts of messages by (kind, seat, language, reason) (``render``), and their revision
    _messages: dict[tuple[Any, ...], str] = field(default_factory=dict, repr=False)
    _messages_at: tuple[int, int] = (-1, -1)
    _public_config: tuple[dict[str, Any], dict[str, Any]] | None = field(default=None, repr=False)
    #: the seats' clock banks for a (version, revision, epoch) (:meth:`LiveMatch.banks`)
    _bank_cache: tuple[tuple[int, int, int], list[float]] | None = field(default=None, repr=False)

    def seats_elsewhere(self) -> frozenset[int]:
        """The seats whose players are at the table on other processes, as those processes last said (a presence
        notice when one of their seat sockets opens or closes, again every third of the presence's lifetime); what
        such a notice said stops counting when its lifetime ends (a process gone without a word)."""
        if not self.held_elsewhere:
            return frozenset()
        now = time.monotonic()
        out: frozenset[int] = frozenset()
        for seats, until in self.held_elsewhere.values():
            if until >= now:
                out |= seats
        return out

    def fresh(self) -> None:
        if self._cached_for is not self.state:
            self._cached_for = self.state
            self._views = {}
            self._public = None
            self._owns = {}
            self._view_json = {}
            self._legal = {}
            self._to_act = None
            self.legal_sent = {}
            self._legal_texts = {}
            self._messages = {}

    def messages(self) -> dict[tuple[Any, ...], str]:
        """The cache of encoded messages (``render``): valid for one state, revision and version; emptied by any
        change (:meth:`changed`)."""
        self.fresh()
        at = (self.revision, self.version)
        if self._messages_at != at:
            self._messages_at = at
            self._messages = {}
        return self._messages

    def changed(self) -> None:
        """Something a message shows changed without a new state (seats, an undo request, a restore)."""
        self._messages = {}
        self._messages_at = (-1, -1)

    def publish(self, state: Any, legal: dict[int, list[Action]], to_act: tuple[int, ...] | None = None) -> None:
        """Make ``state`` the current one, with legal-action lists (SRV-L4) and the seats to act already computed
        for it."""
        self.state = state
        self.fresh()
        self._legal.update(legal)
        if to_act is not None:
            self._to_act = to_act

    # ------------------------------------------------------------------ history
    def state_at(self, step: int) -> Any:
        """The state after the first ``step`` logged actions: from the nearest checkpoint (or the last state
        returned), at most ``CHECKPOINT_EVERY`` applies; checkpoints met on the way are kept."""
        if not 0 <= step <= len(self.log):
            raise IndexError(step)
        if step == len(self.log):
            return self.state
        if not self._checkpoints:
            self._checkpoints[0] = self.game.initial_state(self.config, self.seed)
        base = max(k for k in self._checkpoints if k <= step)
        state = self._checkpoints[base]
        if self._last_step is not None and base <= self._last_step[0] <= step:
            base, state = self._last_step
        entries = ((e.seat, e.action) for e in self.log[base:step])
        for k, after in enumerate(replay_states(self.game, state, entries), base + 1):
            if k % CHECKPOINT_EVERY == 0:
                self._checkpoints[k] = after
            state = after
        self._last_step = (step, state)
        return state

    def truncate(self, upto: int, state: Any) -> None:
        """Cut the log to its first ``upto`` entries (an undo); ``state`` is the state after them."""
        del self.log[upto:]
        self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= upto}
        if self._last_step is not None and self._last_step[0] > upto:
            self._last_step = None
        self.state = state

    def reset_history(self) -> None:
        """Forget the checkpoints (the log was replaced)."""
        self._checkpoints = {}
        self._last_step = None
        self.fresh()
        self.changed()

    def _public_view(self) -> tuple[dict[str, Any] | None, str]:
        """The public fields of this state's views and their JSON (``Game.public_view``), written once per state
        for every viewer; ``(None, "")`` for a game that does not split its views."""
        got = self._public
        if got is None:
            t = clock()
            public = self.game.public_view(self.state)
            got = self._public = (None, "") if public is None else (public, jsonio.dumps(public))
            METER.add("views", t)
        return got

    def _own_view(self, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s own fields of this state's view (``Game.own_view``), written once per state and viewer; the
        caller counts its time."""
        own = self._owns.get(viewer)
        if own is None:
            own = self._owns[viewer] = self.game.own_view(self.state, viewer)
            METER.count("view")
        return own

    def view(self, viewer: int | None) -> dict[str, Any]:
        """``game.view(state, viewer)``, computed once per state (SRV-V1): for a game that splits its views, the
        public fields (written once for every viewer) with the viewer's own (``Game.own_view``)."""
        self.fresh()
        v = self._views.get(viewer)
        if v is None:
            public = self._public_view()[0]
            t = clock()
            if public is None:
                v = self.game.view(self.state, viewer)
                METER.count("view")
            else:
                v = {**public, **self._own_view(viewer)}
            self._views[viewer] = v
            METER.add("views", t)
        return v

    def view_json(self, viewer: int | None) -> str:
        """The JSON text of :meth:`view`, once per state and viewer; for a game that splits its views, the viewer's
        own fields written before the public ones' text, which is encoded once for every viewer."""
        self.fresh()
        text = self._view_json.get(viewer)
        if text is None:
            public, public_json = self._public_view()
            if not public:  # not split (or nothing public): the whole view
                v = self.view(viewer)
                t = clock()
                text = jsonio.dumps(v)
            else:
                t = clock()
                own = self._own_view(viewer)
                text = public_json if not own else f"{jsonio.dumps(own)[:-1]},{public_json[1:]}"
            METER.add("views", t)
            self._view_json[viewer] = text
        return text

    def legal(self, seat: int) -> list[Action]:
        """``game.legal_actions(state, seat)``, computed once per state."""
        self.fresh()
        out = self._legal.get(seat)
        if out is None:  # its CPU time is counted by the caller (``render.seat_fields``: the message's legal fields)
            out = self._legal[seat] = self.game.legal_actions(self.state, seat)
            METER.count("legal")
        return out

    @property
    def version(self) -> int:
        return len(self.log)

    def to_act(self) -> tuple[int, ...]:
        if self.status != "running":
            return ()
        self.fresh()
        if self._to_act is None:
            self._to_act = tuple(self.game.to_act(self.state))
        return self._to_act

    def deadline(self) -> float | None:
        if self.turn_seconds and self.turn_started_at is not None and self.status == "running":
            if self.clock_kind == "increment":  # the seats' own banks (issue 21): when the first of the seats
                seats = self.to_act()                # to act runs out of its bank
                if not seats:
                    return None
                banks = self.banks()
                return self.turn_started_at + min(banks[s] for s in seats)
            return self.turn_started_at + self.turn_seconds
        return None

    def banks(self) -> list[float]:
        """The seats' clock banks at the start of the current turn (``increment`` clocks, issue 21), counted from
        the log, so that every process and every restart agrees on them (cached per version and revision; the
        caller may change the list it gets)."""
        key = (self.version, self.revision, self.epoch)
        cached = self._bank_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        banks = [float(self.turn_seconds or 0.0)] * len(self.seats)
        started = self.started_at or self.created_at
        entries = self.log
        for j, e in enumerate(entries):
            after = entries[j + 1].waiting if j + 1 < len(entries) else self.to_act()
            started = bank_step(banks, started, e.waiting, after, e.t or started, self.clock_increment)
        self._bank_cache = (key, list(banks))
        return banks

    def public_config(self) -> dict[str, Any]:
        """:func:`public_config` of the match's config, computed once per config object."""
        cached = self._public_config
        if cached is None or cached[0] is not self.config:
            cached = self._public_config = (self.config, public_config(self.config))
        return cached[1]

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.id,
            "game_name": self.game.name,
            "name": self.name,
            "config": self.public_config(),
            "status": self.status,
            "version": self.version,
            "players": len(self.seats),
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "to_act": list(self.to_act()),
            "outcome": self.outcome,
            "ai_seconds": self.ai_seconds,
            "turn_seconds": self.turn_seconds,
            "deadline": self.deadline(),
            "clock": {"kind": self.clock_kind or ("move" if self.turn_seconds else "none"),
                      "increment": self.clock_increment},
            "turn_started_at": self.turn_started_at if self.status == "running" else None,
            "undo_request": self.undo_request,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "open_seed": self.open_seed,
            # SRV-S1: the seed is public in an open-seed match, and in every match once it is over
            "seed": self.seed if self.open_seed or self.status == "finished" else None,
            "broken": None,
        }


def bound(m: LiveMatch, sub: Subscriber) -> bool:
    """A seat's client still holds the seat's current token (SRV-A4); spectators always pass."""
    if sub.seat is None:
        return True
    seat = m.seats[sub.seat]
    return seat.kind == "human" and seat.token_hash is not None and sub.token_hash == seat.token_hash
