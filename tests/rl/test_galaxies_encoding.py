"""The Battleship Galaxies encoding: series name what the rules mean (final footprints, cargo, fleets)
and observations come from the seat's view only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.games import get_game
from spacetable.games.galaxies.board import step
from spacetable.games.galaxies.movement import reachable
from spacetable.rl.encoders import make_encoder
from spacetable.rl.encoders.galaxies import GalaxiesEncoder

GAME = get_game("galaxies")


def states(cfg: dict[str, Any], seed: int, limit: int = 600) -> Iterator[tuple[Any, int]]:
    """(state, seat to act) along a random game."""
    state = GAME.initial_state(GAME.normalize_config(cfg), seed)
    rng = Rng(seed)
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return
        seat = GAME.to_act(state)[0]
        yield state, seat
        legal = [a for a in agent_actions(GAME.legal_actions(state, seat)) if a["type"] != "resign"]
        state = GAME.apply(state, seat, legal[rng.randbelow(len(legal))])


def decode_cells(enc: GalaxiesEncoder, seq: tuple[int, ...]) -> set[tuple[int, int]]:
    """The hexes named by the ``d`` cell (and ``dir``) tokens of a series."""
    def part(name: str) -> int | None:
        base, n = enc.offsets[name], enc.counts[name]
        return next((t - base for t in seq if base <= t < base + n), None)

    col, row = part("d_x"), part("d_y")
    assert col is not None and row is not None
    r = row + enc.row0
    first = (col + enc.col0 - (r - (r & 1)) // 2, r)
    d = part("dir")
    return {first} if d is None else {first, step(first, d)}


@pytest.mark.rule("BG-10.2", "BG-10.3", "BG-10.4")
def test_a_move_series_names_its_final_footprint() -> None:
    """Small ship: the hex; medium: the lead hex and the direction to the trail; large: the centre
    (the rosette follows). The decoded footprint is the engine's reachable footprint of that move."""
    enc = make_encoder("galaxies", {"mission": "m1-first-contact"})
    sizes: set[str] = set()
    checked = 0
    for state, seat in states({"mission": "m1-first-contact"}, 4, 900):
        act = state.activation
        if act is None or act.step == "attack":
            continue
        dec = enc.decision(state, seat)
        routes: dict[str, dict[Any, Any]] = {}
        for a, seq in zip(dec.actions, dec.sequences, strict=True):
            if a["type"] != "move":
                continue
            if a["ship"] not in routes:
                routes[a["ship"]] = {(str(r.lead), tuple(r.path)): r for r in reachable(state, a["ship"], least_ecm=False)}
            route = routes[a["ship"]][str(tuple(a["lead"])) if a["lead"] else "None", tuple(a["path"])]
            size = state.shipdata(state.pieces[a["ship"]].card).size
            sizes.add(size)
            named = decode_cells(enc, seq)
            if size == "large":
                assert set(map(tuple, route.hexes)) == {h for c in named for h in [c, *(step(c, d) for d in range(6))]}
            else:
                assert named == set(map(tuple, route.hexes))
            checked += 1
        if checked > 400 and len(sizes) == 3:
            break
    assert checked > 50 and sizes == {"small", "medium", "large"}


@pytest.mark.rule("BG-8.6", "BG-8.7")
def test_a_transporter_launch_lists_its_cargo_then_done() -> None:
    enc = make_encoder("galaxies")
    done = enc.offsets["done"]
    cargo = range(enc.offsets["cargo"], enc.offsets["cargo"] + enc.counts["cargo"])
    seen = 0
    for seed in range(6):
        for state, seat in states({}, seed, 60):
            dec = enc.decision(state, seat)
            for a, seq in zip(dec.actions, dec.sequences, strict=True):
                if a["type"] == "launch" and a["cargo"]:
                    tail = [t for t in seq if t in cargo]
                    assert seq[-1] == done or seq[-2] == done  # a variant token may follow
                    assert len(tail) == len(a["cargo"]) and tail == sorted(tail)
                    seen += 1
    assert seen > 0


@pytest.mark.rule("BG-4.4")
def test_a_fleet_is_one_choice_per_roster_ship() -> None:
    enc = make_encoder("galaxies")
    state = GAME.initial_state(GAME.normalize_config({}), 0)
    dec = enc.decision(state, 0)
    roster = [k for k in enc.ships if enc.factions[k] == state.sides[0].faction]
    assert {len(s) for s in dec.sequences} == {1 + len(roster)}
    first = dec.choices([dec.sequences[0][0]])
    assert 2 <= len(first) <= 4  # the first roster ship: not taken or one of its versions within the budget


@pytest.mark.rule("BG-8.10", "BG-6.5")
def test_observation_ignores_what_the_seat_cannot_see() -> None:
    """Resampling the other side's hidden cards (hand, deck, screen, hold identities) and the face-down
    tiles (``determinize``) leaves seat 0's observation unchanged."""
    enc = make_encoder("galaxies")
    changed = 0
    for state, _ in states({}, 2, 300):
        if state.phase in ("fleet", "deck", "over"):
            continue
        other = GAME.determinize(state, 0, Rng(99))
        if [other.tactics[t].key for t in other.sides[1].hand] != [state.tactics[t].key for t in state.sides[1].hand]:
            changed += 1
        assert np.array_equal(enc.observe(GAME.view(state, 0), 0), enc.observe(GAME.view(other, 0), 0))
    assert changed > 10
