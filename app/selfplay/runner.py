"""Play the games of a run: in this process, in a process pool, or as Ray tasks.

Every game is a function of the run configuration, its index and its rotation only
(:func:`app.core.table.game.play_game`), so the games can be spread over any number
of workers, in any order, and put back in order: the results never depend
on ``workers`` or ``backend``.

**Seating.**  Game ``g`` seats the lineup rotated by ``g`` (``GameConfig.rotation``, plus the
config's own): seat 0 deals first and holds ``players[g % seats]``, so every lineup position
deals first equally often, as the dealer rotated in the one-hand runs before whole games.  In
the **duplicate** mode each game index is played once per rotation ``0 .. seats - 1`` on the
same walls (the same seed string), so every strategy meets every deal from every seat; the
results come game by game, rotations in order.

**Presets.**  The table machine plays every preset; riichi and sanma by Tenhou's rules at every
length, the others (:data:`ONE_HAND_PRESETS`) one hand a game (``length="kyoku"``), since their
flow between hands is not modelled (:mod:`app.core.table.play_rules`).

The games are cut into chunks of consecutive games (at most
:data:`MAX_CHUNK_GAMES`, and small enough that every worker gets several), so a
worker's set-up cost and each task's overhead are paid per chunk, not per game,
and the progress callback still hears often.

A run ends with its process, however that ends.  Interrupted (Ctrl-C, or SIGTERM under
the command line), the pool's workers are killed at once rather than left to finish their
chunks, and the Ray tasks not yet finished are cancelled.  Killed outright (SIGKILL, the
OOM killer), the process runs no clean-up, so each pool worker watches its parent: on
Linux the kernel kills it when its parent dies (``PR_SET_PDEATHSIG``), and everywhere a
thread of its own ends it within :data:`PARENT_POLL_SECONDS` of being orphaned.

>>> config = GameConfig("riichi", ("linear", "greedy", "heuristic", "random"), seed=3, record_events=False)
>>> records = run_games(config, 3)
>>> [record.game for record in records], [record.rotation for record in records]
([0, 1, 2], [0, 1, 2])
>>> [record.players[0] for record in records]
['linear', 'greedy', 'heuristic']
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager
from enum import StrEnum
from typing import Any, Final

from app.core.families.registry import PLAY_RULES, TABLES
from app.core.shape.rules import PRESETS
from app.core.shape.tables import tables
from app.core.table.flow import GameLength
from app.core.table.game import GameConfig, GameRecord, GameStopped, play_game, validate_config
from app.selfplay.errors import InvalidRunOption, MissingExtra

MAX_CHUNK_GAMES: Final = 25
"""The most games one task plays."""
CHUNKS_PER_WORKER: Final = 4
"""Chunks each worker gets at least, when there are games enough: the pool stays busy to the end."""
PARENT_POLL_SECONDS: Final = 0.5
"""How often a pool worker asks whether its parent is still the process that started it."""
WORKER_EXIT_SECONDS: Final = 2.0
"""How long an interrupted run waits for a terminated worker before killing it."""
_PR_SET_PDEATHSIG: Final = 1
"""prctl(2)'s option: the signal the kernel sends this process when its parent dies."""

#: Every preset self-play plays: the shape wing's in its order, then those the families bring.
PLAYABLE_PRESETS: Final = (
    *(name for name in PRESETS if name in TABLES),
    *(name for name in TABLES if name not in PRESETS),
)
#: Presets the table plays one hand a game only (see the module notes).
ONE_HAND_PRESETS: Final = tuple(
    name for name in PLAYABLE_PRESETS if PLAY_RULES[name].lengths == (GameLength.KYOKU.value,)
)

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""
OnGame = Callable[[GameRecord], GameRecord]
"""Called in the run's process with each game as it comes back; the run keeps what it returns."""


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


def seats_of(config: GameConfig) -> int:
    """How many seats the table of ``config`` has (the lineup's length, once checked)."""
    return len(config.players)


def table_game(config: GameConfig, index: int, *, duplicate: bool = False) -> tuple[int, int]:
    """(game, rotation) of the ``index``-th game a run plays (see the module notes).

    >>> config = GameConfig("sanma", ("linear",) * 3, seed=0)
    >>> [table_game(config, index) for index in range(4)]
    [(0, 0), (1, 1), (2, 2), (3, 0)]
    >>> [table_game(config, index, duplicate=True) for index in range(4)]
    [(0, 0), (0, 1), (0, 2), (1, 0)]
    """
    seats = seats_of(config)
    game = index // seats if duplicate else index
    return game, (config.rotation + index) % seats


def play_index(
    config: GameConfig, index: int, *, duplicate: bool = False, stop: Callable[[], bool] | None = None
) -> GameRecord:
    """The ``index``-th game of a run of ``config``."""
    game, rotation = table_game(config, index, duplicate=duplicate)
    return play_game(config._replace(rotation=rotation), game, stop=stop, tables=TABLES)


def play_chunk(config: GameConfig, chunk: range, duplicate: bool = False) -> list[GameRecord]:
    """The games in ``chunk`` (a top-level function, so pools and Ray can ship it)."""
    return [play_index(config, index, duplicate=duplicate) for index in chunk]


def run_games(
    config: GameConfig,
    games: int,
    *,
    duplicate: bool = False,
    workers: int = 1,
    backend: Backend | str = Backend.LOCAL,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
    on_game: OnGame | None = None,
) -> list[GameRecord]:
    """Games ``0 .. games - 1`` of ``config``, in order, played by ``workers`` workers.

    Game ``g`` is seated with rotation ``g`` (module notes); with ``duplicate``, each game is
    played once per rotation, ``games * seats`` games in all, game by game.

    ``workers=1`` plays in this process (whatever the backend).  With more,
    ``backend="local"`` uses a pool of spawned processes, and ``"ray"`` runs
    the chunks as Ray tasks, starting a local Ray instance with ``workers``
    CPUs (and stopping it afterwards) unless this process is already connected
    to one or ``RAY_ADDRESS`` names a cluster to join (whose workers must be able to import ``app``, as on this machine with
    tenpai installed).  ``progress(done, total)`` is called once with 0 before
    any game, then as games finish (``total`` counts every rotation of a duplicate run).
    ``on_game(record)`` is called in this process with each game as it comes back (in the
    order games finish), and the run keeps what it returns: a caller that writes each
    game's log can keep the game without it.

    ``stop()``, asked as each game goes (between turns, and inside the advisor's search:
    :func:`~app.core.table.game.play_game`), ends the run early when it answers
    True (a service's deadline passed, its client left): the game in play is abandoned,
    and the answer is the games finished so far, ``0 .. k - 1`` (``k`` may be 0; under
    ``duplicate``, whole games only: every rotation of each), the results of a shorter run
    of the same seed.  It needs ``workers=1``: a pool plays games out of order.

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
    validate_config(config, TABLES)
    ray = import_ray() if backend is Backend.RAY and workers > 1 else None

    total = games * seats_of(config) if duplicate else games
    keep = on_game or _keep
    if stop is not None:
        stop = StopLatch(stop)
    report_progress = progress or _ignore_progress
    report_progress(0, total)
    if workers == 1:
        return _play_here(config, total, duplicate, report_progress, stop, keep)
    chunks = game_chunks(total, workers)
    if ray is not None:
        finished = _play_on_ray(ray, config, chunks, duplicate, workers)
    else:
        finished = _play_in_pool(config, chunks, duplicate, min(workers, len(chunks)))
    records: list[GameRecord | None] = [None] * total
    done = 0
    # closing(): if the progress callback raises, the pool or Ray is still shut down now.
    with closing(finished):
        for chunk, chunk_records in finished:
            for index, record in zip(chunk, chunk_records, strict=True):
                records[index] = keep(record)
            done += len(chunk_records)
            report_progress(done, total)
    # Every chunk came back, so every slot is filled; the check guards the reassembly.
    assert all(record is not None for record in records), "a chunk of games went missing"
    return records  # type: ignore[return-value]


def _ignore_progress(done: int, total: int) -> None:
    pass


class StopLatch:
    """A ``stop`` callable that stays True once it has said True.

    A search cut short by ``stop`` answers with what it found, and the table plays that
    answer before it next asks; a stop that said True must then still say True, so that the
    table abandons the game: a game is either played as its seed says or not at all, even
    when the caller's ``stop`` would change its mind.

    >>> answers = iter([False, True, False])
    >>> latch = StopLatch(lambda: next(answers))
    >>> [latch(), latch(), latch(), latch()]
    [False, True, True, True]
    """

    __slots__ = ("_stop", "said")

    def __init__(self, stop: Callable[[], bool]) -> None:
        self._stop = stop
        self.said = False

    def __call__(self) -> bool:
        if not self.said and self._stop():
            self.said = True
        return self.said


def _keep(record: GameRecord) -> GameRecord:
    return record


def _play_here(
    config: GameConfig,
    total: int,
    duplicate: bool,
    progress: Progress,
    stop: Callable[[], bool] | None,
    keep: OnGame,
) -> list[GameRecord]:
    records = []
    for index in range(total):
        try:
            records.append(keep(play_index(config, index, duplicate=duplicate, stop=stop)))
        except GameStopped:
            if duplicate:  # a game is all its rotations: the stopped one's others go too
                del records[len(records) - len(records) % seats_of(config) :]
            break
        progress(index + 1, total)
    return records


Finished = Generator[tuple[range, list[GameRecord]], None, None]
"""Chunks of games as they finish: the chunk's indices and its games."""


def _play_in_pool(config: GameConfig, chunks: list[range], duplicate: bool, workers: int) -> Finished:
    """Chunks as they finish, from a pool of ``workers`` processes that end with this one."""
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=_pool_context(), initializer=end_with_parent, initargs=(os.getpid(),)
    )
    finished = False
    try:
        pending = {pool.submit(play_chunk, config, chunk, duplicate): chunk for chunk in chunks}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            # Stopped early (an error, Ctrl-C, SIGTERM): the chunks in play are not wanted either.
            _kill_pool(pool)


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: no chunk started, and its workers (busy or not) terminated.

    ``shutdown`` alone would wait for every running chunk: up to 25 games, half a minute
    of advisor games.  The executor has no public way to end its workers before Python
    3.14 (``terminate_workers``), hence its process table.
    """
    processes = list(pool._processes.values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    ends_by = time.monotonic() + WORKER_EXIT_SECONDS
    for process in processes:
        process.join(max(0.0, ends_by - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def end_with_parent(parent: int) -> None:
    """Make this pool worker end when ``parent``, the run's process, ends, however it ends.

    The pool's initializer.  A worker ignores SIGINT: Ctrl-C reaches the whole process
    group, and the parent, which hears it too, ends its workers itself; and SIGTERM ends
    it at once, whatever handler a forked worker inherited.  On Linux the
    kernel sends it SIGKILL when its parent dies (``PR_SET_PDEATHSIG``); a parent gone
    before that was asked would never trigger it, hence the check that the parent is still
    ``parent`` right after.  A thread then checks the same every :data:`PARENT_POLL_SECONDS`:
    the only guard where there is no prctl, a second one where there is.  The pool forks
    or spawns its workers from the run's own process (:func:`_pool_context`), so their parent is
    ``parent``; a forkserver's workers would have the forkserver for a parent.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os._exit(1)  # orphaned already: the run this worker was for is over
    threading.Thread(target=_watch_parent, args=(parent,), name="end-with-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    # An orphan is adopted by init or a subreaper: its parent pid changes when its parent dies.
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _pool_context() -> multiprocessing.context.BaseContext:
    """Fork when it is safe, else spawn (never forkserver: :func:`end_with_parent` expects the
    run's process to be its workers' parent).

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


def _play_on_ray(ray: Any, config: GameConfig, chunks: list[range], duplicate: bool, workers: int) -> Finished:
    """Chunks as they finish, from Ray tasks (on this process's Ray cluster, or a local one)."""
    started_here = not ray.is_initialized()
    with _sigterm_handler_kept():
        if started_here and os.environ.get("RAY_ADDRESS"):
            # A cluster named by RAY_ADDRESS: join it (its size is the cluster's, not ``workers``).
            ray.init(log_to_driver=False, configure_logging=False)
        elif started_here:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    pending: list[Any] = []
    chunk_of: dict[Any, range] = {}
    try:
        remote_chunk = ray.remote(play_chunk)
        # One at a time into ``pending``: an interruption while the tasks are being submitted
        # (slow on a busy machine) must still find those already submitted, to cancel them.
        for chunk in chunks:
            task = remote_chunk.remote(config, chunk, duplicate)
            pending.append(task)
            chunk_of[task] = chunk
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield chunk_of.pop(done[0]), ray.get(done[0])
    finally:
        # Stopped early (an error, Ctrl-C): the caller's cluster must not go on playing the rest.
        for task in pending:
            ray.cancel(task)
        if started_here:
            ray.shutdown()


@contextmanager
def _sigterm_handler_kept() -> Iterator[None]:
    """Keep this process's own Python SIGTERM handler across the block.

    ``ray.init`` installs Ray's, which logs and exits with status 1 without unwinding, so
    the command line's handler (SIGTERM: cancel the Ray tasks, exit 143) is put back.  A
    process without a handler of its own keeps Ray's.
    """
    handler = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        if callable(handler) and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, handler)


def import_ray() -> Any:
    """The ``ray`` module, or :class:`~app.selfplay.errors.MissingExtra` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise MissingExtra("ray", extra="ray", purpose="the Ray backend") from None
    return ray
