"""Property tests over random legal play (TH-4.6, TH-11.1, TH-D8 and the information model IM): limits, conservation,
no negative humans during play, JSON round trip, replay equality, honest views, determinisation."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core.match import Match, state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.tremble import GAME
from spacetable.games.tremble.ai import AGENTS, DEFAULT_AGENT, HeuristicAgent, MCTSCaptain
from spacetable.games.tremble.cards import get_set
from spacetable.games.tremble.state import TState

from .tremble_helpers import sample

H = get_set("house")


def all_cards(s: TState) -> Counter[str]:
    """Every ship-deck card location (TH-1.1): decks, discards, out of game, hands, drawn, stations."""
    c: Counter[str] = Counter()
    for pile in (s.blue_deck, s.red_deck, s.ship_discard, s.out):
        c.update(pile)
    for p in s.players:
        c.update(p.hand)
        c.update(p.drawn)
        c.update(p.stations)
    return c


def comp_cards(s: TState) -> Counter[str]:
    c: Counter[str] = Counter(s.comp_deck)
    c.update(s.comp_discard)
    for p in s.players:
        c.update(p.comps)
    return c


def check_invariants(s: TState) -> None:
    ship_cards = all_cards(s)
    assert set(ship_cards) == set(H.ships) | set(H.stations) and max(ship_cards.values()) == 1, "ship-deck conservation"
    assert sorted(comp_cards(s)) == sorted(H.comps), "compensation conservation"
    armies = Counter(s.army_deck) + Counter(s.army_discard) + Counter(s.contest.revealed if s.contest else [])
    assert sorted(armies) == sorted(H.armies)
    for p in s.players:
        if s.phase != "over":
            assert p.humans >= 0, "TH-D8"
        assert len(p.hand) <= 5 and len(p.stations) <= 2
        assert len({H.base_id(x) for x in p.stations}) == len(p.stations)
        assert all(x in H.ships for x in p.hand) and all(x in H.stations for x in p.stations)
        assert len(p.comps) == len(p.comp_turns)
    cities = Counter(s.city_deck) + Counter(s.city_discard) + Counter(s.slots)
    for p in s.players:
        cities.update(p.trophies)
    assert max(cities.values()) <= 2  # a slot's city is counted once more while it is being resolved into a pile
    assert len(set(s.city_deck) | set(s.city_discard) | {t for p in s.players for t in p.trophies} | set(s.slots)) == sum(
        1 for c in H.cities.values() if c.min_players <= s.num_players
    )


def play_random(players: int, seed: int, check_every: bool = True, smart: float = 0.0) -> tuple[TState, list[tuple[int, dict]]]:
    """Random legal play; with ``smart`` > 0 that share of decisions is taken by the heuristic captain
    (reaching catches, claims and effect uses more often)."""
    s = GAME.initial_state({"players": players}, seed)
    rng = Rng.from_seed(seed + 1000)
    captain = HeuristicAgent(seed)
    log = []
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        a = captain.choose(GAME, s, seat) if smart and rng.random() < smart else sample(s, seat, rng)
        before = [list(p.trophies) for p in s.players]
        s = GAME.apply(s, seat, a)
        log.append((seat, a))
        if check_every:
            check_invariants(s)
            for p, old in zip(s.players, before, strict=True):
                assert p.trophies[: len(old)] == old, "TH-10.9: trophies are never lost"
            if s.phase in ("redraw", "buy"):
                assert s.slots == [] and s.groups == [] and s.contest is None, "TH-3.3: the slots are empty"
    return s, log


@pytest.mark.rule("TH-D8", "TH-4.6", "TH-11.1", "TH-1.1", "TH-3.3", "TH-10.9", "TH-P2")
@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), smart=st.sampled_from([0.0, 0.6]))
def test_random_play_invariants(players: int, seed: int, smart: float) -> None:
    """TH-D8 humans never negative in play, TH-4.6/TH-11.1 limits, card conservation, after every action."""
    s, _ = play_random(players, seed, smart=smart)
    out = GAME.outcome(s)
    assert out is not None and len(out.scores) == players and out.winners


@pytest.mark.rule("TH-P4", "TH-0.1")
@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_json_round_trip_and_replay_equality(players: int, seed: int) -> None:
    s, log = play_random(players, seed, check_every=False)
    data = json.loads(json.dumps(GAME.state_to_json(s)))
    back = GAME.state_from_json(data)
    assert state_fingerprint(GAME, back) == state_fingerprint(GAME, s)
    m = Match.new(GAME, {"players": players}, seed)
    state = m.initial_state()
    mid = None
    for i, (seat, a) in enumerate(log):
        state = m.play(state, seat, a)
        if i == len(log) // 2:
            mid = state
    assert state_fingerprint(GAME, m.replay()) == state_fingerprint(GAME, s)
    assert mid is not None
    mid2 = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(mid))))
    assert state_fingerprint(GAME, mid2) == state_fingerprint(GAME, mid)


def _private_ids(s: TState, seat: int) -> set[str]:
    hidden: set[str] = set()
    for i, p in enumerate(s.players):
        if i != seat:
            hidden.update(x for x in p.hand if x not in p.known)
            hidden.update(p.drawn)
            hidden.update(p.comps)
    return hidden


@pytest.mark.rule("IM-1", "IM-2", "IM-3", "IM-4", "IM-5", "TH-12.1", "TH-D26")
def test_IM_views_never_leak_private_cards() -> None:
    """IM-2/IM-3: another seat's unrevealed ships, drawn cards, compensation cards, deck orders never appear."""
    for players, seed in ((2, 3), (4, 5), (5, 8)):
        s = GAME.initial_state({"players": players}, seed)
        rng = Rng.from_seed(seed)
        agents = [HeuristicAgent(i) for i in range(players)]
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            a = agents[seat].choose(GAME, s, seat) if rng.random() < 0.5 else sample(s, seat, rng)
            for viewer in range(players):
                if viewer != seat:
                    av = GAME.action_view(s, seat, a, viewer)
                    if s.phase in ("buy", "plan", "loss", "claim", "station_move", "self_move"):
                        assert av == {"type": "committed", "phase": s.phase}
            s = GAME.apply(s, seat, a)
            for viewer in [*range(players), None]:
                text = json.dumps(GAME.view(s, viewer))
                assert "rng" not in text and "deck_order" not in text
                secret = _private_ids(s, viewer if viewer is not None else -1) if s.phase != "over" else set()
                leaked = [x for x in secret if f'"{x}"' in text]
                # a card publicly known elsewhere (discard piles, stations) may share no id with a secret card
                assert not leaked, (viewer, leaked)
                for i, p in enumerate(GAME.view(s, viewer)["players"]):
                    if i != viewer and s.phase != "over":
                        assert "hand" not in p and "comps" not in p and "drawn" not in p


@pytest.mark.rule("IM-6", "IM-3")
def test_IM6_determinize_keeps_the_view_and_resamples() -> None:
    def hidden_elsewhere(s: TState) -> bool:
        last = GAME.to_act(s)[-1]
        others = [p for i, p in enumerate(s.players) if i != last]
        return any(x not in p.known and H.ships[x].deck != "training" for p in others for x in p.hand)

    for start in range(21, 40):  # a position where another seat holds unrevealed bought ships
        s = GAME.initial_state({"players": 4}, start)
        rng = Rng.from_seed(2)
        while s.turn < 4 or s.phase != "plan":
            seat = GAME.to_act(s)[0]
            s = GAME.apply(s, seat, sample(s, seat, rng))
        if hidden_elsewhere(s):
            break
    seat = GAME.to_act(s)[-1]
    base_view = GAME.view(s, seat)
    changed = False
    for k in range(10):
        d = GAME.determinize(s, seat, Rng.from_seed(k))
        check_invariants(d)
        v = GAME.view(d, seat)
        for key in ("players", "slots", "missions", "piles", "turn", "phase"):
            if key == "players":
                for a, b in zip(v["players"], base_view["players"], strict=True):
                    assert a == b
            else:
                assert v[key] == base_view[key]
        assert d.rng.state != s.rng.state
        others = [i for i in range(4) if i != seat]
        if any(sorted(d.players[i].hand) != sorted(s.players[i].hand) for i in others):
            changed = True
        for i in others:
            assert sorted(H.ships[x].deck for x in d.players[i].hand) == sorted(H.ships[x].deck for x in s.players[i].hand)
            assert len(d.players[i].hand) == len(s.players[i].hand)
            assert all(x in H.ships for x in d.players[i].hand)
            for x in s.players[i].known:
                assert x in d.players[i].hand
    assert changed


@pytest.mark.rule("IM-6", "TH-H6")
def test_IM6_mcts_captain_moves_for_a_later_seat_in_a_sealed_phase() -> None:
    """The MCTS captain (generic SO-ISMCTS) chooses a legal commit even when an earlier seat is still to commit."""
    s = GAME.initial_state({"players": 3}, 4)
    assert s.phase in ("buy", "redraw")
    while s.phase != "buy":
        s = GAME.apply(s, GAME.to_act(s)[0], {"type": "keep"})
    agent = MCTSCaptain(seed=1, iterations=8)
    a = agent.choose(GAME, s, 2)
    assert a in GAME.legal_actions(s, 2)
    s2 = GAME.apply(s, 2, a)
    assert s2.sealed.waiting() == (0, 1)


@pytest.mark.rule("TH-P3", "IM-6")
def test_TH5_timeout_defaults_are_always_legal() -> None:
    """TH-P3: the timeout default of every decision is a legal action."""
    for players, seed in ((2, 31), (5, 32)):
        s = GAME.initial_state({"players": players}, seed)
        rng = Rng.from_seed(seed)
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            d = GAME.timeout_action(s, seat)
            assert GAME.is_legal(s, seat, d), (s.phase, d)
            s = GAME.apply(s, seat, sample(s, seat, rng) if rng.random() < 0.7 else d)


@pytest.mark.rule("IM-6", "TH-4.2")
def test_IM6_determinize_keeps_a_pending_station_redraw_consistent() -> None:
    """A seat waiting on the TH-4.2 redraw is known to hold two stations: resampling keeps them stations."""
    s = GAME.initial_state({"players": 2}, 5)
    s.phase, s.queue = "redraw", [1]
    s.blue_deck.remove("amplifier#1")
    s.blue_deck.remove("jammer#1")
    s.blue_deck.extend(s.players[1].drawn)
    s.players[1].drawn = ["amplifier#1", "jammer#1"]
    for k in range(20):
        d = GAME.determinize(s, 0, Rng.from_seed(k))
        assert all(x in H.stations for x in d.players[1].drawn)
        check_invariants(d)


@pytest.mark.rule("TH-0.1")
def test_agent_registry_factories_choose_legal_actions() -> None:
    """Server convention: AGENTS name -> factory(seed, seconds) with ``name`` and ``choose``; DEFAULT_AGENT listed."""
    assert DEFAULT_AGENT in AGENTS
    s = GAME.initial_state({"players": 3}, 12)
    rng = Rng.from_seed(5)
    for _ in range(25):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, sample(s, seat, rng))
    seat = GAME.to_act(s)[0]
    legal = GAME.legal_actions(s, seat)
    for name, factory in AGENTS.items():
        agent = factory(3, 0.05)
        assert agent.name == name
        a = agent.choose(GAME, s, seat)
        assert GAME.is_legal(s, seat, a) and (s.phase == "plan" or a in legal)


@pytest.mark.rule("IM-6", "IM-2", "TH-H6")
def test_IM6_view_does_not_depend_on_hidden_information() -> None:
    """For every seat and phase (game end included), the view of a determinised state equals the real view."""
    for players, seed in ((3, 1), (5, 2)):
        s = GAME.initial_state({"players": players}, seed)
        pick = Rng.from_seed(seed)
        k = 0
        while True:
            to_act = GAME.to_act(s)
            if k % 3 == 0 or not to_act:
                for v in range(players):
                    other = GAME.determinize(s, v, Rng.from_seed(k))
                    assert json.dumps(GAME.view(other, v), sort_keys=True) == json.dumps(GAME.view(s, v), sort_keys=True)
            if not to_act:
                break
            seat = to_act[pick.randbelow(len(to_act))]
            s = GAME.apply(s, seat, sample(s, seat, pick))
            k += 1
