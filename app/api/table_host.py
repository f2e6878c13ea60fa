"""One process's part in hosting tables: its table service, its clock, its wake-ups.

The state of every table is in the store (:mod:`app.hosting`); a process holds only

* the :class:`~app.hosting.tables.TableService` over the store, opened on first use (so that
  importing the app opens no file and no connection);
* the clock: a task that, every ``TENPAI_TABLE_TICK_SECONDS`` (and at once when an action here
  leaves a bot to play), claims the tables whose deadline passed and acts for the seats due,
  each table's work in a worker thread under the watchdog, so that a bot's thinking never
  blocks the event loop and never outlives its bound;
* the wake-ups: an :class:`asyncio.Event` per table that long polls and WebSockets wait on, set
  after a commit here, after one announced by the store (Redis pub/sub: another replica's), and,
  where the store announces nothing (SQLite, which several worker processes may share), by a
  check of the table's version every :data:`POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final, TypeVar

from anyio import CapacityLimiter
from anyio.to_thread import run_sync

from app.api.heavy import WATCHDOG, OutOfTime
from app.api.watchdog import Overran
from app.hosting.store import TableStore, open_store
from app.hosting.tables import TableService
from app.settings import Settings

logger = logging.getLogger("app.api")

T = TypeVar("T")

#: Without announcements from the store, how often a waiting view checks its table's version.
POLL_SECONDS: Final = 0.5
#: With them (Redis pub/sub, at most once), how often it checks all the same.
ANNOUNCED_POLL_SECONDS: Final = 2.0
#: The bound of one piece of table work in a thread (an action, a view, a clock's turn at a table).
TABLE_WORK_SECONDS: Final = 8.0
#: How long the app's shutdown waits for the clock and the announcements' listener to stop.
STOP_SECONDS: Final = 5.0
#: Table work in threads at once per process: the store's round trips wait, they do not compute.
TABLE_THREADS: Final = 32


class TableHost:
    """The table service of one app, its clock and its wake-ups."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._service: TableService | None = None
        self._opening = threading.Lock()
        # Weak: an event lives while a waiter holds it, so the tables nobody watches are forgotten
        # by themselves, and no event a view still waits on is ever dropped.
        self._wakeups: weakref.WeakValueDictionary[str, asyncio.Event] = weakref.WeakValueDictionary()
        self._tick_now: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []
        #: The store's announcements are being listened to: a waiting view needs no poll.
        self._announced = False
        self.limiter = CapacityLimiter(TABLE_THREADS)
        self.firing: set[str] = set()
        self._firing_tasks: set[asyncio.Task[None]] = set()

    @property
    def service(self) -> TableService:
        """The service, its store opened on first use."""
        if self._service is None:
            with self._opening:
                if self._service is None:
                    store: TableStore = open_store(self.settings.table_store)
                    self._service = TableService(
                        store,
                        max_open_tables=self.settings.max_open_tables,
                        idle_seconds=self.settings.table_idle_seconds,
                        games_held=self.settings.tables_held,
                    )
        return self._service

    @property
    def opened(self) -> bool:
        return self._service is not None

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread, stopped by the watchdog past :data:`TABLE_WORK_SECONDS`."""

        def bounded() -> T:
            try:
                with WATCHDOG.bounded(time.monotonic() + TABLE_WORK_SECONDS):
                    return work()
            except Overran:
                raise OutOfTime(TABLE_WORK_SECONDS) from None

        return await run_sync(bounded, limiter=self.limiter)

    async def read(self, reading: Awaitable[T]) -> T:
        """``reading`` (a seat's view: the store's read, awaited on the event loop, and its view),
        bounded as :meth:`run` bounds work in a thread.  Views are most of a table's requests
        (every seat's long poll wakes at every change, and reads twice), and the hop to a worker
        thread and back cost more than the read."""
        try:
            async with asyncio.timeout(TABLE_WORK_SECONDS):
                return await reading
        except TimeoutError:
            raise OutOfTime(TABLE_WORK_SECONDS) from None

    # -- wake-ups ------------------------------------------------------------

    def wakeup(self, table: str) -> asyncio.Event:
        """The event the next change of ``table`` sets.  A waiter takes it *before* it reads the
        table: a change that lands between the read and the wait then still wakes it (taken
        after the read, it would sleep through that change until its wait ran out)."""
        event = self._wakeups.get(table)
        if event is None:
            event = self._wakeups[table] = asyncio.Event()
        return event

    def changed(self, table: str) -> None:
        """Wake every view waiting on ``table`` in this process (on the event loop)."""
        event = self._wakeups.pop(table, None)
        if event is not None:
            event.set()

    def tick_soon(self) -> None:
        if self._tick_now is not None:
            self._tick_now.set()

    async def wait_change(self, woken: asyncio.Event, seconds: float) -> None:
        """Until ``woken`` (from :meth:`wakeup`, taken before the read) is set, or ``seconds``
        (at most :data:`POLL_SECONDS` when the store announces nothing: a commit by another
        process sets no event here)."""
        # Announced (Redis pub/sub, at most once): still a look every ANNOUNCED_POLL_SECONDS, for an
        # announcement lost on the wire.
        bound = min(seconds, ANNOUNCED_POLL_SECONDS if self._announced else POLL_SECONDS)
        # asyncio.timeout, not wait_for: no task of its own for each of the many waits.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, bound)):
                await woken.wait()

    # -- the clock -------------------------------------------------------------

    async def start(self) -> None:
        """Start the clock (and the store's announcements) on the running loop."""
        self._tick_now = asyncio.Event()
        self._tasks.append(asyncio.create_task(self._clock(), name="tenpai-table-clock"))
        changes = await self.run(lambda: self.service.store.notify_changes())
        if changes is not None:
            self._announced = True
            self._tasks.append(asyncio.create_task(self._listen(changes), name="tenpai-table-changes"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Bounded: a task that swallowed its cancellation must not hold the shutdown for good.
            _, stuck = await asyncio.wait(self._tasks, timeout=STOP_SECONDS)
            for task in stuck:
                logger.error(
                    "the table task %s did not stop within %s s of its cancellation", task.get_name(), STOP_SECONDS
                )
        self._tasks.clear()
        self._announced = False
        # Forget the service with its closed store: an app started again (a test client's next
        # lifespan) opens a new one rather than finding a closed store.
        service, self._service = self._service, None
        if service is not None:
            with contextlib.suppress(Exception):
                await service.store.close_async()
            with contextlib.suppress(Exception):
                await run_sync(service.store.close)

    async def _listen(self, changes: AsyncIterator[str]) -> None:
        while True:
            try:
                async for table in changes:
                    self.changed(str(table))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a lost connection: views fall back to polling, retry
                logger.warning("the table store's announcements stopped; retrying in 1 s", exc_info=True)
            # Announcements missed while they were down would leave a view waiting its whole
            # wait: from now on views also poll, and the announcements only wake them sooner.
            self._announced = False
            await asyncio.sleep(1.0)
            renewed = self.service.store.notify_changes()  # a stopped iterator yields nothing again
            if renewed is None:
                return
            changes = renewed

    async def _clock(self) -> None:
        assert self._tick_now is not None
        last_sweep = 0.0
        while True:
            try:
                # asyncio.timeout, not wait_for: Python 3.11's wait_for loses a cancellation that
                # lands as the event is set, and the clock then ticked on past the app's shutdown.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.settings.table_tick_seconds):
                        await self._tick_now.wait()
                self._tick_now.clear()
                due = await self.run(self.service.due_tables)
                for table in due:
                    if table not in self.firing:
                        self.firing.add(table)
                        # Held here until done: the loop keeps only a weak reference to a task.
                        firing = asyncio.create_task(self._fire(table), name=f"tenpai-fire-{table}")
                        self._firing_tasks.add(firing)
                        firing.add_done_callback(self._firing_tasks.discard)
                if time.monotonic() - last_sweep > 60.0:
                    last_sweep = time.monotonic()
                    await self.run(self.service.sweep)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the clock must go on: a store hiccup is retried next tick
                logger.warning("the table clock's tick failed", exc_info=True)
                await asyncio.sleep(self.settings.table_tick_seconds)

    async def _fire(self, table: str) -> None:
        try:
            made = await self.run(lambda: self.service.fire(table))
            if made:
                self.changed(table)
                self.tick_soon()  # the next seat may be a bot too
        except Exception:  # noqa: BLE001 - the deadline's lease runs out and it is due again
            logger.warning("the clock could not act at table %s", table, exc_info=True)
        finally:
            self.firing.discard(table)
