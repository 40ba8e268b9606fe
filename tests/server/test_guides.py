"""Players' guides and tutorials as data (issue "Learn every game"): every string in all four languages, every rule
id a refusal can carry mapped to a guide section, diagrams drawn from real positions, the guide route, the lobby's
flags, refusals naming the guide's section in the player's language, and `spacetable rules GAME --lang`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable import cli, guide
from spacetable.games import available, get_game
from spacetable.server import presentation

from .conftest import create, join

pytestmark = pytest.mark.learn

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("arena", "fullmetal", "galaxies", "tremble", "worlds")
TUTORIALS = ROOT / "spacetable" / "web" / "static" / "tutorials"
PREFIX = {"arena": "AR", "fullmetal": "FM", "galaxies": "BG", "tremble": "TH", "worlds": "WS"}


def test_every_game_has_a_guide() -> None:
    assert set(GAMES) <= set(available())
    assert guide.games() == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", guide.LANGUAGES)
def test_no_guide_string_is_missing(game: str, lang: str) -> None:
    """Each language's file has the title and every section of meta.json, in order, none empty and none extra; the
    words are the language's own (a section copied from English unchanged is missing too)."""
    meta = guide.meta(game)
    assert meta is not None
    text = guide.text(game, lang)
    assert text is not None, f"{game}/{lang}.md is missing"
    assert text.title
    assert list(text.sections) == [s.id for s in meta.sections]
    english = guide.text(game, "en")
    assert english is not None
    for sid, (title, body) in text.sections.items():
        assert title.strip() and len(body) > 40, (game, lang, sid)
        if lang != "en":
            assert body != english.sections[sid][1], f"{game}/{lang}: section {sid} is the English text"


def rule_ids_raised(game: str) -> set[str]:
    """Every rule id written in the game's code (RuleError("…"), rule="…", ids in messages)."""
    pat = re.compile(rf"\b{PREFIX[game]}-[A-Z]{{0,3}}-?\d+(?:\.\d+)*[a-z]?\b")
    found: set[str] = set()
    for path in (ROOT / "spacetable" / "games" / game).rglob("*.py"):
        found |= set(pat.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_a_refusal_can_carry_opens_a_guide_section(game: str) -> None:
    """The ids of the rules document and every id in the game's code map to a section of the guide."""
    doc = presentation.rules_document(game)
    assert doc is not None
    ids = {r for r in doc["rules"] if r.startswith(PREFIX[game] + "-")} | rule_ids_raised(game)
    assert len(ids) > 20
    unmapped = sorted(r for r in ids if guide.section_of(game, r) is None)
    assert unmapped == []


@pytest.mark.parametrize("game", GAMES)
def test_diagrams_are_real_positions_and_phases_open_real_sections(game: str) -> None:
    meta = guide.meta(game)
    assert meta is not None
    ids = {s.id for s in meta.sections}
    assert {"goal", "turn", "faq"} <= ids
    assert any(s.diagram for s in meta.sections)
    for s in meta.sections:
        if s.diagram:
            got = guide.diagram_view(game, s.id)
            assert got is not None and got["view"], s.id
    assert meta.phases and set(meta.phases.values()) <= ids
    assert all(".phase." in k or ".step." in k for k in meta.phases)


def tutorial_files(game: str) -> tuple[dict, dict[str, dict[str, str]]]:
    script = json.loads((TUTORIALS / f"{game}.json").read_text(encoding="utf-8"))
    texts = {lang: json.loads((TUTORIALS / f"{game}.{lang}.json").read_text(encoding="utf-8")) for lang in guide.LANGUAGES}
    return script, texts


def tutorial_games() -> list[str]:
    return sorted(p.stem for p in TUTORIALS.glob("*.json") if "." not in p.stem)


def test_tutorials_exist() -> None:
    assert tutorial_games() == sorted(GAMES)


@pytest.mark.parametrize("game", tutorial_games())
def test_no_tutorial_string_is_missing(game: str) -> None:
    script, texts = tutorial_files(game)
    keys = {"title", "intro"}
    for st in script["steps"]:
        keys.add(st["id"])
        if "expect" in st:
            keys.add(st["id"] + ".wrong")
    for lang, got in texts.items():
        missing = sorted(k for k in keys if not str(got.get(k, "")).strip())
        assert missing == [], (game, lang)
        assert set(got) == keys, (game, lang, sorted(set(got) ^ keys))
        if lang != "en":
            same = sorted(k for k in keys if got[k] == texts["en"][k])
            assert same == [], (game, lang)


@pytest.mark.parametrize("game", tutorial_games())
def test_tutorial_scripts_play_out_under_the_rules(game: str) -> None:
    """The scripted game is legal from its config and seed: every expected action and reply, in order, ends with
    the final step; each acting step has highlights and a reply when the other seat is to move next."""
    script, _ = tutorial_files(game)
    g = get_game(game)
    state = g.initial_state(g.normalize_config(script["config"]), script["seed"])
    me = script.get("player", 0)
    for st in script["steps"]:
        if "expect" in st:
            assert st.get("highlight"), st["id"]
            assert me in g.to_act(state), st["id"]
            full = st.get("play", st["expect"])
            assert all(full.get(k) == v for k, v in st["expect"].items()), st["id"]  # `play` is an action `expect` accepts
            action = g.normalize_action(full)
            assert g.is_legal(state, me, action), st["id"]
            state = g.apply(state, me, action)
        for key in ("reply", "opponent"):
            if key in st:
                action = g.normalize_action(st[key])
                assert g.is_legal(state, 1 - me, action), (st["id"], key)
                state = g.apply(state, 1 - me, action)
    assert script["steps"][-1].get("final") is True
    assert not g.is_terminal(state)


def test_guide_route_lobby_and_pages(client: TestClient) -> None:
    for lang in guide.LANGUAGES:
        doc = client.get(f"/api/guide/arena?lang={lang}").json()
        assert doc["lang"] == lang and doc["sections"][0]["id"] == "goal" and doc["sections"][0]["html"].startswith("<p>")
    fr = client.get("/api/guide/arena", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json()
    assert fr["title"].startswith("Cosmic Arena : comment jouer")
    assert client.get("/api/guide/nosuch").status_code == 404
    assert client.get("/api/guide/..%2Fetc").status_code == 404
    assert client.get("/api/guide/arena/diagram/move").json()["view"]["game"] == "arena"
    assert client.get("/api/guide/arena/diagram/goal").status_code == 404
    assert client.get("/guide/arena").status_code == 200 and client.get("/tutorial/arena").status_code == 200
    lobby = {g["id"]: g for g in client.get("/api/lobby").json()}
    assert all(lobby[g]["guide"] for g in GAMES) and lobby["arena"]["tutorial"]


def test_a_refusal_names_the_guide_section_in_the_players_language(client: TestClient) -> None:
    data = create(client, "arena", config={"red_seat": 0, "position": "6x4 112b3,111a1 122b4,111d6 r 0 -"},
                  join_seat=0, player_name="Ann")
    mid = data["match"]["id"]
    join(client, mid, 1, "Bob")
    move = {"type": "move", "from": "b3", "to": "b4", "bonus": None}
    r = client.post(f"/api/matches/{mid}/check?lang=fr", json={"seat": 0, "token": data["token"], "version": 0, "action": move})
    body = r.json()
    assert body["legal"] is False and body["rule"].startswith("AR-5")
    assert body["rule_text"] == "Capturer"  # the French guide's section, never the developers' statement
    assert guide.section_of("arena", body["rule"]) == "capture"


def test_spacetable_rules_prints_the_players_guide(capsys: pytest.CaptureFixture[str]) -> None:
    games = {gid: get_game(gid) for gid in available()}
    parser = cli.build_parser(games)
    ns = parser.parse_args(["rules", "arena", "--lang", "fr"])
    assert ns.run(ns) == 0
    out = capsys.readouterr().out
    assert out.startswith("Cosmic Arena : comment jouer") and "Capturer" in out and "**" not in out
    assert "[Contenu maison]" in out
    ns = parser.parse_args(["rules", "worlds", "--lang", "ru", "--section", "goal"])
    assert ns.run(ns) == 0
    assert capsys.readouterr().out.count("\n-") == 1
    ns = parser.parse_args(["rules", "nosuch"])
    assert ns.run(ns) == 2
