"""Hypothesis properties over random legal play (2, 3 and 4 seats), to the end of the game:
capacity never exceeded, no ship on a rim hex or an asteroid, energy within 0..40, pegs within the
card values, every listed action is accepted, ``apply`` is pure, JSON round trip, replay equality."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from spacetable.core.match import Match, state_fingerprint
from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.board import distance, rosette
from spacetable.games.galaxies.packs import SIZE_RANK
from spacetable.games.galaxies.state import GState

from .helpers import weighted

WEIGHTS = {
    "attack": 40,
    "launch": 25,
    "launch_from_hold": 30,
    "activate": 20,
    "charge": 8,
    "move": 4,
    "warp": 2,
    "play_tactic": 4,
    "respond": 4,
    "discard_for_energy": 0.3,
}


def invariants(s: GState) -> None:
    board = s.geo
    seen: dict[tuple[int, int], str] = {}
    for c in s.cards.values():
        v = s.vdata(c.id)
        if c.cargo:  # BG-8.7, BG-8.8, BG-8.9
            assert sum(s.shipdata(x).footprint for x in c.cargo) <= v.capacity, c.id
            assert all(SIZE_RANK[s.shipdata(x).size] < SIZE_RANK[s.shipdata(c.id).size] for x in c.cargo)
            assert all(s.cards[x].zone == "hold" and s.cards[x].holder == c.id and not s.cards[x].cargo for x in c.cargo)
            assert not c.from_hold
        for pid in c.pieces:
            p = s.pieces[pid]
            assert 0 <= p.shields <= v.shields and p.hull >= 0, pid  # BG-13.1
            if p.alive:
                assert p.hull < v.hull, pid  # BG-13.4
            if c.zone == "play" and p.alive:
                size = s.shipdata(c.id).size
                assert len(p.hexes) == {"small": 1, "medium": 2, "large": 7}[size]
                if size == "medium":
                    assert distance(*p.hexes) == 1
                if size == "large":
                    assert set(p.hexes) == set(rosette(p.hexes[0]))
                for h in p.hexes:  # BG-2.5, BG-15.6, BG-10.6
                    assert board.open(h), (pid, h)
                    assert h not in seen, (pid, seen.get(h))
                    seen[h] = pid
            else:
                assert not p.hexes or c.zone == "play"
    for sd in s.sides:  # BG-6.2
        assert 0 <= sd.energy <= 40


def play_to_end(seed: int, players: int, check_listed: bool) -> tuple[Match, GState]:
    match = Match.new(GAME, {"players": players}, seed)
    s = match.initial_state()
    rng = Rng.from_seed(seed)
    for step in range(4000):
        seats = GAME.to_act(s)
        if not seats:
            break
        seat = seats[rng.randbelow(len(seats))]
        legal = agent_actions(GAME.legal_actions(s, seat))
        assert legal
        if check_listed and step % 23 == 0:
            before = state_fingerprint(GAME, s)
            for a in legal[:: max(1, len(legal) // 25)]:
                GAME.apply(s, seat, a)  # every listed action is accepted
            assert state_fingerprint(GAME, s) == before  # apply is pure
        if step % 40 == 0:
            again = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
            assert state_fingerprint(GAME, again) == state_fingerprint(GAME, s)
        a = weighted(rng, legal, WEIGHTS)
        s = match.play(s, seat, a)
        invariants(s)
    return match, s


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31 - 1), players=st.sampled_from([2, 3, 4]))
@example(seed=124, players=4)  # a flagship that began its activation on a warp gate was offered a warp
def test_random_play_to_the_end_keeps_the_invariants(seed: int, players: int) -> None:
    match, s = play_to_end(seed, players, check_listed=True)
    out = GAME.outcome(s)
    assert out is not None and not GAME.to_act(s)
    assert state_fingerprint(GAME, match.replay()) == state_fingerprint(GAME, s)
    back = Match.from_json(json.loads(json.dumps(match.to_json())), lambda gid: GAME)
    assert state_fingerprint(GAME, back.replay()) == state_fingerprint(GAME, s)


def test_each_seat_count_reaches_an_outcome() -> None:
    for players in (2, 3, 4):
        _, s = play_to_end(1000 + players, players, check_listed=False)
        assert GAME.outcome(s) is not None
