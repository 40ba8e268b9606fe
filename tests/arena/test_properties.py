"""Hypothesis properties: random legal play keeps the invariants (AR-1.7, AR-10.2), states round-trip
through JSON, and config + seed + log replays to the same state (IM-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core.match import Match, state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.arena import GAME

CONFIGS = st.sampled_from([
    {"board": "6x4"},
    {"board": "5x5"},
    {"board": "6x4", "setup": "free"},
    {"board": "5x5", "setup": "free", "placement": "simultaneous"},
    {"board": "5x5", "setup": "free", "home": "wide"},
])


def _on_board(state) -> int:
    n = state.face.size
    return sum(1 for row in state.loc for c in row if 0 <= c < n)


@pytest.mark.rule("AR-1.7", "AR-10.2", "AR-10.3", "AR-5.3", "AR-3.1")
@settings(max_examples=30, deadline=None)
@given(config=CONFIGS, seed=st.integers(0, 2**32), plies=st.integers(0, 140), offers=st.booleans())
def test_random_play_keeps_invariants(config, seed: int, plies: int, offers: bool) -> None:
    """AR-1.7 (one cell or banished, never two ships on a cell) and AR-10.2 (quiet/last_capturer)."""
    match = Match.new(GAME, config, seed)
    state = match.initial_state()
    rng = Rng(seed)
    quiet, last = 0, -1
    for _ in range(plies + 16):
        seats = GAME.to_act(state)
        if not seats:
            break
        seat = seats[0]
        actions = GAME.legal_actions(state, seat)
        assert actions, "a running game always offers an action to a seat that must act"
        action = dict(actions[rng.randbelow(len(actions))])
        if offers and action["type"] in ("move", "permute", "rotate") and rng.randbelow(4) == 0:
            action["offer_end"] = True
        before_phase, before_on, mover = state.phase, _on_board(state), state.to_move
        state = match.play(state, seat, action)
        n = state.face.size
        cells = [c for row in state.loc for c in row if 0 <= c < n]
        assert len(cells) == len(set(cells))
        assert all(-1 <= c <= n for row in state.loc for c in row)
        if state.phase != "place":
            assert all(c >= 0 for row in state.loc for c in row)
            assert state.loc[0][0] < n or state.kind == "corvette" or state.loc[1][0] < n
        if before_phase == "play" and action["type"] != "accept_end":
            captured = _on_board(state) < before_on
            assert _on_board(state) >= before_on - 1
            if captured and state.kind != "corvette":
                quiet, last = 0, mover
            elif not captured:
                quiet += 1
            if state.kind != "corvette":
                assert (state.quiet, state.last_capturer) == (quiet, last)
        assert state.quiet < 40 or state.kind == "quiet_limit"
    # JSON round trip and replay equality (IM-2)
    again = GAME.state_from_json(GAME.state_to_json(state))
    assert state_fingerprint(GAME, again) == state_fingerprint(GAME, state)
    loaded = Match.from_json(match.to_json()).attach(GAME)
    assert state_fingerprint(GAME, loaded.replay()) == state_fingerprint(GAME, state)


@pytest.mark.rule("AR-1.7")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80), board=st.sampled_from(["6x4", "5x5"]))
def test_views_and_notation_round_trip(seed: int, plies: int, board: str) -> None:
    """Views are JSON-safe and public (IM-1); position notation and action notation round-trip."""
    import json

    from spacetable.games.arena.notation import format_position, parse_position

    state = GAME.initial_state(GAME.normalize_config({"board": board}), seed)
    rng = Rng(seed)
    for _ in range(plies):
        seats = GAME.to_act(state)
        if not seats:
            break
        actions = GAME.legal_actions(state, seats[0])
        for a in actions:
            text = GAME.action_text(state, seats[0], a)
            assert GAME.parse_action(state, seats[0], text) == a
        state = GAME.apply(state, seats[0], actions[rng.randbelow(len(actions))])
    json.dumps(GAME.view(state, 0))
    assert GAME.view(state, 0)["ships"] == GAME.view(state, 1)["ships"] == GAME.view(state, None)["ships"]
    if state.phase == "play":
        text = format_position(state)
        pos = parse_position(text)
        assert pos.loc == state.loc and pos.to_move == state.to_move and pos.quiet == state.quiet
        assert format_position(pos) == text


@pytest.mark.rule("AR-0.1", "AR-3.2", "AR-8.6")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60), board=st.sampled_from(["6x4", "5x5"]))
def test_apply_accepts_exactly_the_listed_actions(seed: int, plies: int, board: str) -> None:
    """Every candidate move/teleport is accepted iff it is listed; a rejection names an AR/CORE rule id
    and leaves the state unchanged (AR-0.1, issue: rejected actions name the rule)."""
    from spacetable.core.errors import RuleError
    from spacetable.core.serial import action_key
    from spacetable.games.arena.teleports import TELEPORTS

    state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(plies):
        if GAME.outcome(state) is not None:
            return
        acts = GAME.legal_actions(state, state.seat_of(state.to_move))
        state = GAME.apply(state, state.seat_of(state.to_move), acts[rng.randbelow(len(acts))])
    if GAME.outcome(state) is not None:
        return
    seat = state.seat_of(state.to_move)
    face = state.face
    listed = {action_key(a) for a in GAME.legal_actions(state, seat)}
    before = state_fingerprint(GAME, state)
    from spacetable.games.arena.teleports import teleport_action

    candidates = [teleport_action(t) for t in TELEPORTS]
    for _ in range(60):
        bonus = None if rng.randbelow(3) else teleport_action(TELEPORTS[rng.randbelow(8)])
        candidates.append({"type": "move", "from": face.cell_name(rng.randbelow(face.size)),
                           "to": face.cell_name(rng.randbelow(face.size)), "bonus": bonus})
    for own_cell in (c for c in state.loc[state.to_move] if c < face.size):
        for dest in range(face.size):
            candidates.append({"type": "move", "from": face.cell_name(own_cell), "to": face.cell_name(dest), "bonus": None})
    for action in candidates:
        try:
            GAME.apply(state, seat, action)
            accepted = True
        except RuleError as exc:
            accepted = False
            assert exc.rule.startswith(("AR-", "CORE-"))
        assert accepted == (action_key(action) in listed), action
        assert state_fingerprint(GAME, state) == before


def _destinations_by_the_rules(face, loc, colour: int, ship: int) -> list[int]:
    """AR-4.1, AR-4.2, AR-4.3, AR-4.4, AR-4.5 and AR-5.2 written out over every cell of the face: one step, or two
    through an empty cell."""
    from spacetable.games.arena.board import can_capture, sails

    origin = loc[colour][ship]
    owner = {where: (c, s) for c in (0, 1) for s, where in enumerate(loc[c]) if 0 <= where < face.size}
    out = []
    for dest in range(face.size):
        dist = face.distance(origin, dest)
        if dist == 0 or dist > sails(ship):
            continue
        if dist == 2 and not any(m not in owner for m in face.neighbours(origin) if dest in face.neighbours(m)):
            continue
        if dest in owner and (owner[dest][0] == colour or not can_capture(ship, owner[dest][1])):
            continue
        out.append(dest)
    return out


@pytest.mark.rule("AR-4.1", "AR-4.2", "AR-4.5", "AR-5.2", "AR-6.4", "AR-7.4", "AR-9.1")
@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(["6x4", "5x5"]), data=st.data())
def test_the_legal_lists_tables_agree_with_the_rules_written_out(board: str, data) -> None:
    """The per-face reach table and capture table behind the legal moves, and the teleports worked out once per set
    of banished ships, give what the rules give cell by cell and ship by ship, on any arrangement."""
    from spacetable.games.arena.board import get_face
    from spacetable.games.arena.movement import destinations
    from spacetable.games.arena.teleports import TELEPORTS, available, refusal

    face = get_face(board)
    cells = data.draw(st.permutations(range(face.size)))
    banished = data.draw(st.lists(st.booleans(), min_size=16, max_size=16))
    loc = [[face.banished if banished[c * 8 + s] else cells[c * 8 + s] for s in range(8)] for c in (0, 1)]
    for colour in (0, 1):
        for ship in range(8):
            if loc[colour][ship] != face.banished:
                assert destinations(face, loc, colour, ship) == _destinations_by_the_rules(face, loc, colour, ship)
        expected = [name for name in TELEPORTS if refusal(loc[colour], name, face.banished) is None]
        assert available(loc[colour], face.banished) == expected
