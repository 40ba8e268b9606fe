"""The shape of the tremble package (issue 10): modules import only modules of earlier layers, no
function-level imports but the two whose reason is written beside them, no module over 500 lines
without a reason at its top."""

from __future__ import annotations

import ast
from pathlib import Path

import spacetable.games.tremble as package

HERE = Path(package.__file__).parent

#: state → rule modules → flow → notation and views → game facade → samplers and AI → tools → the package
LAYERS = [
    ["state"],
    ["effects"],
    ["models"],
    ["cards"],
    ["credits"],
    ["setup", "buying", "planning", "stations", "battle", "missions"],
    ["reward", "fast"],
    ["flow"],
    ["notation"],
    ["views"],
    ["game"],
    ["sampling"],
    ["ai"],
    ["simulate"],
    ["balance", "cli"],
    ["__init__"],
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}
#: (module, imported module): function-level imports with a reason written beside them
ALLOWED_LATE = {("simulate", "matplotlib"), ("simulate", "matplotlib.pyplot")}


def _imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(module imported, at module level?) for every import of the package's own modules and others."""
    out: list[tuple[str, bool]] = []
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else (
                [node.module] if node.module else [a.name for a in node.names])
            out += [(("." if node.level else "") + n, id(node) in top) for n in names]
        elif isinstance(node, ast.Import):
            out += [(a.name, id(node) in top) for a in node.names]
    return out


def test_every_module_has_a_layer() -> None:
    assert {p.stem for p in HERE.glob("*.py")} == set(RANK)


def test_imports_follow_the_layers_and_sit_at_module_level() -> None:
    for path in HERE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, top in _imports(tree):
            own = name.startswith(".")
            if not top:
                assert (path.stem, name.lstrip(".")) in ALLOWED_LATE, f"{path.stem}: function-level import of {name}"
            elif own:
                target = name[1:] if name[1:] in RANK else "__init__"  # ``from . import GAME``: the package
                assert RANK[target] < RANK[path.stem], (path.stem, target)


def test_long_modules_say_why() -> None:
    for path in HERE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 500:
            assert "longer than 500 lines" in text[:2000], path.name
