"""The table store's contract, its shared types and errors, and ``open_store(url)``.

A hosted table is, in the store, a small JSON *state* document with a *revision* counter, two
append-only JSON lists (``events``: the table's mjai events; ``answers``: its log of decisions),
an optional *deadline* (epoch seconds: when the clock acts next) and the time of its last
activity.  Every change is one :meth:`TableStore.commit`, a compare-and-set on the revision the
caller read, so two replicas acting on one table can never both win (the loser reloads and
answers 409), and a deadline is a value in the store that any process may claim, never a timer
that dies with the process holding it.

The stores are synchronous and thread-safe: the service calls them from worker threads.  One
read, a seat's view (:meth:`TableStore.load_with_events_async`), is a coroutine too, run on the
event loop: views are most of a table's requests, and a hop to a worker thread and back cost
more than the read itself.

>>> store = open_store("memcached://localhost")
Traceback (most recent call last):
...
app.hosting.store.InvalidTableStore: TENPAI_TABLE_STORE must be sqlite:///PATH or redis://HOST:PORT/DB (also rediss://, unix://), not a 'memcached' URL
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Final, Protocol

from cachetools import LRUCache

from app.core.errors import TenpaiError

#: The environment variable that names the store (the errors below name it too).
STORE_SETTING = "TENPAI_TABLE_STORE"

#: A table id is a short token of letters, digits, ``_`` and ``-``: it becomes part of Redis keys
#: (inside a ``{...}`` hash tag, which a brace would break) and of URLs.
TABLE_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,128}")


class TableExists(TenpaiError):
    """A table was created under an id the store already holds."""

    code = "table_exists"


class StoreUnavailable(TenpaiError):
    """The store cannot be reached (a Redis connection failed or timed out): try again later."""

    code = "store_unavailable"


class InvalidTableStore(TenpaiError):
    """``TENPAI_TABLE_STORE`` names no store this service can open."""

    code = "invalid_table_store"

    def __init__(self, message: str) -> None:
        super().__init__(message, field=STORE_SETTING)


class UnsupportedStoreSchema(TenpaiError):
    """The store was written by a newer tenpai whose layout this one does not know."""

    code = "unsupported_store_schema"


class InvalidTableId(TenpaiError):
    """A table id that the stores cannot hold (see ``TABLE_ID_PATTERN``)."""

    code = "invalid_table_id"


def check_table_id(table: str) -> str:
    """Return ``table`` if it may name a table in a store, else raise :class:`InvalidTableId`.

    >>> check_table_id("t_3f9c0e")
    't_3f9c0e'
    >>> check_table_id("t_{x}")
    Traceback (most recent call last):
    ...
    app.hosting.store.InvalidTableId: a table id is 1-128 letters, digits, '_' or '-', not 't_{x}'
    """
    if TABLE_ID_PATTERN.fullmatch(table) is None:
        raise InvalidTableId(f"a table id is 1-128 letters, digits, '_' or '-', not {table!r}", field="table")
    return table


def dump_json(value: Any) -> str:
    """The stores' one JSON spelling: compact, ASCII (a lone surrogate survives), no NaN.

    >>> dump_json({"type": "dahai", "pai": "5mr", "tsumogiri": False})
    '{"type":"dahai","pai":"5mr","tsumogiri":false}'
    """
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def check_slice(start: int, stop: int | None) -> None:
    """Refuse the negative bounds that Python slices allow but the stores' ranges do not."""
    if start < 0 or (stop is not None and stop < 0):
        raise ValueError(f"a store slice takes non-negative bounds, not start={start}, stop={stop}")


#: Tables whose last parsed state document a store keeps (:class:`ParsedStates`).
PARSED_STATES: Final = 1024


class ParsedStates:
    """The state document last parsed for each table, reused while the stored text is the same.

    Between two commits every seat's view reads the same document many times (each long poll
    reads it before and after its wait), and parsing it was most of a view's work.  A hit is
    the stored text compared whole with the text parsed, so it is exactly that document, never a
    guess from a revision.  The dict handed out is shared by every load that hits it: callers
    copy before they change it (the service's ``_copy_state``).  Thread-safe; bounded LRU.

    >>> states = ParsedStates()
    >>> first = states.parse("t_1", '{"status":"playing"}')
    >>> states.parse("t_1", '{"status":"playing"}') is first, states.parse("t_1", '{"status":"over"}')
    (True, {'status': 'over'})
    """

    def __init__(self, size: int = PARSED_STATES) -> None:
        self._parsed: LRUCache[str, tuple[str | bytes, dict[str, Any]]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def parse(self, table: str, text: str | bytes) -> dict[str, Any]:
        with self._lock:
            held = self._parsed.get(table)
        if held is not None and held[0] == text:
            return held[1]
        state: dict[str, Any] = json.loads(text)
        with self._lock:
            self._parsed[table] = (text, state)
        return state

    def forget(self, table: str) -> None:
        with self._lock:
            self._parsed.pop(table, None)


@dataclass(frozen=True)
class StoredTable:
    """A table as :meth:`TableStore.load` reads it, at one revision.  ``state`` may be shared
    with other loads of the same document (:class:`ParsedStates`): never change it in place."""

    table: str
    revision: int  # 0 after create; +1 per successful commit
    state: dict[str, Any]
    event_count: int
    answer_count: int
    deadline: float | None  # epoch seconds, or None when no clock runs


class TableStore(Protocol):
    """Where every hosted table lives; every method is safe to call from any thread."""

    def describe(self) -> dict[str, Any]:
        """What ``GET /limits`` shows: ``{"kind": "sqlite", "path": ...}`` or ``{"kind": "redis", "url": ...}``.

        Never a password.
        """
        ...

    def create(
        self,
        table: str,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> None:
        """Store a new table at revision 0; :class:`TableExists` if the id is taken."""
        ...

    def load(self, table: str) -> StoredTable | None:
        """The table's state, revision, list lengths and deadline, read at once; None if absent."""
        ...

    def events(self, table: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """``events[start:stop]`` (non-negative bounds); ``[]`` for an absent table."""
        ...

    def load_with_events(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        """:meth:`load` and ``events[start:event_count]`` at the same revision, in one go (a
        seat's view); the events None, unread, when the table is at ``unless_revision`` (the
        caller holds them).  None if the table is absent."""
        ...

    async def load_with_events_async(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        """:meth:`load_with_events` on the running event loop, never blocking it for a network."""
        ...

    def answers(self, table: str, start: int = 0) -> list[Any]:
        """``answers[start:]``; ``[]`` for an absent table."""
        ...

    def commit(
        self,
        table: str,
        revision: int,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> bool:
        """Compare-and-set: only if the table is at ``revision``, apply the change, atomically.

        Appends ``events`` and ``answers``, replaces the state, sets (or with None clears) the
        deadline, adds 1 to the revision and marks the table active now.  False, with nothing
        changed, when the revision moved on or the table is gone.  True means durable.
        """
        ...

    def claim_due(self, now: float, lease_seconds: float, limit: int) -> list[str]:
        """Up to ``limit`` tables whose deadline is ``<= now``, their deadlines moved to ``now + lease_seconds``.

        Atomic: two callers (threads, processes, replicas) never both get one due deadline.  A
        claimer that dies leaves the table due again when the lease runs out.
        """
        ...

    def open_tables(self, now: float, idle_seconds: float) -> int:
        """How many tables were active within the last ``idle_seconds``."""
        ...

    def abandon_idle(self, now: float, idle_seconds: float, limit: int) -> list[str]:
        """Delete up to ``limit`` tables idle for longer than ``idle_seconds``; their ids.

        Safe to race: a table is deleted, and its id returned, by one caller only.
        """
        ...

    def notify_changes(self) -> AsyncIterator[str] | None:
        """An async iterator of the ids of tables committed by any process, or None (then poll)."""
        ...

    def close(self) -> None:
        """Release connections; the store is not used afterwards."""
        ...

    async def close_async(self) -> None:
        """Release what :meth:`load_with_events_async` holds on the running loop (before :meth:`close`)."""
        ...


def open_store(url: str) -> TableStore:
    """The store that ``url`` (the value of ``TENPAI_TABLE_STORE``) names.

    ``sqlite:///relative/path.sqlite3`` or ``sqlite:////absolute/path.sqlite3`` (the file and its
    folder are made when missing); ``redis://HOST:PORT/DB``, ``rediss://...`` (TLS) or
    ``unix:///path/to/socket?db=N``.  Opening Redis does not connect: the first call does.

    >>> import tempfile, pathlib
    >>> folder = tempfile.mkdtemp()
    >>> store = open_store(f"sqlite:///{folder}/tables.sqlite3")
    >>> store.describe()["kind"], pathlib.Path(store.describe()["path"]).name
    ('sqlite', 'tables.sqlite3')
    >>> store.close()
    """
    scheme, separator, rest = url.partition("://")
    if separator and scheme == "sqlite" and rest.startswith("/") and rest != "/":
        from app.hosting.sqlite_store import SqliteTableStore

        return SqliteTableStore(rest[1:])
    if separator and scheme in ("redis", "rediss", "unix") and rest:
        from app.hosting.redis_store import RedisTableStore

        return RedisTableStore(url)
    if scheme == "sqlite":
        raise InvalidTableStore(
            f"{STORE_SETTING} names a SQLite file as sqlite:///relative/path or sqlite:////absolute/path"
        )
    # Only the scheme is echoed: the rest of a store URL may hold a password.
    shown = f"a {scheme!r} URL" if separator else "a URL without a scheme"
    raise InvalidTableStore(
        f"{STORE_SETTING} must be sqlite:///PATH or redis://HOST:PORT/DB (also rediss://, unix://), not {shown}"
    )
