"""The shape of the worlds package (issue 10): modules import only modules of earlier layers, no
function-level imports but those whose reason is written beside them, no module over 500 lines without a
reason at its top, and every module says what it is."""

from __future__ import annotations

import ast
from pathlib import Path

import spacetable.games.worlds as package

HERE = Path(package.__file__).parent
OWN = "spacetable.games.worlds"

#: components and state → rule areas → flow → views and text → game facade → calculator and advisor → tools
LAYERS = [
    ["pieces"],
    ["events", "state"],
    ["scenario"],
    ["declare"],
    ["pairing", "battle", "skirmish"],
    ["aftermath"],
    ["flow"],
    ["notation"],
    ["views"],
    ["render"],
    ["game"],
    ["odds"],
    ["plans", "calculators"],
    ["bounds"],
    ["replies"],
    ["search"],
    ["advisor"],
    ["ai"],
    ["situation"],
    ["balance"],
    ["cli"],
    ["__init__"],
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}
#: (module, imported module): function-level imports with a reason written beside them
ALLOWED_LATE = {("cli", "matplotlib"), ("cli", "matplotlib.pyplot")}


def _imports(tree: ast.Module) -> list[tuple[str | None, str, bool]]:
    """(own module imported or None, module name, at module level?) for every import."""
    out: list[tuple[str | None, str, bool]] = []
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                names = [node.module] if node.module else [a.name for a in node.names]
                out += [(n, n, id(node) in top) for n in names]
            else:
                mod = node.module or ""
                own = mod[len(OWN) + 1:].split(".")[0] if mod.startswith(OWN + ".") else ("__init__" if mod == OWN else None)
                out.append((own, mod, id(node) in top))
        elif isinstance(node, ast.Import):
            out += [(None, a.name, id(node) in top) for a in node.names]
    return out


def test_every_module_has_a_layer() -> None:
    assert {p.stem for p in HERE.glob("*.py")} == set(RANK)


def test_imports_follow_the_layers_and_sit_at_module_level() -> None:
    for path in HERE.glob("*.py"):
        for own, name, top in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if not top:
                assert (path.stem, name) in ALLOWED_LATE, f"{path.stem}: function-level import of {name}"
            if own is not None:
                assert RANK[own] < RANK[path.stem], f"{path.stem} imports {own}, a later layer"


def test_long_modules_say_why_and_every_module_says_what_it_is() -> None:
    for path in HERE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 500:
            assert "longer than 500 lines" in text[:2000], path.name
        assert ast.get_docstring(ast.parse(text)), f"{path.name} has no module docstring"
