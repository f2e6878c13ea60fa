"""Heavy requests: a few at a time, off the event loop, within a wall-clock budget.

A heavy request (a ``/discard`` lookahead, a ``/simulate`` run, a ``/referee`` or ``/act``
replay, a ``/win`` of hands holding many wildcards) can take seconds of CPU, so :func:`answer_heavy` runs it under
four rules (the wildcard ``/win`` routes take a slot the same way; their work is bounded
by its answer's size, :mod:`app.api.answer_size`):

* **A cached answer first.**  A finished answer is served from the result cache
  without taking a slot: a repeated question costs a look-up, however busy the process.
  (``/referee`` and ``/act`` are not cached: their exact key is a whole game of events,
  and the cache bounds the bytes of its answers, not of its keys.)
* **Slots.**  At most ``TENPAI_MAX_HEAVY_REQUESTS`` computations at once per process
  (:class:`HeavyLimiter`); one more is answered at once with 503 ``too_busy`` and a
  ``Retry-After`` of the seconds until the earliest slot is given back at the latest (its
  deadline, the watchdog's grace and the wait for the work to unwind: a slot is never held
  longer, whatever its work does).  Refusing beats queueing: a queued request would spend
  its budget waiting.
* **A budget.**  Each computation gets a :class:`Budget`: a deadline, ``seconds``
  after it took its slot (``TENPAI_HEAVY_SECONDS`` for a lookahead,
  ``TENPAI_SIMULATE_SECONDS`` for a ``/simulate`` run), and a flag set when its client
  leaves.  The core checks both as it works, often enough that a stop is heard within
  milliseconds (a lookahead before each state; a game between turns and inside the
  advisor's search), and answers with what it has, flagged incomplete.  Incomplete
  answers depend on the load, so they are not cached (and carry
  ``Cache-Control: no-store``).
* **Off the loop.**  The work runs in one of the process's heavy-work threads
  (:class:`DaemonThreads`: daemons, so they never keep the process alive); meanwhile the event loop asks every :data:`DISCONNECT_POLL_SECONDS`
  whether the client is still there, and sets the flag when it is not: work whose client
  left costs at most that poll and the few milliseconds until the work hears the flag.
  Cheap requests go on being served meanwhile, the GIL handed over often enough
  (:func:`share_the_gil`).
* **A hard stop.**  Work that has not answered :data:`OVERRUN_GRACE_SECONDS` after its
  deadline (or after its client left) did not hear its budget: the
  :class:`~app.api.watchdog.Watchdog` raises :class:`~app.api.watchdog.Overran` inside its
  thread, and the request is a 503 ``out_of_time``.  The slot is given back
  :data:`RELEASE_WAIT_SECONDS` later at the latest, stopped or not.

>>> limiter = HeavyLimiter(1)
>>> slot = limiter.enter(2.0)
>>> limiter.enter(2.0) is None, limiter.running, limiter.retry_after()  # 2 s, then 1.5 s grace, 0.5 s wait
(True, 1, 4)
>>> limiter.leave(slot)
>>> limiter.running
0
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import queue
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final, NamedTuple, TypeVar

from fastapi import Request, Response

from app.api.cache import ResultCache
from app.api.errors import ApiError
from app.api.questions import json_response
from app.api.state import service_state
from app.api.watchdog import Overran, Run, Watchdog

T = TypeVar("T")

DISCONNECT_POLL_SECONDS: Final = 0.1
"""How often the event loop asks whether a heavy request's client is still there."""
OVERRUN_GRACE_SECONDS: Final = 1.5
"""How long heavy work may go on past its deadline (or its client leaving) before the watchdog
stops it.  Work that hears its budget answers within milliseconds of the deadline; the rest is
rendering what it found, which takes well under this even on a loaded machine."""
RELEASE_WAIT_SECONDS: Final = 0.5
"""How long the event loop waits for stopped work to unwind before it gives the slot back anyway
(work inside native code hears the watchdog only when it returns to Python)."""

logger = logging.getLogger(__name__)

CHEAP_WORK_SECONDS: Final = 4.0
"""The bound of a cheap request's work in a pool thread (a sync route such as ``/score`` or a
batch, ``/discard``'s fan plan): milliseconds for any accepted input, so past this the work is a
runaway, stopped by the watchdog and answered 503 ``out_of_time`` (:func:`bounded_call`)."""

WATCHDOG: Final = Watchdog()
"""The process's one watchdog (its thread starts with the first heavy computation)."""

IDLE_THREAD_SECONDS: Final = 60.0
"""How long an idle heavy-work thread waits for more work before it ends."""


class DaemonThreads:
    """Threads for heavy work, each a daemon (it never keeps the process alive) and reused.

    Reuse matters beyond the cost of starting a thread: glibc gives threads their own malloc
    arenas, and each arena keeps its high-water mark, so a new thread per request let the
    resident memory of a busy process grow by hundreds of MiB.  A thread whose work never
    returns (stuck in native code) is simply never idle again; the next job gets another.

    >>> threads = DaemonThreads()
    >>> done = threading.Event()
    >>> threads.run(done.set)
    >>> done.wait(5)
    True
    """

    def __init__(self, idle_seconds: float = IDLE_THREAD_SECONDS) -> None:
        self._lock = threading.Lock()
        self._idle: list[queue.SimpleQueue[Callable[[], None]]] = []
        self._idle_seconds = idle_seconds

    def run(self, job: Callable[[], None]) -> None:
        """Run ``job`` in an idle thread, or in a new one when none is idle."""
        with self._lock:
            jobs = self._idle.pop() if self._idle else None
        if jobs is None:
            jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(jobs,), name="tenpai heavy work", daemon=True).start()
        jobs.put(job)

    def _serve(self, jobs: queue.SimpleQueue[Callable[[], None]]) -> None:
        while True:
            try:
                job = jobs.get(timeout=self._idle_seconds)
            except queue.Empty:
                with self._lock:
                    if jobs in self._idle:  # still idle: nobody can hand it a job now
                        self._idle.remove(jobs)
                        return
                continue  # taken from the idle list just now: its job is on the way
            job()
            del job  # an idle thread holds nothing of the last request (its answer may be megabytes)
            with self._lock:
                self._idle.append(jobs)


HEAVY_THREADS: Final = DaemonThreads()
"""The process's threads for heavy work (:func:`off_the_loop`)."""
GIL_SWITCH_SECONDS: Final = 0.0002
"""How long a thread keeps the GIL while another waits for it (CPython's default is 5 ms).

The event loop takes the GIL back several times per request (after each socket read,
write and poll); with heavy work in two threads, each take waited up to the default's
5 ms per thread, and over HTTP a cheap /shanten's p99 reached 40-60 ms.  At 0.2 ms it
was 5 ms, and the heavy work took about 5% longer (measured with one lookahead and
one /simulate run at once)."""


def share_the_gil() -> None:
    """Lower this process's GIL switch interval to :data:`GIL_SWITCH_SECONDS` (never raise it)."""
    if sys.getswitchinterval() > GIL_SWITCH_SECONDS:
        sys.setswitchinterval(GIL_SWITCH_SECONDS)


@dataclass(frozen=True, slots=True)
class Budget:
    """What bounds one heavy computation: a :func:`time.monotonic` deadline and whether its client left."""

    deadline: float
    gone: threading.Event = field(default_factory=threading.Event)

    def cancelled(self) -> bool:
        """Whether the client has gone (the answer will reach no one)."""
        return self.gone.is_set()

    def passed(self) -> bool:
        """Whether the work should stop now: its deadline passed or its client left.

        >>> Budget(time.monotonic() + 60).passed(), Budget(0.0).passed()
        (False, True)
        """
        return self.cancelled() or time.monotonic() >= self.deadline


class Finished(NamedTuple):
    """A heavy computation's rendered answer."""

    body: bytes
    #: False when the budget cut it short: sent, flagged in the body, never cached.
    complete: bool


@dataclass(frozen=True, slots=True)
class Slot:
    """One heavy computation admitted by a :class:`HeavyLimiter`."""

    token: int
    deadline: float

    @property
    def released_by(self) -> float:
        """When the slot is given back at the latest: the deadline, the watchdog's grace, the
        wait for stopped work to unwind (:func:`off_the_loop`)."""
        return self.deadline + OVERRUN_GRACE_SECONDS + RELEASE_WAIT_SECONDS


class HeavyLimiter:
    """At most ``capacity`` heavy computations at once in this process.

    Thread-safe and never blocking (a lock held for a few dictionary operations),
    so it may be used from the event loop and from any thread or test client.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._released_by: dict[int, float] = {}
        self._tokens = itertools.count()

    def enter(self, seconds: float) -> Slot | None:
        """A slot whose deadline is ``seconds`` from now, or None when every slot is taken."""
        with self._lock:
            if len(self._released_by) >= self.capacity:
                return None
            slot = Slot(next(self._tokens), time.monotonic() + seconds)
            self._released_by[slot.token] = slot.released_by
            return slot

    def leave(self, slot: Slot) -> None:
        """Give ``slot`` back."""
        with self._lock:
            self._released_by.pop(slot.token, None)

    @property
    def running(self) -> int:
        """Heavy computations running now."""
        with self._lock:
            return len(self._released_by)

    def retry_after(self) -> int:
        """Whole seconds (at least 1) until the earliest slot is given back at the latest
        (:attr:`Slot.released_by`): a bound :func:`off_the_loop` keeps, whatever the work does."""
        now = time.monotonic()
        with self._lock:
            earliest = min(self._released_by.values(), default=now)
        return max(1, math.ceil(earliest - now))


def heavy_limiter(request: Request) -> HeavyLimiter:
    """The limiter of the app serving ``request`` (made by :func:`app.main.create_app`)."""
    limiter: HeavyLimiter = request.app.state.heavy
    return limiter


class TooBusy(ApiError):
    """The 503 for a heavy request beyond the limiter's capacity, with ``Retry-After``."""

    def __init__(self, limiter: HeavyLimiter) -> None:
        self.capacity = limiter.capacity
        retry_after = limiter.retry_after()
        msg = (
            f"this process is computing {limiter.capacity} heavy request(s) (lookahead, /simulate, /referee, /act, "
            "wildcard /win), "
            f"as many as it runs at once (TENPAI_MAX_HEAVY_REQUESTS); retry after {retry_after} s"
        )
        super().__init__(("body",), msg, "too_busy", headers={"Retry-After": str(retry_after)})


@contextmanager
def heavy_slot(request: Request, seconds: float) -> Iterator[Slot]:
    """A slot of the app's limiter, deadline ``seconds`` away, held for the block and given
    back after it; with none free, :class:`TooBusy` (a 503 with ``Retry-After``)."""
    limiter = heavy_limiter(request)
    slot = limiter.enter(seconds)
    if slot is None:
        raise TooBusy(limiter)
    try:
        yield slot
    finally:
        limiter.leave(slot)


async def answer_heavy(
    request: Request, key: Hashable | None, compute: Callable[[Budget], Finished], *, seconds: float
) -> Response:
    """The answer to a heavy question: from the cache, or computed by ``compute(budget)`` under the rules above.

    ``key`` is the question's exact cache key, or None for a question that is not cached (its
    exact key would be as large as a whole game's events); ``seconds`` its wall-clock budget.
    """
    cache = service_state(request).cache
    if key is not None:
        cached = cache.peek(key)
        if isinstance(cached, bytes):
            return json_response(cached)
    with heavy_slot(request, seconds) as slot:
        budget = Budget(slot.deadline)
        if key is None:
            finished = await off_the_loop(request, budget, lambda: compute(budget))
        else:
            finished = await off_the_loop(request, budget, lambda: _cached_if_complete(cache, key, compute, budget))
    response = json_response(finished.body)
    if not finished.complete:
        response.headers["cache-control"] = "no-store"
    return response


class OutOfTime(ApiError):
    """The 503 for work stopped by the watchdog: it did not answer within ``seconds`` (and
    ``grace``), or its client left first."""

    def __init__(self, seconds: float, *, grace: float = 0.0, client_left: bool = False) -> None:
        allowed = f"{seconds:g} s" + (f" and {grace:g} s of grace" if grace else "")
        why = "its client left" if client_left else f"it did not answer within {allowed}, and was stopped"
        super().__init__(
            ("body",),
            f"the computation stopped: {why}; ask again, or ask for less",
            "out_of_time",
            ctx={"seconds": seconds},
        )


async def off_the_loop(request: Request, budget: Budget, work: Callable[[], T]) -> T:
    """``work()`` in a thread of its own, while the event loop watches for the client leaving
    (then it sets ``budget.gone``, which the work checks as it goes) and for the work outliving
    its budget (then the watchdog stops it, and this raises :class:`OutOfTime`).  Returns by
    ``budget.deadline`` plus :data:`OVERRUN_GRACE_SECONDS` and :data:`RELEASE_WAIT_SECONDS`
    whatever the work does, so the caller's slot is never held longer."""
    seconds = max(0.0, budget.deadline - time.monotonic())
    loop = asyncio.get_running_loop()
    done: asyncio.Future[tuple[T | None, BaseException | None]] = loop.create_future()
    runs: list[Run] = []  # the work's run, once its thread has registered it

    def settle(outcome: tuple[T | None, BaseException | None]) -> None:
        if not done.done():
            done.set_result(outcome)

    def in_thread() -> None:
        outcome: tuple[T | None, BaseException | None]
        try:
            with WATCHDOG.bounded(budget.deadline + OVERRUN_GRACE_SECONDS) as run:
                runs.append(run)
                if budget.cancelled():  # the client left before the thread started
                    WATCHDOG.stop_by(run, time.monotonic() + OVERRUN_GRACE_SECONDS)
                outcome = (work(), None)
        except Overran:
            outcome = (None, _stopped(budget, seconds))
        except Exception as error:  # noqa: BLE001 - re-raised by the caller, on the event loop
            outcome = (None, error)
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:  # the loop has closed: the process is stopping, nobody waits
            pass

    HEAVY_THREADS.run(in_thread)
    give_up_at = budget.deadline + OVERRUN_GRACE_SECONDS + RELEASE_WAIT_SECONDS
    try:
        while not done.done():
            now = time.monotonic()
            if now >= give_up_at:
                logger.error(
                    "heavy work did not stop within %.1f s of its deadline; its slot is given back",
                    OVERRUN_GRACE_SECONDS + RELEASE_WAIT_SECONDS,
                )
                raise _stopped(budget, seconds)
            await asyncio.wait({done}, timeout=min(DISCONNECT_POLL_SECONDS, give_up_at - now))
            if not done.done() and not budget.gone.is_set() and await request.is_disconnected():
                budget.gone.set()
                leave_by = time.monotonic() + OVERRUN_GRACE_SECONDS
                if runs:
                    WATCHDOG.stop_by(runs[0], leave_by)
                give_up_at = min(give_up_at, leave_by + RELEASE_WAIT_SECONDS)
    except asyncio.CancelledError:
        # The request itself is cancelled (the server is stopping): the work is of no use.
        budget.gone.set()
        if runs:
            WATCHDOG.stop_by(runs[0], time.monotonic())
        raise
    result, error = done.result()
    if error is not None:
        raise error
    return result  # type: ignore[return-value]


class _Unfinished(Exception):
    """Carries an incomplete answer out of the cache's ``compute``, so that it is not stored."""

    def __init__(self, finished: Finished) -> None:
        super().__init__("cut short by its budget")
        self.finished = finished


def _cached_if_complete(
    cache: ResultCache, key: Hashable, compute: Callable[[Budget], Finished], budget: Budget
) -> Finished:
    """``compute(budget)``'s answer, stored under ``key`` only when complete (the cache stores
    nothing when ``compute`` raises, and counts the miss either way)."""

    def complete_only() -> bytes:
        finished = compute(budget)
        if not finished.complete:
            raise _Unfinished(finished)
        return finished.body

    try:
        return Finished(cache.get_or_compute(key, complete_only), True)
    except _Unfinished as cut:
        return cut.finished


def _stopped(budget: Budget, seconds: float) -> OutOfTime:
    return OutOfTime(seconds, grace=OVERRUN_GRACE_SECONDS, client_left=budget.cancelled())


def bounded_call(work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in this (pool) thread, stopped by the watchdog after
    :data:`CHEAP_WORK_SECONDS` with a 503 ``out_of_time``: a cheap request's work never holds
    its thread for good."""
    try:
        with WATCHDOG.bounded(time.monotonic() + CHEAP_WORK_SECONDS):
            return work(*args)
    except Overran:
        raise OutOfTime(CHEAP_WORK_SECONDS) from None
