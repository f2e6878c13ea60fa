"""Stops work that outlives its bound: the last line of defence behind the budgets.

Heavy work checks its :class:`~app.api.heavy.Budget` as it goes and answers what it has when
the deadline passes or its client leaves.  Work that does not hear its budget (a loop that
never reaches a check: a bug, or a path a hostile input found) would otherwise spin in its
thread for good, holding a heavy slot and a core, and a Python thread cannot be killed.

The :class:`Watchdog` is one daemon thread.  Work runs inside :meth:`Watchdog.bounded`, which
registers the running thread with a time to stop; when that time passes, the watchdog raises
:class:`Overran` inside the thread (CPython's ``PyThreadState_SetAsyncExc``).  The exception is
raised at the thread's next bytecode, so a pure-Python runaway stops within milliseconds;
native code (the kernel) is reached only when it returns to Python, which is why every
native search is bounded by its own state budget.  :class:`Overran` derives from
``BaseException`` so that no ``except Exception`` on the way swallows it.

>>> import time
>>> dog = Watchdog()
>>> def spin() -> None:
...     while True:
...         pass
>>> try:
...     with dog.bounded(time.monotonic() + 0.05):
...         spin()
... except Overran:
...     print("stopped")
stopped
>>> dog.stopped
1
"""

from __future__ import annotations

import ctypes
import itertools
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class Overran(BaseException):
    """Raised inside work that ran past its bound (by the :class:`Watchdog`, never by the work)."""


@dataclass(slots=True)
class Run:
    """One bounded piece of work: its thread and when it must stop."""

    ident: int
    stop_at: float
    #: Set once the watchdog has raised :class:`Overran` in the thread (it does so only once).
    stopping: bool = False


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
# The exception as a plain pointer, so that None passes NULL (withdraw), not Py_None; the class
# outlives every call (a module global), so its address stays valid.
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.c_void_p)
_set_async_exc.restype = ctypes.c_int


def _raise_in(ident: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in thread ``ident`` at its next bytecode (None: withdraw one pending)."""
    _set_async_exc(ident, None if exception is None else id(exception))


class Watchdog:
    """Raises :class:`Overran` in each bounded thread whose time to stop has passed.

    Thread-safe; its own thread starts with the first bounded run and sleeps until the
    earliest time to stop, so a process with nothing bounded pays nothing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._runs: dict[int, Run] = {}
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None
        #: When the watching thread wakes next (monotonic; infinity while nothing is bounded).
        self._wakes_at = math.inf
        #: How many runs it has stopped (for the metrics and the tests).
        self.stopped = 0

    @contextmanager
    def bounded(self, stop_at: float) -> Iterator[Run]:
        """Run the block in this thread, stopped with :class:`Overran` at ``stop_at`` (monotonic)
        if it has not ended by then.  The block may move the time earlier with :meth:`stop_by`."""
        run = Run(threading.get_ident(), stop_at)
        token = next(self._tokens)
        with self._lock:
            self._runs[token] = run
            self._start_locked()
            if stop_at < self._wakes_at:  # else its sleep already ends in time
                self._changed.notify()
        try:
            yield run
        finally:
            with self._lock:
                del self._runs[token]
                if run.stopping:
                    # Raised but not yet delivered (the block ended at that very moment): withdraw
                    # it, so that it cannot surface in whatever this thread runs next.  Delivered
                    # already, it is on its way out of this block, to the caller's handler.
                    _raise_in(run.ident, None)

    def stop_by(self, run: Run, stop_at: float) -> None:
        """Move ``run``'s time to stop to ``stop_at`` if that is earlier (its client left, say)."""
        with self._lock:
            if stop_at < run.stop_at:
                run.stop_at = stop_at
                if stop_at < self._wakes_at:
                    self._changed.notify()

    @property
    def running(self) -> int:
        """Bounded runs in progress."""
        with self._lock:
            return len(self._runs)

    def _start_locked(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="tenpai watchdog", daemon=True)
            self._thread.start()

    def _watch(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                earliest = None
                for run in self._runs.values():
                    if run.stopping:
                        continue
                    if run.stop_at <= now:
                        run.stopping = True
                        self.stopped += 1
                        _raise_in(run.ident, Overran)
                    elif earliest is None or run.stop_at < earliest:
                        earliest = run.stop_at
                self._wakes_at = math.inf if earliest is None else earliest
                self._changed.wait(None if earliest is None else earliest - now)
