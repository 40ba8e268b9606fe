"""Scenario files (the acceptance scenarios of the rules doc) and the ``spacetable check`` runner.

A file is ``{"game": "galaxies", "scenarios": [scenario, ...]}`` (or one scenario). A scenario::

    {"id": "S7", "title": ..., "rules": ["BG-8.10", ...],
     "setup": {...position...}, "steps": [{"seat"?, "action": {...} | "notation", "dice"?: [...],
                                          "expect_error"?: "BG-8.7", "expect"?: {...}}]}

``setup`` builds a position directly: ``mission`` (default ``m2-skirmish``), ``patch`` (changes to
the house data: ``ships.<key>.<version>.<field>``, ``ships.<key>.grid``, ``tactics.<id>.<field>``;
the patched set is loaded as a validated owner pack), ``rows``/``cols`` (an offset rectangle
replacing the board's hexes), ``obstacles`` and ``tiles`` (default: none), ``phase``, ``active``,
``first``, ``turn``, ``round``, ``energy``, ``hands``/``decks``/``discards`` (tactic card names),
``fleets`` (per side: ``{ship, version, zone, at, holder, shields, hull, dead, launched_turn,
from_hold, activated, attach}``; ``at`` lists one footprint per ship, a large ship by its centre)
and ``activation``. ``{"from_start": true, "dice": [...]}`` plays the mission's real set-up with
scripted dice instead.

Dice are scripted in order: the roll-off (number die per side), ECM (number die per triggered
enemy), an attack (letter die 1–10 for A–J, then number die 1–8). ``expect`` keys are listed in
:func:`expectations`.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.rng import Rng
from spacetable.core.steps import run_steps

from .board import Hex, rosette
from .game import GAME
from .movement import advance, start_pos
from .odds import hit_chance
from .packs import PackError, load_pack_content
from .setup import build_fleet, card_id, new_state
from .state import SIDES, Activation, GState, Side, Tactic, Tile
from .victory import score

SCENARIO_DIR = Path(__file__).with_name("scenarios")


def house_files() -> dict[str, Any]:
    root = resources.files("spacetable.games.galaxies").joinpath("data", "house")
    names = ("ships", "tactics", "boards", "missions")
    return {s: json.loads(root.joinpath(f"{s}.json").read_text(encoding="utf-8")) for s in names}


def patched_content(setup: dict[str, Any]) -> dict[str, Any] | None:
    """House data with the scenario's patch, board rectangle, obstacles and tiles, as an owner pack."""
    files = copy.deepcopy(house_files())
    patch = setup.get("patch", {})
    for key, changes in patch.get("ships", {}).items():
        ship = next(x for x in files["ships"] if x["key"] == key)
        for field, value in changes.items():
            if field in ("standard", "seasoned", "veteran"):
                ship["versions"][field].update(value)
            else:
                ship[field] = value
    for tid, changes in patch.get("tactics", {}).items():
        next(x for x in files["tactics"] if x["id"] == tid).update(changes)
    mission_id = setup.get("mission", "m2-skirmish")
    mission = next(m for m in files["missions"] if m["id"] == mission_id)
    board = copy.deepcopy(next(b for b in files["boards"] if b["id"] == mission["boards"][0]))
    board["id"] = "scenario-board"
    if "rows" in setup or "cols" in setup:
        full = board["full"]
        board["full"] = {"cols": setup.get("cols", full["cols"]), "rows": setup.get("rows", full["rows"])}
    board["obstacles"] = setup.get("obstacles", [])
    board["tile_slots"] = []
    files["boards"].append(board)
    mission["boards"] = ["scenario-board"]
    mission["overrides"] = {}
    return {"pack_id": "scenario", **files}


def build(setup: dict[str, Any]) -> GState:
    """The scenario's starting position."""
    content = patched_content(setup)
    mission_id = setup.get("mission", "m2-skirmish")
    config = GAME.normalize_config({"mission": mission_id, "pack_content": content})
    if setup.get("from_start"):
        state = _from_start(config, setup)
        return state
    pack = load_pack_content(content, "scenario")
    mission = pack.missions[mission_id]
    seat_side = [SIDES.index(x.side) for x in sorted(mission.seats, key=lambda x: x.seat)]
    sides = []
    for i, letter in enumerate(SIDES):
        seats = sorted(x.seat for x in mission.seats if x.side == letter)
        faction = next(x.faction for x in mission.seats if x.side == letter)
        sides.append(Side(i, faction, seats, energy=int(setup.get("energy", {}).get(letter, 20))))
    s = GState(num_players=len(seat_side), config=config, mission=mission_id, board="scenario-board",
               seat_side=seat_side, sides=sides, rng=Rng.from_seed(int(setup.get("seed", 1))), digest=pack.digest)
    for t in setup.get("tiles", []):
        s.tiles.append(Tile(tuple(t["hex"]), t["kind"], t.get("face", "up")))  # type: ignore[arg-type]
    for i, letter in enumerate(SIDES):
        entries = setup.get("fleets", {}).get(letter, [])
        build_fleet(s, i, [{"ship": e["ship"], "version": e.get("version", "standard"), "seat": e.get("seat")} for e in entries])
        for e in entries:
            _position(s, i, e)
        sd = s.sides[i]
        n = 0
        for zone, keys in (("hand", setup.get("hands", {}).get(letter, [])), ("deck", setup.get("decks", {}).get(letter, [])),
                           ("discard", setup.get("discards", {}).get(letter, []))):
            for key in keys:
                n += 1
                tid = f"{letter.lower()}{n:02d}"
                s.tactics[tid] = Tactic(tid, key, i, zone)
                getattr(sd, zone).append(tid)
        sd.turns = int(setup.get("turns", {}).get(letter, 2))
    for i, letter in enumerate(SIDES):  # attachments after every card exists
        for e in setup.get("fleets", {}).get(letter, []):
            for key in e.get("attach", []):
                owner = SIDES.index(e.get("attach_owner", letter))
                tid = f"{SIDES[owner].lower()}x{len(s.tactics) + 1}"
                s.tactics[tid] = Tactic(tid, key, owner, "attached", card_id(mission, i, e["ship"]))
                s.cards[card_id(mission, i, e["ship"])].attachments.append(tid)
    s.phase = setup.get("phase", "action")
    s.active = SIDES.index(setup.get("active", "A"))
    s.first = SIDES.index(setup.get("first", "A"))
    s.turn = int(setup.get("turn", 3))
    s.round = int(setup.get("round", 2))
    s.helm = s.lead(s.active)
    act = setup.get("activation")
    if act:
        s.activation = Activation(card_id(mission, s.active, act["card"]), act.get("step", "start"), list(act.get("moved", [])),
                                  list(act.get("on_gate", [])))
    return s


def _position(s: GState, side: int, e: dict[str, Any]) -> None:
    mission = s.missiondata
    cid = card_id(mission, side, e["ship"])
    card = s.cards[cid]
    card.zone = e.get("zone", "play" if "at" in e else "screen")
    card.holder = card_id(mission, side, e["holder"]) if e.get("holder") else ""
    if card.holder:
        card.zone = "hold"
        s.cards[card.holder].cargo.append(cid)
    card.public = card.zone == "play"
    card.launched_turn = int(e.get("launched_turn", 1 if card.zone == "play" else -1))
    card.from_hold = bool(e.get("from_hold", False))
    card.activated = bool(e.get("activated", False))
    size = s.pack.ships[card.key].size
    shields = e.get("shields", s.vdata(cid).shields)
    dead = set(e.get("dead", []))
    for k, pid in enumerate(card.pieces):
        p = s.pieces[pid]
        if card.zone == "play":
            at = e["at"][k]
            hexes: list[Hex] = rosette(tuple(at)) if size == "large" and isinstance(at[0], int) else [tuple(h) for h in at]  # type: ignore[arg-type,misc]
            p.hexes = hexes
            p.shields = shields[k] if isinstance(shields, list) else shields
            hull = e.get("hull", 0)
            p.hull = hull[k] if isinstance(hull, list) else hull
        if k + 1 in dead or pid in dead:
            p.alive, p.hexes = False, []
    if card.zone == "play" and not any(s.pieces[x].alive for x in card.pieces):
        card.zone = "destroyed"
        s.sides[card.owner].destroyed.append(cid)


def _from_start(config: dict[str, Any], setup: dict[str, Any]) -> GState:
    """The mission's real set-up with scripted dice (the roll-off)."""
    rng = GAME.rng_for(int(setup.get("seed", 1)), "play")
    rng.forced.extend(int(x) for x in setup.get("dice", []))
    return new_state(config, GAME.pack(config), rng)


# ---------------------------------------------------------------------- expectations
def _dig(obj: Any, path: str) -> Any:
    """``cards[id=everest].hold_count`` style lookups in a view."""
    cur = obj
    for part in path.split("."):
        if "[" in part:
            name, sel = part[:-1].split("[", 1)
            cur = cur[name] if name else cur
            if "=" in sel:
                k, v = sel.split("=", 1)
                cur = next((x for x in cur if str(x.get(k)) == v), None)
            else:
                cur = cur[int(sel)]
        else:
            cur = cur.get(part) if isinstance(cur, dict) else None
        if cur is None:
            return None
    return cur


class Runner:
    """Keeps the previous step's state: ``events`` and ``rng_unchanged`` look at what one step did."""

    def __init__(self, state: GState) -> None:
        self.prev = state

    def expectations(self, s: GState, exp: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        events = [e for e in s.events if e["n"] > self.prev.nlog]
        self._check(s, exp, events, problems)
        self.prev = s
        return problems

    def _check(self, s: GState, exp: dict[str, Any], events: list[dict[str, Any]], problems: list[str]) -> None:
        def want(label: str, got: Any, expected: Any) -> None:
            if got != expected:
                problems.append(f"{label}: got {got!r}, expected {expected!r}")

        for letter, v in exp.get("energy", {}).items():
            want(f"energy {letter}", s.sides[SIDES.index(letter)].energy, v)
        for letter, v in exp.get("hand", {}).items():
            want(f"hand {letter}", len(s.sides[SIDES.index(letter)].hand), v)
        for cid, v in exp.get("zone", {}).items():
            want(f"zone {cid}", s.cards[cid].zone if cid in s.cards else None, v)
        for cid, v in exp.get("side", {}).items():
            want(f"side {cid}", SIDES[s.cards[cid].side], v)
        for cid, v in exp.get("hold", {}).items():
            want(f"hold {cid}", s.cards[cid].cargo, v)
        for pid, v in exp.get("hexes", {}).items():
            want(f"hexes {pid}", sorted(map(list, s.pieces[pid].hexes)), sorted(v))
        for pid, v in exp.get("shields", {}).items():
            want(f"shields {pid}", s.pieces[pid].shields, v)
        for pid, v in exp.get("hull", {}).items():
            want(f"hull pegs {pid}", s.pieces[pid].hull, v)
        for pid, v in exp.get("alive", {}).items():
            want(f"alive {pid}", s.pieces[pid].alive, v)
        for cid, fields in exp.get("card", {}).items():
            for k, v in fields.items():
                want(f"{cid}.{k}", getattr(s.cards[cid], k), v)
        for letter, v in exp.get("destroyed", {}).items():
            want(f"destroyed {letter}", s.sides[SIDES.index(letter)].destroyed, v)
        for letter, v in exp.get("discard_keys", {}).items():
            want(f"discard {letter}", [s.tactics[t].key for t in s.sides[SIDES.index(letter)].discard], v)
        for letter, v in exp.get("score", {}).items():
            want(f"score {letter}", str(score(s, SIDES.index(letter))), v)
        for key in ("phase", "round", "turn"):
            if key in exp:
                want(key, getattr(s, key), exp[key])
        if "active" in exp:
            want("active", SIDES[s.active], exp["active"])
        if "winner" in exp:
            got = s.result["winner"] if s.result else "none"
            want("winner", SIDES[got] if isinstance(got, int) else got, exp["winner"])
        if "kind" in exp:
            want("result kind", (s.result or {}).get("kind"), exp["kind"])
        for kind, n in exp.get("events", {}).items():
            want(f"{kind} events", sum(1 for e in events if e.get("t") == kind), n)
        if "move_cost" in exp:
            moves = [e for e in events if e.get("t") == "move"]
            want("move cost", moves[-1]["cost"] if moves else None, exp["move_cost"])
        if "rng_unchanged" in exp:
            want("dice rolled", s.rng.state != self.prev.rng.state, not exp["rng_unchanged"])
        if "activation" in exp:
            act = s.activation
            spec = exp["activation"]
            if spec is None:
                want("activation", act, None)
            else:
                for k, v in spec.items():
                    want(f"activation.{k}", getattr(act, k) if act else None, v)
        for chk in exp.get("view", []):
            viewer = chk.get("seat")
            view = json.loads(json.dumps(GAME.view(s, viewer)))
            if "path" in chk:
                got = _dig(view, chk["path"])
                if "equals" in chk:
                    want(f"view[{viewer}].{chk['path']}", got, chk["equals"])
                if chk.get("absent"):
                    want(f"view[{viewer}].{chk['path']} absent", got, None)
            text = json.dumps(view)
            for word in chk.get("not_contains", []):
                if f'"{word}"' in text:
                    problems.append(f"view of seat {viewer} shows {word!r}")
            for word in chk.get("contains", []):
                if f'"{word}"' not in text:
                    problems.append(f"view of seat {viewer} lacks {word!r}")
        for chk in exp.get("p_hit", []):
            ship = s.pack.ships[chk["ship"]]
            want(f"p_hit {chk['ship']}", float(hit_chance(ship.grid)), chk["equals"])
        for chk in exp.get("new_hexes", []):
            p = s.pieces[chk["ship"]]
            size = s.shipdata(p.card).size
            pos = start_pos(size, p.hexes, None)
            got = advance(s.geo, size, pos, chk["dir"])
            if isinstance(got, str):
                problems.append(f"step {chk['dir']} refused ({got})")
            else:
                before = set(p.hexes)
                after = set(rosette(got[0][0])) if size == "large" else set(got[0])
                want(f"new hexes of {chk['ship']}", sorted(map(list, after - before)), sorted(chk["equals"]))
        for chk in exp.get("legal", []):
            seat = chk.get("seat", GAME.to_act(s)[0] if GAME.to_act(s) else 0)
            legal = GAME.legal_actions(s, seat)
            kinds = [a for a in legal if all(a.get(k) == v for k, v in chk.get("match", {}).items())]
            if "count" in chk:
                want(f"legal {chk.get('match')}", len(kinds), chk["count"])
            if chk.get("none"):
                want(f"legal {chk.get('match')}", len(kinds), 0)
            if chk.get("some") and not kinds:
                problems.append(f"no legal action matches {chk.get('match')}")
        for chk in exp.get("pack_rejects", []):
            try:
                load_pack_content(patched_content({"patch": chk["patch"]}), "scenario")
                problems.append(f"pack patch {chk['patch']} was accepted")
            except PackError as exc:
                if chk.get("field") and chk["field"] not in str(exc):
                    problems.append(f"pack error {exc} does not name {chk['field']}")
        for chk in exp.get("action_view", []):
            legal = chk["action"]
            seen = GAME.action_view(self.prev, chk.get("actor", 0), legal, chk["seat"])
            want(f"action view for seat {chk['seat']}", seen, chk["equals"])


def run_scenario(spec: dict[str, Any]) -> int:
    """Run one scenario; print a line per step; return 1 if any failed."""
    name = spec.get("id", "?")
    try:
        state = build(spec.get("setup", {}))
    except (RuleError, ConfigError, KeyError, ValueError, StopIteration) as exc:
        print(f"{name} setup: FAIL: {exc}")
        return 1
    runner = Runner(state)
    return run_steps(GAME, state, spec.get("steps", []), name, runner.expectations, common=True)


def check_file(path: str, data: dict[str, Any]) -> int:
    """``spacetable check``: run every scenario of a file; return 1 if any step failed."""
    failed = 0
    for spec in data.get("scenarios", [data]):
        failed |= run_scenario(spec)
    print(f"{Path(path).name}: {'pass' if not failed else 'FAIL'}")
    return failed


def bundled() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.json"))
