"""Every language: the client's catalogues (spacetable/web/static/i18n/, also read by the server) and the games'
server catalogues (spacetable/games/<id>/i18n/, spacetable/core/i18n/) hold the same keys in English, French, Dutch
and Russian, with the same {fields}; every key the client uses exists, including the data-driven ones (game cards,
option labels and help, presets, AI descriptions, levels, endings, phases) and the plain-words explanation of every
rule a game on the new renderer interface refuses with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spacetable.core.i18n import LANGUAGES
from spacetable.games import available, get_game
from spacetable.games.tremble import effects as tremble_effects
from spacetable.games.tremble.flow import WINDOWS as TREMBLE_WINDOWS
from spacetable.games.worlds.events import house_deck
from spacetable.games.worlds.scenario import load, shipped_names
from spacetable.server.ai import agent_registry

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "spacetable" / "web" / "static"
#: Games whose renderer is on the new interface (all of them: their texts are complete).
NEW_RENDERERS = ("arena", "tremble", "worlds", "galaxies", "fullmetal")
#: Namespaces of the keys the client and the server's presentation module use.
NAMESPACES = ("app", "nav", "ui", "conn", "board", "play", "match", "resign", "leave", "share", "log", "clock", "seat",
              "level", "status", "result", "ending", "replay", "gone", "rules", "rule", "lobby", "option", "preset",
              "agent", "error", "game", "arena", "tremble", "worlds", "galaxies", "fm", "wb")


def catalogues(folder: Path) -> dict[str, dict[str, str]]:
    return {lang: json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES}


def fields(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def folders() -> list[Path]:
    found = [WEB / "i18n", ROOT / "spacetable" / "core" / "i18n"]
    found += sorted(p.parent for p in (ROOT / "spacetable" / "games").glob("*/i18n/en.json"))
    return found


@pytest.mark.parametrize("folder", folders(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_language_has_every_key(folder: Path) -> None:
    cats = catalogues(folder)
    keys = set(cats["en"])
    for lang, cat in cats.items():
        assert set(cat) == keys, f"{lang} differs from en: {sorted(set(cat) ^ keys)}"
        for key, value in cat.items():
            assert isinstance(value, str) and value.strip(), f"{lang} {key} is empty"
            assert fields(value) == fields(cats["en"][key]), f"{lang} {key}: fields differ from English"


def used_keys() -> set[str]:
    # a renderer is static/games/<id>.js and may import its own modules static/games/<id>-*.js
    sources = [*(WEB / "app").glob("*.js"), *(p for g in NEW_RENDERERS for p in (WEB / "games").glob(f"{g}*.js"))]
    names = "|".join(NAMESPACES)
    pattern = re.compile(r'["`]((?:' + names + r')\.[A-Za-z0-9_.-]*[A-Za-z0-9_])["`]')
    out: set[str] = set()
    for path in sources:
        out |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return out


def expected_data_keys() -> set[str]:
    keys = {f"level.{lv}" for lv in ("easy", "medium", "hard")} | {f"status.{s}" for s in ("open", "running", "finished")}
    keys |= {"arena.colour.red", "arena.colour.blue"} | {f"arena.phase.{p}" for p in ("place", "play", "over")}
    keys |= {f"arena.kind.{k}" for k in ("corvette", "no_action", "quiet_limit", "agreement", "resignation")}
    # tremble: phases, card kinds, regions, city types and effects named from the view's data
    keys |= {f"tremble.phase.{p}" for p in (*TREMBLE_WINDOWS, "over")} | {f"tremble.op.{op}" for op in tremble_effects.OPS}
    keys |= {f"tremble.kind.{k}" for k in tremble_effects.KINDS} | {f"tremble.region.{r}" for r in tremble_effects.REGIONS}
    keys |= {f"tremble.city_type.{c}" for c in tremble_effects.CITY_TYPES} | {"tremble.card_set.house"}
    keys |= worlds_data_keys()
    keys |= {f"ending.{k}" for k in ("corvette", "no_action", "quiet_limit", "agreement", "resignation", "take_off", "score",
                                     "material", "draw")}
    kinds = ("ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore")  # Full Metal (FM-4)
    keys |= {f"fm.kind.{k}" for k in kinds} | {f"fm.legend.kind.{k}" for k in kinds if k != "turret"}
    keys |= {f"fm.terrain.{k}" for k in ("sea", "reef", "swamp", "plain", "mountain")} | {f"fm.colour.{c}" for c in range(4)}
    keys |= {f"fm.tide.{k}" for k in ("low", "normal", "high")}
    keys |= {f"fm.phase.{p}" for p in ("land", "deploy", "play", "depart", "over")}
    keys |= {f"fm.orient.{o}" for o in ("north", "south")} | {f"fm.fire.{f}" for f in ("off", "enemy", "mine")}
    keys |= {f"fm.choice.{c}" for c in ("stay", "leave")}
    cards = (WEB / "app" / "gamecards.js").read_text(encoding="utf-8")
    for gid in available():
        game = get_game(gid)
        keys |= {f"game.{gid}.{part}" for part in ("name", "tagline", "length")}
        for o in game.options():
            keys |= {f"option.{gid}.{o.name}", f"option.{gid}.{o.name}.help"}
        agents, _ = agent_registry(game)
        keys |= {f"agent.{name}" for name in agents} | {f"agent.{name}.name" for name in agents}
        block = re.search(rf"\n  {gid}: \{{(.*?)\n  \}},", cards, re.S)
        assert block, f"no lobby card for {gid} in gamecards.js"
        for preset in re.findall(r'\{ id: "([\w-]+)"', block.group(1)):
            keys.add(f"preset.{gid}.{preset}")
            if len(re.findall(r'\{ id: "', block.group(1))) > 1:
                keys.add(f"preset.{gid}.{preset}.help")
    return keys


def worlds_data_keys() -> set[str]:
    """Keys the worlds renderer builds from the view: steps, card kinds, pieces, the house deck's cards, the reasons the
    skirmish ends, the side names of the shipped scenarios."""
    keys = {f"worlds.step.{s}" for s in ("turn", "allocate", "event", "energy", "tie", "retreat", "convert", "over")}
    keys |= {"worlds.card_kind.sun", "worlds.card_kind.world", "worlds.piece.P", "worlds.piece.F"}
    keys |= {f"worlds.end_reason.{r}" for r in "abc"}
    keys |= {f"worlds.why.{w}" for w in ("not_now", "not_asked", "sealed", "defender", "world", "population")}
    for code in house_deck():
        keys |= {f"worlds.event_name.{code}", f"worlds.event_text.{code}", f"worlds.event_status.{code}"}
    for name in shipped_names():
        keys |= {f"worlds.side.{side.lower()}" for side in load(name)["sides"]}
    return keys


def test_every_key_the_client_uses_exists() -> None:
    en = dict(catalogues(WEB / "i18n")["en"])
    for folder in folders()[2:]:  # the games' own catalogues, which the client loads with their renderers
        en.update(catalogues(folder)["en"])
    used = used_keys()
    dynamic = {k for k in used if k.endswith((".", "-"))}
    missing = sorted(k for k in used - dynamic if k not in en and not k.startswith(("rule.", "game.", "option.", "preset.")))
    assert not missing, f"keys used by the client but in no catalogue: {missing}"
    missing = sorted(k for k in expected_data_keys() if k not in en)
    assert not missing, f"data-driven keys missing from the catalogues: {missing}"


@pytest.mark.parametrize("game_id", NEW_RENDERERS)
def test_every_refusal_is_explained_in_every_language(game_id: str) -> None:
    """Each rule id the game raises has a plain-words explanation ``rule.<ID>`` (in the game's catalogue or the web's)."""
    package = ROOT / "spacetable" / "games" / game_id
    raised = set()
    for path in package.rglob("*.py"):
        raised |= set(re.findall(r'RuleError\(\s*"([A-Z]+-[A-Z0-9.]+)"', path.read_text(encoding="utf-8")))
    raised |= {"CORE-TURN", "CORE-ACTION", "CORE-PHASE", "CORE-RESIGN"}
    moves = get_game(game_id).moves
    raised |= set(moves.phase_rule.values()) if moves is not None else set()  # a move played out of its phase
    own = catalogues(package / "i18n")["en"] if (package / "i18n" / "en.json").exists() else {}
    web = catalogues(WEB / "i18n")["en"]
    missing = sorted(r for r in raised if f"rule.{r}" not in own and f"rule.{r}" not in web)
    assert not missing, f"{game_id}: refusals without an explanation: {missing}"
