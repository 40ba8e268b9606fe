"""The house set keeps the spec's design constraints (§6.5) and labelling (§6.6); owner packs load
only when every record is valid (§6), errors naming the file, the record and the field."""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from spacetable.core import catalog
from spacetable.core.errors import ConfigError
from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.board import distance, make_board
from spacetable.games.galaxies.packs import HOUSE_LABEL, PACKS, PackError, bundled_pack, load_pack_content, named_pack
from spacetable.games.galaxies.policy import fleet_value
from spacetable.games.galaxies.scenario import house_files

HOUSE = bundled_pack("house")
BANDS = {  # size: move, shields, hull, activation, launch solo, launch squadron, grid cells
    "small": ((4, 6), (0, 2), (1, 3), (1, 3), (3, 8), (6, 14), (8, 16)),
    "medium": ((3, 5), (2, 5), (3, 6), (2, 4), (8, 16), None, (16, 28)),
    "large": ((2, 3), (4, 8), (7, 12), (3, 6), (14, 24), None, (28, 44)),
}


def within(v: int, band: tuple[int, int]) -> bool:
    return band[0] <= v <= band[1]


@pytest.mark.rule("BG-1.2", "BG-3.1")
def test_roster_shape() -> None:
    """12 named ships; per faction 1 large flagship transporter, 2 medium solos, 1 small solo,
    2 squadrons of 3; ISN Barrage is medium (§6.5)."""
    assert len(HOUSE.ships) == 12
    for faction in ("isn", "wretch"):
        ships = [s for s in HOUSE.ships.values() if s.faction == faction]
        kinds = Counter((s.size, s.squadron_size) for s in ships)
        assert kinds == {("large", 1): 1, ("medium", 1): 2, ("small", 1): 1, ("small", 3): 2}
        assert all(set(s.versions) == {"standard", "seasoned", "veteran"} for s in ships)
        flag = next(s for s in ships if s.size == "large")
        assert all(5 <= v.capacity <= 12 for v in flag.versions.values())
        cap = flag.versions["standard"].capacity
        assert cap >= 3 + 2 or cap >= 6  # a squadron plus a medium, or two squadrons
        carriers = [s for s in ships if s.size == "medium" and any(v.capacity for v in s.versions.values())]
        assert len(carriers) <= 1 and all(v.capacity <= 3 for s in carriers for v in s.versions.values())
    assert HOUSE.ships["barrage"].size == "medium"


@pytest.mark.rule("BG-12.1", "BG-12.5")
def test_stat_bands_weapons_and_silhouettes() -> None:
    for ship in HOUSE.ships.values():
        move, shields, hull, act, solo, squad, cells = BANDS[ship.size]
        assert within(ship.cells, cells), ship.key
        rows = [r for r in range(8) if "#" in ship.grid[r]]
        cols = [c for c in range(10) if any(ship.grid[r][c] == "#" for r in range(8))]
        assert len(rows) >= 2 and len(cols) >= 3, ship.key
        cells_set = {(r, c) for r in range(8) for c in range(10) if ship.grid[r][c] == "#"}
        seen, todo = set(), [next(iter(cells_set))]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells_set]
        assert seen == cells_set, f"{ship.key}: the silhouette is orthogonally connected"
        for name, v in ship.versions.items():
            where = f"{ship.key} {name}"
            assert within(v.move, move) and within(v.shields, shields) and within(v.hull, hull), where
            assert within(v.activation_cost, act), where
            assert within(v.launch_cost, squad if ship.squadron_size > 1 else solo), where  # type: ignore[arg-type]
            prim = [w for w in v.weapons if w.slot == "primary"]
            assert len(prim) == 1
            p = prim[0]
            assert within(p.range, (1, 8)) and within(p.attacks, (1, 3)) and within(p.strength, (1, 4)), where
            assert p.charge_cost == 0 or (p.charge_cost <= 3 and (p.range >= 6 or p.strength >= 3)), where
            assert all(within(w.charge_cost, (1, 4)) for w in v.weapons if w.slot == "secondary"), where


@pytest.mark.rule("BG-1.2")
def test_versions_rise_and_veterans_have_a_power_or_secondary() -> None:
    stats = ("shields", "hull", "move", "capacity")
    for ship in HOUSE.ships.values():
        vs = [ship.versions[k] for k in ("standard", "seasoned", "veteran")]
        for lo, hi in itertools.pairwise(vs):
            assert hi.launch_cost > lo.launch_cost and hi.activation_cost >= lo.activation_cost, ship.key
            assert all(getattr(hi, k) >= getattr(lo, k) for k in stats), ship.key
            gained = (
                sum(getattr(hi, k) - getattr(lo, k) for k in stats)
                + len(hi.weapons)
                - len(lo.weapons)
                + len(hi.powers)
                - len(lo.powers)
            )
            assert gained >= 1, f"{ship.key}: each version step adds a stat point or a power"
        vet = vs[2]
        assert vet.powers or any(w.slot == "secondary" for w in vet.weapons), ship.key


def test_same_role_silhouettes_stay_close_across_factions() -> None:
    def role(s):
        return (s.size, s.squadron_size)

    isn = sorted((role(s), s.cells) for s in HOUSE.ships.values() if s.faction == "isn")
    wr = sorted((role(s), s.cells) for s in HOUSE.ships.values() if s.faction == "wretch")
    for (ra, ca), (rb, cb) in zip(isn, wr, strict=True):
        assert ra == rb and abs(ca - cb) <= 4


@pytest.mark.rule("BG-4.1", "BG-4.2")
def test_balance_gate_d_no_version_dominates_budget_optimiser_fleets() -> None:
    """Gate (d), as bench/galaxies_balance.py measures it: the tactician's fleet worth with each
    ship's worth shaken by ±25 %, 200 draws per faction; no version is in more than 80 % of them."""
    budget = HOUSE.missions["m2-skirmish"].fleets["A"].budget
    assert budget is not None
    rng = Rng.from_seed(5)
    for faction in ("isn", "wretch"):
        ships = [s for s in HOUSE.ships.values() if s.faction == faction]
        others = [s for s in HOUSE.ships.values() if s.faction != faction]
        enemy_hit = sum(s.cells for s in others) / len(others) / 80
        combos = []
        for combo in itertools.product(*[[None, *s.versions] for s in ships]):
            chosen = [(s, v) for s, v in zip(ships, combo, strict=True) if v]
            if chosen and sum(s.versions[v].cost for s, v in chosen) <= budget:
                combos.append((fleet_value(chosen, enemy_hit), chosen))
        counts: Counter[str] = Counter()
        for _ in range(200):
            noise = {s.key: 0.75 + 0.5 * rng.random() for s in ships}
            _, best = max(combos, key=lambda c: c[0] * sum(noise[s.key] for s, _ in c[1]) / len(c[1]))
            counts.update(f"{s.key}:{v}" for s, v in best)
        assert max(counts.values()) <= 160, counts.most_common(3)


@pytest.mark.rule("BG-4.1")
def test_balance_gate_b_fleet_costs_and_default_budget() -> None:
    """Gate (b): standard fleets within ±5% of each other; the whole standard roster is 1.3–1.6 × budget."""
    totals = {f: sum(s.versions["standard"].cost for s in HOUSE.ships.values() if s.faction == f) for f in ("isn", "wretch")}
    a, b = totals["isn"], totals["wretch"]
    assert abs(a - b) <= 0.05 * min(a, b)
    budget = HOUSE.missions["m2-skirmish"].fleets["A"].budget
    assert budget is not None and all(Fraction(13, 10) <= Fraction(t, budget) <= Fraction(16, 10) for t in totals.values())


@pytest.mark.rule("BG-14.1")
def test_tactic_card_mix() -> None:
    """Per faction 36 copies, 2–3 each (heroes 1–2), the type mix, costs, damage and energy caps,
    one take-over name costing 6+ on small or medium ships; every effect of the vocabulary is used."""
    used = set()
    for faction in ("isn", "wretch"):
        cards = HOUSE.faction_tactics(faction)
        assert sum(c.copies_max for c in cards) == 36 and 12 <= len(cards) <= 15
        mix = Counter(c.type for c in cards)
        assert 2 <= mix["hero"] <= 4 and 2 <= mix["weapon"] <= 4 and 2 <= mix["upgrade"] <= 3
        assert 2 <= mix["event"] <= 4 and 1 <= mix["sabotage"] <= 3
        takeovers = [c for c in cards if any(e.op == "take_over" for e in c.effects)]
        assert len(takeovers) <= 1 and all(c.cost >= 6 for c in takeovers)
        for c in cards:
            assert (1 if c.type == "hero" else 2) <= c.copies_max <= (2 if c.type == "hero" else 3)
            assert 0 <= c.cost <= 8
            gain = sum(e.n or 0 for e in c.effects if e.op == "gain_energy")
            assert gain - c.cost <= 3
            for e in c.effects:
                used.add(e.op)
                if e.op == "damage":
                    assert (e.amount or 0) <= (2 if e.kind == "hull" else 3)
                if e.op == "take_over":
                    assert set(e.sizes or []) <= {"small", "medium"}
    for ship in HOUSE.ships.values():
        for v in ship.versions.values():
            used |= {e.op for p in v.powers for e in p.effects}
    assert used == {
        "gain_energy",
        "drain_energy",
        "draw",
        "damage",
        "repair_shields",
        "repair_hull",
        "extra_attacks",
        "modify",
        "add_weapon",
        "reroll",
        "cancel_hit",
        "ecm_immunity",
        "place_ship",
        "reveal_hold",
        "take_over",
    }
    assert len(HOUSE.tactics) >= 30


def test_missions_boards_and_layouts() -> None:
    """At least the four mission kinds of §6.5 plus Mission 5; symmetric layouts away from the zones."""
    m = HOUSE.missions
    kinds = {(len(x.seats), x.fleets["A"].mode) for x in m.values()}
    assert {(2, "budget"), (2, "fixed"), (3, "fixed"), (4, "budget")} <= kinds
    assert m["m4-double-front"].boards == ["house-double"] and m["m5-pan-base"].number == 5
    assert {x.number for x in m.values()} >= {1, 2, 3, 4, 5}
    assert all(x.max_rounds for x in m.values())
    for board, centre in (("house-standard", (11, 14)), ("house-double", (30, 14))):
        b = make_board(HOUSE.boards[board])
        feats = set(b.asteroids) | set(b.debris) | {h for h, _, _ in b.slots}
        zones = b.zones[0] | b.zones[1]
        assert feats and all(min(distance(h, z) for z in zones) > 3 for h in feats)
        assert {(centre[0] - q, centre[1] - r) for q, r in feats} == feats
        assert len(b.zones[0]) == len(b.zones[1])
    std = make_board(HOUSE.boards["house-standard"])
    assert len(std.full) == 285 and len(std.zones[0]) == 22


def test_house_content_is_labelled_everywhere() -> None:
    assert all(
        x.content_source == "house"
        for group in (HOUSE.ships, HOUSE.tactics, HOUSE.boards, HOUSE.missions)
        for x in group.values()
    )
    s = GAME.initial_state(GAME.normalize_config({}), 1)
    for seat in (0, 1, None):
        assert GAME.view(s, seat)["label"] == HOUSE_LABEL
    assert HOUSE_LABEL in GAME.render_text(s, 0)


def _files() -> dict:
    return copy.deepcopy(house_files())


@pytest.mark.rule("BG-8.8")
def test_a_bad_owner_pack_names_file_card_and_field_and_loads_nothing() -> None:
    files = _files()
    files["ships"][3]["versions"]["standard"]["capacity"] = 2  # f54 is small
    before = dict(PACKS)
    with pytest.raises(PackError) as err:
        load_pack_content({"pack_id": "mine", **files}, "my-cards.json")
    msg = str(err.value)
    assert "my-cards.json" in msg and "ship f54" in msg and "small ships have capacity 0" in msg
    assert before == PACKS
    files = _files()
    files["tactics"][0]["cost"] = "three"
    with pytest.raises(PackError) as err:
        load_pack_content({"pack_id": "mine", **files}, "my-cards.json")
    assert err.value.record == "tactic isn-cmdr-vale" and err.value.field == "cost"
    files = _files()
    files["missions"][0]["fleets"]["A"]["list"][0]["ship"] = "vapor"
    with pytest.raises(PackError) as err:
        load_pack_content({"pack_id": "mine", **files}, "my-cards.json")
    assert err.value.record == "mission m1-first-contact" and "D-21" in err.value.message
    with pytest.raises(ConfigError):
        GAME.normalize_config({"pack_content": {"pack_id": "x", "ships": [{"key": "bad"}]}})


def test_an_owner_pack_loads_as_owner_content_and_plays() -> None:
    files = _files()
    files["ships"][0]["name"] = "My Flagship"
    content = {"pack_id": "mine", "ships": files["ships"]}
    cfg = GAME.normalize_config({"pack_content": content})
    s = GAME.initial_state(cfg, 3)
    v = GAME.view(s, 0)
    assert v["content_source"] == "owner" and v["pack"] == "mine" and "House set" not in v["label"]
    assert s.pack.ships["everest"].name == "My Flagship" and s.pack.ships["everest"].content_source == "owner"
    again = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
    assert again.pack.digest == s.pack.digest


def test_configs_never_take_paths() -> None:
    with pytest.raises(ConfigError):
        GAME.normalize_config({"pack": "/etc/passwd"})
    with pytest.raises(ConfigError):
        GAME.normalize_config({"mission": "m4-double-front", "players": 2})
    assert GAME.normalize_config({"players": 3})["mission"] == "m5-pan-base"
    assert GAME.normalize_config({"mission": "m4-double-front"})["players"] == 4


def test_operator_packs_come_from_the_catalogue_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack is chosen by name among the catalogue's entries (bundled house, the operator's folder), never by path."""
    folder = tmp_path / "galaxies" / "packs" / "club"
    folder.mkdir(parents=True)
    files = _files()
    files["ships"][1]["name"] = "Club Barrage"
    (folder / "ships.json").write_text(json.dumps(files["ships"]), encoding="utf-8")
    monkeypatch.setattr(catalog, "_data_dir", tmp_path)
    monkeypatch.setattr(catalog, "_configured", True)
    s = GAME.initial_state(GAME.normalize_config({"pack": "club"}), 2)
    assert s.pack.ships["barrage"].name == "Club Barrage" and GAME.view(s, 0)["content_source"] == "owner"
    assert "club" in catalog.listing()["galaxies"]["packs"]
    for bad in ("../club", "nope", "/etc"):
        with pytest.raises(ConfigError):
            GAME.normalize_config({"pack": bad})
    files["ships"][3]["versions"]["standard"]["capacity"] = 2
    (folder / "ships.json").write_text(json.dumps(files["ships"]), encoding="utf-8")
    with pytest.raises(PackError) as err:
        named_pack("club")
    assert "club" in str(err.value) and "ship f54" in str(err.value) and str(tmp_path) not in str(err.value)
