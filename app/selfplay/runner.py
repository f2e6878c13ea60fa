"""Play the games of a run: in this process, in a process pool, or as Ray tasks.

Every game is a function of the run configuration and its index only
(:func:`app.core.table.simulator.play_game`), so the games can be spread over any number
of workers, in any order, and put back in game order: the results never depend
on ``workers`` or ``backend``.

The games are cut into chunks of consecutive indices (at most
:data:`MAX_CHUNK_GAMES`, and small enough that every worker gets several), so a
worker's set-up cost and each task's overhead are paid per chunk, not per game,
and the progress callback still hears often.

>>> from app.core.table.simulator import GameConfig
>>> config = GameConfig("qiqihar", ("advisor", "greedy", "heuristic", "random"), seed=3)
>>> results = run_games(config, 3)
>>> [result.game for result in results], [result.dealer for result in results]
([0, 1, 2], [0, 1, 2])
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import closing
from enum import StrEnum
from typing import Any, Final

from app.core.shape.tables import tables
from app.core.table.simulator import GameConfig, GameResult, GameStopped, play_game, validate_config
from app.selfplay.errors import InvalidRunOption, MissingExtra

MAX_CHUNK_GAMES: Final = 25
"""The most games one task plays."""
CHUNKS_PER_WORKER: Final = 4
"""Chunks each worker gets at least, when there are games enough: the pool stays busy to the end."""

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""


class Backend(StrEnum):
    """Where games run when ``workers > 1`` (one worker always plays in this process)."""

    LOCAL = "local"
    RAY = "ray"


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform has one).

    >>> available_cores() >= 1
    True
    """
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def game_chunks(games: int, workers: int) -> list[range]:
    """The run's game indices cut into consecutive chunks for ``workers`` workers.

    >>> game_chunks(10, 2)
    [range(0, 2), range(2, 4), range(4, 6), range(6, 8), range(8, 10)]
    >>> [len(chunk) for chunk in game_chunks(1000, 4)][:2]
    [25, 25]
    """
    size = max(1, min(MAX_CHUNK_GAMES, math.ceil(games / (workers * CHUNKS_PER_WORKER))))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def play_chunk(config: GameConfig, chunk: range) -> list[GameResult]:
    """The results of the games in ``chunk`` (a top-level function, so pools and Ray can ship it)."""
    return [play_game(config, game) for game in chunk]


def run_games(
    config: GameConfig,
    games: int,
    *,
    workers: int = 1,
    backend: Backend | str = Backend.LOCAL,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[GameResult]:
    """Games ``0 .. games - 1`` of ``config``, in game order, played by ``workers`` workers.

    ``workers=1`` plays in this process (whatever the backend).  With more,
    ``backend="local"`` uses a pool of spawned processes, and ``"ray"`` runs
    the chunks as Ray tasks, starting a local Ray instance with ``workers``
    CPUs (and stopping it afterwards) unless this process is already connected
    to one or ``RAY_ADDRESS`` names a cluster to join (whose workers must be able to import ``app``, as on this machine with
    tenpai installed).  ``progress(done, total)`` is called once with 0 before
    any game, then as games finish.

    ``stop()``, asked as each game goes (between turns, and inside the advisor's search:
    :func:`~app.core.table.simulator.play_game`), ends the run early when it answers
    True (a service's deadline passed, its client left): the game in play is abandoned,
    and the answer is the games finished so far, ``0 .. k - 1`` (``k`` may be 0), the
    results of a shorter run of the same seed.  It needs ``workers=1``: a pool plays
    games out of order.

    Bad options raise :class:`~app.selfplay.errors.InvalidRunOption`, a bad
    configuration the table's typed errors, before any game is played; the
    Ray backend without Ray installed raises
    :class:`~app.selfplay.errors.MissingExtra`.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidRunOption(f"games is {games!r}; a run plays at least 1 game", field="games")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidRunOption(f"workers is {workers!r}; a run needs at least 1 worker", field="workers")
    try:
        backend = Backend(backend)
    except ValueError:
        choices = ", ".join(member.value for member in Backend)
        raise InvalidRunOption(f"unknown backend {backend!r}; backends are {choices}", field="backend") from None
    if stop is not None and workers != 1:
        raise InvalidRunOption(f"stop needs workers=1, got {workers}", field="workers")
    validate_config(config)
    ray = import_ray() if backend is Backend.RAY and workers > 1 else None

    report_progress = progress or _ignore_progress
    report_progress(0, games)
    if workers == 1:
        return _play_here(config, games, report_progress, stop)
    chunks = game_chunks(games, workers)
    if ray is not None:
        finished = _play_on_ray(ray, config, chunks, workers)
    else:
        finished = _play_in_pool(config, chunks, min(workers, len(chunks)))
    results: list[GameResult | None] = [None] * games
    done = 0
    # closing(): if the progress callback raises, the pool or Ray is still shut down now.
    with closing(finished):
        for chunk_results in finished:
            for result in chunk_results:
                results[result.game] = result
            done += len(chunk_results)
            report_progress(done, games)
    # Every chunk came back, so every slot is filled; the check guards the reassembly.
    assert all(result is not None for result in results), "a chunk of games went missing"
    return results  # type: ignore[return-value]


def _ignore_progress(done: int, total: int) -> None:
    pass


def _play_here(config: GameConfig, games: int, progress: Progress, stop: Callable[[], bool] | None) -> list[GameResult]:
    results = []
    for game in range(games):
        try:
            results.append(play_game(config, game, stop=stop))
        except GameStopped:
            break
        progress(game + 1, games)
    return results


def _play_in_pool(config: GameConfig, chunks: list[range], workers: int) -> Generator[list[GameResult], None, None]:
    """Chunk results as they finish, from a pool of ``workers`` processes."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context())
    try:
        pending = {pool.submit(play_chunk, config, chunk) for chunk in chunks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        # Stopped early (an error, Ctrl-C): drop the chunks not started rather than play them all.
        pool.shutdown(cancel_futures=True)


def _pool_context() -> multiprocessing.context.BaseContext:
    """Fork when it is safe, else spawn.

    A forked worker starts at once with the parent's lookup tables (built here
    first; about a second per spawned worker otherwise).  But a forked child
    inherits other threads' locks in whatever state they were (Ray, a web
    server, a test runner's helpers), so fork only from a process whose one
    thread is this one, and only where fork exists; else spawn, as macOS and
    Windows do anyway.  Either way every game is a function of (config, index).
    """
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        tables()
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _play_on_ray(
    ray: Any, config: GameConfig, chunks: list[range], workers: int
) -> Generator[list[GameResult], None, None]:
    """Chunk results as they finish, from Ray tasks (on this process's Ray cluster, or a local one)."""
    started_here = not ray.is_initialized()
    if started_here and os.environ.get("RAY_ADDRESS"):
        # A cluster named by RAY_ADDRESS: join it (its size is the cluster's, not ``workers``).
        ray.init(log_to_driver=False, configure_logging=False)
    elif started_here:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    pending: list[Any] = []
    try:
        remote_chunk = ray.remote(play_chunk)
        pending = [remote_chunk.remote(config, chunk) for chunk in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        # Stopped early (an error, Ctrl-C): the caller's cluster must not go on playing the rest.
        for task in pending:
            ray.cancel(task)
        if started_here:
            ray.shutdown()


def import_ray() -> Any:
    """The ``ray`` module, or :class:`~app.selfplay.errors.MissingExtra` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise MissingExtra("ray", extra="ray", purpose="the Ray backend") from None
    return ray
