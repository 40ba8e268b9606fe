"""Configuration options ``fullmetal.*`` and the presets ``original``, ``pc`` and ``fmg`` (rules doc, "Variants").

Every numeric option declares its ``minimum`` and ``maximum`` (shown by the lobby and enforced by
``normalize_config``).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Option

OPTIONS: list[Option] = [
    Option("preset", "original", ("original", "pc", "fmg"), help="option preset; explicit options override it"),
    Option("map", "original", ("original", "generated", "custom"),
           help="a map of the catalogue (original: the classic map), a seeded generated map, or custom (map_content)"),
    Option("map_content", "", help="the text of your own .fmp map (with map=custom; at most 128 KiB)"),
    Option("map_seed", 0, kind="int", help="generator seed (0: derived from the game seed)", minimum=0, maximum=2**31 - 1),
    Option("map_size", "medium", ("small", "medium", "large"), help="generated map size"),
    Option("landing_rule", "distance", ("distance", "zones"), help="FM-7.2 distance rule (FM-D3), or FM-D47 landing zones"),
    Option("landing_min_distance", 10, kind="int", help="FM-7.2 (c): least dome-to-dome distance", minimum=2, maximum=30),
    Option("landing_clear_radius", 4, kind="int", help="FM-7.3: ore cleared around the dome", minimum=0, maximum=8),
    Option("deploy_radius", 4, kind="int", help="FM-8.2 (a): deployment distance from the dome", minimum=1, maximum=8),
    Option("deploy_secret", True, kind="bool", help="FM-8.1: deployments stay hidden until all are in"),
    Option("deploy_forecast", False, kind="bool", help="pc: a weather layer sees the turn-3 tide while deploying"),
    Option("tide_generator", "deck", ("deck", "random_walk"), help="FM-2.3 card deck or FM-2.6 random walk"),
    Option("forecast", "per_layer", ("per_layer", "single", "max2"), help="FM-13.3: tides seen per weather layer"),
    Option("ore_values", "standard", ("standard", "multi"), help="FM-3.4 ore worth 2, or FM-D42 kinds"),
    Option("ore_placement", "lattice", ("lattice", "random"), help="FM-3.1 lattice or FM-D46 random"),
    Option("reserve", "original", ("original", "per_player"), help="FM-4 reserve of tanks, crabs, pontoons"),
    Option("base_income", 15, (15, 20, 25), kind="int", help="FM-9.1: AP per turn from turn 5", minimum=15, maximum=25),
    Option("takeoff_cost", "original", ("original", "free"), help="FM-20.2: 1 + destroyed turrets, or free"),
    Option("endgame", "original", ("original", "fmg"), help="FM-20.1 secret turn 21, or FM-D41 turns 21 and 26"),
    Option("neutralization", "original", ("original", "fmg"), help="FM-15.5 locks neutralizers, or no lock"),
    Option("mountain_tanks", "end_of_turn", ("end_of_turn", "no_zone", "penalty"), help="FM-19.1 or FM-19.2"),
    Option("turret_ammo", 2, (2, "unlimited"), kind="json", help="FM-D26: the shots per turn of a turret", minimum=2, maximum=2),
    Option("barge_target", "same_hex", ("same_hex", "either_hex"), help="FM-16.2 or FM-D43"),
    Option("cargo_size", "nested", ("nested", "shell"), help="FM-11.3 slots of a loaded crab or WL"),
    Option("turn_clock_s", None, (None, 60, 180, 270), kind="json", help="FM-22.1: seconds per player turn (null: no clock)",
           minimum=60, maximum=270),
    Option("landing_clock_s", None, (None, 180), kind="json", help="FM-22.1: seconds to land (null: no clock)",
           minimum=180, maximum=180),
    Option("deploy_clock_s", None, (None, 180), kind="json", help="FM-22.1: seconds to deploy (null: no clock)",
           minimum=180, maximum=180),
]

#: Preset values (the "Alternatives" column of the rules doc's variant table); ``original`` is the defaults.
PRESETS: dict[str, dict[str, Any]] = {
    "original": {},
    "pc": {"landing_min_distance": 8, "deploy_forecast": True, "ore_placement": "random"},
    "fmg": {
        "tide_generator": "random_walk", "forecast": "max2", "reserve": "per_player", "takeoff_cost": "free",
        "endgame": "fmg", "neutralization": "fmg", "mountain_tanks": "no_zone", "turret_ammo": "unlimited",
        "barge_target": "either_hex", "deploy_radius": 3, "ore_values": "multi",
    },
}


def apply_preset(config: dict[str, Any]) -> dict[str, Any]:
    """Fill preset values for options the caller did not set."""
    out = dict(config)
    preset = out.get("preset", "original")
    for k, v in PRESETS.get(preset, {}).items():
        out.setdefault(k, v)
    return out
