"""Rules beyond the acceptance scenarios: set-up commits, the energy phase, windows and reactions,
every house tactic card, teams, mission victories, undo, notation and odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.moves import agent_actions
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.board import distance
from spacetable.games.galaxies.flow import phase_of
from spacetable.games.galaxies.movement import advance, footprint, reachable, start_pos
from spacetable.games.galaxies.odds import attack_odds, hit_chance
from spacetable.games.galaxies.packs import bundled_pack
from spacetable.games.galaxies.state import GState, Tactic
from spacetable.games.galaxies.stats import move_points
from spacetable.games.galaxies.tactics import tactic_actions
from spacetable.games.galaxies.victory import check, score

from .helpers import play_random, pos


def apply(s: GState, seat: int, action: dict | str) -> GState:
    a = GAME.parse_action(s, seat, action) if isinstance(action, str) else action
    return GAME.apply(s, seat, a)


def error(s: GState, seat: int, action: dict | str) -> str:
    with pytest.raises(RuleError) as err:
        apply(s, seat, action)
    return err.value.rule


# ------------------------------------------------------------------------ set-up
@pytest.mark.rule("BG-4.1", "BG-4.4", "D-21", "BG-5.3", "BG-5.4")
def test_sealed_fleets_then_roll_off() -> None:
    s = GAME.initial_state(GAME.normalize_config({}), 5)
    assert s.phase == "fleet" and GAME.to_act(s) == (0, 1)
    assert error(s, 0, "fleet everest:veteran barrage:veteran torrent:veteran") == "BG-4.1"
    assert error(s, 0, "fleet everest everest") == "D-21"
    assert error(s, 0, "fleet vapor") == "D-21"
    fleet = {
        "type": "submit_fleet",
        "fleet": [{"ship": "everest", "version": "standard"}, {"ship": "f47", "version": "standard"}],
    }
    assert GAME.action_view(s, 0, fleet, 1) == {"type": "submit_fleet"}
    assert GAME.action_view(s, 0, fleet, 0) == fleet
    s = GAME.apply(s, 0, fleet)
    assert GAME.to_act(s) == (1,) and GAME.view(s, 1)["sealed"]["committed"] == {"0": True, "1": False}
    assert "f47" not in str(GAME.view(s, 1))
    s = apply(s, 1, "fleet vapor teskio redfuvu")
    assert s.phase == "first" and len(s.rolloff) == 2 and s.rolloff[0] != s.rolloff[1]
    # the house default mission starts each side on 10 energy (its `start`; BG-5.3's 15 otherwise)
    assert [len(x.hand) for x in s.sides] == [5, 5] and [x.energy for x in s.sides] == [10, 10]
    assert all(c.zone == "screen" for c in s.cards.values())


@pytest.mark.rule("BG-5.4")
def test_roll_off_ties_roll_again() -> None:
    s = pos(from_start=True, mission="m1-first-contact", dice=[4, 4, 2, 7])
    assert s.rolloff == [2, 7] and GAME.to_act(s) == (1,)
    s = apply(s, 1, "first B")
    assert s.active == 1 and s.sides[1].energy == 20


@pytest.mark.rule("D-18", "BG-4.3")
def test_constructed_decks_are_30_cards_at_most_3_per_name() -> None:
    s = GAME.initial_state(GAME.normalize_config({"mission": "m3-relay-beacons"}), 2)
    s = apply(s, 0, "fleet everest f47")
    s = apply(s, 1, "fleet vapor tougu")
    assert s.phase == "deck"
    presets = s.missiondata.decks["A"].presets
    assert presets and len(agent_actions(GAME.legal_actions(s, 0))) == len(presets)
    assert error(s, 0, {"type": "submit_deck", "cards": presets[0][:29]}) == "D-18"
    assert error(s, 0, {"type": "submit_deck", "cards": ["isn-recalibrate"] * 4 + presets[0][4:]}) == "D-18"
    assert error(s, 0, {"type": "submit_deck", "cards": ["wr-regrowth", *presets[0][1:]]}) == "D-18"
    s = apply(s, 0, "deck 2")
    s = apply(s, 1, "deck 1")
    assert s.phase == "first" and len(s.sides[0].deck) == 25


@pytest.mark.rule("BG-4.3")
def test_prepped_cards_are_public_playable_and_not_discardable() -> None:
    s = GAME.initial_state(GAME.normalize_config({"players": 3}), 4)
    assert [len(x.prepped) for x in s.sides] == [1, 1]
    v = GAME.view(s, 1)
    assert v["sides"][0]["prepped"][0]["key"] == "isn-cmdr-vale"
    assert "hand" not in v["sides"][0]
    s = pos(
        mission="m5-pan-base",
        phase="action",
        active="A",
        fleets={"A": [{"ship": "everest", "at": [[9, 4]]}], "B": [{"ship": "vapor", "at": [[9, 10]]}]},
    )
    s.sides[0].prepped.append("ap1")
    s.tactics["ap1"] = Tactic("ap1", "isn-cmdr-vale", 0, "prepped")
    assert error(s, 0, "discard ap1") == "BG-6.4"
    s = apply(s, 0, "play ap1 card=everest")
    assert s.cards["everest"].attachments == ["ap1"] and not s.sides[0].prepped


# -------------------------------------------------------------------- energy phase
@pytest.mark.rule("BG-7.1", "BG-15.3")
def test_energy_phase_tiles_market_and_regenerator() -> None:
    s = pos(
        phase="action",
        active="B",
        energy={"A": 10, "B": 10},
        decks={"A": ["isn-evasive", "isn-recalibrate"]},
        tiles=[{"hex": [9, 4], "kind": "orbital_market"}, {"hex": [3, 4], "kind": "shield_regenerator"}],
        fleets={
            "A": [{"ship": "barrage", "at": [[[9, 4], [10, 4]]]}, {"ship": "torrent", "at": [[[3, 4], [4, 4]]], "shields": 1}],
            "B": [{"ship": "teskio", "at": [[[9, 10], [10, 10]]]}],
        },
    )
    s = apply(s, 1, "end turn")
    assert s.phase == "energy" and phase_of(s) == "energy"
    legal = GAME.legal_actions(s, 0)
    assert {"type": "market_draw", "take": True} in legal and {"type": "regen_shield", "ship": "torrent"} in legal
    assert {"type": "end_energy"} in legal
    s = apply(s, 0, "regen torrent")
    assert s.pieces["torrent"].shields == 2 and s.phase == "energy"
    s = apply(s, 0, "market yes")
    assert len(s.sides[0].hand) == 2 and s.phase == "deploy"
    assert "energy_choice" not in GAME.view(s, 1)


# ----------------------------------------------------------------------- windows
def duel(**extra: object) -> GState:
    setup = {
        "phase": "action",
        "active": "B",
        "energy": {"A": 10, "B": 20},
        "fleets": {"A": [{"ship": "barrage", "at": [[[9, 7], [10, 7]]]}], "B": [{"ship": "sobwa", "at": [[[9, 9], [10, 9]]]}]},
        "activation": {"card": "sobwa", "step": "attack"},
    }
    setup.update(extra)
    return pos(**setup)


@pytest.mark.rule("D-20", "BG-14.4")
def test_reaction_windows_open_whenever_the_side_holds_a_card() -> None:
    s = duel()
    s.rng.forced += [2, 4]
    s = apply(s, 1, "attack sobwa acid-jets barrage")
    assert s.window is None and s.pieces["barrage"].shields == 0  # no cards: no window, damage at once
    s = duel(hands={"A": ["isn-recalibrate"]})  # a card it could not play here still opens the window
    s.rng.forced += [2, 4]
    s = apply(s, 1, "attack sobwa acid-jets barrage")
    assert s.window is not None and s.window.kind == "enemy_hit" and GAME.to_act(s) == (0,)
    assert agent_actions(GAME.legal_actions(s, 0)) == [{"type": "pass"}]
    s = apply(s, 0, "pass")
    assert s.pieces["barrage"].shields == 0 and s.roll is None


@pytest.mark.rule("BG-14.4", "BG-13.2")
def test_evasive_maneuvers_cancel_a_hit() -> None:
    s = duel(hands={"A": ["isn-evasive"]})
    s.rng.forced += [2, 4]
    s = apply(s, 1, "attack sobwa acid-jets barrage")
    assert {"type": "respond", "card": "a01", "targets": {}, "choices": {}} in GAME.legal_actions(s, 0)
    s = apply(s, 0, "respond a01")
    s = apply(s, 0, "pass")
    assert s.pieces["barrage"].shields == 3 and s.sides[0].energy == 8


def test_brood_surge_makes_the_attacker_roll_again() -> None:
    s = pos(
        phase="action",
        active="A",
        energy={"A": 10, "B": 20},
        hands={"B": ["wr-brood-surge"]},
        fleets={"A": [{"ship": "torrent", "at": [[[9, 7], [10, 7]]]}], "B": [{"ship": "sobwa", "at": [[[9, 9], [10, 9]]]}]},
        activation={"card": "torrent", "step": "attack"},
    )
    s.rng.forced += [3, 4]
    s = apply(s, 0, "attack torrent siege-gun sobwa")
    assert s.roll.hit and s.window.kind == "enemy_hit"  # type: ignore[union-attr]
    s.rng.forced += [1, 1]
    s = apply(s, 1, "respond b01")
    assert not s.roll.hit  # type: ignore[union-attr]
    s = apply(s, 1, "pass")
    assert s.pieces["sobwa"].shields == 3


def test_recalibrate_rerolls_the_own_attack() -> None:
    s = pos(
        phase="action",
        active="A",
        energy={"A": 10, "B": 20},
        hands={"A": ["isn-recalibrate"]},
        fleets={"A": [{"ship": "torrent", "at": [[[9, 7], [10, 7]]]}], "B": [{"ship": "sobwa", "at": [[[9, 9], [10, 9]]]}]},
        activation={"card": "torrent", "step": "attack"},
    )
    s.rng.forced += [1, 1]
    s = apply(s, 0, "attack torrent siege-gun sobwa")
    assert not s.roll.hit and s.window.kind == "after_attack_roll" and phase_of(s) == "roll"  # type: ignore[union-attr]
    s.rng.forced += [3, 4]
    s = apply(s, 0, "play a01")
    s = apply(s, 0, "pass")
    assert s.pieces["sobwa"].shields == 0 and s.sides[0].energy == 9


def test_jamming_burst_answers_an_enemy_activation() -> None:
    s = pos(
        phase="action",
        active="B",
        energy={"A": 10, "B": 9},
        hands={"A": ["isn-jamming-burst"]},
        fleets={"A": [{"ship": "barrage", "at": [[[9, 4], [10, 4]]]}], "B": [{"ship": "teskio", "at": [[[9, 10], [10, 10]]]}]},
    )
    s = apply(s, 1, "activate teskio")
    assert s.window.kind == "enemy_activation" and phase_of(s) == "reaction"  # type: ignore[union-attr]
    assert error(s, 1, "end move") == "CORE-TURN"
    s = apply(s, 0, "respond a01")
    assert s.sides[1].energy == 3 and s.sides[0].energy == 8


# ------------------------------------------------------------- every house card
ARENA = {
    "phase": "action",
    "active": "A",
    "energy": {"A": 30, "B": 30},
    "fleets": {
        "A": [
            {"ship": "everest", "at": [[9, 4]], "shields": 3, "hull": 2},
            {"ship": "f51", "holder": "everest"},
            {"ship": "barrage", "at": [[[5, 7], [6, 7]]], "shields": 1, "hull": 1},
            {"ship": "f54", "at": [[[10, 7]]]},
            {"ship": "f47", "at": [[[12, 6]], [[13, 6]], [[12, 7]]]},
        ],
        "B": [
            {"ship": "vapor", "at": [[9, 11]]},
            {"ship": "tougu", "holder": "vapor"},
            {"ship": "teskio", "at": [[[10, 8], [11, 8]]], "shields": 1, "hull": 1},
            {"ship": "kared", "at": [[[8, 8]]]},
            {"ship": "redfuvu", "at": [[[4, 9]], [[5, 9]], [[4, 10]]]},
        ],
    },
}
ISN_CARDS = [t.id for t in bundled_pack().faction_tactics("isn")]
WR_CARDS = [t.id for t in bundled_pack().faction_tactics("wretch")]


def _window_for(s: GState, side: int, timing: str) -> GState:
    """Bring the arena to a point where ``side`` may play a card of ``timing``."""
    me, them = ("A", "B") if side == 0 else ("B", "A")
    s.active = side if timing not in ("enemy_activation", "enemy_hit") else 1 - side
    s.helm = s.lead(s.active)
    flag = "everest" if s.active == 0 else "vapor"
    if timing == "activation_start":
        s = apply(s, s.helm, f"activate {'barrage' if s.active == 0 else 'teskio'}")
        if s.window is not None:
            s = apply(s, s.window.seat, "pass")
    if timing in ("before_attack_roll", "after_attack_roll", "enemy_activation", "enemy_hit"):
        s = apply(s, s.helm, f"activate {flag}")
        if s.window is not None and timing != "enemy_activation":
            s = apply(s, s.window.seat, "pass")
    if timing in ("before_attack_roll", "after_attack_roll", "enemy_hit"):
        s = apply(s, s.helm, "end move")
    if timing in ("after_attack_roll", "enemy_hit"):
        target = "teskio" if s.active == 0 else "f54"
        weapon = "broadside" if s.active == 0 else "maw-cannon"
        s.rng.forced += [5, 4] if timing == "enemy_hit" else [1, 1]
        s = apply(s, s.helm, f"attack {flag} {weapon} {target}")
    del me, them
    return s


@pytest.mark.rule("BG-14.1", "BG-14.2", "BG-14.4")
@pytest.mark.parametrize("key", ISN_CARDS + WR_CARDS)
def test_every_house_tactic_card_plays_and_does_what_it_says(key: str) -> None:
    data = bundled_pack().tactics[key]
    side = 0 if data.faction == "isn" else 1
    setup = dict(ARENA)
    setup["hands"] = {"A" if side == 0 else "B": [key]}
    s = _window_for(pos(**setup), side, data.timing)
    seat = s.lead(side)
    tid = s.sides[side].hand[0]
    plays = [a for a in tactic_actions(s, seat, data.timing in ("enemy_activation", "enemy_hit")) if a["card"] == tid]
    assert plays, f"{key} has no legal play in its window ({data.timing})"
    action = plays[0]
    if any(e.op.startswith("repair") for e in data.effects):  # a damaged ship shows the repair

        def hurt(a: dict) -> bool:
            ref = a["targets"].get("ship") or a["targets"]["card"]
            return any(
                s.pieces[p].hull or s.pieces[p].shields < 2
                for p in s.cards[s.pieces[ref].card if ref in s.pieces else ref].pieces
            )

        action = next(a for a in plays if hurt(a))
    before = s
    after = GAME.apply(s, seat, action)
    assert after.sides[side].energy <= before.sides[side].energy
    target = (action["targets"] or {}).get("ship") or (action["targets"] or {}).get("card")
    for e in data.effects:
        if data.attaches:
            assert tid in after.cards[target].attachments
            assert after.tactics[tid].zone == "attached"
        elif e.op == "gain_energy":
            assert after.sides[side].energy > before.sides[side].energy - data.cost
        elif e.op == "drain_energy":
            assert after.sides[1 - side].energy == before.sides[1 - side].energy - (e.n or 0)
        elif e.op == "draw":
            assert len(after.sides[side].deck) <= len(before.sides[side].deck)
        elif e.op in ("damage", "repair_shields", "repair_hull"):
            b, a = before.pieces[target], after.pieces[target]
            assert (b.shields, b.hull, b.alive) != (a.shields, a.hull, a.alive)
        elif e.op == "extra_attacks":
            assert after.activation.charged[target]  # type: ignore[union-attr]
        elif e.op == "reroll":
            assert after.rng.state != before.rng.state
        elif e.op == "cancel_hit":
            assert after.roll.cancelled  # type: ignore[union-attr]
        elif e.op == "place_ship":
            assert after.pieces[target].hexes != before.pieces[target].hexes
        elif e.op == "reveal_hold":
            holder = after.pieces[target].card
            assert all(side in after.cards[c].revealed_to for c in after.cards[holder].cargo)
            assert "hold" in GAME.view(after, seat)["cards"][[c["id"] for c in GAME.view(after, seat)["cards"]].index(holder)]
        elif e.op == "take_over":
            card = before.pieces[target].card
            assert after.cards[card].side == side or after.cards[card].zone == "destroyed"
    if not data.attaches:
        assert tid in after.sides[side].discard


# -------------------------------------------------------------------------- teams
@pytest.mark.rule("BG-18.1", "D-16")
def test_team_helm_and_commanders() -> None:
    s = pos(
        mission="m5-pan-base",
        phase="deploy",
        active="B",
        energy={"A": 20, "B": 40},
        fleets={
            "A": [{"ship": "everest", "at": [[9, 4]]}],
            "B": [
                {"ship": "vapor", "seat": 1},
                {"ship": "tougu", "seat": 1},
                {"ship": "teskio", "seat": 2},
                {"ship": "kared", "seat": 2},
            ],
        },
    )
    assert GAME.to_act(s) == (1,)
    assert {a["card"] for a in GAME.legal_actions(s, 1) if a["type"] == "launch"} == {"vapor", "tougu"}
    assert error(s, 1, "launch teskio 9,13+10,13") == "BG-18.1"
    s = apply(s, 1, "launch vapor 9,13")
    s = apply(s, 1, "end deploy")
    assert GAME.to_act(s) == (2,) and s.phase == "deploy"
    s = apply(s, 2, "launch teskio 2,13+3,13")
    s = apply(s, 2, "end deploy")
    assert s.phase == "action" and GAME.to_act(s) == (1,)
    assert error(s, 1, "activate teskio") == "BG-18.1"
    s = apply(s, 1, "activate vapor")
    s = apply(s, 1, "end act")
    s = apply(s, 1, "end turn")
    assert GAME.to_act(s) == (2,) and s.active == 1
    s = apply(s, 2, "activate teskio")
    s = apply(s, 2, "end act")
    s = apply(s, 2, "end turn")
    assert s.active == 0 and GAME.to_act(s) == (0,)
    v = GAME.view(s, 2)
    assert "hand" in v["sides"][1] and "screen" in v["sides"][1]


def test_four_seats_make_two_sides() -> None:
    s = GAME.initial_state(GAME.normalize_config({"players": 4}), 1)
    assert s.seat_side == [0, 1, 0, 1] and [x.seats for x in s.sides] == [[0, 2], [1, 3]]
    assert GAME.to_act(s) == (0, 1) and s.board == "house-double"


# ------------------------------------------------------------------------ victory
@pytest.mark.rule("BG-17.1")
def test_mission_victories_named_ship_area_and_beacon() -> None:
    s = pos(
        mission="m5-pan-base",
        phase="action",
        active="A",
        energy={"A": 20, "B": 20},
        fleets={
            "A": [{"ship": "torrent", "at": [[[9, 7], [10, 7]]]}],
            "B": [{"ship": "vapor", "at": [[10, 9]], "shields": 0, "hull": 10}, {"ship": "kared"}],
        },
        activation={"card": "torrent", "step": "attack"},
    )
    s.rng.forced += [4, 4]
    s = apply(s, 0, "attack torrent siege-gun vapor")
    assert s.result and s.result["winner"] == 0 and s.result["kind"] == "destroy_named"
    s = pos(
        mission="m5-pan-base",
        phase="action",
        active="B",
        energy={"A": 20, "B": 20},
        fleets={
            "A": [{"ship": "torrent", "at": [[[12, 2], [13, 2]]]}],
            "B": [
                {"ship": "vapor", "at": [[12, 9]]},
                {"ship": "tougu", "at": [[[5, 5]], [[6, 5]], [[4, 5]]]},
                {"ship": "kared", "at": [[[4, 6]]]},
            ],
        },
    )
    s = apply(s, 1, "end turn")
    assert s.result is None and GAME.to_act(s) == (2,)  # the team's second seat ends its part of the turn
    s = apply(s, 2, "end turn")
    assert s.result and s.result["winner"] == 1 and s.result["kind"] == "ships_in_hexes"
    s = pos(
        mission="m3-relay-beacons",
        phase="action",
        active="B",
        energy={"A": 20, "B": 20},
        fleets={"A": [{"ship": "f54", "at": [[[3, 7]]]}], "B": [{"ship": "teskio", "at": [[[9, 12], [10, 12]]]}]},
    )
    s = apply(s, 1, "end turn")
    for streak in (1, 2):
        assert s.result is None and s.sides[0].hold_streak["3,7"] == streak
        for seat in (0, 1):
            s = apply(s, seat, "end deploy")
            s = apply(s, seat, "end turn")
    assert s.result and s.result["winner"] == 0 and s.result["kind"] == "hold_tile"


@pytest.mark.rule("D-22", "BG-17.4")
def test_mutual_destruction_is_a_draw_and_concession_ends_the_game() -> None:
    s = pos(
        fleets={"A": [{"ship": "f54", "at": [[[3, 7]]], "dead": [1]}], "B": [{"ship": "kared", "at": [[[5, 7]]], "dead": [1]}]}
    )
    check(s)
    assert s.result and s.result["winner"] is None and s.result["kind"] == "mutual_destruction"
    s = pos(fleets={"A": [{"ship": "f54", "at": [[[3, 7]]]}], "B": [{"ship": "kared", "at": [[[5, 7]]]}]})
    s = GAME.apply(s, 1, {"type": "resign"})
    out = GAME.outcome(s)
    assert out and out.winners == (0,) and out.kind == "concession"


@pytest.mark.rule("BG-17.3")
def test_scores_count_destroyed_and_taken_ships_as_exact_fractions() -> None:
    s = pos(
        fleets={
            "A": [{"ship": "f54", "at": [[[3, 7]]]}],
            "B": [
                {"ship": "tougu", "at": [[[2, 12]], [[3, 12]], [[4, 12]]], "dead": [1, 2]},
                {"ship": "kared", "at": [[[5, 7]]]},
            ],
        }
    )
    assert score(s, 0) == Fraction(16, 3) and score(s, 1) == 0
    s.cards["kared"].side = 0
    assert score(s, 0) == Fraction(16, 3) + 5


# --------------------------------------------------------------------------- undo
@pytest.mark.rule("D-13")
def test_undo_never_crosses_a_roll_or_a_reveal() -> None:
    s = pos(
        phase="deploy",
        active="A",
        energy={"A": 40, "B": 20},
        tiles=[{"hex": [9, 6], "kind": "energy_source", "face": "down"}],
        fleets={
            "A": [{"ship": "barrage"}, {"ship": "f54", "at": [[[9, 4]]]}, {"ship": "torrent", "at": [[[3, 4], [4, 4]]]}],
            "B": [{"ship": "teskio", "at": [[[9, 10], [10, 10]]]}],
        },
    )
    launch = GAME.parse_action(s, 0, "launch barrage 7,1+7,2")
    assert not GAME.undoable(s, 0, launch)
    assert GAME.undoable(s, 0, {"type": "end_deploy"})
    s = apply(s, 0, "end deploy")
    assert GAME.undoable(s, 0, {"type": "activate", "card": "f54"})
    s = apply(s, 0, "activate f54")
    assert GAME.undoable(s, 0, GAME.parse_action(s, 0, "move f54 SE"))
    assert not GAME.undoable(s, 0, GAME.parse_action(s, 0, "move f54 SE SE"))  # ends on a face-down tile: a reveal
    assert not GAME.undoable(s, 0, GAME.parse_action(s, 0, "move f54 SE SE SE SE SE"))  # ECM roll
    assert not GAME.undoable(s, 0, {"type": "discard_for_energy", "cards": ["a01"]})


# ------------------------------------------------------------------ movement checks
def _brute(s: GState, pid: str) -> set[frozenset]:
    p = s.pieces[pid]
    size = s.shipdata(p.card).size
    limit = move_points(s, pid)
    occ = s.occupied(exclude=pid)
    out = set()
    leads = p.hexes if size == "medium" else [None]
    for lead in leads:
        stack = [(start_pos(size, p.hexes, lead), 0)]
        seen = set()
        while stack:
            pos_, cost = stack.pop()
            if (pos_, cost) in seen:
                continue
            seen.add((pos_, cost))
            fp = footprint(size, pos_)
            if cost and frozenset(fp) != frozenset(p.hexes) and not any(h in occ for h in fp):
                out.add(frozenset(fp))
            for d in range(6):
                got = advance(s.geo, size, pos_, d)
                if not isinstance(got, str) and cost + got[1] <= limit:
                    stack.append((got[0], cost + got[1]))
    return out


@pytest.mark.rule("BG-10.1", "BG-10.3", "BG-10.4", "BG-10.6", "BG-15.6")
def test_reachable_footprints_match_a_brute_force_search_and_every_route_applies() -> None:
    s = pos(
        phase="action",
        active="A",
        energy={"A": 20, "B": 20},
        obstacles=[{"kind": "debris", "hexes": [[8, 6], [7, 7]]}, {"kind": "asteroid", "hexes": [[9, 6]]}],
        fleets={
            "A": [
                {"ship": "torrent", "at": [[[7, 5], [8, 5]]]},
                {"ship": "everest", "version": "veteran", "at": [[4, 8]]},
                {"ship": "f54", "at": [[[11, 5]]]},
            ],
            "B": [{"ship": "teskio", "at": [[[10, 8], [11, 8]]]}, {"ship": "kared", "at": [[[6, 9]]]}],
        },
    )
    for card, pid in (("torrent", "torrent"), ("everest", "everest"), ("f54", "f54")):
        t = s.copy()
        t.active = 0
        t = apply(t, 0, f"activate {card}")
        routes = reachable(t, pid)
        fast = reachable(t, pid, least_ecm=False)
        assert {frozenset(r.hexes) for r in routes} == _brute(t, pid) == {frozenset(r.hexes) for r in fast}, pid
        best = {frozenset(r.hexes): r.ecm for r in routes}
        assert all(best[frozenset(r.hexes)] <= r.ecm + 1e-9 for r in fast)  # the least-ECM path is never worse
        for r in routes[:: max(1, len(routes) // 12)] + fast[:: max(1, len(fast) // 12)]:
            t.rng.forced[:] = [1] * 8
            after = GAME.apply(t, 0, r.action(pid))
            assert sorted(after.pieces[pid].hexes) == sorted(r.hexes)
            ecm = [e for e in after.events if e["t"] == "ecm" and e["n"] > t.nlog]
            assert len(ecm) == r.rolls


# -------------------------------------------------------------------- notation
def test_notation_round_trips_legal_actions() -> None:
    seen = 0
    for s in play_random(11, steps=260)[::7]:
        for seat in GAME.to_act(s):
            for a in GAME.legal_actions(s, seat)[:40]:
                text = GAME.action_text(s, seat, a)
                back = GAME.parse_action(s, seat, text)
                assert GAME.normalize_action(back) == GAME.normalize_action(a) or a["type"] == "submit_deck", (text, a, back)
                seen += 1
    assert seen > 100


# ------------------------------------------------------------------------- odds
@pytest.mark.rule("BG-12.5", "BG-12.6")
def test_attack_odds_are_exact() -> None:
    assert hit_chance(bundled_pack().ships["f47"].grid) == Fraction(15, 80)
    o = attack_odds(Fraction(1, 4), 3, 2, 0, 4, attacks=2)
    # one hit: 2 shield + 1 hull; two hits: 2 shield + 4 hull (destroyed)
    assert o.p_any_hit == Fraction(7, 16)
    assert o.expected_shields == Fraction(7, 16) * 2
    assert o.expected_hull == Fraction(6, 16) * 1 + Fraction(1, 16) * 4
    assert o.p_destroy == Fraction(1, 16)
    assert attack_odds(Fraction(1, 2), 2, 0, 0, 5, 1, "immune").expected_damage == 0


def test_reachable_view_and_attack_targets_for_the_browser() -> None:
    s = pos(
        phase="action",
        active="A",
        energy={"A": 20, "B": 20},
        fleets={
            "A": [{"ship": "f47", "at": [[[9, 5]], [[10, 5]], [[9, 6]]]}],
            "B": [{"ship": "teskio", "at": [[[9, 8], [10, 8]]]}],
        },
    )
    s = apply(s, 0, "activate f47")
    v = GAME.view(s, 0)["activation"]["ships"]
    assert v["f47#1"]["reachable"] and {"hexes", "cost", "ecm_expected", "ecm_rolls", "path"} <= set(v["f47#1"]["reachable"][0])
    assert any(r["ecm_rolls"] for r in v["f47#1"]["reachable"])
    assert "ships" not in GAME.view(s, 1)["activation"]
    s = apply(s, 0, "end move")
    t = GAME.view(s, 0)["activation"]["ships"]["f47#3"]["targets"][0]
    assert t["target"] == "teskio" and t["p_hit"] == pytest.approx(28 / 80) and t["distance"] == distance((9, 6), (9, 8)) - 0
