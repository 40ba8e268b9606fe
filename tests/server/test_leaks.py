"""Leak audit (SRV-V1): for every available game, seeded random matches are played through the
server's WebSocket API, and every message each seat (and a spectator) receives is checked:

* its view is exactly ``game.view(state, seat)`` and each action it learns of is exactly
  ``game.action_view(before, actor, action, seat)``; its legal actions are exactly the game's;
* what it receives does not depend on what it may not see: on states resampled from its point of
  view (``game.determinize``) its view and legal actions are unchanged;
* no message carries an RNG state or the seed (no ``rng``/``seed`` key, no such number);
* another seat's action is described in words only if the seat saw the whole action.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from spacetable.core.game import Game
from spacetable.core.rng import Rng
from spacetable.games import available, get_game
from spacetable.server.app import create_app
from spacetable.server.legal import LEGAL_LIMIT, select_legal
from spacetable.server.presentation import translate

from .conftest import create, join, lenient_limits, live

MAX_ACTIONS = 160
SEALED = translate(None, "log.sealed", "en")
SEEDS = (10**15 + 17, 10**15 + 91)
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "arena": [{}, {"setup": "free", "placement": "simultaneous"}, {"setup": "free", "placement": "alternate", "board": "5x5"}],
    "worlds": [{}, {"scenario": "grand-melee"}],
    "tremble": [{"players": 3}, {}],
    "fullmetal": [{}, {"players": 3}],
    "galaxies": [{}, {"players": 4}],
}


def norm(data: Any) -> Any:
    """``data`` as a socket's JSON gives it back (tuples as lists, keys as strings), through orjson: the legal lists
    of Tremble's plans are thousands of entries, which the standard library took most of this audit's time on."""
    return orjson.loads(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS))


def secrets_in(obj: Any, forbidden: set[int], path: str = "$") -> list[str]:
    """Paths in a message that hold an RNG state or a seed (a ``seed`` field must be null: SRV-S1)."""
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "rng" or (k == "seed" and v is not None):
                found.append(f"{path}.{k}")
            found += secrets_in(v, forbidden, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += secrets_in(v, forbidden, f"{path}[{i}]")
    elif isinstance(obj, int) and not isinstance(obj, bool):
        if obj in forbidden:
            found.append(path)
    elif isinstance(obj, str) and any(str(f) in obj for f in forbidden):
        found.append(path)
    return found


def first_diff(a: Any, b: Any, path: str = "$") -> str:
    """Where two JSON values first differ (for readable failures)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return first_diff(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}"


def rng_states(state: Any) -> set[int]:
    rng = getattr(state, "rng", None)
    return {rng.state} if isinstance(rng, Rng) and rng.state > 2**20 else set()


def canon(data: Any) -> bytes:
    """``data``'s JSON with sorted keys: equal for two values when their ``norm`` are equal (stricter only in telling
    1 from 1.0), compared without decoding: the audit compares whole legal lists of thousands of plans."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def check_hidden(game: Game[Any], state: Any, seat: int, k: int) -> None:
    """What ``seat`` is sent must not change when the hidden parts of the state change."""
    view = game.view(state, seat)
    shown = canon(view)
    to_act = game.to_act(state)
    legal = canon(game.legal_actions(state, seat)) if seat in to_act else b""
    for j in range(2):
        other = game.determinize(state, seat, Rng.from_seed(1000 * k + j))
        seen = game.view(other, seat)
        assert canon(seen) == shown, \
            f"{game.id}: seat {seat}'s view depends on hidden information: {first_diff(norm(view), norm(seen))}"
        if seat in to_act:
            assert canon(game.legal_actions(other, seat)) == legal, \
                f"{game.id}: seat {seat}'s legal actions depend on hidden info"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """On SQLite only: what is audited is what each socket receives, the same whatever stores the matches (the
    other server tests run on both databases)."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        yield c


def audit_match(client: TestClient, game_id: str, config: dict[str, Any], pick_seed: int) -> int:
    """One match with a secret seed (SRV-S1: drawn by the server; the test reads it from the service to replay
    the match locally) played at random through every seat's and a spectator's WebSocket."""
    game = get_game(game_id)
    cfg = game.normalize_config(config)
    data = create(client, game_id, config=config, join_seat=0)
    mid = data["match"]["id"]
    assert data["match"]["seed"] is None and data["match"]["open_seed"] is False
    seed = live(client, mid).seed
    n = game.num_players(cfg)
    tokens = [data["token"]] + [join(client, mid, s) for s in range(1, n)]
    local = game.initial_state(cfg, seed)
    forbidden = {seed} | rng_states(local)
    pick = Rng.from_seed(pick_seed)
    viewers: list[int | None] = [*range(n), None]
    with ExitStack() as stack:
        sockets = {v: stack.enter_context(client.websocket_connect(
            f"/ws/matches/{mid}" + (f"?seat={v}&token={tokens[v]}" if v is not None else ""))) for v in viewers}
        messages = {v: sockets[v].receive_json() for v in viewers}
        steps = 0
        while True:
            to_act = game.to_act(local)
            for v, msg in messages.items():
                if msg["match"]["status"] == "finished":  # SRV-S1: the seed is published once the match is over
                    assert msg["match"]["seed"] == seed
                    msg = {**msg, "match": {**msg["match"], "seed": None}}
                    assert not secrets_in(msg, forbidden - {seed}), f"{game_id}: secret in message to {v}"
                    continue
                assert not secrets_in(msg, forbidden), f"{game_id}: secret in message to {v}: {secrets_in(msg, forbidden)}"
                assert msg["view"] == norm(game.view(local, v)), f"{game_id}: view sent to {v} differs from game.view"
                assert msg["to_act"] == list(to_act)
                expected_legal = norm(game.legal_actions(local, v)) if v is not None and v in to_act else []
                # SRV-L1: the full list up to LEGAL_LIMIT, above it a selection of legal actions plus the count
                assert msg["legal_count"] == len(expected_legal)
                assert msg["legal_complete"] == (len(expected_legal) <= LEGAL_LIMIT)
                assert msg["legal"] == (expected_legal if msg["legal_complete"] else select_legal(expected_legal, LEGAL_LIMIT))
                if v is not None and steps % 4 == 0:
                    check_hidden(game, local, v, steps)
            if not to_act or steps >= MAX_ACTIONS:
                break
            seat = to_act[pick.randbelow(len(to_act))]
            legal = messages[seat]["legal"]
            calm = [a for a in legal if a.get("type") not in ("resign", "accept_end")] or legal
            action = calm[pick.randbelow(len(calm))]
            sockets[seat].send_json({"type": "action", "version": messages[seat]["version"], "action": action})
            before = local
            local = game.apply(local, seat, action)
            forbidden |= rng_states(local)
            steps += 1
            for v in viewers:
                msg = sockets[v].receive_json()
                assert msg["type"] == "event", msg
                last = msg["last"]
                assert last["action"] == norm(game.action_view(before, seat, action, v)), f"{game_id}: action view for {v}"
                if last["sealed"]:  # a sealed decision is named by one fixed phrase, nothing from the action
                    assert last["notation"] is None and last["text"] == SEALED, f"{game_id}: words about a sealed action"
                elif last["text"] is not None and v != seat:
                    assert last["action"] == norm(action), f"{game_id}: words about a hidden action sent to {v}"
                messages[v] = msg
    return steps


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game_id", [g for g in available() if g != "nim"])
def test_no_leaks_in_any_game(client: TestClient, game_id: str) -> None:
    """SRV-V1 leak audit over every available game, seeded random matches through the WebSocket."""
    total = 0
    for i, config in enumerate(CONFIGS.get(game_id, [{}])):
        total += audit_match(client, game_id, config, SEEDS[i % len(SEEDS)])
    assert total > 0


@pytest.mark.usefixtures("nim")
def test_audit_catches_a_leaky_view(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """SRV-V1: the audit itself fails on a game whose view shows a secret (seat 1's hand) to everybody."""
    audit_match(client, "nim", {"mode": "sealed", "size": 12}, SEEDS[0])  # honest: passes
    game = get_game("nim")
    honest = type(game).view

    def leaky(self: Any, state: Any, player: int | None) -> dict[str, Any]:
        out = honest(self, state, player)
        out["hand"] = state.hand
        return out

    monkeypatch.setattr(type(game), "view", leaky)
    with pytest.raises(AssertionError, match="depends on hidden information"):
        audit_match(client, "nim", {"mode": "sealed", "size": 12}, SEEDS[1])
