"""Configuration options ``fullmetal.*`` (spec §1.2) and the presets ``original``, ``pc`` and ``fmg``."""

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
    Option("landing_rule", "distance", ("distance", "zones"), help="FM-7.2 / D-3"),
    Option("landing_min_distance", 10, kind="int", minimum=2, maximum=30),
    Option("landing_clear_radius", 4, kind="int", minimum=0, maximum=8),
    Option("deploy_radius", 4, kind="int", minimum=1, maximum=8),
    Option("deploy_secret", True, kind="bool"),
    Option("deploy_forecast", False, kind="bool"),
    Option("tide_generator", "deck", ("deck", "random_walk")),
    Option("forecast", "per_layer", ("per_layer", "single", "max2")),
    Option("ore_values", "standard", ("standard", "multi")),
    Option("ore_placement", "lattice", ("lattice", "random")),
    Option("reserve", "original", ("original", "per_player")),
    Option("base_income", 15, (15, 20, 25), kind="int"),
    Option("takeoff_cost", "original", ("original", "free")),
    Option("endgame", "original", ("original", "fmg")),
    Option("neutralization", "original", ("original", "fmg")),
    Option("mountain_tanks", "end_of_turn", ("end_of_turn", "no_zone", "penalty")),
    Option("turret_ammo", 2, (2, "unlimited"), kind="json"),
    Option("barge_target", "same_hex", ("same_hex", "either_hex")),
    Option("cargo_size", "nested", ("nested", "shell")),
    Option("turn_clock_s", None, (None, 60, 180, 270), kind="json"),
    Option("landing_clock_s", None, (None, 180), kind="json"),
    Option("deploy_clock_s", None, (None, 180), kind="json"),
]

#: Preset values (spec §1.2 "Alternatives" columns); ``original`` is the defaults.
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
