"""Issue 26: per-viewer work done once per state version and seat, whatever the number of sockets; texts only for
the sockets that ask for them, in their language, once per version, seat and language (``server/render.py``).

The games' own methods are wrapped to count their calls per state object (the real game runs underneath); no test
here measures time (figures are in ``bench/server_load.py``).
"""

from __future__ import annotations

import ast
import collections
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.core.serial import action_key
from spacetable.games import get_game
from spacetable.server import presentation
from spacetable.server.meter import METER

from .conftest import create, join, lenient_limits, live

pytestmark = pytest.mark.hotpath


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[collections.Counter[tuple[Any, ...]]]:
    """Count arena's views (``view`` and ``own_view``, as ``view``; ``public_view``, as ``public``), ``legal_actions``
    and ``describe_action`` calls by (kind, state, seat, ...)."""
    game = get_game("arena")
    calls: collections.Counter[tuple[Any, ...]] = collections.Counter()
    view, legal, describe = game.view, game.legal_actions, game.describe_action
    own, public = game.own_view, game.public_view
    # every state counted is kept alive until the test ends: a state the server let go could otherwise leave its
    # address, and so its id, to a later state, which would then look computed twice
    seen: dict[int, Any] = {}

    def key(state: Any) -> int:
        seen.setdefault(id(state), state)
        return id(state)

    def counted_view(state: Any, viewer: int | None) -> Any:
        calls["view", key(state), viewer] += 1
        return view(state, viewer)

    def counted_own(state: Any, viewer: int | None) -> Any:
        calls["view", key(state), viewer] += 1
        return own(state, viewer)

    def counted_public(state: Any) -> Any:
        calls["public", key(state)] += 1
        return public(state)

    def counted_legal(state: Any, seat: int) -> Any:
        calls["legal", key(state), seat] += 1
        return legal(state, seat)

    def counted_describe(state: Any, seat: int, action: Any, lang: str = "en") -> str:
        calls["describe", key(state), seat, lang, action_key(action)] += 1
        return describe(state, seat, action, lang)

    monkeypatch.setattr(game, "view", counted_view)
    monkeypatch.setattr(game, "own_view", counted_own)
    monkeypatch.setattr(game, "public_view", counted_public)
    monkeypatch.setattr(game, "legal_actions", counted_legal)
    monkeypatch.setattr(game, "describe_action", counted_describe)
    yield calls


def arena_match(client: TestClient) -> tuple[str, str, str]:
    data = create(client, "arena", config={"red_seat": 0}, join_seat=0)
    mid = data["match"]["id"]
    return mid, data["token"], join(client, mid, 1)


def play(client: TestClient, mid: str, tokens: list[str], sockets: list[Any], steps: int) -> None:
    """``steps`` actions over REST (the first legal action of the seat to act); every socket reads each event."""
    for _ in range(steps):
        m = live(client, mid)
        seat = m.to_act()[0]
        action = m.legal(seat)[0]
        r = client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": m.version,
                                                           "action": action})
        assert r.status_code == 200, r.text
        for ws in sockets:
            assert ws.receive_json()["type"] == "event"


def test_views_legal_actions_and_texts_once_per_version_and_seat(client: TestClient,
                                                                   counted: collections.Counter[tuple[Any, ...]]) -> None:
    """Three sockets of seat 0 reading French texts, two of seat 1 without texts, two spectators: per state, one
    view per viewer, one legal list for the seat to act, one sentence per legal action of seat 0 in French only,
    and no sentence of seat 1's legal actions (nobody of seat 1 asked)."""
    mid, t0, t1 = arena_match(client)
    urls = [f"/ws/matches/{mid}?seat=0&token={t0}&texts=1&lang=fr"] * 3 + [f"/ws/matches/{mid}?seat=1&token={t1}"] * 2 \
        + [f"/ws/matches/{mid}"] * 2
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(u)) for u in urls]
        for ws in sockets:
            assert ws.receive_json()["type"] == "snapshot"
        messages = METER.computed["message"]
        play(client, mid, [t0, t1], sockets, 6)
        # one encoded event per version and (seat, texts language): seat 0 in French, seat 1 and spectators without
        assert METER.computed["message"] - messages == 6 * 3
    repeated = {k: n for k, n in counted.items() if n > 1}
    assert not repeated, f"computed more than once per state: {repeated}"
    views = collections.Counter(k[2] for k in counted if k[0] == "view")
    assert views[0] == views[1] == views[None] >= 7  # the first state and the six after it, once each
    # the public fields of the views, once per state for the seats and the spectators together
    assert sum(1 for k in counted if k[0] == "public") == views[0]
    described = [k for k in counted if k[0] == "describe"]
    assert {k[3] for k in described} == {"fr"}
    states_of_seat_1 = {k[1] for k in counted if k[0] == "legal" and k[2] == 1}
    # for seat 1, only the sentence of its own played action (the log, read by seat 0 in French): never its list
    for state in states_of_seat_1:
        assert sum(1 for k in described if k[1] == state) <= 1


def test_no_texts_are_written_when_no_socket_asks(client: TestClient, counted: collections.Counter[tuple[Any, ...]]) -> None:
    mid, t0, t1 = arena_match(client)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as a, \
            client.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}") as b:
        snap = a.receive_json()
        b.receive_json()
        assert snap["legal"] and snap["legal_text"] == []
        play(client, mid, [t0, t1], [a, b], 4)
    assert not [k for k in counted if k[0] == "describe"]


def test_texts_asked_later_come_in_the_new_language_from_the_history(client: TestClient) -> None:
    """Actions played while nobody read texts get their sentences when a socket asks (written from the match's
    history, the state before each action): the same sentences as if they had been written when played."""
    mid, t0, t1 = arena_match(client)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as a:
        a.receive_json()
        play(client, mid, [t0, t1], [a], 5)
        a.send_json({"type": "texts", "on": True})
        plain = a.receive_json()
        a.send_json({"type": "lang", "lang": "ru"})
        russian = a.receive_json()
    m = live(client, mid)
    game = m.game
    for lang, snap in (("en", plain), ("ru", russian)):
        assert snap["type"] == "snapshot" and len(snap["log"]) == 5
        for i, entry in enumerate(snap["log"]):
            before = m.state_at(i)
            assert entry["text"] == presentation.action_text_in(game, before, entry["seat"], entry["action"], lang)
        assert len(snap["legal_text"]) == len(snap["legal"])


def test_a_seat_with_many_sockets_costs_one_message_per_event(client: TestClient) -> None:
    """The JSON text of an event is encoded once per version and seat, however many sockets that seat has."""
    mid, t0, t1 = arena_match(client)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}")) for _ in range(8)]
        texts = [ws.receive_json() for ws in sockets]
        assert all(t["type"] == "snapshot" for t in texts)
        before = METER.computed["message"]
        play(client, mid, [t0, t1], sockets, 3)
        assert METER.computed["message"] - before == 3


# ------------------------------------------------------------------------------------------ one way
SERVER = Path(__file__).resolve().parents[2] / "spacetable" / "server"
#: the steps of a message after the service: render per seat, then send; with what they read
STEPS = ("clients", "render", "legal", "presentation", "live", "storage", "jsonio", "meter")


def server_imports(typing_too: bool) -> dict[str, set[str]]:
    """``module -> server modules it imports`` (relative imports of ``spacetable.server``), at run time only unless
    ``typing_too`` (then ``if TYPE_CHECKING:`` imports count as well)."""
    graph: dict[str, set[str]] = {}
    for path in SERVER.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()

        def visit(nodes: list[ast.stmt], found: set[str] = found) -> None:
            for node in nodes:
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    if typing_too:
                        visit(node.body)
                    continue
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    if node.module:
                        found.add(node.module.split(".")[0])
                    else:
                        found.update(alias.name for alias in node.names)
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        visit([n for n in inner if isinstance(n, ast.stmt)])

        visit(tree.body)
        graph[path.stem] = {m for m in found if (SERVER / f"{m}.py").exists()}
    return graph


def assert_no_circle(graph: dict[str, set[str]]) -> None:
    """Fail with the path of the first import circle found in ``graph`` (a depth-first walk)."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            assert state.get(nxt) != 1, "import circle: " + " -> ".join([*path, nxt])
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_the_server_modules_import_one_way() -> None:
    """No import circle among the server's modules at run time; the steps after the service (render per seat, send,
    and what they read) never import the service, the socket or each other backwards, not even for typing."""
    assert_no_circle(server_imports(typing_too=False))
    typed = server_imports(typing_too=True)
    order = {name: i for i, name in enumerate(STEPS)}
    for module in STEPS:
        assert not typed[module] & {"service", "ws", "app"}, f"{module} reaches back to {typed[module]}"
        backwards = {m for m in typed[module] if m in order and order[m] < order[module]}
        assert not backwards, f"{module} imports {backwards}, a step before it"


def package_imports() -> dict[str, set[str]]:
    """``module -> modules of spacetable.server it imports``, for every module of the package and its sub-packages
    (``routes.accounts``, ``notify.push``, ...), with the imports written inside functions and under
    ``if TYPE_CHECKING:`` too: an import deferred into a function is a circle all the same once it runs."""
    modules: dict[str, Path] = {}
    for path in SERVER.rglob("*.py"):
        parts = path.relative_to(SERVER).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".") if package else []
                if node.level - 1 > len(base):
                    continue  # above the server package (``spacetable.core``, ``spacetable.games``)
                base = base[:len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            elif (node.module or "").startswith("spacetable.server."):
                target = node.module.removeprefix("spacetable.server.")  # type: ignore[union-attr]
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if sub in modules else target)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def test_no_import_circle_anywhere_in_the_server_package() -> None:
    """No two modules of the server, sub-packages included, import each other by any path, not even through an
    import deferred into a function or one for typing only (a deferred import only hides a circle)."""
    graph = package_imports()
    assert {"live", "clocks", "routes.accounts", "routes.workbench", "routes.session", "notify.push"} <= set(graph)
    assert "live" in graph["clocks"] and "routes.session" in graph["routes.workbench"]
    assert_no_circle(graph)


#: the service's parts: each gets the parts below it that it uses, never the service
PARTS = ("changes", "registry", "catchup", "lobby", "undo", "clocks", "ailoop", "leases", "seats")


def test_the_services_parts_never_reach_back_to_the_service() -> None:
    """``service.py`` builds its parts and calls them; none of them imports the service (not even for typing) or
    holds it: each gets the parts below it that it uses (storage, fan-out, registry, changes), and the two that
    play actions by themselves (a clock's timeout, an AI seat's move) a function. The parts import each other one
    way only (no circle among them, the service last)."""
    typed = server_imports(typing_too=True)
    for part in PARTS:
        assert "service" not in typed[part], f"{part} imports the service"
        source = (SERVER / f"{part}.py").read_text(encoding="utf-8")
        assert "MatchService" not in source and "self.service" not in source, f"{part} holds the service"
    order: dict[str, int] = {}

    def depth(part: str, seen: tuple[str, ...] = ()) -> int:
        assert part not in seen, "circle among the parts: " + " -> ".join([*seen, part])
        if part not in order:
            order[part] = 1 + max((depth(q, (*seen, part)) for q in typed[part] if q in PARTS), default=0)
        return order[part]

    for part in PARTS:
        depth(part)
    assert order["changes"] < order["registry"] < order["catchup"] < order["undo"]
    assert order["catchup"] < order["leases"] and order["registry"] < order["lobby"]


def test_health_reports_the_servers_own_counters(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --meter``: ``/health`` reports stored actions, measured windows and CPU per step (the bench divides
    them); with one window in one measured, every action's steps are counted."""
    from spacetable.server import meter

    monkeypatch.setattr(meter, "EVERY", 1)
    meter.enable()
    try:
        health = client.get("/health").json()
        before, appends = health["hotpath"], health["appends"]
        mid, t0, t1 = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}&texts=1") as ws:
            ws.receive_json()
            play(client, mid, [t0, t1], [ws], 4)
        health = client.get("/health").json()
        after = health["hotpath"]
    finally:
        meter.enable(False)
    # the storage's group commit: every stored action counted, in at least one commit and at most one each
    assert health["appends"]["actions"] - appends["actions"] == 4
    assert 1 <= health["appends"]["commits"] - appends["commits"] <= 4
    assert after["metered"] and after["actions"] - before["actions"] == 4
    assert after["windows"] - before["windows"] == 4
    for step in meter.STEPS:
        assert after["cpu_seconds"][step] >= before["cpu_seconds"][step]
    grew = [s for s in ("apply", "legal", "views", "texts", "storage") if after["cpu_seconds"][s] > before["cpu_seconds"][s]]
    assert grew, "no step was counted"


def test_worker_thread_legal_lists_are_counted_for_every_action(client: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow game's legal lists (SRV-L4), computed in a worker thread, are counted for every action and not only
    in the meter's sampled windows (``/health`` ``worker_cpu_seconds``): with no window measured at all, their CPU
    time is still there, and the bench divides it by the stored actions."""
    import threading
    import time as time_module

    from spacetable.server import meter

    game = get_game("arena")
    honest = type(game).legal_actions
    threads: list[str] = []

    def slow(self: Any, state: Any, seat: int) -> Any:
        threads.append(threading.current_thread().name)
        until = time_module.thread_time() + 0.002  # some CPU of the worker thread's own
        while time_module.thread_time() < until:
            pass
        return honest(self, state, seat)

    monkeypatch.setattr(type(game), "legal_actions", slow)
    monkeypatch.setattr(type(game), "slow_legal_actions", True, raising=False)
    monkeypatch.setattr(meter, "EVERY", 10**9)  # no sampled window in this test
    meter.enable()
    try:
        before = client.get("/health").json()["hotpath"]
        mid, t0, t1 = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as w0, \
                client.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}") as w1:
            w0.receive_json()
            w1.receive_json()
            play(client, mid, [t0, t1], [w0, w1], 3)
        after = client.get("/health").json()["hotpath"]
    finally:
        meter.enable(False)
    assert after["windows"] == before["windows"], "a window was sampled"
    assert after["cpu_seconds"]["legal"] == before["cpu_seconds"]["legal"]
    assert any(name != threading.main_thread().name for name in threads), "no list was made in a worker thread"
    grown = after["worker_cpu_seconds"]["legal"] - before["worker_cpu_seconds"]["legal"]
    assert grown >= 3 * 0.002 * 0.9, after["worker_cpu_seconds"]
    assert after["actions"] - before["actions"] == 3


def test_lobby_lists_the_same_options_and_flags_and_sees_new_operator_content(
        client: TestClient, tmp_path: Path) -> None:
    """The lobby's game list (``/api/lobby``, ``/api/games``) writes each option field by field instead of through
    ``dataclasses.asdict``, checks each rules document and packaged file once, and works out the AI players once per
    game and ladder, instead of on every request: the same options in the same order as before, fresh objects each
    time, the same flags and players; a rewritten ladder shows at the next request; and a map the operator adds
    while the server runs is still listed at the next request (the options are not cached)."""
    import dataclasses
    import json

    from spacetable.core import catalog
    from spacetable.games import available
    from spacetable.games.fullmetal.fmp import write_fmp
    from spacetable.games.fullmetal.mapgen import generate_map
    from spacetable.server import presentation

    def before(option: Any) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(option).items()}

    for gid in available():
        for option in get_game(gid).options():
            out = option.to_json()
            assert json.dumps(out) == json.dumps(before(option)), (gid, option.name)
            if isinstance(out["default"], (dict, list)):
                assert out["default"] is not option.default, "a container default is handed out, not copied"
    lobby = {g["id"]: g for g in client.get("/api/lobby").json()}
    for gid in available():
        assert lobby[gid]["rules"] is (presentation.rules_source(gid) is not None)
        assert lobby[gid]["options"] == [o.to_json() for o in get_game(gid).options()]
    assert presentation.has_rules("arena") and not presentation.has_rules("no_such_game")

    from spacetable.ai import ladder as ladder_module
    from spacetable.server import presentation_routes
    for gid in available():
        assert lobby[gid]["agents"] == presentation_routes.agents_of(get_game(gid))
        assert lobby[gid]["renderer"] is True and lobby[gid]["tutorial"] is True
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(presentation_routes, "agents_of", lambda game: [{"name": "rewritten"}])
        assert client.get("/api/lobby").json()[0]["agents"] == lobby[available()[0]]["agents"]  # worked out once
        ladder_module._load.cache_clear()  # what ``ladder.write`` does after writing a ladder
        assert client.get("/api/lobby").json()[0]["agents"] == [{"name": "rewritten"}]
    ladder_module._load.cache_clear()
    assert client.get("/api/lobby").json()[0]["agents"] == lobby[available()[0]]["agents"]

    maps = lambda games: next(o for o in games["fullmetal"]["options"] if o["name"] == "map")["choices"]  # noqa: E731
    data = tmp_path / "data"
    (data / "fullmetal" / "maps").mkdir(parents=True)
    catalog.configure(data)
    try:
        assert "isle" not in maps({g["id"]: g for g in client.get("/api/lobby").json()})
        (data / "fullmetal" / "maps" / "isle.fmp").write_bytes(write_fmp(generate_map(3, 2, "small")))
        assert "isle" in maps({g["id"]: g for g in client.get("/api/lobby").json()})
        assert "isle" in maps({g["id"]: g for g in client.get("/api/games").json()})
        listed = {g["id"]: g["catalog"] for g in client.get("/api/games").json()}
        assert "isle" in listed["fullmetal"]["maps"]
    finally:
        catalog.configure(None)


def _routes(routes: Any) -> Iterator[Any]:
    for r in routes:
        sub = getattr(r, "original_router", None)
        if sub is not None:
            yield from _routes(sub.routes)
        elif hasattr(r, "path_regex"):
            yield r


def test_no_route_hides_another(sqlite_url: str) -> None:
    """Issue 26: the app orders its routers by how often pages call them (Starlette tries routes one by one), which
    is safe only while no path that one route serves is matched by another route of the same method: for each route
    a path of its own (each parameter filled in), no other route matches it. The one pair that shares paths
    (``/api/workbench/runs/kinds`` and ``/api/workbench/runs/{run_id}``) is kept in that order."""
    import re

    from spacetable.server.app import create_app

    app = create_app(sqlite_url, ai_workers=0)
    routes = list(_routes(app.router.routes))
    assert len(routes) > 100

    def sample(path: str) -> str:
        path = re.sub(r"\{[^}]+:path\}", "a/b", path)
        path = re.sub(r"\{[^}]+:int\}", "7", path)
        return re.sub(r"\{[^}]+\}", "x1", path)

    shared = []
    for r in routes:
        own = sample(r.path)
        methods = getattr(r, "methods", None) or {"WEBSOCKET"}
        for other in routes:
            if other is not r and methods & (getattr(other, "methods", None) or {"WEBSOCKET"}) \
                    and other.path_regex.match(own):
                shared.append((r.path, other.path))
    assert shared == [("/api/workbench/runs/kinds", "/api/workbench/runs/{run_id}")]
    order = [r.path for r in routes]
    assert order.index("/api/workbench/runs/kinds") < order.index("/api/workbench/runs/{run_id}")
    # the routes of a move come first, the polled ones before the pages and the accounts
    assert order.index("/api/matches/{match_id}/actions") < 10
    assert order.index("/api/matches/{match_id}/chat") < order.index("/api/matches") < order.index("/api/account/me") \
        < order.index("/")


def test_the_app_tries_its_own_routes_without_routers_in_between(sqlite_url: str) -> None:
    """Issue 26: every route is on the app itself (``app.add_routes``), not behind FastAPI's included-router wrapper,
    which worked out each of its routes again for every request; the routes keep their router's prefix, tags,
    dependencies and schema setting, and the OpenAPI document lists every API route."""
    from spacetable.server.app import create_app
    from spacetable.server.routes import play, workbench

    app = create_app(sqlite_url, ai_workers=0)
    assert all(hasattr(r, "path_regex") and not hasattr(r, "original_router") for r in app.router.routes)
    paths = {r.path: r for r in app.router.routes}
    assert "/api/workbench/kinds" in paths and paths["/api/workbench/kinds"].tags == workbench.router.tags
    gated = paths["/api/matches/{match_id}/state"]
    assert [d.dependency for d in gated.dependencies] == [d.dependency for d in play.router.dependencies]
    documented = app.openapi()["paths"]
    assert "/api/matches" in documented and "/api/workbench/kinds" in documented and "/ws/matches/{match_id}" not in \
        documented and not any(p.startswith("/workbench") for p in documented)  # the pages' router is not in the schema
    with TestClient(app) as c:  # a route of a router with dependencies still runs them: no token, no state
        assert c.get("/api/matches/nope/state").status_code in (401, 403, 404, 422)


def test_routes_of_a_router_that_brings_more_than_routes_are_refused() -> None:
    """``add_routes`` takes only what it can put on the app whole: a router with start-up hooks, or with routers of its
    own, is refused rather than half taken."""
    from fastapi import APIRouter, FastAPI

    from spacetable.server.app import add_routes
    from spacetable.server.routing import PrefixRoute

    app = FastAPI()
    nested = APIRouter(route_class=PrefixRoute)
    inner = APIRouter()
    inner.add_api_route("/x", lambda: 1)
    nested.include_router(inner)
    with pytest.raises(TypeError):
        add_routes(app, nested)
    hooked = APIRouter(on_startup=[lambda: None], route_class=PrefixRoute)
    hooked.add_api_route("/y", lambda: 1)
    with pytest.raises(TypeError, match="start-up"):
        add_routes(app, hooked)
    plain = APIRouter(prefix="/p", tags=["t"], route_class=PrefixRoute)
    plain.add_api_route("/z", lambda: {"z": 1})
    add_routes(app, plain)
    with TestClient(app) as c:
        assert c.get("/p/z").json() == {"z": 1}


def test_a_server_at_its_match_cap_evicts_down_to_a_sixteenth_below_it(tmp_path: Path) -> None:
    """SRV-M1 with issue 26: over ``--max-live-matches`` the least recently used idle matches leave memory, down to a
    sixteenth below the cap, so that the next matches created do not each sort every match in memory again."""
    from spacetable.server.app import create_app


    app = create_app(f"sqlite:///{tmp_path / 'cap.sqlite3'}", ai_workers=0, limits=lenient_limits(max_live_matches=32))
    with TestClient(app) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        first = [create(c, "arena")["match"]["id"] for _ in range(32)]
        assert len(service.matches) == 32  # at the cap: nothing leaves
        newest = create(c, "arena")["match"]["id"]
        assert len(service.matches) == 30  # 33, over the cap: down to 32 - 2
        assert newest in service.matches and first[0] not in service.matches and first[2] not in service.matches
        assert first[3] in service.matches  # the three least recently used left, no more
        create(c, "arena")
        assert len(service.matches) == 31  # room again: nothing sorted, nothing evicted
        assert c.get(f"/api/matches/{first[0]}").json()["id"] == first[0]  # an evicted match comes back on demand


def test_messages_encode_as_the_standard_encoder_would_with_or_without_string_keys() -> None:
    """Issue 26: ``jsonio.dumps`` tries orjson's plain mode first (views and legal lists have string keys only), then
    its mode for non-string keys, then the standard encoder (integers beyond 64 bits): the same text every time."""
    import json

    from spacetable.server.jsonio import dumps

    for value in ({"view": {"ships": [{"cell": "a1"}], "you": None}, "legal": [{"type": "move", "to": "é"}]},
                  {"by_seat": {0: "red", 1: "blue"}}, {"big": 2**70, "n": [1.5, True, None]}):
        expected = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        assert dumps(value) == expected


def test_the_match_socket_reads_its_own_query(sqlite_url: str) -> None:
    """Issue 26: the match socket declares no query parameters for FastAPI to work out at each connection; it reads
    ``seat``, ``token``, ``lang`` and ``texts`` itself, and the connection checks them as before."""
    from spacetable.server.app import create_app

    app = create_app(sqlite_url, ai_workers=0)
    route = next(r for r in app.router.routes if getattr(r, "path", "") == "/ws/matches/{match_id}")
    assert [p.name for p in route.dependant.path_params] == ["match_id"] and not route.dependant.query_params
    with TestClient(app) as c:
        made = create(c, "arena", join_seat=0)
        mid = made["match"]["id"]
        tokens = [made["token"], join(c, mid, 1)]
        seat = c.get(f"/api/matches/{mid}").json()["to_act"][0]
        with c.websocket_connect(f"/ws/matches/{mid}?seat=one") as ws:
            assert ws.receive_json()["error"]["code"] == "bad_request"
        url = f"/ws/matches/{mid}?seat={seat}&token={tokens[seat]}"
        with c.websocket_connect(url + "&lang=fr&texts=1") as ws:
            french = ws.receive_json()
        with c.websocket_connect(url + "&lang=en&texts=1") as ws:
            english = ws.receive_json()
        with c.websocket_connect(url) as ws:
            plain = ws.receive_json()
    assert french["type"] == "snapshot" and french["seat"] == seat and french["legal"] == english["legal"]
    assert french["legal_text"] and english["legal_text"] and french["legal_text"] != english["legal_text"]
    assert plain["legal"] == english["legal"] and plain["legal_text"] == []  # no texts unless asked


def test_sockets_compress_as_browsers_ask_unless_the_operator_turns_it_off(tmp_path: Path) -> None:
    """Issue 26: a socket whose client offers permessage-deflate, as browsers do, gets its messages compressed (the
    snapshot decodes the same); ``serve --no-ws-compression`` negotiates no extension, for the CPU and the memory per
    socket that compressing costs (docs/server.md, "Capacity plan")."""
    import json
    import subprocess
    import sys

    import httpx
    from websockets.sync.client import connect

    from spacetable.server.cli import wait_until_healthy

    from .test_limits import ROOT, free_port

    seen = {}
    for flags in ([], ["--no-ws-compression"]):
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url",
                                 f"sqlite:///{tmp_path / f's{len(flags)}.sqlite3'}", "--ai-workers", "0", "--log-level",
                                 "warning", *flags], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert wait_until_healthy(port, proc)
            new = {"game": "arena", "join_seat": 0, "open_seed": True, "seed": 7}
            made = httpx.post(f"http://127.0.0.1:{port}/api/matches", json=new).json()
            url = f"ws://127.0.0.1:{port}/ws/matches/{made['match']['id']}?seat=0&token={made['token']}"
            with connect(url, compression="deflate") as ws:
                snapshot = json.loads(ws.recv(timeout=30))
                seen[bool(flags)] = ([type(e).__name__ for e in ws.protocol.extensions], snapshot)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    (compressed, one), (plain, other) = seen[False], seen[True]
    assert compressed == ["PerMessageDeflate"] and plain == []
    assert one["type"] == other["type"] == "snapshot" and one["view"]["ships"] == other["view"]["ships"]


@pytest.mark.hotpath
def test_a_route_turns_away_paths_outside_its_prefix_and_finds_what_the_full_check_finds(sqlite_url: str) -> None:
    """Issue 26: every HTTP route of the app is a ``PrefixRoute``, which answers "no" for a path that does not start
    with its literal prefix without trying its expression, and answers every scope as FastAPI's full check does:
    for each route's own path (parameters filled in), that path with a slash more or less, a parameter's value
    with a slash in it, other methods, a WebSocket scope, and behind a proxy's root path."""
    import re

    from fastapi.routing import APIRoute
    from starlette.routing import Match

    from spacetable.server.app import add_routes, create_app
    from spacetable.server.routing import PrefixRoute

    app = create_app(sqlite_url, ai_workers=0)
    ours = [r for r in app.router.routes if isinstance(r, PrefixRoute)]
    assert len(ours) > 100 and not [r for r in app.router.routes if type(r) is APIRoute and r.include_in_schema
                                    and not r.path.startswith("/docs")]

    def sample(path: str) -> str:
        path = re.sub(r"\{[^}]+:path\}", "a/b", path)
        path = re.sub(r"\{[^}]+:int\}", "7", path)
        return re.sub(r"\{[^}]+\}", "x1", path)

    paths = {"/", "", "/nope", "/api", "/api/", "/static/app/x.js", "/api/matches/a/b/state"}
    for r in ours:
        own = sample(r.path)
        paths |= {own, own + "/", own.rstrip("/"), own[:-1], own.replace("x1", "x/1"), own.upper(), "/x" + own}
    scopes = [{"type": kind, "path": p, "root_path": root, "method": method, "headers": [], "query_string": b""}
              for p in sorted(paths) for method in ("GET", "POST", "DELETE", "PATCH") for kind in ("http", "websocket")
              for root in ("", "/proxy")]
    shortcuts = 0
    for scope in scopes:
        for r in ours:
            fast, full = r.matches(dict(scope)), APIRoute.matches(r, dict(scope))
            assert fast == full, (r.path, scope)
            shortcuts += fast[0] is Match.NONE and scope["type"] == "http" and not scope["root_path"] \
                and not scope["path"].startswith(r.literal)
    assert shortcuts > len(scopes) * len(ours) // 8

    # the expression is not tried at all for a path outside the prefix
    class Untried:
        def match(self, _path: str) -> None:
            raise AssertionError("the expression was tried")

    route = PrefixRoute("/api/matches/{match_id}/chat", lambda match_id: None)  # the app's routes are the routers',
    route.path_regex = Untried()  # type: ignore[assignment]  # shared by every app: this one is the test's own
    assert route.matches({"type": "http", "path": "/api/account/me", "root_path": "", "method": "GET"}) == (Match.NONE, {})

    from fastapi import APIRouter, FastAPI
    plain = APIRouter()
    plain.get("/x")(lambda: None)
    with pytest.raises(TypeError, match="PrefixRoute"):
        add_routes(FastAPI(), plain)  # a router of plain APIRoutes is refused: each of its routes would be tried in full


def test_a_notice_between_processes_reads_back_as_it_was_published(caplog: pytest.LogCaptureFixture) -> None:
    """The fan-out's notices are written with orjson (``RedisFanout.publish``) and read back (``_handle``): what one
    process publishes (a move with its floats, a chat line in Russian, an integer beyond 64 bits) reaches the other
    as the same value; its own notices and an unreadable one are dropped, the latter with a warning. No Redis here:
    the text ``publish`` queues is handed to the other process's reader as Redis would deliver it."""
    from spacetable.server.fanout import RedisFanout

    a, b = RedisFanout("redis://unused", "A"), RedisFanout("redis://unused", "B")
    a._me, b._me = b"A ", b"B "
    got: list[tuple[str, str, dict[str, Any]]] = []
    b.on_notice = lambda match_id, origin, notice: got.append((match_id, origin, notice))
    notices = [
        {"k": "a", "r": 12, "e": 0, "i": 11, "s": 1, "a": {"type": "move", "from": "c3", "to": "d4"}, "src": "player",
         "t": 1764560000.123456, "u": 1764560000.2234567},
        {"k": "chat", "room": "players", "msg": {"id": 3, "text": "Спасибо! \u2014 \"ok\"", "texts": {}}, "h": [1]},
        {"k": "c", "r": 2**70, "e": 1},
    ]
    for notice in notices:
        a.publish("m1", notice)
    assert len(a._out) == 3
    for channel, text in a._out:
        for process in (a, b):  # Redis delivers a notice to every subscriber, its publisher included
            process._handle({"type": "message", "channel": channel.encode(), "data": text.encode()})
    assert got == [("m1", "A", n) for n in notices] and a.received == 0 and b.received == 3
    assert type(got[2][2]["r"]) is int and a._out[2][1] == 'A {"k":"c","r":1180591620717411303424,"e":1}'
    with caplog.at_level("WARNING", logger="spacetable.server.fanout"):
        b._handle({"type": "message", "channel": b"spacetable:m:m1", "data": b"A {not json"})
    assert len(got) == 3 and "unreadable notice" in caplog.text


def _json_values() -> Any:
    from hypothesis import strategies as st

    scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**60, max_value=2**80)
               | st.integers(min_value=-(2**80), max_value=-(2**60)) | st.floats(allow_nan=False, allow_infinity=False)
               | st.text(max_size=8))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                                           max_size=4), max_leaves=12)


def _answer(read: Any, data: Any) -> tuple[str, Any]:
    from spacetable.server.jsonio import BadJson

    try:
        return "value", read(data)
    except BadJson as exc:
        return "refused", str(exc)


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down (``1 == 1.0`` is not enough: an integer must stay an integer)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (isinstance(a, float) and a != a and b != b)


def test_messages_read_with_orjson_are_read_as_the_standard_decoder_reads_them() -> None:
    """Issue 26: ``jsonio.loads`` reads with orjson first and with the standard decoder when orjson refuses a text or
    may have turned an integer beyond 64 bits into a float: the same value (types included) or the same refusal as
    the standard decoder alone (``standard_loads``), for valid texts, texts with huge integers beside floats, and
    the hostile texts of the hardening tests."""
    import json

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from spacetable.server.jsonio import loads, standard_loads

    hostile = ["1e999", "NaN", '{"a": -Infinity}', '"\\ud800"', '"\ud800"', "[" * 40 + "]" * 40, "[" * 32 + "]" * 32,
               "[" * 33 + "]" * 33, "[" * 5000 + "]" * 5000, '{"a": "\x00"}', "[1.5, 123456789012345678901234567890]",
               "-9223372036854775809", "18446744073709551615", "18446744073709551616", "1" * 5000, "[1e308, 1e309]",
               '{"a": 1, "a": 2.5}', "-0", "-0.0", "0.1e-400", " [ 1 , 2 ] ", "[1,]", "", "\ufeff[]", '"\\u00e9"']
    for text in hostile:
        for data in (text, text.encode("utf-8", "surrogatepass")):
            fast, slow = _answer(loads, data), _answer(standard_loads, data)
            assert fast[0] == slow[0], data
            assert _same(fast[1], slow[1]) if fast[0] == "value" else fast[1] == slow[1], data
    assert _answer(loads, b"\xff[]") == _answer(standard_loads, b"\xff[]") == ("refused", "the body is not UTF-8 text")
    assert type(loads("[0.5, 123456789012345678901234567890]")[1]) is int

    @settings(max_examples=300, deadline=None)
    @given(_json_values(), st.booleans())
    def same(value: Any, as_bytes: bool) -> None:
        text = json.dumps(value, ensure_ascii=False)
        data = text.encode() if as_bytes else text
        fast, slow = _answer(loads, data), _answer(standard_loads, data)
        assert fast[0] == slow[0]
        assert _same(fast[1], slow[1]) if fast[0] == "value" else fast[1] == slow[1]

    same()


@pytest.mark.parametrize("config", [{"red_seat": 0}, {"red_seat": 1, "setup": "free", "placement": "simultaneous"}])
def test_events_carry_each_viewers_whole_view_with_the_public_part_written_once(
        client: TestClient, config: dict[str, Any], counted: collections.Counter[tuple[Any, ...]]) -> None:
    """Issue 26: Cosmic Arena splits its views (``public_view``, ``own_view``); every event still carries each
    viewer's whole view, equal to ``game.view`` (a sealed layout only in its own seat's view, SRV-V1), and the REST
    view is the same; the public fields are written once per state for both seats and the spectators, and each
    viewer's own fields once per state, for its event and its REST view alike."""
    data = create(client, "arena", config=config, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(client, mid, 1)
    urls = [f"/ws/matches/{mid}?seat=0&token={t0}", f"/ws/matches/{mid}?seat=1&token={t1}", f"/ws/matches/{mid}"]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(u)) for u in urls]
        for ws in sockets:
            assert ws.receive_json()["type"] == "snapshot"
        m = live(client, mid)
        game = type(m.game)  # the class's methods, uncounted (the fixture counts the server's calls)
        assert game.public_view(m.game, m.state) is not None
        placing = 0
        for _ in range(8):
            seat = m.to_act()[0]
            r = client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": [t0, t1][seat],
                                                               "version": m.version, "action": m.legal(seat)[0]})
            assert r.status_code == 200, r.text
            for viewer, ws in zip([0, 1, None], sockets, strict=True):
                event = ws.receive_json()
                assert event["type"] == "event" and event["view"] == game.view(m.game, m.state, viewer)
                placing += "placement" in event["view"]
            for viewer, query, headers in ((0, "?seat=0", {"X-Seat-Token": t0}), (None, "", {})):
                got = client.get(f"/api/matches/{mid}/state{query}", headers=headers).json()["view"]
                assert got == game.view(m.game, m.state, viewer)
        if config.get("setup") == "free":  # the sealed layouts were in the views while placing
            assert placing
    repeated = {k: n for k, n in counted.items() if n > 1 and k[0] in ("view", "public")}
    assert not repeated, f"computed more than once per state: {repeated}"


def test_a_sockets_mailbox_hands_over_in_order_wakes_its_sender_and_survives_a_cancelled_wait() -> None:
    """Issue 26: the messages waiting for a socket (``live.Mailbox``, in place of an ``asyncio.Queue``) come out in
    the order they went in; a sender waiting for one wakes when it comes; a sender cancelled while waiting (its
    socket closed) leaves the mailbox as it was, and the next sender gets what comes next."""
    import asyncio

    from spacetable.server.live import Mailbox

    async def run() -> None:
        box = Mailbox()
        assert box.empty() and box.qsize() == 0
        with pytest.raises(asyncio.QueueEmpty):
            box.get_nowait()
        box.put_nowait("a")
        box.put_nowait("b")
        assert box.qsize() == 2 and await box.get() == "a" and box.get_nowait() == "b"
        waiting = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        assert not waiting.done()
        box.put_nowait("c")
        assert await asyncio.wait_for(waiting, 1) == "c"
        cancelled = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        box.put_nowait("d")
        assert box.qsize() == 1
        later = asyncio.create_task(box.get())
        assert await asyncio.wait_for(later, 1) == "d"
        again = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        box.put_nowait("e")
        box.put_nowait("f")
        assert await asyncio.wait_for(again, 1) == "e" and box.get_nowait() == "f" and box.empty()

    asyncio.run(run())
