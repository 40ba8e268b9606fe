"""Run many independent jobs (AI-against-AI games) here, in a process pool, or on a Ray cluster.

:func:`run_tasks` maps a picklable function over picklable tasks and hands every result to a
callback as soon as it is finished, in completion order (so a caller can append it to a results
file and show one progress bar for all workers, however many machines they run on). The same
function and tasks give the same results on every back end: the back end only decides where a task
runs, never what it computes.

* ``jobs=1``: in this process, one task after the other (no pool, easiest to debug and profile);
* ``jobs=K``: a pool of K worker processes on this machine;
* ``ray="local"``: a Ray instance started here with ``jobs`` CPUs, or all of them when ``jobs`` is 1
  (shut down afterwards);
* ``ray=ADDRESS``: an existing Ray cluster (``auto``, ``HOST:6379`` or ``ray://HOST:10001``); every node
  needs the same spacetable installed (docs/scale.md).

Ray is an optional dependency (``pip install 'spacetable[ray]'``); it is imported only when asked for.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from spacetable.core.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    func: Callable[[T], R],
    tasks: Sequence[T],
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_result: Callable[[R], None] | None = None,
) -> list[R]:
    """``[func(t) for t in tasks]`` computed by the chosen back end, in completion order.

    ``on_result`` is called in this process for every result as it arrives. An exception raised by
    a task is raised here (the pool is shut down; finished results were already handed over)."""
    if jobs < 1:
        raise ConfigError("--jobs must be 1 or more")
    out: list[R] = []

    def take(result: R) -> None:
        out.append(result)
        if on_result is not None:
            on_result(result)

    if not tasks:
        return out
    if ray is not None:
        _run_ray(func, tasks, ray, jobs, take)
    elif jobs == 1 or len(tasks) == 1:
        for task in tasks:
            take(func(task))
    else:
        with concurrent.futures.ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            futures = [pool.submit(func, t) for t in tasks]
            try:
                for fut in concurrent.futures.as_completed(futures):
                    take(fut.result())
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise
    return out


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:  # an optional extra
        raise ConfigError("--ray needs Ray: pip install 'spacetable[ray]' (on every machine of the cluster)") from exc
    return ray


def start_ray(address: str, cpus: int | None = None) -> bool:
    """Connect to Ray (``local`` starts an instance on this machine with ``cpus`` CPUs). Returns True
    when this call started the connection (the caller then shuts it down with :func:`stop_ray`)."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING,
             "configure_logging": True}
    if address == "local":
        ray.init(num_cpus=cpus, **quiet)
    else:
        quiet.pop("include_dashboard")
        try:
            ray.init(address=address, **quiet)
        except ConnectionError as exc:
            raise ConfigError(f"cannot reach the Ray cluster at {address!r}: {exc}") from exc
    return True


def stop_ray() -> None:
    import_ray().shutdown()


def cluster_cpus() -> int:
    """CPUs of the connected Ray cluster (at least 1)."""
    return max(1, int(import_ray().cluster_resources().get("CPU", 1)))


def _run_ray(func: Callable[[T], R], tasks: Sequence[T], address: str, jobs: int, take: Callable[[R], None]) -> None:
    ray = import_ray()
    started = start_ray(address, cpus=jobs if address == "local" and jobs > 1 else None)
    try:
        remote = ray.remote(num_cpus=1, max_retries=2)(func)
        # keep a bounded number of tasks in flight (a few per CPU): a million-game run does not put a
        # million task specs into the cluster at once, and results stream back as they finish
        window = 4 * cluster_cpus()
        queue: Iterator[T] = iter(tasks)
        pending = [remote.remote(t) for t in itertools.islice(queue, window)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                take(ray.get(ref))
                for nxt in itertools.islice(queue, 1):
                    pending.append(remote.remote(nxt))
    finally:
        if started:
            stop_ray()
