"""Games on Ray (`--ray local`, a small local instance of 2 CPUs): the same records as a local run
for the same seed, progress from every result, and the runner's back ends agree."""

from __future__ import annotations

import pytest

from spacetable.ai.runner import run_tasks
from spacetable.ai.tournament import deterministic, make_tournament, run

ray = pytest.importorskip("ray")


def _square(x: int) -> int:
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def test_runner_back_ends_agree_and_errors_surface() -> None:
    tasks = list(range(7))
    assert sorted(run_tasks(_square, tasks)) == sorted(run_tasks(_square, tasks, jobs=2)) == [x * x for x in tasks]
    with pytest.raises(ValueError, match="three"):
        run_tasks(_fail_on_three, tasks, jobs=2)


@pytest.mark.slow
def test_tournament_on_local_ray_matches_a_local_run() -> None:
    tour = make_tournament("tremble", ["random", "heuristic"], config={"players": 3}, seed=21)
    seen: list[int] = []
    on_ray = run(tour, 9, ray="local", jobs=2, on_result=lambda r: seen.append(r["index"]))
    local = run(tour, 9, jobs=1)
    assert sorted(seen) == list(range(9))  # every result came back to the driver as it finished
    assert [deterministic(r) for r in on_ray] == [deterministic(r) for r in local]
    assert not ray.is_initialized()  # the instance started for the run is shut down after it
    assert sorted(run_tasks(_square, list(range(5)), ray="local", jobs=2)) == [0, 1, 4, 9, 16]


@pytest.mark.slow
def test_simulate_on_local_ray_reports_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    """`spacetable simulate fullmetal --ray local` prints the games of a local run (in completion order)."""
    from spacetable.cli import main

    def games(argv: list[str]) -> list[str]:
        assert main(argv) == 0
        lines = capsys.readouterr().out.splitlines()
        return sorted(line.rsplit(",", 1)[0] for line in lines if line.startswith("game "))  # without the time

    base = ["simulate", "fullmetal", "--games", "3", "--seats", "greedy,random", "--seed", "5"]
    local = games(base)
    assert len(local) == 3
    assert games([*base, "--ray", "local"]) == local
    assert games([*base, "--jobs", "2"]) == local


@pytest.mark.slow
def test_tremble_simulate_on_local_ray_matches_a_local_run() -> None:
    from spacetable.games.tremble.simulate import simulate

    local = simulate(3, 6, 11, ["heuristic", "random"], progress=False)
    on_ray = simulate(3, 6, 11, ["heuristic", "random"], progress=False, ray="local", jobs=2)
    assert on_ray == local  # the same records, in game order
