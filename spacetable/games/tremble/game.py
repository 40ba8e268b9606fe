"""Tremble, Humans! on the core protocol: phases, legal actions, views, determinisation (TH §2–§5, IM-1–IM-6)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from spacetable.core import catalog
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.rng import Rng

from . import battle, buying, planning, reward, stations, turns
from .cards import _CACHE as _SETS
from .cards import CARD_SETS, FUEL_PRESETS, CardSet, content_key, get_set
from .state import TState

SEALED_PHASES = ("buy", "plan", "station_move", "self_move", "loss", "claim")
_SEALED = frozenset(SEALED_PHASES)

#: Sealed phases whose commit is stored as sent: phase -> (validator, rule id, resolution once all are in).
_SIMPLE_SEALS: dict[str, tuple[Callable[[TState, CardSet, int, Action], None], str, Callable[[TState, CardSet], None]]] = {
    "station_move": (stations.check_station_move, "TH-7.2", turns.after_station_moves),
    "self_move": (stations.check_self_move, "TH-7.2", turns.after_self_moves),
    "loss": (battle.check_loss, "TH-9.7", battle.resolve_losses),
    "claim": (battle.check_claim, "TH-9.9", battle.resolve_claims),
}


def _submit(s: TState, player: int, value: Action, rule: str) -> bool:
    """``SealedCommits.submit`` then ``complete()``, written out for speed (same checks, same errors)."""
    sealed = s.sealed
    commits = sealed.commits
    if player in commits or player not in sealed.required:
        sealed.submit(player, value, rule)  # raises the protocol's error
    commits[player] = value
    return len(commits) == len(sealed.required)


def _seal_buy(s: TState, cards: CardSet, player: int, action: Action, checked: bool) -> None:
    """TH-4.3: seal a buy commit (validated unless the engine produced it), resolve once all are in."""
    if action["type"] != "buy":
        raise RuleError("TH-4.3", "the buy commit is {type: buy, ...}")
    if not checked:
        buying.check_buy(s, cards, cards.rules, player, action)
    if checked:  # the engine's own commits are full and fresh: stored as given (nothing mutates them)
        full = action
    else:
        get = action.get
        full = {
            "type": "buy",
            "credits": get("credits", 0),
            "buy": list(get("buy", ())),
            "discard": list(get("discard", ())),
            "repay": get("repay", 0),
            "comp": list(get("comp", ())),
        }
    sealed = s.sealed  # _submit, written out (the same checks)
    commits = sealed.commits
    if player in commits or player not in sealed.required:
        sealed.submit(player, full, "TH-4.3")  # raises the protocol's error
    commits[player] = full
    if len(commits) == len(sealed.required):
        turns.resolve_buys(s, cards)


def _seal_plan(s: TState, cards: CardSet, player: int, action: Action, checked: bool) -> None:
    """TH-6.1: seal a plan (validated unless the engine produced it), reveal once all are in (TH-7.1)."""
    if action["type"] != "plan":
        raise RuleError("TH-6.1", "the plan commit is {type: plan, groups, fuel_cards, stations}")
    if not checked:
        planning.check_plan(s, cards, player, action)
    if checked:  # the engine's own plans are full and fresh: stored as given (nothing mutates them)
        plan = action
    else:
        get = action.get
        plan = {"type": "plan", "groups": get("groups", []), "fuel_cards": get("fuel_cards", []), "stations": get("stations", [])}
    sealed = s.sealed  # _submit, written out (the same checks)
    commits = sealed.commits
    if player in commits or player not in sealed.required:
        sealed.submit(player, plan, "TH-6.1")  # raises the protocol's error
    commits[player] = plan
    if len(commits) == len(sealed.required):
        turns.after_plans(s, cards, dict(commits))


def set_key(config: dict[str, Any]) -> str:
    """The card-set key of a normalised config: the catalogue name, or for ``card_set=custom`` the canonical
    JSON of ``card_set_content`` (TH-0.3; kept in the state so that the set can always be rebuilt)."""
    if config["card_set"] != "custom":
        return str(config["card_set"])
    doc = config.get("card_set_content")
    if not isinstance(doc, dict):
        raise ConfigError("card_set=custom needs card_set_content: the card set as one JSON object")
    return content_key(doc)


class TrembleGame(Game[TState]):
    id = "tremble"
    name = "Tremble, Humans! (Трепещите, человеки!)"
    min_players = 2
    max_players = 5
    state_type = TState
    hidden_information = True
    #: the plan decision has thousands of legal plans (up to a third of a second to list): servers list them off the loop
    slow_legal_actions = True
    stochastic = True

    def options(self) -> list[Option]:
        return [
            Option("card_set", "house", ("house", *(n for n in catalog.names(CARD_SETS) if n != "house"), "custom"),
                   help="a card set of the catalogue ('house': the house set), or custom (card_set_content)"),
            Option("card_set_content", None, kind="json",
                   help="your own card set as one JSON document {set, cities, ships, ...} (with card_set=custom; "
                        "at most 512 KiB)"),
            Option("fuel", "default", choices=tuple(FUEL_PRESETS), help="fuel table preset (TH-D1, unverified)"),
            Option("split_unit", 10000, choices=(10000, 1), kind="int", help="mission prize rounding unit (TH-D7)"),
            Option("log_events", True, kind="bool", help="keep a readable event log in the state"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        cfg = dict(config or {})
        cfg.setdefault("players", 4)
        out = super().normalize_config(cfg)
        if out["card_set"] != "custom" and out["card_set_content"] is not None:
            raise ConfigError("card_set_content is only read with card_set=custom")
        try:
            get_set(set_key(out))
        except ValueError as exc:  # CardSetError and CatalogError: they name the set, never a path
            raise ConfigError(str(exc)) from None
        return out

    def cards(self, s: TState) -> CardSet:
        cards = _SETS.get(s.card_set)  # the loaded-set cache read directly (a hot lookup)
        return cards if cards is not None else get_set(s.card_set)

    # ----------------------------------------------------------------- protocol
    def initial_state(self, config: dict[str, Any], seed: int) -> TState:
        cfg = self.normalize_config(config)
        cards = get_set(set_key(cfg))
        fuel = FUEL_PRESETS[cfg["fuel"]] if cfg["fuel"] != "default" else list(cards.rules["fuel_by_turn"])
        s = turns.setup(cards, cfg["players"], seed, fuel, cfg["split_unit"], cfg["log_events"])
        s.card_set = set_key(cfg)
        turns.start_turn(s, cards)
        return s

    def to_act(self, state: TState) -> tuple[int, ...]:
        ph = state.phase
        if ph in _SEALED:
            sealed = state.sealed  # SealedCommits.waiting() written out (hot in simulations)
            commits = sealed.commits
            if not commits:
                return tuple(sealed.required)
            return tuple([p for p in sealed.required if p not in commits])
        if ph == "declare":
            c = state.contest
            assert c is not None
            return (c.order[0],)
        if ph == "over":
            return ()
        if ph == "redraw":
            return (state.queue[0],)
        c = state.contest
        assert c is not None
        if ph == "declare":
            return (c.order[0],)
        if ph == "respond":
            return (c.offer,)
        return (c.winner,)  # reward, ignore_army, army

    def legal_actions(self, state: TState, player: int) -> list[Action]:
        if player not in self.to_act(state):
            return []
        return self._legal(state, self.cards(state), player)

    def _legal(self, state: TState, cards: CardSet, player: int) -> list[Action]:
        """``legal_actions`` for a seat already known to be acting (phases in order of frequency)."""
        ph = state.phase
        if ph == "respond":
            return battle.window_actions(state, cards, player)
        if ph == "reward":
            return reward.reward_actions(state, cards, player)
        if ph == "declare":
            return [{"type": "declare", "choice": "fight"}, {"type": "declare", "choice": "flee"}]
        if ph == "army":
            return [{"type": "army", "choice": "fight"}, {"type": "army", "choice": "flee"}]
        if ph == "loss":
            return battle.loss_options(state, cards, player)
        if ph == "claim":
            return battle.claim_actions(state, cards, player)
        if ph == "self_move":
            return stations.self_move_actions(state, cards, player)
        if ph == "station_move":
            return stations.station_move_actions(state, cards, player)
        if ph == "ignore_army":
            return reward.ignore_actions(state, cards, player)
        if ph == "redraw":
            return [{"type": "redraw_stations"}, {"type": "keep"}]
        if ph == "buy":
            return buying.enumerate_buys(state, cards, cards.rules, player)
        if ph == "plan":
            return planning.enumerate_plans(state, cards, player)
        return []

    def sample_action(self, state: TState, player: int, rng: Rng) -> Action:
        """A random legal action: uniform over ``legal_actions`` except buys and plans, which are drawn
        by :func:`buying.random_buy` / :func:`planning.random_plan` without enumerating (fast random captains)."""
        ph = state.phase
        if ph == "declare" or ph == "army":
            c = state.contest
            if c is not None and player == (c.order[0] if ph == "declare" else c.winner):  # to_act, written out
                # the same draw as indexing legal_actions' [fight, flee] (TH-9.3, TH-10.3), without building it
                return {"type": ph, "choice": ("fight", "flee")[rng.randbelow(2)]}
        cards = _SETS.get(state.card_set) or get_set(state.card_set)
        if ph == "plan":
            return planning.random_plan(state, cards, player, rng)
        if ph == "buy":
            return buying.random_buy(state, cards, cards.rules, player, rng)
        if type(self) is TrembleGame and (ph == "reward" or ph == "respond"):
            c = state.contest
            if c is not None and player == (c.winner if ph == "reward" else c.offer):  # to_act, written out
                if ph == "reward":
                    if not state.players[player].stations:  # [raid, catch] only: index it without building it
                        return {"type": "reward", "choice": ("raid", "catch")[rng.randbelow(2)]}
                    actions = reward.reward_actions(state, cards, player)
                else:
                    actions = battle.window_actions(state, cards, player)
                return actions[rng.randbelow(len(actions))]
        acting = player in self.to_act(state)
        if acting and type(self) is TrembleGame and (ph == "station_move" or ph == "self_move"):
            if ph == "station_move":
                return stations.sample_station_move(state, cards, player, rng)
            return stations.sample_self_move(state, cards, player, rng)
        if type(self) is TrembleGame:
            actions = self._legal(state, cards, player) if acting else []
        else:  # a subclass may narrow legal_actions (the MCTS captain's pruned game)
            actions = self.legal_actions(state, player)
        return actions[rng.randbelow(len(actions))]

    def apply(self, state: TState, player: int, action: Action) -> TState:
        self.check_turn(state, player)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError("CORE-ACTION", "an action is a JSON object with a 'type'")
        s = state.clone()
        self._apply(s, player, action)
        return s

    def apply_in_place(self, s: TState, player: int, action: Action, checked: bool = False) -> None:
        """Mutating apply for simulations that own their state (no clone, no turn check).

        ``checked=True`` is for actions this engine produced itself (``legal_actions`` or
        ``sample_action``, both legal by construction, every field present): the sealed buy and plan
        commits are then not validated a second time (TH-4.4, TH-6) and are stored as given, not
        copied, so the caller must not change them afterwards. Never pass it for actions from outside.
        Phases are tested in the order of their frequency in a game (a hot dispatch)."""
        cards = _SETS.get(s.card_set) or get_set(s.card_set)
        ph = s.phase
        if ph == "declare":
            battle.declare(s, cards, player, action)
        elif ph == "buy":
            _seal_buy(s, cards, player, action, checked)
        elif ph == "plan":
            _seal_plan(s, cards, player, action, checked)
        elif ph == "reward":
            reward.reward_act(s, cards, player, action)
        elif ph == "respond":
            battle.window_act(s, cards, player, action)
        elif ph == "army":
            reward.army_act(s, cards, player, action)
        elif ph in _SIMPLE_SEALS:
            check, rule, resolve = _SIMPLE_SEALS[ph]
            check(s, cards, player, action)
            if _submit(s, player, action, rule):
                resolve(s, cards)
        elif ph == "ignore_army":
            reward.ignore_act(s, cards, player, action)
        elif ph == "redraw":
            t = action["type"]
            if t not in ("redraw_stations", "keep"):
                raise RuleError("TH-4.2", "redraw_stations or keep")
            turns.redraw(s, cards, player, t == "redraw_stations")
        else:
            raise RuleError("CORE-TURN", "the game is over")

    _apply = apply_in_place

    def timeout_action(self, state: TState, player: int) -> Action:
        """The §5 default for a seat that lets its clock run out: buy nothing, empty plan, pass/stay,
        flee, raid, army flee, decline, keep; a forced loss is the non-immortal ship with the lowest
        base strength (then lowest card id)."""
        cards = self.cards(state)
        ph = state.phase
        if ph == "buy":
            return {"type": "buy", "credits": 0, "buy": [], "discard": [], "repay": 0, "comp": []}
        if ph == "plan":
            return {"type": "plan", "groups": [], "fuel_cards": [], "stations": []}
        if ph == "self_move":
            return {"type": "relocate_self", "moves": []}
        if ph == "loss":
            ships = [a for a in battle.loss_options(state, cards, player) if a["type"] == "choose_loss"]
            return min(ships, key=lambda a: (cards.ships[a["ship"]].strength, a["ship"]))
        simple = {
            "redraw": {"type": "keep"},
            "station_move": {"type": "pass"},
            "respond": {"type": "pass"},
            "declare": {"type": "declare", "choice": "flee"},
            "reward": {"type": "reward", "choice": "raid"},
            "ignore_army": {"type": "pass"},
            "army": {"type": "army", "choice": "flee"},
            "claim": {"type": "decline"},
        }
        return simple[ph]

    def clone(self, state: TState) -> TState:
        return state.clone()

    # ------------------------------------------------------------------ results
    def outcome(self, state: TState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = [p.humans for p in state.players]
        key = {i: (scores[i], len(p.trophies), -p.credits_taken) for i, p in enumerate(state.players)}
        best = max(key.values())
        winners = tuple(i for i in range(state.num_players) if key[i] == best)  # TH-D22
        ranking = tuple(sorted(range(state.num_players), key=lambda i: key[i], reverse=True))
        return Outcome(
            tuple(float(x) for x in scores),
            winners,
            "score",
            ranking,
            {
                "missions": state.final.get("missions", []),
                "credits": state.final.get("credits", []),
                "trophies": [len(p.trophies) for p in state.players],
                "card_set": self.cards(state).label,
            },
        )

    def returns(self, state: TState) -> list[float]:
        out = self.outcome(state)
        n = state.num_players
        if out is None:
            return [0.0] * n
        share = 1.0 / len(out.winners)
        top = max(out.scores)
        return [share if i in out.winners else -1.0 + 0.5 * max(0.0, out.scores[i]) / max(1.0, top) for i in range(n)]

    # --------------------------------------------------------------------- views
    def view(self, state: TState, player: int | None) -> dict[str, Any]:
        from .views import build_view

        return build_view(self, state, player)

    def action_view(self, state: TState, player: int, action: Action, viewer: int | None) -> Action | None:
        """Sealed commits (buy, plan, moves, loss choices, claims) are hidden from others (IM-4, IM-5)."""
        if state.phase in SEALED_PHASES and viewer != player:
            return {"type": "committed", "phase": state.phase}
        return action

    def action_text(self, state: TState, player: int, action: Action) -> str:
        from .views import action_text

        return action_text(self.cards(state), action)

    def render_text(self, state: TState, player: int | None) -> str:
        from .views import render_text

        return render_text(self, state, player)

    def parse_action(self, state: TState, player: int, text: str) -> Action:
        """A number from the listed legal actions, a JSON action, or the plan notation
        ``plan 2=1,3 4=reaper_tripod#2 fuel=spare_tank#1 station=beacon#1@2`` (slot=ships, ships by
        card id or by their 1-based position in the sorted hand)."""
        text = text.strip()
        if text.startswith("plan"):
            return self._parse_plan(state, player, text[4:])
        if text.isdigit():
            legal = self.legal_actions(state, player)
            i = int(text)
            if not 1 <= i <= len(legal):
                raise RuleError("CORE-ACTION", f"choose 1..{len(legal)}")
            return legal[i - 1]
        return super().parse_action(state, player, text)

    def _parse_plan(self, state: TState, player: int, text: str) -> Action:
        hand = sorted(state.players[player].hand)
        groups: list[dict[str, Any]] = []
        fuel: list[str] = []
        stations: list[dict[str, Any]] = []
        for tok in text.split():
            key, _, value = tok.partition("=")
            if not value:
                raise RuleError("CORE-ACTION", f"cannot read {tok!r}; use slot=ships, fuel=cards, station=id@slot")
            if key == "fuel":
                fuel.extend(value.split(","))
            elif key == "station":
                sid, _, slot = value.partition("@")
                stations.append({"station": sid, **({"slot": int(slot)} if slot.isdigit() else {})})
            elif key.isdigit():
                ships = []
                for ref in value.split(","):
                    if ref.isdigit() and 1 <= int(ref) <= len(hand):
                        ships.append(hand[int(ref) - 1])
                    else:
                        ships.append(ref)
                groups.append({"slot": int(key), "ships": ships})
            else:
                raise RuleError("CORE-ACTION", f"cannot read {tok!r}")
        return {"type": "plan", "groups": groups, "fuel_cards": fuel, "stations": stations}

    # ----------------------------------------------------------- determinisation
    def determinize(self, state: TState, player: int, rng: Rng) -> TState:
        from .views import determinize

        return determinize(self, state, player, rng)

    def state_to_json(self, state: TState) -> dict[str, Any]:
        data = super().state_to_json(state)
        return json.loads(json.dumps(data))


GAME = TrembleGame()
