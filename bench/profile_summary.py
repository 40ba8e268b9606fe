"""Summarise a py-spy profile of a server process (``bench/server_load.py --profile DIR``): the share of the event
loop's samples spent under each function of interest (inclusive), and the top functions by own samples.

    .venv/bin/python bench/profile_summary.py /tmp/prof/arena-sqlite-0.txt
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path


def frame_name(frame: str) -> str:
    """``func (path/to/module.py:12)`` -> ``module.func``."""
    func, _, where = frame.partition(" (")
    module = where.split(":")[0].rsplit("/", 1)[-1].removesuffix(".py")
    return f"{module}.{func}" if module else func


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", type=Path)
    p.add_argument("--top", type=int, default=40)
    args = p.parse_args(argv)
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in args.file.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [f for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        if not frames or "Runner.run" not in stack:  # the event loop's thread only
            continue
        n = int(count)
        total += n
        for name in {frame_name(f) for f in frames}:
            inclusive[name] += n
        own[frame_name(frames[-1])] += n
    if not total:
        print("no samples of the event loop")
        return 1
    print(f"{total} samples of the event loop\n\ninclusive:")
    for name, n in inclusive.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name}")
    print("\nown:")
    for name, n in own.most_common(args.top // 2):
        print(f"{100 * n / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
