"""Every game's content kinds (:mod:`spacetable.core.content`), with each game's package imported.

``python -m spacetable.games.kinds [FILE]`` writes (or prints) ``docs/content.md``, the field tables of every kind.
"""

from __future__ import annotations

import sys

from spacetable.core import catalog, content

from . import REGISTRY, get_game


def load_all() -> list[catalog.Kind]:
    """Import every game (each registers its kinds) and return the kinds that declare their content."""
    for gid in REGISTRY:
        get_game(gid)
    return content.kinds()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = content.document(load_all())
    if args:
        with open(args[0], "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
