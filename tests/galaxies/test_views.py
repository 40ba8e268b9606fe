"""The information model (spec §4): hands, screens, holds, deck order and face-down tiles never
reach a seat that may not see them — in views, action views, logs and errors — and
``determinize`` samples them without changing what the seat sees or may do."""

from __future__ import annotations

import json

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.state import GState

from .helpers import play_random, pos

STATES = [s for seed in (3, 8) for players in (2, 3, 4) for s in play_random(seed, players, steps=420)[40::45]]


def secrets_of(s: GState, side: int) -> set[str]:
    """Ids and names the other side may not see: hand cards, and (unless the mission lists the fleet)
    the cards behind the screen and unrevealed cargo."""
    out = set()
    sd = s.sides[side]
    for tid in sd.hand:
        out.add(tid)
    if s.missiondata.fleets["AB"[side]].mode == "fixed":
        return out
    for c in s.cards.values():
        if c.side == side and (c.zone == "screen" or (c.zone == "hold" and (1 - side) not in c.revealed_to)):
            out.add(c.id)
            out.update(c.pieces)
    return out


@pytest.mark.rule("BG-8.10")
def test_views_show_the_other_side_counts_only() -> None:
    checked = 0
    for s in STATES:
        for seat in [*range(s.num_players), None]:
            view = GAME.view(s, seat)
            text = json.dumps(view)
            for side in (0, 1):
                if seat is not None and s.side_of(seat) == side:
                    continue
                for secret in secrets_of(s, side):
                    assert f'"{secret}"' not in text, (seat, secret)
                entry = view["sides"][side]
                assert "hand" not in entry and "screen" not in entry
                assert entry["hand_count"] == len(s.sides[side].hand) and entry["deck_count"] == len(s.sides[side].deck)
                for card in view["cards"]:
                    if card["side"] == "AB"[side] and "hold" in card:
                        assert all(seat is not None and s.side_of(seat) in s.cards[h["id"]].revealed_to for h in card["hold"])
            for t in view["tiles"]:
                assert (t["kind"] is None) == (t["face"] == "down")
            assert "rng" not in text and str(s.rng.state) not in text
            checked += 1
    assert checked > 50


def test_private_events_reach_only_their_side() -> None:
    s = pos(
        phase="action",
        active="B",
        energy={"A": 10, "B": 10},
        decks={"A": ["isn-railgun", "isn-evasive"]},
        fleets={"A": [{"ship": "barrage", "at": [[[9, 4], [10, 4]]]}], "B": [{"ship": "teskio", "at": [[[9, 10], [10, 10]]]}]},
    )
    s = GAME.apply(s, 1, {"type": "end_turn"})
    mine = [e for e in GAME.view(s, 0)["events"] if e["t"] == "draw"]
    assert mine and mine[-1]["key"] == "isn-railgun"
    assert not [e for e in GAME.view(s, 1)["events"] if e["t"] == "draw"]
    assert not [e for e in GAME.view(s, None)["events"] if e["t"] == "draw"]


@pytest.mark.rule("BG-8.10")
def test_a_launch_shows_the_cargo_count_not_the_cargo() -> None:
    s = pos(
        phase="deploy",
        active="A",
        energy={"A": 40, "B": 20},
        fleets={"A": [{"ship": "everest"}, {"ship": "f51"}, {"ship": "barrage"}], "B": [{"ship": "vapor", "at": [[9, 12]]}]},
    )
    a = GAME.parse_action(s, 0, "launch everest 9,2 cargo f51 barrage")
    seen = GAME.action_view(s, 0, a, 1)
    assert "cargo" not in seen and seen["cargo_count"] == 2  # type: ignore[operator,index]
    assert GAME.action_view(s, 0, a, None) == seen and GAME.action_view(s, 0, a, 0) == a


def test_errors_read_the_same_for_hidden_and_unknown_cards() -> None:
    """An error about an enemy card in a hold says nothing a made-up name would not."""
    s = pos(
        phase="action",
        active="A",
        energy={"A": 40, "B": 20},
        fleets={
            "A": [{"ship": "everest", "at": [[9, 4]]}],
            "B": [{"ship": "vapor", "at": [[9, 11]]}, {"ship": "tougu", "holder": "vapor"}],
        },
    )
    for make in (
        lambda x: {"type": "attack", "ship": "everest", "weapon": "broadside", "target": f"{x}#1"},
        lambda x: {"type": "activate", "card": x},
    ):
        messages = []
        for name in ("tougu", "ghost"):
            with pytest.raises(RuleError) as err:
                GAME.apply(s, 0, make(name))
            messages.append((err.value.rule, err.value.message.replace(name, "X")))
        assert messages[0] == messages[1]


@pytest.mark.rule("BG-8.10")
def test_determinize_keeps_the_view_and_the_legal_actions() -> None:
    for k, s in enumerate(STATES):
        for seat in GAME.to_act(s)[:1] or (0,):
            view = json.dumps(GAME.view(s, seat), sort_keys=True)
            legal = GAME.legal_actions(s, seat)
            for j in range(2):
                d = GAME.determinize(s, seat, Rng.from_seed(100 * k + j))
                assert json.dumps(GAME.view(d, seat), sort_keys=True) == view
                assert GAME.legal_actions(d, seat) == legal
                for c in d.cards.values():  # capacities and sizes still hold in the sample
                    if c.cargo:
                        used = sum(d.shipdata(x).footprint for x in c.cargo)
                        assert used <= d.vdata(c.id).capacity
                        assert all(d.shipdata(x).size != "large" for x in c.cargo)


def test_determinize_samples_hidden_cargo_and_hands() -> None:
    s = pos(
        phase="action",
        active="A",
        energy={"A": 40, "B": 20},
        hands={"B": ["wr-regrowth", "wr-void-jump", "wr-mind-sever"]},
        decks={"B": ["wr-blood-frenzy"] * 3 + ["wr-acid-sprayer"] * 3},
        fleets={
            "A": [{"ship": "everest", "at": [[9, 4]]}],
            "B": [{"ship": "vapor", "at": [[9, 11]]}, {"ship": "tougu", "holder": "vapor"}],
        },
    )
    holds, hands = set(), set()
    for k in range(30):
        d = GAME.determinize(s, 0, Rng.from_seed(k))
        holds.add(tuple(sorted(d.cards[x].key for x in d.cards["vapor"].cargo)))
        hands.add(tuple(sorted(d.tactics[t].key for t in d.sides[1].hand)))
        assert len(d.cards["vapor"].cargo) == 1
    assert len(holds) > 1 and len(hands) > 1
    own = GAME.determinize(s, 1, Rng.from_seed(1))
    assert [own.tactics[t].key for t in own.sides[1].hand] == [s.tactics[t].key for t in s.sides[1].hand]
    assert own.cards["vapor"].cargo == ["tougu"]
