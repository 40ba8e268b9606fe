"""Issue 9, "Server" items 1-6: each defect as reproduced, now refused (SRV-D1, SRV-S1, SRV-A2, SRV-A4, SRV-E1,
SRV-E2). Item 7 is in test_payloads.py, items 8-10 in test_limits.py, the fuzzers in test_fuzz.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.core import catalog
from spacetable.games import get_game
from spacetable.games.fullmetal.fmp import BUNDLED, write_fmp
from spacetable.games.fullmetal.mapgen import generate_map
from spacetable.games.tremble import cards as tremble_cards
from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits, live

SECRET_LINE = "root:x:0:0:spacetable-secret-line"


def no_leak(text: str, *secrets: str) -> None:
    """A refusal shows none of the server's paths or file contents, and no Python exception text."""
    for s in secrets:
        assert s not in text, f"{s!r} leaked in {text[:300]}"
    for marker in ("Traceback", "Error(", "Exception(", "site-packages"):
        assert marker not in text, f"{marker!r} in {text[:300]}"


@pytest.fixture
def data_dir(tmp_path: Path) -> Any:
    """An operator's data catalogue with one extra fullmetal map and one extra tremble card set."""
    root = tmp_path / "data"
    (root / "fullmetal" / "maps").mkdir(parents=True)
    (root / "fullmetal" / "maps" / "isle.fmp").write_bytes(write_fmp(generate_map(3, 2, "small")))
    shutil.copytree(tremble_cards.HOUSE_DIR, root / "tremble" / "card_sets" / "club")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET_LINE + "\n")
    yield root
    catalog.configure(None)


# ------------------------------------------------------------------------------------------ item 1: no server path
@pytest.mark.parametrize("config", [
    {"map": "file", "map_file": "/etc/passwd"},
    {"map_file": "/proc/self/environ"},
    {"map": "/etc/passwd"},
    {"map": "../../../../etc/passwd"},
    {"map": "custom"},
    {"map": ["original"]},
    {"map": "custom", "map_content": 12},
    {"map": "custom", "map_content": "\x00\x01binary"},
])
def test_fullmetal_config_names_no_server_file(client: TestClient, config: dict[str, Any]) -> None:
    """Item 1: a map is a catalogue name or the player's own content; paths are refused, unread, and named nowhere."""
    r = client.post("/api/matches", json={"game": "fullmetal", "config": config})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_config", r.text
    echoed = r.text.replace(str(config.get("map")), "")  # the client's own value may be quoted back
    no_leak(echoed, "root:x:0:0", "PATH=", str(BUNDLED))
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize("config", [
    {"card_set": "/etc"},
    {"card_set": str(tremble_cards.HOUSE_DIR)},
    {"card_set": str(tremble_cards.HOUSE_DIR) + "/./."},
    {"card_set": ["house"]},
    {"card_set": "custom"},
    {"card_set": "custom", "card_set_content": {"set": {"set_id": "x"}}},
    {"card_set_content": {"set": {}}},
])
def test_tremble_config_names_no_server_folder(client: TestClient, config: dict[str, Any]) -> None:
    """Item 1: card sets are catalogue names or content; folders are refused without being read."""
    r = client.post("/api/matches", json={"game": "tremble", "config": {"players": 2, **config}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_config", r.text
    echoed = r.text.replace(str(config.get("card_set")), "")  # the client's own value may be quoted back
    no_leak(echoed, str(tremble_cards.HOUSE_DIR))


def test_catalogue_entries_by_name_and_player_content(tmp_path: Path, data_dir: Path) -> None:
    """Item 1: the operator's --data-dir adds named maps and card sets (listed in the lobby API); a player's own map
    and card set travel as content, are size-capped, stored with the match and shown as a digest in summaries;
    the export carries them so the replay works anywhere."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", ai_workers=0, limits=lenient_limits(), data_dir=data_dir)
    with TestClient(app) as c:
        listing = c.get("/api/catalog").json()
        assert listing["fullmetal"]["maps"] == ["isle", "original"]
        assert listing["tremble"]["card_sets"] == ["club", "house"]
        games = {g["id"]: g for g in c.get("/api/games").json()}
        fm_map = next(o for o in games["fullmetal"]["options"] if o["name"] == "map")
        assert "isle" in fm_map["choices"] and "custom" in fm_map["choices"]
        assert create(c, "fullmetal", config={"map": "isle"})["match"]["config"]["map"] == "isle"
        assert create(c, "tremble", config={"players": 2, "card_set": "club"})["match"]["status"] == "open"
        # the player's own content
        text = write_fmp(generate_map(8, 2, "small")).decode("cp1252")
        data = create(c, "fullmetal", config={"map": "custom", "map_content": text}, join_seat=0)
        mid = data["match"]["id"]
        shown = data["match"]["config"]["map_content"]
        assert set(shown) == {"content_bytes", "sha256"} and shown["content_bytes"] == len(text.encode())
        assert c.get(f"/api/matches/{mid}/config").json()["map_content"] == text
        assert "map_content" not in json.dumps(c.get(f"/api/matches/{mid}/state").json()["view"])
        too_big = "x" * (200 * 1024)
        r = c.post("/api/matches", json={"game": "fullmetal", "config": {"map": "custom", "map_content": too_big}})
        assert r.status_code == 422 and "at most" in r.json()["error"]["message"]
        doc = tremble_cards.set_document(tremble_cards.HOUSE_DIR)
        doc["set"] = {**doc["set"], "set_id": "ours", "name": "Our cards", "source": "owner"}
        tid = create(c, "tremble", config={"players": 2, "card_set": "custom", "card_set_content": doc}, join_seat=0)
        tmid, t0 = tid["match"]["id"], tid["token"]
        tokens = {0: t0, 1: join(c, tmid, 1)}
        snaps = {s: c.get(f"/api/matches/{tmid}/state", params={"seat": s}, headers={"X-Seat-Token": t}).json()
                 for s, t in tokens.items()}
        assert snaps[0]["view"]["card_set"] == "Our cards"
        mover = next(s for s, snap in snaps.items() if snap["legal"])  # the server-drawn seed picks who starts
        assert c.post(f"/api/matches/{tmid}/actions", json={"seat": mover, "token": tokens[mover], "version": 0,
                                                            "action": snaps[mover]["legal"][0]}).status_code == 200
    for key in [k for k in tremble_cards._CACHE if k not in tremble_cards._PINNED]:
        del tremble_cards._CACHE[key]  # the stored config alone rebuilds the match (no cached set, no folder)
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        again = c.get(f"/api/matches/{tmid}/state", params={"seat": 0}, headers={"X-Seat-Token": t0}).json()
        assert again["version"] == 1 and again["view"]["card_set"] == "Our cards"
        assert c.get(f"/api/matches/{mid}/config").json()["map_content"] == text
        assert c.get(f"/api/matches/{mid}").json()["broken"] is None


def test_card_set_cache_is_bounded() -> None:
    """Item 1: every distinct card set loaded is cached, but at most MAX_CACHED of them (the pinned house set aside)."""
    doc = tremble_cards.set_document(tremble_cards.HOUSE_DIR)
    tremble_cards.get_set("house")
    before = set(tremble_cards._CACHE)
    try:
        for i in range(tremble_cards.MAX_CACHED + 5):
            variant = {**doc, "set": {**doc["set"], "set_id": f"v{i}", "source": "owner"}}
            tremble_cards.get_set(tremble_cards.content_key(variant))
        assert len(set(tremble_cards._CACHE) - before) <= tremble_cards.MAX_CACHED
        assert "house" in tremble_cards._CACHE
    finally:
        for k in set(tremble_cards._CACHE) - before:
            del tremble_cards._CACHE[k]


# ------------------------------------------------------------------------------------------ item 2: seeds
@pytest.mark.usefixtures("nim")
def test_seeds_are_secret_unless_open_and_published_at_the_end(client: TestClient) -> None:
    """Item 2 (SRV-S1): a chosen seed needs open_seed, which everybody sees (lobby, summary, snapshots) before joining;
    a server-drawn seed stays hidden until the end, then replay and export publish it."""
    r = client.post("/api/matches", json={"game": "nim", "seed": 99})
    assert r.status_code == 422 and "open_seed" in r.json()["error"]["message"]
    assert client.get("/api/matches").json() == []
    opened = create(client, "nim", seed=99, open_seed=True)["match"]
    assert opened["open_seed"] is True and opened["seed"] == 99
    lobby = {m["id"]: m for m in client.get("/api/matches", params={"status": "open"}).json()}
    assert lobby[opened["id"]]["seed"] == 99
    spectator = client.get(f"/api/matches/{opened['id']}/state").json()
    assert spectator["match"]["seed"] == 99
    data = create(client, "nim", join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    secret = live(client, mid).seed
    t1 = join(client, mid, 1)
    for body in (client.get(f"/api/matches/{mid}").json(), client.get(f"/api/matches/{mid}/state").json(),
                 client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers={"X-Seat-Token": t1}).json()):
        assert str(secret) not in json.dumps(body)
    assert client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0,
                                                           "action": {"type": "resign"}}).status_code == 200
    assert client.get(f"/api/matches/{mid}").json()["seed"] == secret
    assert client.get(f"/api/matches/{mid}/replay").json()["seed"] == secret
    assert client.get(f"/api/matches/{mid}/export").json()["seed"] == secret


# ------------------------------------------------------------------------------------------ item 3: seat changes hands
@pytest.mark.usefixtures("nim")
def test_a_socket_loses_access_when_its_seat_changes_hands(client: TestClient) -> None:
    """Item 3 (SRV-A4): leaving a seat revokes its token and closes every socket bound to it with a clear message;
    the next occupant's hand and legal actions never reach the old socket; the old token no longer works."""
    data = create(client, "nim", seed=4, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    old = join(client, mid, 1, "Bob")
    with client.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
        ws.send_json({"type": "auth", "token": old})
        assert ws.receive_json()["type"] == "snapshot"
        assert client.post(f"/api/matches/{mid}/seats/1/leave", json={"token": old}).status_code == 200
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["code"] == "seat_left" and "no longer works" in msg["error"]["message"]
        new = join(client, mid, 1, "Eve")
        assert new != old
        with pytest.raises(Exception):  # noqa: B017 - the server closed the socket (4403); nothing else arrives
            ws.receive_json()
    assert client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers={"X-Seat-Token": old}).status_code == 403
    assert client.post(f"/api/matches/{mid}/seats/1/leave", json={"token": old}).status_code == 403
    assert client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers={"X-Seat-Token": new}).json()["view"]["hand"]
    assert t0


# ------------------------------------------------------------------------------------------ item 4: normalised actions
@pytest.mark.usefixtures("nim")
def test_unknown_fields_and_non_finite_numbers_are_refused_and_nothing_is_stored(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 4 (SRV-A2): the server calls game.normalize_action first; unknown fields or NaN are CORE-ACTION errors and
    nothing is stored; what is stored and broadcast is the normalised action only."""
    game = get_game("nim")

    def normalize(self: Any, action: object) -> dict[str, Any]:
        from spacetable.core.errors import RuleError
        from spacetable.core.moves import check_json_action

        act = check_json_action(action)
        allowed = {"take": ("heap", "count"), "resign": (), "bid": ("amount",)}.get(act["type"])
        if allowed is None or set(act) - {"type", *allowed}:
            raise RuleError("CORE-ACTION", "unknown field")
        return {"type": act["type"], **{k: act[k] for k in allowed if k in act}}  # normal form: fixed field order

    monkeypatch.setattr(type(game), "normalize_action", normalize)
    data = create(client, "nim", seed=1, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1)
    service = client.app.state.service  # type: ignore[attr-defined]
    for action in ({"type": "take", "heap": 0, "count": 1, "pad": "P" * 1000},
                   {"type": "take", "heap": 0, "count": 1, "x": None}):
        r = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0, "action": action})
        assert r.status_code == 422 and r.json()["error"]["rule"] == "CORE-ACTION"
    r = client.post(f"/api/matches/{mid}/actions", content=b'{"seat": 0, "token": "' + t0.encode()
                    + b'", "version": 0, "action": {"type": "take", "heap": 0, "count": NaN}}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    assert live(client, mid).version == 0
    with service.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM actions").scalar() == 0
    r = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0,
                                                        "action": {"count": 1, "heap": 0, "type": "take"}})
    assert r.status_code == 200
    with service.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT action FROM actions").scalar()
    assert json.loads(stored) == {"type": "take", "heap": 0, "count": 1}
    assert client.get(f"/api/matches/{mid}/state").json()["log"][0]["action"] == {"type": "take", "heap": 0, "count": 1}


# ------------------------------------------------------------------------------------------ item 5: malformed input
BAD_BODIES: list[tuple[bytes, str]] = [
    (b'{"game": "nim", "ai_seconds": NaN}', "bad_json"),
    (b'{"game": "nim", "ai_seconds": Infinity}', "bad_json"),
    (b'{"game": "nim", "ai_seconds": -Infinity}', "bad_json"),
    (b'{"game": "nim", "ai_seconds": 1e999}', "bad_json"),
    (b'{"game": "nim", "name": "\\ud800"}', "bad_json"),
    (b'{"game": "nim", "player_name": "a\\udfffb"}', "bad_json"),
    (b'{"game": "nim", "name": "\xff\xfe"}', "bad_json"),
    (b"[" * 50_000 + b"]" * 50_000, "bad_json"),
    (b'{"game": "nim", "config": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}", "bad_json"),
    (b'{"game": ["nim"]}', "bad_request"),
    (b'{"game": "nim", "config": []}', "bad_request"),
    (b'{"game": "nim", "ai_seats": {"x": 1}}', "bad_request"),
    (b'{"game": "nim", "surprise": 1}', "bad_request"),
    (b'{"game": "nim", "seed": 1' + b"0" * 5000 + b', "open_seed": true}', "bad_json"),
]


@pytest.mark.usefixtures("nim")
@pytest.mark.parametrize(("body", "code"), BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_malformed_bodies_get_a_4xx_in_the_one_error_shape(client: TestClient, body: bytes, code: str) -> None:
    """Item 5 (SRV-E1, SRV-E2): NaN, infinities, overflowing numbers, lone surrogates, non-UTF-8, deep nesting and
    wrong types are 4xx answers in the documented shape, with no Python exception text; nothing is created."""
    r = client.post("/api/matches", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert set(r.json()) == {"error"} and set(r.json()["error"]) == {"status", "code", "message"}
    assert r.json()["error"]["code"] == code and r.json()["error"]["status"] == r.status_code
    no_leak(r.text)
    assert client.get("/api/matches").json() == []


@pytest.mark.usefixtures("nim")
def test_wrong_types_in_actions_and_tokens_are_refused_cleanly(client: TestClient) -> None:
    """Item 5: an unhashable or odd value where the engine expects something else is CORE-ACTION, never a 500 with
    the exception's text; odd tokens and path values are 4xx."""
    data = create(client, "nim", seed=1, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1)
    for action in ({"type": "take", "heap": [1], "count": 1}, {"type": "take", "heap": {"a": 1}, "count": 1}, {"type": 5},
                   {"type": "take", "heap": 0, "count": 10**30}, [], "take", None):
        r = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0, "action": action})
        assert r.status_code == 422, r.text
        no_leak(r.text)
    for token in (5, ["x"], "x" * 500):
        r = client.post(f"/api/matches/{mid}/seats/0/leave", json={"token": token})
        assert 400 <= r.status_code < 500 and set(r.json()) == {"error"}
    for path in (f"/api/matches/{mid}/seats/abc/join", "/api/matches/" + "x" * 100, "/api/nothing-here"):
        r = client.post(path, json={}) if path.endswith("join") else client.get(path)
        assert 400 <= r.status_code < 500 and set(r.json()) == {"error"}, (path, r.text)
    r = client.delete("/api/matches")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.usefixtures("nim")
def test_malformed_websocket_messages_get_error_messages_not_drops(client: TestClient) -> None:
    """Item 5: binary frames, deep nesting, NaN, lone surrogates, non-objects and oversize text each get an error
    message and the socket stays open (a ping still answers)."""
    data = create(client, "nim", seed=1, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0") as ws:
        ws.send_json({"type": "auth", "token": t0})
        assert ws.receive_json()["type"] == "snapshot"
        bad: list[Any] = [b"\x00\x01binary", "[" * 50_000 + "]" * 50_000, '{"type": "action", "version": NaN}',
                          '{"type": "ping", "id": "\\ud800"}', "[1, 2]", '"text"', "x" * (70 * 1024), "{",
                          '{"type": "action", "version": 0, "action": {"type": "take", "heap": 0, "count": 1e999}}']
        for frame in bad:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"]["status"] == 400, (frame[:40], msg)
            no_leak(json.dumps(msg))
        ws.send_json({"type": "ping", "id": 9})
        assert ws.receive_json() == {"type": "pong", "id": 9}


# ------------------------------------------------------------------------------------------ item 6: failed create
@pytest.mark.usefixtures("nim")
@pytest.mark.parametrize("body", [{"join_seat": 5}, {"join_seat": -1}, {"join_seat": 1, "ai_seats": {"1": None}}])
def test_a_failed_create_stores_nothing(client: TestClient, body: dict[str, Any]) -> None:
    """Item 6: a create refused for any reason (here the seat to join) stores no match: the lobby does not grow."""
    r = client.post("/api/matches", json={"game": "nim", **body})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_config"
    assert client.get("/api/matches").json() == []
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM matches").scalar() == 0
