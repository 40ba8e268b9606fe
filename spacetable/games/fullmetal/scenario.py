"""Scenario files and the ``spacetable check`` runner (the S-* acceptance scenarios of the rules doc).

A scenario (JSON) sets up a position directly — a map excerpt or map name, units,
tide, AP — then runs steps: actions with an expected verdict (``ok`` or
``illegal`` with the rule id) and checks of the resulting state. Units are named
by labels (``"A1"``, ``"B1"``) that the runner maps to engine ids.

Top level: ``{"game": "fullmetal", "id", "title", "rules", "board" | "map", "players",
"active", "turn", "tide", "ap", "saved", "config", "ships", "pontoons", "ore", "units", "steps"}``
or ``{"game": "fullmetal", "scenarios": [...]}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .endgame import ranking, ship_score
from .firezones import full_cover, settle, sync_cover
from .flow import start_player_turn
from .fmp import bundled_map
from .game import GAME
from .pontoons import sink
from .spaceship import footprint
from .state import BARGE, CRAB, GT, MB, ORE, PONTOON, SHIP, TANK, TURRET, WL, FMState, Unit
from .terrain import get_board
from .tides import forecast, setup_deck

KINDS = {"T": TANK, "GT": GT, "MB": MB, "BG": BARGE, "CR": CRAB, "WL": WL, "PT": PONTOON, "OR": ORE}
LABEL_KEYS = ("unit", "carrier", "item", "a", "b", "partner", "mover", "wl", "ship", "destroyer", "from")


class Scenario:
    """A position built from a scenario description, with label -> id mapping."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.labels: dict[str, int] = {}
        self.state = self.build(spec)

    # ------------------------------------------------------------------ set-up
    def build(self, spec: dict[str, Any]) -> FMState:
        n = int(spec.get("players", 2))
        config = GAME.normalize_config({"players": n, **spec.get("config", {})})
        if "map" in spec:
            fmap = bundled_map(spec["map"])
            width, height, terrain = fmap.width, fmap.height, "".join(fmap.terrain)
        else:
            b = spec.get("board", {})
            width, height = int(b.get("width", 10)), int(b.get("height", 9))
            if "rows" in b:
                terrain = "".join(b["rows"])
            else:
                cells = [b.get("fill", "$")] * (width * height)
                for col, ch in b.get("columns", {}).items():
                    for y in range(height):
                        cells[y * width + int(col)] = ch
                for key, ch in b.get("cells", {}).items():
                    x, y = (int(v) for v in key.split(","))
                    cells[y * width + x] = ch
                terrain = "".join(cells)
        get_board(width, height, terrain)
        s = FMState(num_players=n, config=config, width=width, height=height, terrain=terrain,
                    rng=Rng.from_seed(spec.get("seed", 1)))
        s.init_seats()
        s.reserve = dict(spec.get("reserve", {TANK: 16, CRAB: 4, PONTOON: 4}))
        setup_deck(s)
        if "pile" in spec:
            s.pile = list(spec["pile"])
        s.phase = "play"
        s.turn = int(spec.get("turn", 6))
        s.tide = spec.get("tide", "normal")
        active = int(spec.get("active", 0))
        s.order = list(range(n))
        s.current = active
        for p in range(n):
            ship = s.new_unit(SHIP, p)
            s.ships.append(ship.id)
        for sh in spec.get("ships", []):
            ship = s.units[s.ships[sh["player"]]]
            dome = s.cell_of(sh["dome"])
            cells = footprint(s, dome, sh.get("orientation", "north"))
            assert cells is not None, "ship footprint off the map"
            ship.cells = cells
            for c in cells:
                s.occ[c] = ship.id
            destroyed = {s.cell_of(c) for c in sh.get("destroyed", [])}
            for pod in cells[1:]:
                if pod in destroyed:
                    ship.turrets.append(-1)
                else:
                    t = s.new_unit(TURRET, ship.colour, cells=[pod], ship=ship.id, shots=2)
                    ship.turrets.append(t.id)
            if "captor" in sh:
                ship.captor = sh["captor"]
            if "label" in sh:
                self.labels[sh["label"]] = ship.id
            for item in sh.get("cargo", []):
                self.make(s, item, ship)
        for p in spec.get("pontoons", []):
            cell = s.cell_of(p["at"])
            u = s.new_unit(PONTOON, -1, cells=[cell])
            s.pontoon_at[cell] = u.id
            if "label" in p:
                self.labels[p["label"]] = u.id
        for o in spec.get("ore", []):
            at = o["at"] if isinstance(o, dict) else o
            cell = s.cell_of(at)
            u = s.new_unit(ORE, -1, cells=[cell])
            s.occ[cell] = u.id
            if isinstance(o, dict) and "label" in o:
                self.labels[o["label"]] = u.id
        for spec_u in spec.get("units", []):
            self.make(s, spec_u, None)
        s.pool = [30] * n
        for p, v in (spec.get("ap") or {}).items():
            s.pool[int(p)] = int(v)
        for p, v in (spec.get("saved") or {}).items():
            s.saved[int(p)] = int(v)
        for key, v in (spec.get("controller") or {}).items():
            s.controller[int(key)] = int(v)
        s.retreat_window = bool(spec.get("retreat_window", True))
        if "ore_lattice" in spec:
            a, b = spec["ore_lattice"]
            board = s.board
            for c in board.cells:
                if board.axial[c][0] % 3 == a and board.axial[c][1] % 3 == b and board.terrain[c] != 0 and c not in s.occ:
                    o = s.new_unit(ORE, -1, cells=[c])
                    s.occ[c] = o.id
        phase = spec.get("phase", "play")
        if phase == "land":
            s.phase, s.turn, s.land_order = "land", 1, list(range(n))
            s.order = []
        elif phase == "deploy":
            s.phase, s.turn = "deploy", 2
            s.sealed = SealedCommits.open(list(range(n)))
        sync_cover(s)
        if spec.get("settle", True) and phase == "play":
            settle(s, active, lock=False)
        if spec.get("start_turn"):
            start_player_turn(s)
            for p, v in (spec.get("ap") or {}).items():
                s.pool[int(p)] = int(v)
        return s

    def make(self, s: FMState, spec: dict[str, Any], carrier: Unit | None) -> Unit:
        kind = KINDS.get(spec["kind"], spec["kind"])
        inherited = carrier.colour if carrier is not None else -1
        colour = int(spec.get("colour", spec.get("player", inherited))) if kind not in (ORE, PONTOON) else -1
        u = s.new_unit(kind, colour, shots=int(spec.get("shots", 2)) if kind in (TANK, GT, MB) else 0)
        if "label" in spec:
            self.labels[spec["label"]] = u.id
        if carrier is not None:
            u.carrier = carrier.id
            carrier.cargo.append(u.id)
        else:
            at = spec["at"]
            if kind == BARGE:
                u.cells = [s.cell_of(at[0]), s.cell_of(at[1])]
            else:
                u.cells = [s.cell_of(at)]
            for c in u.cells:
                s.occ[c] = u.id
        u.neut = list(spec.get("neutralized_by", []))
        u.locked = bool(spec.get("locked", False))
        for item in spec.get("cargo", []):
            self.make(s, item, u)
        return u

    # ------------------------------------------------------------------- steps
    def resolve(self, value: Any, key: str = "") -> Any:
        if isinstance(value, str) and value in self.labels and (key in LABEL_KEYS or key in ("target", "to", "")):
            return self.labels[value]
        if isinstance(value, dict):
            return {(str(self.labels[k]) if k in self.labels else k): self.resolve(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, key) for v in value]
        return value

    def uid(self, label: str) -> int:
        return self.labels[label]

    def run_step(self, step: dict[str, Any]) -> tuple[bool, str]:
        s = self.state
        if "query" in step:
            return self.query(step)
        if "tide" in step:
            s.tide = step["tide"]
            sink(s)
            settle(s, s.active_player(), lock=False)
            forecast(s)
            return self.checks(step.get("check", {}))
        action = self.resolve(step["action"])
        player = int(step.get("player", s.active_player()))
        if step.get("as_turn_player", True):
            s.current = s.order.index(player) if player in s.order else s.current
        expect = step.get("expect", "ok")
        try:
            new = GAME.apply(s, player, action)
        except RuleError as exc:
            if expect == "ok":
                return False, f"rejected: {exc}"
            want = step.get("rule")
            if want and exc.rule != want:
                return False, f"rejected with {exc.rule} ({exc.message}), expected {want}"
            return True, f"illegal as expected [{exc.rule}] {exc.message}"
        if expect != "ok":
            return False, "accepted, expected illegal"
        if not step.get("try", False):
            self.state = new
        ok, msg = self.checks(step.get("check", {}), new)
        return ok, ("ok" if ok else msg) + (f"; {msg}" if ok and msg else "")

    def query(self, step: dict[str, Any]) -> tuple[bool, str]:
        s = self.state
        b = s.board
        q = step["query"]
        if q == "neighbours":
            got = [list(b.xy(n)) for n in b.hexmap.neighbours(s.cell_of(step["cell"])) if n >= 0]
        elif q == "distance":
            got = b.dist(s.cell_of(step["a"]), s.cell_of(step["b"]))
        elif q == "cube":
            x, y = step["cell"]
            got = [x, y - (x - (x & 1)) // 2, -x - (y - (x - (x & 1)) // 2)]
        elif q == "score":
            got = ship_score(s, s.units[self.resolve(step["ship"])])[0]
        elif q == "ranking":
            got = ranking(s)[2]
        elif q == "tide":
            got = s.tide
        else:
            return False, f"unknown query {q}"
        want = step["expect"]
        return got == want, f"{q} = {got}" + ("" if got == want else f", expected {want}")

    def checks(self, check: dict[str, Any], state: FMState | None = None) -> tuple[bool, str]:
        s = state or self.state
        problems: list[str] = []
        for p, v in check.get("pool", {}).items():
            if s.pool[int(p)] != v:
                problems.append(f"pool[{p}] = {s.pool[int(p)]}, expected {v}")
        for p, v in check.get("saved", {}).items():
            if s.saved[int(p)] != v:
                problems.append(f"saved[{p}] = {s.saved[int(p)]}, expected {v}")
        for lab in check.get("destroyed", []):
            if self.uid(lab) in s.units:
                problems.append(f"{lab} still exists")
        for lab in check.get("alive", []):
            if self.uid(lab) not in s.units:
                problems.append(f"{lab} was destroyed")
        for lab, who in check.get("neutralized", {}).items():
            got = sorted(s.units[self.uid(lab)].neut)
            if got != sorted(who):
                problems.append(f"{lab} neutralized by {got}, expected {sorted(who)}")
        for lab in check.get("locked", []):
            if not s.units[self.uid(lab)].locked:
                problems.append(f"{lab} is not locked")
        for lab in check.get("unlocked", []):
            if s.units[self.uid(lab)].locked:
                problems.append(f"{lab} is locked")
        for lab, col in check.get("colour", {}).items():
            if s.units[self.uid(lab)].colour != col:
                problems.append(f"{lab} colour {s.units[self.uid(lab)].colour}, expected {col}")
        for lab, p in check.get("controller", {}).items():
            got = s.ctl(s.units[self.uid(lab)])
            if got != p:
                problems.append(f"{lab} controlled by {got}, expected {p}")
        for lab in check.get("stranded", []):
            u = s.units[self.uid(lab)]
            if not s.stranded(u):
                problems.append(f"{lab} is not stranded")
        for lab in check.get("operational", []):
            u = s.units[self.uid(lab)]
            if s.stranded(u) or u.neut:
                problems.append(f"{lab} is not operational")
        for lab, where in check.get("at", {}).items():
            u = s.units[self.uid(lab)]
            got = [s.xy(c) for c in u.cells]
            want = where if isinstance(where[0], list) else [where]
            if sorted(got) != sorted(want):
                problems.append(f"{lab} at {got}, expected {want}")
        for lab, where in check.get("inside", {}).items():
            u = s.units[self.uid(lab)]
            if u.carrier != self.resolve(where):
                problems.append(f"{lab} is in {u.carrier}, expected {where}")
        for p, cells in check.get("cov", {}).items():
            for key, v in cells.items():
                x, y = (int(t) for t in key.split(","))
                got = s.cov[int(p)][s.board.index(x, y)]
                if got != v:
                    problems.append(f"cov_{p}({key}) = {got}, expected {v}")
        for lab, n in check.get("cargo_count", {}).items():
            got = len(s.units[self.uid(lab)].cargo)
            if got != n:
                problems.append(f"{lab} holds {got}, expected {n}")
        for p in check.get("eliminated", []):
            if s.eliminated[p] < 0:
                problems.append(f"player {p} is not eliminated")
        for at in check.get("no_ore", []):
            oid = s.occ.get(s.cell_of(at))
            if oid is not None and s.units[oid].kind == ORE:
                problems.append(f"ore still at {at}")
        for at in check.get("ore_at", []):
            oid = s.occ.get(s.cell_of(at))
            if oid is None or s.units[oid].kind != ORE:
                problems.append(f"no ore at {at}")
        gone = {d["ship"] for d in s.departed}
        for lab in check.get("departed", []):
            if self.uid(lab) not in gone:
                problems.append(f"{lab} has not taken off")
        for lab in check.get("not_departed", []):
            if self.uid(lab) in gone:
                problems.append(f"{lab} took off")
        for p, v in check.get("score", {}).items():
            got = sum(d["score"] for d in s.departed if d["player"] == int(p))
            if got != v:
                problems.append(f"score[{p}] = {got}, expected {v}")
        if "phase" in check and s.phase != check["phase"]:
            problems.append(f"phase {s.phase}, expected {check['phase']}")
        for p, n in check.get("forecast_count", {}).items():
            got = sum(1 for t in s.forecasts[int(p)] if t > s.turn)
            if got != n:
                problems.append(f"player {p} sees {got} future tides, expected {n}")
        if "pile" in check and len(s.pile) != check["pile"]:
            problems.append(f"pile has {len(s.pile)} cards, expected {check['pile']}")
        if "turn" in check and s.turn != check["turn"]:
            problems.append(f"turn {s.turn}, expected {check['turn']}")
        if "active" in check and s.active_player() != check["active"]:
            problems.append(f"active {s.active_player()}, expected {check['active']}")
        if "reserve" in check:
            for k, v in check["reserve"].items():
                if s.reserve.get(k) != v:
                    problems.append(f"reserve {k} = {s.reserve.get(k)}, expected {v}")
        if full_cover(s) != s.cov:
            problems.append("incremental cover differs from a full recomputation")
        return (not problems), "; ".join(problems)


def run_scenario(spec: dict[str, Any], out: list[str]) -> int:
    """Run one scenario; append report lines; return the number of failed steps."""
    name = spec.get("id", "?")
    try:
        sc = Scenario(spec)
    except (RuleError, KeyError, ValueError, AssertionError) as exc:
        out.append(f"{name}: FAIL set-up: {exc!r}")
        return 1
    failures = 0
    for i, step in enumerate(spec.get("steps", []), 1):
        if "reset" in step:
            sc = Scenario({**spec, **step["reset"]})
            continue
        try:
            ok, msg = sc.run_step(step)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            ok, msg = False, f"error {exc!r}"
        note = step.get("note", "")
        out.append(f"{name} step {i}: {'pass' if ok else 'FAIL'} - {msg}" + (f" ({note})" if note else ""))
        failures += 0 if ok else 1
    return failures


def check_file(path: str, data: dict[str, Any]) -> int:
    """``spacetable check`` entry point: print pass/fail per step; return 1 if any step failed, else 0
    (the CLI counts failed files)."""
    scenarios = data.get("scenarios", [data])
    lines: list[str] = []
    failures = 0
    for spec in scenarios:
        failures += run_scenario(spec, lines)
    for line in lines:
        print(line)
    print(f"{Path(path).name}: {'pass' if not failures else f'{failures} failure(s)'}")
    return 1 if failures else 0


SCENARIO_DIR = Path(__file__).with_name("scenarios")


def bundled_scenarios() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.json"))


def load(path: str | Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data
