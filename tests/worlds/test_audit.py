"""Rules audit of the Worlds & Suns engine: deviations found in review, one test each (rule ids cited)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from spacetable.cli import main
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.rng import Rng
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import AdvisorAgent

from .helpers import act, start, world_scenario


def _opened(data: dict[str, Any]) -> Any:
    st = start(data)
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    return act(st, 0, GAME.legal_actions(st, 0)[0])


@pytest.mark.rule("WS-2.4", "WS-6.5", "WS-D21")
def test_ws_2_4_end_turn_while_a_combat_is_open_names_ws_2_4() -> None:
    """WS-2.4 / WS-6.5: the attacker cannot end its turn while its combat is open, even while the other side is
    sealing a choice; the rejection names WS-2.4."""
    st = _opened(world_scenario({"P": 1}, {"P": 1}, hands={"D": ["MG"]}))
    assert GAME.to_act(st) == (1,)
    with pytest.raises(RuleError) as e:
        act(st, 0, {"type": "end_turn"})
    assert e.value.rule == "WS-2.4"


BAD: list[tuple[str, Any]] = [
    ("sun pieces not an object per side", lambda d: d["systems"][0]["sun"].update(pieces={"A": 3})),
    ("world pieces not an object", lambda d: d["systems"][0]["worlds"][0].update(pieces=["A"])),
    ("system not an object", lambda d: d["systems"].append("Y")),
    ("world not an object", lambda d: d["systems"][0]["worlds"].append(7)),
    ("energy not an object", lambda d: d.update(energy=[1, 2])),
    ("random hands beyond the deck", lambda d: d.update(hands={"A": {"random": 6}, "D": {"random": 5}})),
]


@pytest.mark.rule("WS-8.1", "WS-D17")
@pytest.mark.parametrize(("why", "spoil"), BAD, ids=[b[0] for b in BAD])
def test_scenario_format_rejects_malformed_input_with_a_reason(why: str, spoil: Any) -> None:
    """Spec §6: validation rejects bad scenarios with a ConfigError (a reason), never a crash; random hands draw
    from the one 10-card house deck, so together they cannot ask for more than it holds."""
    data = copy.deepcopy(world_scenario({"P": 1}, {"P": 1}))
    spoil(data)
    with pytest.raises(ConfigError):
        start(data)


@pytest.mark.rule("WS-10.9")
def test_ws_10_9_ai_declares_when_net_is_positive_below_the_win_threshold() -> None:
    """WS-10.9: A 1P against D 2F: P(win) = 15/36 < 1/2 but E[L_O - L_S] = 15/36 > 0, so the AI declares;
    against D 1P + 1F (P(win) 10/36, net -1/36) it ends its turn."""
    st = start(world_scenario({"P": 1}, {"F": 2}))
    assert AdvisorAgent().choose(GAME, st, 0) == {"type": "declare_combat", "card": "X.w1"}
    st = start(world_scenario({"P": 1}, {"P": 1, "F": 1}))
    assert AdvisorAgent().choose(GAME, st, 0) == {"type": "end_turn"}


@pytest.mark.rule("IM-2", "IM-3")
def test_im_2_determinize_never_returns_the_real_hidden_hand() -> None:
    """IM-2 / IM-3: a determinized state resamples the other hand even when the scenario's hands hold more copies
    than the house deck (6 MG against 4 in the deck, 7 unseen cards for 6 left): the real hand must not leak to an AI."""
    data = world_scenario({"P": 1}, {"P": 1}, hands={"A": ["MG"] * 4, "D": ["MG", "MG", "CET", "CET", "CET", "RI", "RI"]})
    st = start(data)
    seen = {tuple(GAME.determinize(st, 0, Rng.from_seed(seed)).hands[1]) for seed in range(30)}
    assert all(len(h) == 7 for h in seen)
    assert len(seen) > 1  # resampled, not copied
    assert tuple(st.hands[1]) not in seen


@pytest.mark.rule("WS-4.2", "WS-10.2")
def test_ws_4_2_advise_cli_rejects_an_allocation_mode_for_the_wrong_side(capsys: pytest.CaptureFixture[str]) -> None:
    """WS-4.2 / WS-10.2: in the seed's example white allocates; asking grey's advice with mode `ours`, or white's
    with `opponent_worst`, is rejected with a reason instead of optimising over the other side's split."""
    assert main(["advise", "worlds", "--scenario", "s1-example", "--side", "grey", "--allocation", "ours"]) == 2
    assert main(["advise", "worlds", "--scenario", "s1-example", "--side", "white", "--allocation", "opponent_worst"]) == 2
    assert "WS-4.2" in capsys.readouterr().err
    assert main(["advise", "worlds", "--scenario", "s1-example", "--side", "grey", "--allocation", "opponent_worst"]) == 0
