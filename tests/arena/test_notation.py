"""Action notation and position notation (docs/rules/arena.md)."""

from __future__ import annotations

import pytest

from spacetable.core.errors import ConfigError, RuleError
from spacetable.games.arena import GAME
from spacetable.games.arena.notation import format_position, parse_position

from .arena_helpers import make


@pytest.mark.rule("AR-1.3", "AR-10.4")
def test_action_notation_shapes() -> None:
    st = make("6x4 111a1,221c5,112b2,122d6 111a6,112c6 r 0 -")
    p = lambda t: GAME.parse_action(st, 0, t)  # noqa: E731
    assert p("c5-c6") == {"type": "move", "from": "c5", "to": "c6", "bonus": None}
    assert p("c5xc6/P112") == {"type": "move", "from": "c5", "to": "c6", "bonus": {"type": "permute", "pair": "P112"}}
    assert p("c5xc6/RD+")["bonus"] == {"type": "rotate", "cls": "D", "dir": "+"}
    assert p("P121") == {"type": "permute", "pair": "P121"}
    assert p("rf-") == {"type": "rotate", "cls": "F", "dir": "-"}
    assert p("accept") == {"type": "accept_end"} and p("resign") == {"type": "resign"}
    assert p("c5-c4=") == {"type": "move", "from": "c5", "to": "c4", "bonus": None, "offer_end": True}
    assert p("212@d2") == {"type": "place", "ship": "212", "cell": "d2"}
    assert p('{"type":"permute","pair":"P111"}') == {"type": "permute", "pair": "P111"}
    with pytest.raises(RuleError):
        p("fly me to the moon")
    assert GAME.action_text(st, 0, p("c5-c6")) == "c5xc6"


@pytest.mark.rule("AR-1.2", "AR-1.7", "AR-10.2")
def test_position_notation_round_trip_and_errors() -> None:
    st = GAME.initial_state(GAME.normalize_config({"red_seat": 0}), 0)
    text = format_position(st)
    assert text == "6x4 111b1,112a1,121d1,122c1,211a2,212d2,221c2,222b2 111b6,112a6,121d6,122c6,211a5,212d5,221c5,222b5 r 0 - -"
    assert make(text).loc == st.loc
    for bad in ("6x4 111a1 111a1 r 0 -", "6x4 112a1 111d6 r 0 -", "7x7 111a1 111d6 r 0 -", "6x4 111a9 111d6 r 0 -",
                "6x4 111a1 111d6 x 0 -", "6x4 111a1 111d6 r 40 -", "6x4 111a1,111b1 111d6 r 0 -"):
        with pytest.raises((ValueError, ConfigError)):
            parse_position(bad) if bad.startswith(("7", "6x4 111a1 111a1")) else make(bad)
    pos = parse_position("5x5 111c1,222c2 111c5 b 12 r r")
    assert (pos.to_move, pos.quiet, pos.last_capturer, pos.offer) == (1, 12, 0, 0)
    assert format_position(pos) == "5x5 111c1,222c2 111c5 b 12 r r"


@pytest.mark.rule("AR-3.2")
def test_remembered_move_sentences_equal_fresh_ones() -> None:
    """A move's sentence is remembered by its ``text_key`` (both cells, the ships on them, bonus, offer): over many
    random positions and both boards, every legal action's remembered sentence equals the one built afresh, in
    every language (a dependency missing from the key would return another position's sentence)."""
    import random

    from spacetable.core import i18n

    i18n._RENDERED.clear()
    checked = 0
    for seed, board in ((1, "6x4"), (2, "5x5"), (3, "6x4"), (4, "5x5")):
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.normalize_config({"board": board}), seed)
        while GAME.outcome(state) is None and state.plies < 120:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            for action in legal:
                for lang in i18n.LANGUAGES:
                    assert GAME.describe_action(state, seat, action, lang) == GAME._sentence(state, seat, action, lang)
                    checked += 1
            state = GAME.apply(state, seat, rng.choice(legal))
    assert checked > 5_000
    assert any(isinstance(k, tuple) and k and k[0] is type(GAME) for k in i18n._RENDERED)  # the key was used
