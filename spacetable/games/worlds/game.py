"""The Worlds & Suns combat skirmish on the core protocol (WS-1 to WS-8).

Only the combat chapter of an unidentified game is known (WS-0.3): this engine
plays combats between two sides on a fixed map from a scenario, with a house
turn structure, ending and score (WS-8, house rules).

Seats: seat 0 is the scenario's first side, seat 1 the second. Sealed
simultaneous choices (events WS-5.1, energy WS-5.3) use core ``SealedCommits``;
a seat whose choice is public knowledge anyway (empty hand, empty pool) is not
asked, which reveals nothing.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.rng import Rng, mix_seed
from spacetable.core.simultaneous import SealedCommits

from . import scenario as scen
from .aftermath import combat_winner, convertible, retreat_candidates, sun_of
from .battle import compare, group_power
from .declare import any_contested, card_by_id, eligibility_error, eligible_cards, pieces_on
from .events import card as event_card
from .events import deck_list, event_number, house_deck
from .pairing import canonical_splits, split_to_battles
from .pieces import FACTORY, NOTICE, POPULATION, SUN, WORLD, Card, Piece, System, anchor_sort_key, piece_sort_key
from .state import Battle, Combat, WorldsState

TITLE = "Worlds & Suns — combat skirmish (combat chapter only; not the full game)"
HOUSE_RULES = [
    "house rule: skirmish turn, ending and material score (WS-8)",
    "house rule: scenario format worlds-skirmish/1 (spec §6)",
    "house rule: event deck composition and effects except the attested +1 of Mobilisation Générale (WS-7)",
]


class WorldsGame(Game[WorldsState]):
    id = "worlds"
    name = "Worlds & Suns — combat skirmish (combat chapter only)"
    min_players = 2
    max_players = 2
    state_type = WorldsState
    hidden_information = True
    stochastic = True

    # ------------------------------------------------------------ configuration
    def options(self) -> list[Option]:
        return [
            Option("scenario", "s1-example", tuple(scen.shipped_names()), "str", "shipped scenario (WS-8.1)"),
            Option("scenario_json", None, None, "json", "a full worlds-skirmish/1 scenario; overrides 'scenario'"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        out = super().normalize_config(config)
        if out.get("scenario_json") is not None:
            scen.validate(out["scenario_json"])
        return out

    def scenario_data(self, config: dict[str, Any]) -> dict[str, Any]:
        if config.get("scenario_json") is not None:
            data: dict[str, Any] = config["scenario_json"]
            scen.validate(data)
            return data
        return scen.load(str(config.get("scenario", "s1-example")))

    def player_names(self, config: dict[str, Any]) -> list[str]:
        try:
            return list(self.scenario_data(self.normalize_config(config))["sides"])
        except ConfigError:
            return super().player_names(config)

    # ------------------------------------------------------------------- setup
    def initial_state(self, config: dict[str, Any], seed: int) -> WorldsState:
        return self.from_scenario(self.scenario_data(config), seed)

    def from_scenario(self, data: dict[str, Any], seed: int | None = None) -> WorldsState:
        """WS-8.1 setup from a validated scenario; ``seed`` defaults to the scenario's."""
        scen.validate(data)
        if seed is None:
            seed = int(data.get("seed", 0))
        sides = list(data["sides"])
        st = WorldsState(scenario_id=str(data.get("id", "scenario")), label=str(data.get("label", TITLE)), sides=sides)
        for sysd in data["systems"]:
            owner = sysd.get("starting_system_of")
            st.systems.append(System(sysd["id"], sysd["sun"]["id"], [w["id"] for w in sysd["worlds"]],
                                     None if owner is None else sides.index(owner)))
            for kind, cd in [(SUN, sysd["sun"])] + [(WORLD, w) for w in sysd["worlds"]]:
                st.cards.append(Card(cd["id"], kind, sysd["id"]))
                for side, pcs in (cd.get("pieces") or {}).items():
                    seat = sides.index(side)
                    for k in (POPULATION, FACTORY):
                        for n in range(1, int(pcs.get(k, 0)) + 1):
                            st.pieces.append(Piece(f"{side}.{cd['id']}.{k}{n}", seat, k, cd["id"]))
        st.energy = [int((data.get("energy") or {}).get(s, 0)) for s in sides]
        st.income = [int((data.get("energy_income") or {}).get(s, 0)) for s in sides]
        deck = deck_list()
        Rng(mix_seed(seed, "worlds", "hands")).shuffle(deck)
        hands: list[list[str]] = [[], []]
        for seat, side in enumerate(sides):
            h = (data.get("hands") or {}).get(side, [])
            if isinstance(h, list):
                hands[seat] = list(h)
        for seat, side in enumerate(sides):
            h = (data.get("hands") or {}).get(side, [])
            if isinstance(h, dict):
                for _ in range(int(h["random"])):
                    if deck:
                        hands[seat].append(deck.pop(0))
        st.hands = [sorted(h, key=event_number) for h in hands]
        st.deck = deck
        st.first_player = st.active = sides.index(data.get("first_player", sides[0]))
        st.max_rounds = int(data.get("max_rounds", 10))
        st.dice_script = [list(p) for p in data["dice_script"]] if data.get("dice_script") else None
        st.rng = Rng(mix_seed(seed, "worlds", "dice"))
        st.log.append(TITLE + ". " + NOTICE)
        self._start_turn(st)
        return st

    # ---------------------------------------------------------------- protocol
    def to_act(self, state: WorldsState) -> tuple[int, ...]:
        if state.over:
            return ()
        c = state.combat
        if c is None:
            return (state.active,)
        if c.step == "allocate":
            return (c.allocator,)
        if c.step in ("event", "energy"):
            return c.sealed.waiting()
        if c.step == "tie":
            return (c.tie_pending[0],)
        if c.step == "retreat":
            assert c.winner is not None
            return (1 - c.winner,)
        if c.step == "convert":
            assert c.winner is not None
            return (c.winner,)
        return ()

    def legal_actions(self, state: WorldsState, player: int) -> list[Action]:
        if player not in self.to_act(state):
            return []
        c = state.combat
        if c is None:
            return [{"type": "declare_combat", "card": cid} for cid in eligible_cards(state, player)] + [{"type": "end_turn"}]
        if c.step == "allocate":
            return self.allocations(state)
        b = c.battles[c.current]
        if c.step == "event":
            cards: list[str | None] = [None]
            cards += sorted({x for x in state.hands[player] if self._event_error(state, player, x) is None}, key=event_number)
            return [{"type": "play_event", "card": x} for x in cards]
        if c.step == "energy":
            return [{"type": "commit_energy", "amount": n} for n in range(state.energy[player] + 1)]
        if c.step == "tie":
            own = self._battle_pieces(state, b, c, player)
            firsts = {}
            for p in own:
                firsts.setdefault(p.kind, p.id)
            return [{"type": "choose_tie_loss", "piece": firsts[k]} for k in (POPULATION, FACTORY) if k in firsts]
        if c.step == "retreat":
            pops = [p.id for p in retreat_candidates(state, c, player)]
            return [{"type": "retreat", "pieces": pops[:n]} for n in range(len(pops) + 1)]
        if c.step == "convert":
            assert c.winner is not None
            return [{"type": "convert", "factory": None}] + [
                {"type": "convert", "factory": p.id} for p in convertible(state, c, 1 - c.winner)
            ]
        return []

    def allocations(self, state: WorldsState) -> list[Action]:
        """WS-4.5: one ``allocate`` per canonical split, battles in anchor order (any order is accepted)."""
        c = state.combat
        assert c is not None
        anchors = self._anchors(state, c)
        own = [self._piece(state, pid) for pid in c.participants[c.allocator]]
        pops = [p.id for p in own if p.kind == POPULATION]
        facs = [p.id for p in own if p.kind == FACTORY]
        kinds = [p.kind for p in anchors]
        return [
            {"type": "allocate", "battles": split_to_battles(sp, [p.id for p in anchors], pops, facs)}
            for sp in canonical_splits(len(pops), len(facs), kinds)
        ]

    def apply(self, state: WorldsState, player: int, action: Action) -> WorldsState:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError("CORE-ACTION", "an action is a JSON object with a 'type'")
        c = state.combat
        if action["type"] == "allocate" and c is not None and c.step == "allocate" and player != c.allocator:
            rule = "WS-4.3" if len(c.participants[0]) == len(c.participants[1]) else "WS-4.2"
            raise RuleError(rule, f"{state.sides[player]} is not the allocator of this combat")
        if action["type"] == "declare_combat" and c is not None:
            raise RuleError("WS-2.4", "a combat is already open: it must end before another is declared")
        if action["type"] == "end_turn" and c is not None and player == state.active:
            raise RuleError("WS-2.4", "a combat is open: it must end (WS-6.5) before the turn can end")
        self.check_turn(state, player)
        s = copy.deepcopy(state)
        handler = getattr(self, "_do_" + action["type"], None)
        if handler is None:
            raise RuleError("CORE-ACTION", f"unknown action type {action['type']!r}")
        handler(s, player, action)
        return s

    # ----------------------------------------------------------------- handlers
    def _do_declare_combat(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-2.3 / WS-3.1: name an eligible card; the engine fixes the participants (WS-2.5)."""
        if s.combat is not None:
            raise RuleError("WS-2.4", "a combat is already open")
        card_id = action.get("card")
        err = eligibility_error(s, seat, str(card_id))
        if err is not None:
            raise err
        parts = [[p.id for p in pieces_on(s, str(card_id), x)] for x in (0, 1)]
        n_a, n_d = len(parts[seat]), len(parts[1 - seat])
        allocator = seat if n_a >= n_d else 1 - seat  # WS-4.2 / WS-4.3 (WS-D1)
        s.combat = Combat(card=str(card_id), attacker=seat, allocator=allocator, participants=parts)
        s.fought.append(str(card_id))
        s.combats_this_turn += 1
        s.log.append(
            f"{s.sides[seat]} declares a combat on {card_id}: {n_a} against {n_d} pieces, "
            f"{min(n_a, n_d)} battle(s); {s.sides[allocator]} allocates"
        )

    def _do_allocate(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-4.2-4.4: all allocator pieces over the k battles, one anchor each, in resolution order."""
        c = self._combat(s, "allocate", "WS-4.2")
        battles = action.get("battles")
        if not isinstance(battles, list):
            raise RuleError("CORE-ACTION", "allocate needs 'battles': [{anchor, pieces}]")
        rule = "WS-4.3" if len(c.participants[0]) == len(c.participants[1]) else "WS-4.2"
        anchors = {p.id for p in self._anchors(s, c)}
        own = set(c.participants[c.allocator])
        seen_a: set[str] = set()
        seen_p: set[str] = set()
        out = []
        for b in battles:
            if not isinstance(b, dict) or not isinstance(b.get("pieces"), list):
                raise RuleError("CORE-ACTION", "each battle is {anchor, pieces:[id]}")
            a = b.get("anchor")
            if a not in anchors or a in seen_a:
                raise RuleError(rule, f"each anchor must be used exactly once ({a!r})")
            seen_a.add(str(a))
            if not b["pieces"]:
                raise RuleError(rule, f"the battle against {a} is empty: every battle needs at least one piece")
            for pid in b["pieces"]:
                if pid not in own or pid in seen_p:
                    raise RuleError(rule, f"piece {pid!r} is not an unused participant of the allocator")
                seen_p.add(pid)
            out.append(Battle(anchor=str(a), pieces=list(b["pieces"])))
        if seen_a != anchors:
            raise RuleError(rule, f"there must be exactly {len(anchors)} battles, one per anchor")
        if seen_p != own:
            raise RuleError(rule, "the allocator must place all its pieces (WS-4.2)")
        c.battles = out
        desc = "; ".join(f"{i + 1}: {', '.join(b.pieces)} vs {b.anchor}" for i, b in enumerate(out))
        s.log.append(f"{s.sides[seat]} allocates ({desc})")
        self._start_battle(s)

    def _do_play_event(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-5.1: at most one legal event card, sealed; revealed together (WS-D3)."""
        c = self._combat(s, "event", "WS-5.1")
        code = action.get("card")
        if code is not None:
            err = self._event_error(s, seat, code)
            if err is not None:
                raise err
        c.sealed.submit(seat, code, "WS-5.1")
        if c.sealed.complete():
            b = c.battles[c.current]
            for p, code2 in c.sealed.revealed().items():
                if code2 is None:
                    continue
                ec = event_card(code2)
                s.hands[p].remove(code2)
                s.discards[p].append(code2)
                b.events[p] = code2
                b.natives[p] += ec.natives
                b.pop_bonus[p] += ec.pop_bonus
            played = [f"{s.sides[p]} plays {b.events[p]}" for p in (0, 1) if b.events[p]]
            s.log.append(f"battle {c.current + 1} events: " + (", ".join(played) if played else "none"))
            self._energy_step(s)

    def _do_commit_energy(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-5.3: sealed integer 0 <= e <= pool; both pools drop whatever the outcome (WS-D4)."""
        c = self._combat(s, "energy", "WS-5.3")
        amount = action.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise RuleError("WS-5.3", "energy is a non-negative integer")
        if amount > s.energy[seat]:
            raise RuleError("WS-5.3", f"cannot commit {amount} energy: the pool holds {s.energy[seat]}")
        c.sealed.submit(seat, amount, "WS-5.3")
        if c.sealed.complete():
            b = c.battles[c.current]
            for p, e in c.sealed.revealed().items():
                b.energy[p] = int(e)
                s.energy[p] -= int(e)
            spent = ", ".join(f"{s.sides[p]} {b.energy[p]}" for p in (0, 1))
            s.log.append(f"battle {c.current + 1} energy revealed: {spent} (pools now {s.energy[0]}/{s.energy[1]})")
            self._resolve(s)

    def _do_choose_tie_loss(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-5.6: remove one own Population or Factory of this battle (never a native)."""
        c = self._combat(s, "tie", "WS-5.6")
        b = c.battles[c.current]
        own = {p.id for p in self._battle_pieces(s, b, c, seat)}
        if action.get("piece") not in own:
            raise RuleError("WS-5.6", f"{action.get('piece')!r} is not one of your pieces in this battle")
        self._remove(s, c, b, seat, [str(action["piece"])])
        c.tie_pending.pop(0)
        self._tie_progress(s)

    def _do_retreat(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-6.3: any subset of the loser's surviving Populations moves to the system's Sun."""
        c = self._combat(s, "retreat", "WS-6.3")
        ids = action.get("pieces")
        allowed = {p.id for p in retreat_candidates(s, c, seat)}
        if not isinstance(ids, list) or len(set(ids)) != len(ids) or not set(ids) <= allowed:
            raise RuleError("WS-6.3", "only your surviving Populations on this World may retreat")
        sun = sun_of(s, c.card)
        for p in s.pieces:
            if p.id in ids:
                p.card = sun
        c.retreated = list(ids)
        who = s.sides[seat]
        s.log.append(f"{who} retreats {len(ids)} Population(s) to {sun}" if ids else f"{who} does not retreat")
        self._after_retreat(s)

    def _do_convert(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-6.4: the winner may take exactly one of the loser's remaining Factories (optional, WS-D10)."""
        c = self._combat(s, "convert", "WS-6.4")
        fid = action.get("factory")
        if fid is not None:
            allowed = {p.id for p in convertible(s, c, 1 - seat)}
            if fid not in allowed:
                raise RuleError("WS-6.4", f"{fid!r} is not a Factory of the loser on {c.card}")
            self._piece(s, fid).owner = seat
            c.converted = fid
            s.converted[seat] += 1
            s.log.append(f"{s.sides[seat]} converts Factory {fid}")
        else:
            s.log.append(f"{s.sides[seat]} declines to convert")
        self._close_combat(s)

    def _do_end_turn(self, s: WorldsState, seat: int, action: Action) -> None:
        """WS-8.2: end the turn (legal with or without combat); WS-8.3 end checks."""
        if s.combat is not None:
            raise RuleError("WS-2.4", "finish the open combat before ending the turn")
        s.quiet_turns = 0 if s.combats_this_turn else s.quiet_turns + 1
        s.log.append(f"{s.sides[seat]} ends its turn")
        if s.quiet_turns >= 2:
            self._finish(s, "two consecutive turns without combat (WS-8.3b)")
            return
        s.active = 1 - s.active
        if s.active == s.first_player:
            if s.round >= s.max_rounds:
                self._finish(s, f"{s.max_rounds} rounds complete (WS-8.3c)")
                return
            s.round += 1
        self._start_turn(s)

    # ------------------------------------------------------------------- flow
    def _start_turn(self, s: WorldsState) -> None:
        """WS-8.2 income; WS-8.3(a) end when no card is eligible for either side."""
        s.fought = []
        s.combats_this_turn = 0
        s.energy[s.active] += s.income[s.active]
        if not any_contested(s):
            self._finish(s, "no card is eligible for combat (WS-8.3a)")
            return
        s.log.append(f"round {s.round}: {s.sides[s.active]}'s turn (energy {s.energy[0]}/{s.energy[1]})")

    def _start_battle(self, s: WorldsState) -> None:
        c = s.combat
        assert c is not None
        seats = [p for p in (0, 1) if s.hands[p]]
        if seats:
            c.step = "event"
            c.sealed = SealedCommits.open(seats)
        else:
            self._energy_step(s)

    def _energy_step(self, s: WorldsState) -> None:
        c = s.combat
        assert c is not None
        seats = [p for p in (0, 1) if s.energy[p] > 0]
        if seats:
            c.step = "energy"
            c.sealed = SealedCommits.open(seats)
        else:
            c.sealed = SealedCommits()
            self._resolve(s)

    def _roll(self, s: WorldsState) -> tuple[int, int]:
        """WS-8.5: dice_script pairs first (attacker, defender), then the seeded RNG."""
        if s.dice_script is not None and s.dice_used < len(s.dice_script):
            pair = s.dice_script[s.dice_used]
            s.dice_used += 1
            return pair[0], pair[1]
        return s.rng.die(), s.rng.die()

    def _resolve(self, s: WorldsState) -> None:
        """WS-5.4-5.6: dice, totals, the lower total loses everything, a tie costs one piece each."""
        c = s.combat
        assert c is not None
        c.sealed = SealedCommits()
        b = c.battles[c.current]
        powers = []
        for p in (0, 1):
            own = self._battle_pieces(s, b, c, p)
            pops = sum(1 for x in own if x.kind == POPULATION)
            facs = len(own) - pops
            powers.append(group_power(pops, facs, b.natives[p], b.pop_bonus[p], b.energy[p]))
        da, dd = self._roll(s)
        dice = [0, 0]
        dice[c.attacker], dice[1 - c.attacker] = da, dd
        b.power = powers
        b.dice = dice
        b.totals = [powers[0] + dice[0], powers[1] + dice[1]]
        res = compare(b.totals[0], b.totals[1])
        sides = [f"{s.sides[p]} {powers[p]}+{dice[p]}={b.totals[p]}" for p in (0, 1)]
        words = f"battle {c.current + 1}: {sides[0]} vs {sides[1]}"
        if res == 0:
            b.result = "tie"
            s.log.append(words + ": tie, each side loses one piece")
            c.tie_pending = [c.attacker, 1 - c.attacker]
            self._tie_progress(s)
            return
        winner = 0 if res > 0 else 1
        loser = 1 - winner
        b.result = str(winner)
        lost = [p.id for p in self._battle_pieces(s, b, c, loser)]
        self._remove(s, c, b, loser, lost)
        s.log.append(words + f": {s.sides[winner]} wins, {s.sides[loser]} loses {len(lost)} piece(s)")
        self._next_battle(s)

    def _tie_progress(self, s: WorldsState) -> None:
        """WS-5.6: the attacker announces first; a choice between identical kinds is made for the player."""
        c = s.combat
        assert c is not None
        b = c.battles[c.current]
        while c.tie_pending:
            seat = c.tie_pending[0]
            own = self._battle_pieces(s, b, c, seat)
            if len({p.kind for p in own}) > 1:
                c.step = "tie"
                return
            self._remove(s, c, b, seat, [own[0].id])
            c.tie_pending.pop(0)
        self._next_battle(s)

    def _remove(self, s: WorldsState, c: Combat, b: Battle, seat: int, ids: list[str]) -> None:
        s.pieces = [p for p in s.pieces if p.id not in ids]
        b.lost[seat].extend(ids)
        c.losses[seat] += len(ids)
        s.lost[seat] += len(ids)
        if b.result == "tie":
            s.log.append(f"{s.sides[seat]} removes {', '.join(ids)}")

    def _next_battle(self, s: WorldsState) -> None:
        """WS-5.7 cleanup (natives leave), then the next battle or the combat result."""
        c = s.combat
        assert c is not None
        c.battles[c.current].done = True
        c.tie_pending = []
        if c.current + 1 < len(c.battles):
            c.current += 1
            self._start_battle(s)
            return
        c.winner = combat_winner(c.losses)
        if c.winner is None:
            s.log.append(f"combat over: losses {c.losses[0]}-{c.losses[1]}, no winner (WS-6.2)")
            self._close_combat(s)
            return
        s.combats_won[c.winner] += 1
        s.log.append(f"combat over: losses {c.losses[0]}-{c.losses[1]}, {s.sides[c.winner]} wins (WS-6.2)")
        if retreat_candidates(s, c, 1 - c.winner):
            c.step = "retreat"
        else:
            self._after_retreat(s)

    def _after_retreat(self, s: WorldsState) -> None:
        c = s.combat
        assert c is not None and c.winner is not None
        if convertible(s, c, 1 - c.winner):
            c.step = "convert"
        else:
            self._close_combat(s)

    def _close_combat(self, s: WorldsState) -> None:
        s.last_combat = s.combat
        s.combat = None

    def _finish(self, s: WorldsState, reason: str) -> None:
        s.over = True
        s.end_reason = reason
        s.combat = None
        m = self.material(s)
        s.log.append(f"skirmish over: {reason}; material {s.sides[0]} {m[0]}, {s.sides[1]} {m[1]} (house rule WS-8.4)")

    # ----------------------------------------------------------------- helpers
    def _combat(self, s: WorldsState, step: str, rule: str) -> Combat:
        c = s.combat
        if c is None or c.step != step:
            raise RuleError(rule, f"this is not the {step} step")
        return c

    def _piece(self, s: WorldsState, pid: str) -> Piece:
        for p in s.pieces:
            if p.id == pid:
                return p
        raise RuleError("CORE-ACTION", f"no piece {pid!r}")

    def _anchors(self, s: WorldsState, c: Combat) -> list[Piece]:
        """WS-4.2/4.3 anchors, in WS-10.6 order."""
        other = 1 - c.allocator
        return sorted((self._piece(s, pid) for pid in c.participants[other]), key=anchor_sort_key)

    def _battle_pieces(self, s: WorldsState, b: Battle, c: Combat, seat: int) -> list[Piece]:
        ids = b.pieces if seat == c.allocator else [b.anchor]
        alive = {p.id: p for p in s.pieces}
        return sorted((alive[i] for i in ids if i in alive), key=lambda p: (p.kind != POPULATION, piece_sort_key(p.id)))

    def _event_error(self, s: WorldsState, seat: int, code: Any) -> RuleError | None:
        """WS-7 legality of an event card for ``seat`` in the current battle."""
        c = s.combat
        assert c is not None
        if code not in house_deck():
            return RuleError("WS-7", f"unknown event card {code!r}")
        if code not in s.hands[seat]:
            return RuleError("WS-5.1", f"{code} is not in your hand")
        b = c.battles[c.current]
        own = self._battle_pieces(s, b, c, seat)
        pops = sum(1 for p in own if p.kind == POPULATION)
        card = card_by_id(s, c.card)
        on_world = card is not None and card.kind == WORLD
        ec = event_card(code)
        if not ec.legal(pops, seat != c.attacker, on_world):
            why = {
                "MG": "Mobilisation Générale needs at least one of your Populations in this battle",
                "RI": "Révolte Indigène is only for the defender in a battle on a World",
            }.get(code, f"{code} is not legal in this battle")
            return RuleError("WS-7", why)
        return None

    def material(self, s: WorldsState) -> list[int]:
        """WS-8.4 material per seat (house rule): 2 per Population, 1 per Factory."""
        m = [0, 0]
        for p in s.pieces:
            m[p.owner] += 2 if p.kind == POPULATION else 1
        return m

    def timeout_action(self, state: WorldsState, player: int) -> Action:
        """§5 timeout defaults: no event, 0 energy, default tie policy, no retreat, lowest-id Factory, end turn."""
        c = state.combat
        if c is None:
            return {"type": "end_turn"}
        if c.step == "allocate":
            return self.allocations(state)[0]
        if c.step == "event":
            return {"type": "play_event", "card": None}
        if c.step == "energy":
            return {"type": "commit_energy", "amount": 0}
        if c.step == "tie":
            own = self._battle_pieces(state, c.battles[c.current], c, player)
            facs = [p for p in own if p.kind == FACTORY]
            pick = facs[0] if facs else own[0]  # default policy (WS-9.1): a Factory if the group has one
            return {"type": "choose_tie_loss", "piece": pick.id}
        if c.step == "retreat":
            return {"type": "retreat", "pieces": []}
        facs = convertible(state, c, player ^ 1)
        return {"type": "convert", "factory": facs[0].id if facs else None}

    # ------------------------------------------------------------------- views
    def view(self, state: WorldsState, player: int | None) -> dict[str, Any]:
        """IM-1/IM-2: everything public, plus the seat's own hand and own sealed choice."""
        s = state

        def pcs(card_id: str) -> list[dict[str, Any]]:
            return [{"id": p.id, "owner": p.owner, "side": s.sides[p.owner], "kind": p.kind} for p in pieces_on(s, card_id)]

        systems = []
        for sy in s.systems:
            systems.append({
                "id": sy.id,
                "starting_system_of": None if sy.starting_system_of is None else s.sides[sy.starting_system_of],
                "sun": {"id": sy.sun, "pieces": pcs(sy.sun)},
                "worlds": [{"id": w, "pieces": pcs(w)} for w in sy.worlds],
            })
        combat = None
        c = s.combat
        if c is not None:
            combat = {
                "card": c.card, "attacker": c.attacker, "defender": 1 - c.attacker, "allocator": c.allocator,
                "participants": c.participants, "step": c.step, "current": c.current,
                "battles": [
                    {"anchor": b.anchor, "pieces": b.pieces, "events": b.events,
                     "energy": b.energy if b.dice else [None, None],
                     "power": b.power, "dice": b.dice, "totals": b.totals, "result": b.result, "lost": b.lost, "done": b.done}
                    for b in c.battles
                ],
                "sealed": c.sealed.view(player),
                "tie_pending": c.tie_pending, "losses": c.losses, "winner": c.winner,
            }
        out = self.outcome(s)
        return {
            "game": "worlds", "title": TITLE, "notice": NOTICE, "house_rules": HOUSE_RULES,
            "scenario": s.scenario_id, "label": s.label,
            "sides": s.sides, "seat": player, "active": s.active, "round": s.round, "max_rounds": s.max_rounds,
            "systems": systems, "energy": s.energy, "income": s.income,
            "hand_sizes": [len(h) for h in s.hands], "hand": list(s.hands[player]) if player is not None else None,
            "cards": {code: ec.to_json() for code, ec in house_deck().items()},
            "discards": s.discards, "fought": s.fought,
            "eligible": eligible_cards(s, s.active) if c is None and not s.over else [],
            "combat": combat, "material": self.material(s),
            "stats": {"lost": s.lost, "combats_won": s.combats_won, "converted": s.converted},
            "to_act": list(self.to_act(s)), "log": s.log[-40:], "over": s.over,
            "result": out.to_json() if out else None,
        }

    def action_view(self, state: WorldsState, player: int, action: Action, viewer: int | None) -> Action | None:
        """Sealed choices (WS-5.1, WS-5.3) show the other seats only that a choice was sent (IM-2)."""
        if action.get("type") in ("play_event", "commit_energy") and viewer != player:
            return {"type": action["type"], "sealed": True}
        return action

    def outcome(self, state: WorldsState) -> Outcome | None:
        """WS-8.4 (house rule): higher material wins, equal material is a draw."""
        if not state.over:
            return None
        m = self.material(state)
        winners: tuple[int, ...] = () if m[0] == m[1] else ((0,) if m[0] > m[1] else (1,))
        ranking = (0, 1) if m[0] >= m[1] else (1, 0)
        return Outcome(
            scores=(float(m[0]), float(m[1])), winners=winners, kind="material" if winners else "draw", ranking=ranking,
            details={"reason": state.end_reason, "material": m, "lost": state.lost, "combats_won": state.combats_won,
                     "converted": state.converted, "notice": NOTICE, "label": "house rule (WS-8.4)"},
        )

    def returns(self, state: WorldsState) -> list[float]:
        out = self.outcome(state)
        m = self.material(state)
        total = max(1, m[0] + m[1])
        if out is None:
            return [(m[0] - m[1]) / total, (m[1] - m[0]) / total]
        return super().returns(state)

    def determinize(self, state: WorldsState, player: int, rng: Rng) -> WorldsState:
        """Resample the other seat's hand from the unseen house cards and its sealed choice; new dice (IM-2/IM-3)."""
        s = copy.deepcopy(state)
        other = 1 - player
        pool = deck_list()
        for code in s.hands[player] + s.discards[0] + s.discards[1]:
            if code in pool:
                pool.remove(code)
        rng.shuffle(pool)
        n = len(s.hands[other])
        # scenario hands may hold more copies than the deck: top up with random house cards, never the real hand
        codes = sorted(house_deck())
        drawn = pool[:n] + [rng.choice(codes) for _ in range(n - len(pool[:n]))]
        s.hands[other] = sorted(drawn, key=event_number)
        s.deck = pool[n:]
        s.rng = Rng(rng.next_u64())
        s.dice_script = None
        c = s.combat
        if c is not None and other in c.sealed.commits:
            if c.step == "event":
                legal = [None] + [x for x in s.hands[other] if self._event_error(s, other, x) is None]
                c.sealed.commits[other] = rng.choice(legal)
            elif c.step == "energy":
                c.sealed.commits[other] = rng.randint(0, s.energy[other])
        return s

    # ------------------------------------------------------------ presentation
    def action_text(self, state: WorldsState, player: int, action: Action) -> str:
        t = action.get("type")
        side = state.sides[player] if 0 <= player < len(state.sides) else str(player)
        if action.get("sealed"):
            return f"{side}: (sealed {t})"
        if t == "declare_combat":
            return f"{side}: declare combat on {action.get('card')}"
        if t == "allocate":
            parts = [f"{'+'.join(b['pieces'])} vs {b['anchor']}" for b in action.get("battles", [])]
            return f"{side}: allocate " + " | ".join(parts)
        if t == "play_event":
            return f"{side}: event {action.get('card') or 'none'}"
        if t == "commit_energy":
            return f"{side}: energy {action.get('amount')}"
        if t == "choose_tie_loss":
            return f"{side}: tie loss {action.get('piece')}"
        if t == "retreat":
            return f"{side}: retreat {', '.join(action.get('pieces') or []) or 'nothing'}"
        if t == "convert":
            return f"{side}: convert {action.get('factory') or 'nothing'}"
        if t == "end_turn":
            return f"{side}: end turn"
        return f"{side}: {json.dumps(action)}"

    def parse_action(self, state: WorldsState, player: int, text: str) -> Action:
        """Notation: ``declare CARD``, ``alloc ANCHOR=ID,ID;ANCHOR=ID``, ``event MG|none``, ``energy N``,
        ``tie PIECE``, ``retreat [ID ...]``, ``convert ID|none``, ``end``; or a JSON object."""
        text = text.strip()
        if text.startswith("{"):
            return super().parse_action(state, player, text)
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        word = word.lower()
        none = rest.lower() in ("", "none", "null", "-")
        if word in ("end", "end_turn"):
            return {"type": "end_turn"}
        if word in ("declare", "attack"):
            return {"type": "declare_combat", "card": rest}
        if word in ("alloc", "allocate"):
            battles = []
            for chunk in rest.split(";"):
                anchor, _, ids = chunk.partition("=")
                battles.append({"anchor": anchor.strip(), "pieces": [x.strip() for x in ids.split(",") if x.strip()]})
            return {"type": "allocate", "battles": battles}
        if word == "event":
            return {"type": "play_event", "card": None if none else rest.upper()}
        if word == "energy":
            try:
                return {"type": "commit_energy", "amount": int(rest)}
            except ValueError as exc:
                raise RuleError("CORE-ACTION", "energy needs an integer") from exc
        if word == "tie":
            return {"type": "choose_tie_loss", "piece": rest}
        if word == "retreat":
            return {"type": "retreat", "pieces": [] if none else rest.replace(",", " ").split()}
        if word == "convert":
            return {"type": "convert", "factory": None if none else rest}
        raise RuleError("CORE-ACTION", f"cannot read {text!r}")

    def render_text(self, state: WorldsState, player: int | None) -> str:
        s = state
        v = self.view(s, player)
        lines = [TITLE, NOTICE, f"scenario {s.scenario_id} - round {s.round}/{s.max_rounds}, {s.sides[s.active]}'s turn"]
        for sy in v["systems"]:
            start = f" (starting system of {sy['starting_system_of']}: no combat)" if sy["starting_system_of"] else ""
            lines.append(f"system {sy['id']}{start}")
            for label, cd in [("sun", sy["sun"])] + [("world", w) for w in sy["worlds"]]:
                per = []
                for seat, side in enumerate(s.sides):
                    mine = [p for p in cd["pieces"] if p["owner"] == seat]
                    np_ = sum(1 for p in mine if p["kind"] == POPULATION)
                    nf = len(mine) - np_
                    if mine:
                        per.append(f"{side} {np_}P {nf}F")
                lines.append(f"  {label:5} {cd['id']}: " + (", ".join(per) if per else "empty"))
        lines.append(
            f"energy {s.sides[0]} {s.energy[0]}, {s.sides[1]} {s.energy[1]}; "
            f"hands {s.sides[0]} {len(s.hands[0])}, {s.sides[1]} {len(s.hands[1])} cards"
        )
        if player is not None:
            lines.append(f"your hand: {', '.join(s.hands[player]) or '(empty)'}  [event cards are house rules except MG's +1]")
        c = s.combat
        if c is not None:
            lines.append(f"combat on {c.card}: attacker {s.sides[c.attacker]}, losses {c.losses[0]}-{c.losses[1]}, step {c.step}")
            for i, b in enumerate(c.battles):
                mark = ">" if i == c.current and not b.done else " "
                lines.append(f" {mark}battle {i + 1}: {', '.join(b.pieces)} vs {b.anchor}")
                if b.events != [None, None]:
                    lines.append("     events: " + ", ".join(f"{s.sides[p]} {b.events[p]}" for p in (0, 1) if b.events[p]))
                if b.totals:
                    res = "tie" if b.result == "tie" else f"{s.sides[int(b.result)]} wins"
                    parts = [
                        f"{s.sides[p]} power {b.power[p]} (energy {b.energy[p]}) + die {b.dice[p]} = {b.totals[p]}"
                        for p in (0, 1)
                    ]
                    lines.append("     " + ", ".join(parts) + f": {res}")
            if c.step in ("event", "energy"):
                sealed = ", ".join(f"{s.sides[p]} {'committed' if done else 'waiting'}" for p, done in c.sealed.public().items())
                lines.append(f"  sealed {c.step} choices: {sealed}")
        lines.append(f"material {s.sides[0]} {v['material'][0]}, {s.sides[1]} {v['material'][1]} (house score)")
        starts = [i for i, line in enumerate(v["log"]) if line.startswith("round ")]
        recent = v["log"][starts[-2] if len(starts) > 1 else 0:][-20:]  # this turn and the one before
        lines.extend(["recent:"] + [f"  {line}" for line in recent])
        if s.over:
            lines.append(f"GAME OVER: {s.end_reason}")
        return "\n".join(lines)


GAME = WorldsGame()
