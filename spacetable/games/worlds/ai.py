"""Skirmish AI players (WS-10.9) and their levels (issue 13).

``advised`` (the default, level hard) is information-set MCTS on a fixed budget of ``HARD_ITERATIONS`` per
decision, playing for the skirmish's result that material decides (WS-8.4), which inside a combat weighs only the
WS-10 advisor's best-response plans for the combat objectives, and holding back (:class:`AdvisedSearch`).
``search`` is the same MCTS choosing among every legal action, ``playouts`` (medium) that search on a fifth of the
budget, ``random`` the easy level. Every player sees only its own seat's view (``determinize``).

``advisor`` (a tool without a level) plays every combat decision with the exact advisor:
it declares a combat when the ``win`` value under a worst-case opponent energy
reply is at least its threshold (0.5) or the plan's expected net losses favour
it, allocates with the advisor, and re-plans the remaining battles before each
event step and each energy step (open-loop plan, WS-D12). It sees only what its
seat sees: the other hand is ``unknown`` (no opponent events, WS-10.1).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from spacetable.ai.base import Agent, RandomAgent
from spacetable.ai.mcts import MCTSAgent
from spacetable.core.game import Action, Game
from spacetable.core.hooks import AgentSpec
from spacetable.core.moves import agent_actions
from spacetable.core.serial import action_key

from .advisor import FIXED, WORST_CASE, Advice, Situation, advise
from .declare import card_by_id, eligible_cards, pieces_on
from .pairing import split_to_battles
from .pieces import FACTORY, POPULATION, WORLD, anchor_sort_key
from .state import ALLOCATE, CONVERT, ENERGY, EVENT, RETREAT, TIE, WorldsState

#: above this many (our options x their options) the worst-case reply is replaced by a fixed all-in reply
WORST_CASE_LIMIT = 4_000_000


def _kinds(pieces: list[Any]) -> tuple[int, int]:
    pops = sum(1 for p in pieces if p.kind == POPULATION)
    return pops, len(pieces) - pops


def _opponent_model(n_battles: int, energy_s: int, energy_o: int) -> str:
    """Worst-case replies when the nested search stays small, else a fixed all-in reply (WS-10.3, WS-D24)."""
    size = (energy_s + 1) ** min(n_battles, 4) * (energy_o + 1) ** min(n_battles, 4)
    return WORST_CASE if size <= WORST_CASE_LIMIT else FIXED


def declare_situation(state: WorldsState, seat: int, card_id: str, objective: str = "win") -> Situation:
    """The advisor's view of a combat ``seat`` could declare on ``card_id`` (public data + own hand only)."""
    other = 1 - seat
    mine = pieces_on(state, card_id, seat)
    theirs = pieces_on(state, card_id, other)
    card = card_by_id(state, card_id)
    s_alloc = len(mine) >= len(theirs)
    anchor_pieces = sorted(theirs if s_alloc else mine, key=anchor_sort_key)
    k = len(anchor_pieces)
    model = _opponent_model(k, state.energy[seat], state.energy[other])
    return Situation(
        s_is_attacker=True, on_world=card is not None and card.kind == WORLD, s_pieces=_kinds(mine), o_pieces=_kinds(theirs),
        anchors=[(p.id, p.kind) for p in anchor_pieces], allocator="S" if s_alloc else "O",
        energy_s=state.energy[seat], energy_o=state.energy[other], hand_s=list(state.hands[seat]), hand_o=None,
        mode="ours" if s_alloc else "opponent_worst", opponent=model,
        fixed_response=None if model == WORST_CASE else _all_in(k, state.energy[other]), objective=objective,
    )


def _all_in(k: int, energy: int) -> list[tuple[str | None, int]]:
    """A fixed stand-in reply: the whole pool spread evenly (used only when the worst case is too big)."""
    return [(None, energy // k + (1 if i < energy % k else 0)) for i in range(k)]


def battle_situation(state: WorldsState, seat: int, objective: str = "win", fix_current_events: bool = False) -> Situation:
    """The remaining battles of the open combat, with losses so far as offsets (WS-10.9)."""
    c = state.combat
    assert c is not None
    other = 1 - seat
    alive = {p.id: p for p in state.pieces}
    card = card_by_id(state, c.card)
    anchors = []
    alloc = []
    s_total = [0, 0]
    o_total = [0, 0]
    for b in c.battles[c.current:]:
        a = alive[b.anchor]
        group = [alive[i] for i in b.pieces if i in alive]
        anchors.append((a.id, a.kind))
        alloc.append(_kinds(group))
        (o_total if seat == c.allocator else s_total)[0 if a.kind == POPULATION else 1] += 1
        gp, gf = _kinds(group)
        tgt = s_total if seat == c.allocator else o_total
        tgt[0] += gp
        tgt[1] += gf
    k = len(anchors)
    model = _opponent_model(k, state.energy[seat], state.energy[other])
    sit = Situation(
        s_is_attacker=seat == c.attacker, on_world=card is not None and card.kind == WORLD,
        s_pieces=(s_total[0], s_total[1]), o_pieces=(o_total[0], o_total[1]), anchors=anchors,
        allocator="S" if seat == c.allocator else "O", energy_s=state.energy[seat], energy_o=state.energy[other],
        hand_s=list(state.hands[seat]), hand_o=None, mode="given", allocation=alloc, opponent=model,
        fixed_response=None if model == WORST_CASE else _all_in(k, state.energy[other]), objective=objective,
        offsets=(c.losses[seat], c.losses[other]),
    )
    if fix_current_events:
        b = c.battles[c.current]
        sit.s_events_fixed = {0: b.events[seat]}
        sit.o_events_fixed = {0: b.events[other]}
    return sit


class AdvisorAgent:
    """Plays with the WS-10 advisor and re-plans before each battle step."""

    name = "advisor"

    def __init__(self, seed: int = 0, seconds: float = 1.0, threshold: Fraction = Fraction(1, 2),
                 objective: str = "win") -> None:
        self.seed = seed
        self.seconds = seconds
        self.threshold = threshold
        self.objective = objective  # what a combat's allocation, events and energy aim for (WS-10.4)
        self.last_advice: Advice | None = None

    def choose(self, game: Game[Any], state: WorldsState, player: int) -> Action:
        c = state.combat
        if c is None:
            return self._turn(state, player)
        if c.step == ALLOCATE:
            return self._allocate(state, player)
        if c.step == EVENT:
            self.last_advice = advise(battle_situation(state, player, self.objective))
            return {"type": "play_event", "card": self.last_advice.events[0]}
        if c.step == ENERGY:
            self.last_advice = advise(battle_situation(state, player, self.objective, fix_current_events=True))
            return {"type": "commit_energy", "amount": min(self.last_advice.energy[0], state.energy[player])}
        return self._aftermath(game, state, player)

    def _allocate(self, state: WorldsState, player: int) -> Action:
        """WS-4: the advisor's best split, pieces handed out in id order."""
        c = state.combat
        assert c is not None
        sit = declare_situation(state, player, c.card, self.objective)
        sit.s_is_attacker = player == c.attacker
        a = advise(sit)
        self.last_advice = a
        mine = pieces_on(state, c.card, player)
        pops = [p.id for p in mine if p.kind == POPULATION]
        facs = [p.id for p in mine if p.kind == FACTORY]
        split = tuple((s.s_pops, s.s_facs) for s in a.slots)
        return {"type": "allocate", "battles": split_to_battles(split, [s.anchor_id for s in a.slots], pops, facs)}

    def _aftermath(self, game: Game[Any], state: WorldsState, player: int) -> Action:
        """A tie costs a Factory when there is one; retreat everything when the Sun holds no enemy, else stay;
        always convert (the last listed Factory)."""
        c = state.combat
        assert c is not None
        legal = agent_actions(game.legal_actions(state, player))
        if c.step == TIE:
            facs = [x for x in legal if x["piece"].rsplit(".", 1)[-1].startswith("F")]
            return facs[0] if facs else legal[0]
        if c.step == RETREAT:
            card = card_by_id(state, c.card)
            sun = next(sy.sun for sy in state.systems if card is not None and sy.id == card.system)
            safe = not pieces_on(state, sun, 1 - player)
            return max(legal, key=lambda x: len(x["pieces"])) if safe else legal[0]
        if c.step == CONVERT:
            return legal[-1]
        return legal[0]

    def _turn(self, state: WorldsState, seat: int) -> Action:
        """WS-10.9: declare where the ``win`` value is highest among the cards whose ``win`` value reaches the
        threshold or whose ``net`` value (its own optimisation, same opponent model) is positive."""
        best: tuple[Fraction, str] | None = None
        for card_id in eligible_cards(state, seat):
            win = advise(declare_situation(state, seat, card_id)).value["objective"]
            worth = win >= self.threshold or advise(declare_situation(state, seat, card_id, "net")).value["objective"] > 0
            if worth and (best is None or win > best[0]):
                best = (win, card_id)
        if best is None:
            return {"type": "end_turn"}
        return {"type": "declare_combat", "card": best[1]}


#: MCTS iterations per decision of the medium level (a fixed budget: the level plays alike on any machine)
MEDIUM_ITERATIONS = 200
#: MCTS iterations per decision of the hard level and of ``search``: five times the medium budget (issue 13: the
#: skirmish is scored by material, WS-8.4, which the playouts see and the per-combat advisor does not)
HARD_ITERATIONS = 1000


class _Playouts(MCTSAgent):
    """The generic information-set MCTS on a fixed iteration budget (the ``playouts`` level)."""

    name = "playouts"


class _Search(MCTSAgent):
    """The same information-set MCTS on the hard level's larger fixed budget, over every legal action."""

    name = "search"


#: The combat objectives (WS-10.4) whose best-response plans the hard level compares by searching.
CANDIDATE_OBJECTIVES = ("win", "no_loss", "net", "losses")


#: The choice the advisor never proposes for a combat alone: keep the card or the energy for a later combat.
_HOLD_BACK: dict[str, Action] = {EVENT: {"type": "play_event", "card": None}, ENERGY: {"type": "commit_energy", "amount": 0}}


def _signature(state: WorldsState, seat: int) -> tuple[Any, ...]:
    """What identifies a decision point for every sample of it: public facts only (the hands are hidden)."""
    c = state.combat
    combat = None if c is None else (c.card, c.current, c.step, tuple(sorted(c.sealed.commits)))
    return (state.round, state.active, state.combats_this_turn, len(state.log), combat, seat)


class AdvisedSearch:
    """The hard level: the tree search with the advisor's plans as its combat choices.

    At an allocation, event or energy step the WS-10 advisor proposes its best-response plan (WS-10.3) for each
    objective of :data:`CANDIDATE_OBJECTIVES`, and holding back (no card, no energy) is proposed too: the advisor
    answers how best to fight this combat, the search whether it is worth it for the skirmish (WS-8.4). The search
    weighs only those few proposals at the root, recognised in every sampled world by :func:`_signature`, and plays
    everything after them out as ``search`` does; outside a combat (declare or end the turn, the aftermath) it is
    ``search``. When all the proposals agree no search is needed."""

    name = "advised"

    def __init__(self, seed: int = 0, iterations: int = 1000) -> None:
        #: the decision being searched: its signature and the proposals by action key
        self.root: tuple[tuple[Any, ...], dict[str, Action]] | None = None
        self.search = MCTSAgent(iterations=iterations, seconds=None, seed=seed, actions=self._actions)
        self.advisors = [AdvisorAgent(seed, objective=o) for o in CANDIDATE_OBJECTIVES]

    def _actions(self, game: Game[Any], state: WorldsState, seat: int) -> list[Action]:
        legal = agent_actions(game.legal_actions(state, seat))
        if self.root is None or self.root[0] != _signature(state, seat):
            return legal
        keys = {action_key(a) for a in legal}
        return [a for key, a in self.root[1].items() if key in keys] or legal

    def choose(self, game: Game[Any], state: WorldsState, player: int) -> Action:
        c = state.combat
        self.root = None
        if c is not None and c.step in (ALLOCATE, EVENT, ENERGY):
            proposals: dict[str, Action] = {}
            for adv in self.advisors:
                a = adv.choose(game, state, player)
                proposals.setdefault(action_key(a), a)
            hold = _HOLD_BACK.get(c.step)
            if hold is not None and hold in agent_actions(game.legal_actions(state, player)):
                proposals.setdefault(action_key(hold), hold)  # keep the card or the energy for later combats
            if len(proposals) == 1:
                return next(iter(proposals.values()))
            self.root = (_signature(state, player), proposals)
        try:
            return self.search.choose(game, state, player)
        finally:
            self.root = None


AGENTS: dict[str, Callable[[int, float], Agent]] = {
    "advised": lambda seed=0, seconds=1.0, **_: AdvisedSearch(seed, HARD_ITERATIONS),
    "search": lambda seed=0, seconds=1.0, **_: _Search(iterations=HARD_ITERATIONS, seconds=None, seed=seed),
    "advisor": lambda seed=0, seconds=1.0, **_: AdvisorAgent(seed, seconds),
    "playouts": lambda seed=0, seconds=1.0, **_: _Playouts(iterations=MEDIUM_ITERATIONS, seconds=None, seed=seed),
    "mcts": lambda seed=0, seconds=1.0, **_: MCTSAgent(iterations=None, seconds=seconds, seed=seed),
    "random": lambda seed=0, seconds=1.0, **_: RandomAgent(seed),
}
DEFAULT_AGENT = "advised"

#: The players offered by the lobby and the terminal (:meth:`Game.agents`), the default first.
AGENT_SPECS = (
    AgentSpec("advised", AGENTS["advised"], level="hard",
              description=f"information-set Monte Carlo tree search ({HARD_ITERATIONS} iterations per decision) that, "
                          "inside a combat, weighs only the WS-10 advisor's best-response plans and holding back"),
    AgentSpec("search", AGENTS["search"],
              description=f"information-set Monte Carlo tree search, {HARD_ITERATIONS} iterations per decision"),
    AgentSpec("playouts", AGENTS["playouts"], level="medium",
              description=f"information-set Monte Carlo tree search, {MEDIUM_ITERATIONS} iterations per decision"),
    AgentSpec("mcts", AGENTS["mcts"], description="information-set Monte Carlo tree search on the clock (seconds per move)"),
    AgentSpec("advisor", AGENTS["advisor"], description="re-plans every combat with the WS-10 advisor (per-combat win odds)"),
    AgentSpec("random", AGENTS["random"], level="easy", description="a uniformly random legal action"),
)
