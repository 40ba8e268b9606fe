"""What the server tells people (spacetable/server/presentation.py and presentation_routes.py): texts in the
client's language, refusals explained with the rule's link, rules documents with an anchor per rule id, the lobby's
game data, reviews of running matches from a seat's own view and replays that reveal everything after the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spacetable.games import get_game
from spacetable.server import presentation

from .conftest import create, join

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = {"type": "layout", "cells": {"a1": "112", "b1": "111", "c1": "122", "d1": "121",
                                      "a2": "211", "b2": "222", "c2": "221", "d2": "212"}}
BLUE = {"type": "layout", "cells": {"a6": "112", "b6": "111", "c6": "122", "d6": "121",
                                    "a5": "211", "b5": "222", "c5": "221", "d5": "212"}}


def arena_match(client: TestClient, **config: Any) -> tuple[str, str, str]:
    data = create(client, "arena", config={"red_seat": 0, **config}, join_seat=0, player_name="Ann")
    mid = data["match"]["id"]
    return mid, data["token"], join(client, mid, 1, "Bob")


def test_refusals_are_explained_in_the_clients_language_with_the_rules_link(client: TestClient) -> None:
    """A rule refusal carries the rule id, a plain-words explanation in the socket's language and the link to the
    rule's statement in the rules document; server refusals (stale state) are explained too."""
    mid, t0, _ = arena_match(client)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}&lang=fr&texts=1") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and len(snap["legal_text"]) == len(snap["legal"]) > 0
        ws.send_json({"type": "action", "version": 0, "action": {"type": "move", "from": "b1", "to": "b2", "bonus": None}})
        err = ws.receive_json()["error"]
        assert err["rule"] == "AR-4.3" and err["code"] == "illegal_action"
        assert err["explain"] == presentation.translate(get_game("arena"), "rule.AR-4.3", "fr")
        assert "vaisseau" in err["explain"]
        assert err["rule_url"].startswith("/rules/arena#AR-4")
        ws.send_json({"type": "lang", "lang": "nl"})  # switch language: a fresh snapshot, then Dutch explanations
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "action", "version": 5, "action": {"type": "move", "from": "a2", "to": "a3", "bonus": None}})
        err = ws.receive_json()["error"]
        assert err["code"] == "stale_version" and "partij" in err["explain"]
    r = client.post(f"/api/matches/{mid}/actions", headers={"Accept-Language": "ru"},
                    json={"seat": 1, "token": "wrong", "version": 0, "action": {"type": "resign"}})
    assert r.status_code == 403 and "ссылка" in r.json()["error"]["explain"].lower()


def test_check_explains_and_describes(client: TestClient) -> None:
    mid, t0, _ = arena_match(client)
    move = {"type": "move", "from": "a2", "to": "a3", "bonus": None}
    ok = client.post(f"/api/matches/{mid}/check?lang=en", json={"seat": 0, "token": t0, "version": 0, "action": move})
    assert ok.json()["legal"] is True and ok.json()["text"]
    far = {"type": "move", "from": "a2", "to": "a5", "bonus": None}
    bad = client.post(f"/api/matches/{mid}/check?lang=en", json={"seat": 0, "token": t0, "version": 0, "action": far})
    body = bad.json()
    assert body["legal"] is False and body["rule"] and body["explain"] and body["rule_url"].startswith("/rules/arena")


def test_log_entries_carry_the_servers_text_and_sealed_choices_stay_sealed(client: TestClient) -> None:
    """Every log entry has its text from the server; a sealed layout (AR-2.7) reads "sealed decision" for the other
    seat, and a review of the running match from a seat's own view shows its own sealed choice only."""
    mid, t0, t1 = arena_match(client, setup="free", placement="simultaneous")
    r = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0, "action": LAYOUT})
    assert r.status_code == 200, r.text
    own = client.get(f"/api/matches/{mid}/review?seat=0", headers={"X-Seat-Token": t0}).json()
    other = client.get(f"/api/matches/{mid}/review?seat=1&lang=fr", headers={"X-Seat-Token": t1}).json()
    assert own["reveal"] is False and own["log"][0]["action"] == LAYOUT and own["log"][0]["text"]
    assert other["log"][0]["sealed"] and other["log"][0]["text"] == "décision scellée" and other["log"][0]["notation"] is None
    assert "a1" not in str(other["log"][0])
    # a running match is reviewed only with the seat's token
    assert client.get(f"/api/matches/{mid}/review?seat=1", headers={"X-Seat-Token": t0}).status_code == 403
    step = client.get(f"/api/matches/{mid}/review/1?seat=0", headers={"X-Seat-Token": t0}).json()
    assert step["view"]["placement"]["own"] == LAYOUT["cells"]
    # after the end everything is shown to everybody, from any seat
    r = client.post(f"/api/matches/{mid}/actions", json={"seat": 1, "token": t1, "version": 1, "action": BLUE})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 2, "action": {"type": "resign"}})
    assert r.status_code == 200, r.text
    anyone = client.get(f"/api/matches/{mid}/review").json()
    assert anyone["reveal"] is True and anyone["log"][0]["action"] == LAYOUT and not anyone["log"][0]["sealed"]
    as_red = client.get(f"/api/matches/{mid}/review/1?as_seat=0").json()
    assert as_red["view"]["placement"]["own"] == LAYOUT["cells"]
    assert client.get(f"/api/matches/{mid}/review/9").status_code == 404


def test_replay_cache_follows_undo(client: TestClient) -> None:
    """Review states come from checkpoints (every 16 steps) that an undo can never make wrong."""
    mid, t0, t1 = arena_match(client)
    tokens = [t0, t1]

    def quiet_move(seat: int) -> dict[str, Any]:
        snap = client.get(f"/api/matches/{mid}/state?seat={seat}", headers={"X-Seat-Token": tokens[seat]}).json()
        occupied = {s["cell"] for s in snap["view"]["ships"]}
        return next(a for a in snap["legal"] if a["type"] == "move" and a["to"] not in occupied and not a["bonus"])

    def play(v: int, action: dict[str, Any] | None = None) -> dict[str, Any]:
        seat = v % 2
        action = action or quiet_move(seat)
        r = client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": v, "action": action})
        assert r.status_code == 200, r.text
        return action

    for v in range(18):
        play(v)
    review = client.get(f"/api/matches/{mid}/review/18?seat=0", headers={"X-Seat-Token": t0}).json()["view"]
    # seat 1 takes back its last move (seat 0 agrees) and plays another one
    undo = client.post(f"/api/matches/{mid}/undo", json={"seat": 1, "token": t1}).json()
    assert not undo["done"]
    assert client.post(f"/api/matches/{mid}/undo/accept", json={"seat": 0, "token": t0}).json()["done"]
    snap = client.get(f"/api/matches/{mid}/state?seat=1", headers={"X-Seat-Token": t1}).json()
    assert snap["version"] == 17
    occupied = {s["cell"] for s in snap["view"]["ships"]}
    quiet = [a for a in snap["legal"] if a["type"] == "move" and a["to"] not in occupied and not a["bonus"]]
    other = next(a for a in reversed(quiet) if a != quiet[0])
    play(17, other)
    again = client.get(f"/api/matches/{mid}/review/18?seat=0", headers={"X-Seat-Token": t0}).json()["view"]
    live = client.get(f"/api/matches/{mid}/state?seat=0", headers={"X-Seat-Token": t0}).json()["view"]
    assert again == live and again != review


def test_lobby_lists_games_with_levels_and_rules(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/lobby").json()}
    arena = games["arena"]
    assert arena["rules"] is True and arena["renderer"] is True
    levels = [a["level"] for a in arena["agents"]]
    assert levels == sorted(levels, key=["easy", "medium", "hard"].index) and set(levels) <= {"easy", "medium", "hard"}
    assert any(a["default"] for a in arena["agents"])


def test_rules_documents_have_an_anchor_per_rule() -> None:
    doc = presentation.rules_document("arena")
    assert doc is not None and 'id="AR-3.2"' in doc["html"]
    for rule in doc["rules"]:
        assert f'id="{rule}"' in doc["html"]
    assert presentation.rule_anchor("arena", "AR-4.1") in ("AR-4.1", "AR-4")
    assert presentation.rules_document("../etc") is None


def test_packaged_rules_documents_equal_docs_rules() -> None:
    """spacetable/web/rules/*.md are the copies the server ships; refresh them with
    ``python -m spacetable.server.presentation sync-rules`` after editing docs/rules/."""
    src = {p.name: p.read_bytes() for p in (ROOT / "docs" / "rules").glob("*.md") if p.name != "index.md"}
    dst = {p.name: p.read_bytes() for p in (ROOT / "spacetable" / "web" / "rules").glob("*.md")}
    differing = sorted(name for name in src.keys() | dst.keys() if src.get(name) != dst.get(name))
    assert differing == [], "run: python -m spacetable.server.presentation sync-rules"


def test_rules_routes(client: TestClient) -> None:
    r = client.get("/api/rules/arena")
    assert r.status_code == 200 and r.json()["rules"]
    assert client.get("/api/rules/nothing").status_code == 404
    assert client.get("/rules/arena").status_code == 200


def test_game_catalogues_for_the_browser(client: TestClient) -> None:
    """GET /api/i18n/<game>/<lang>: the game package's own catalogue (card names, its renderer's texts), which the
    browser loads beside the client's; an unknown language gets English, a game without a catalogue an empty one."""
    fr = client.get("/api/i18n/tremble/fr")
    assert fr.status_code == 200
    assert fr.json()["tremble.card.paris"] == "Paris" and fr.json()["tremble.ui.seal_plan"] == "Sceller le plan"
    assert client.get("/api/i18n/tremble/xx").json()["tremble.ui.seal_plan"] == "Seal plan"
    assert client.get("/api/i18n/nothing/en").status_code == 404
    assert all(isinstance(v, str) for v in client.get("/api/i18n/arena/ru").json().values())
