"""The embedded table store: one SQLite file, shared by the threads and processes that open it.

The file is in WAL mode with ``synchronous=FULL``: a commit that returned is on disk (a SIGKILL
or a power cut right after does not lose it), and readers never wait for the writer.  Every
write is one ``BEGIN IMMEDIATE`` transaction, which takes the file's single write lock before it
reads (the writers of one process queue for it on a lock of their own first), so the
compare-and-set of :meth:`SqliteTableStore.commit` and the claims of
:meth:`SqliteTableStore.claim_due` hold across processes (uvicorn workers) as well as threads.

Connections come from a small pool: a thread borrows one for a call and gives it back, so
worker threads that come and go neither share a connection at once nor leave one behind.

>>> import tempfile, pathlib
>>> store = SqliteTableStore(pathlib.Path(tempfile.mkdtemp()) / "tables.sqlite3")
>>> store.create("t_1", {"phase": "deal"}, [{"type": "start_game"}], [], deadline=None)
>>> store.commit("t_1", 0, {"phase": "play"}, [{"type": "start_kyoku"}], ["pass"], deadline=None)
True
>>> store.commit("t_1", 0, {"phase": "stale"}, [], [], deadline=None)
False
>>> loaded = store.load("t_1")
>>> loaded.revision, loaded.state, loaded.event_count, store.events("t_1", 1)
(1, {'phase': 'play'}, 2, [{'type': 'start_kyoku'}])
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.hosting.store import (
    ParsedStates,
    StoredTable,
    TableExists,
    UnsupportedStoreSchema,
    check_slice,
    check_table_id,
    dump_json,
)

#: The layout written by this code, kept in the file's ``user_version``; a later layout bumps it
#: and adds a migration step in ``_migrate``.
SCHEMA_VERSION = 1

#: How long a writer waits for another process's write lock before it gives up; writes hold
#: the lock for a millisecond or two, so reaching this means the file is stuck, not busy.
BUSY_TIMEOUT_SECONDS = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    state TEXT NOT NULL,
    event_count INTEGER NOT NULL,
    answer_count INTEGER NOT NULL,
    deadline REAL,
    active_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_by_deadline ON tables (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS tables_by_activity ON tables (active_at);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS answers (
    table_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
) WITHOUT ROWID;
"""


class SqliteTableStore:
    """Tables in one SQLite file (see the module docstring); thread- and process-safe."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).absolute()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # This process's writers take turns here, woken the moment the writer before them is
        # done.  Left to SQLite, a connection that finds the write lock taken sleeps in its busy
        # handler (1 ms, 2, 5, 10 ... then 100 ms at a time) and does not see the lock come free:
        # under a few concurrent actions that backing-off added up to a second to an answer.
        # Other processes sharing the file still meet at SQLite's lock.
        self._writing = threading.Lock()
        self._closed = False
        self._states = ParsedStates()
        with self._connection() as connection:
            self._migrate(connection)

    # -- connections -----------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: no implicit transactions, each one is begun here by name.
        # check_same_thread=False: a pooled connection serves one thread at a time, not always the same one.
        connection = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )
        # WAL persists in the file, but setting it is cheap and makes a new file WAL before its first write.
        connection.execute("PRAGMA journal_mode=WAL")
        # FULL: the WAL is synced at every commit, so a commit that returned survives a crash.
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the table store is closed")
            connection = self._idle.pop() if self._idle else None
        if connection is None:
            connection = self._connect()
        try:
            yield connection
        except BaseException:
            # A connection left inside a transaction (an interrupted write) must not be reused.
            if connection.in_transaction:
                connection.close()
                raise
            self._give_back(connection)
            raise
        self._give_back(connection)

    def _give_back(self, connection: sqlite3.Connection) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(connection)
                return
        connection.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the file's write lock from its first read."""
        with self._writing, self._connection() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _migrate(self, connection: sqlite3.Connection) -> None:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise UnsupportedStoreSchema(
                    f"{self.path} holds table store layout {version}; this tenpai reads up to {SCHEMA_VERSION}"
                )
            if version < SCHEMA_VERSION:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    # -- the TableStore protocol -----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {"kind": "sqlite", "path": str(self.path)}

    def create(
        self,
        table: str,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> None:
        check_table_id(table)
        state_text = dump_json(state)
        event_rows = _rows(table, 0, [dump_json(event) for event in events])
        answer_rows = _rows(table, 0, [dump_json(answer) for answer in answers])
        with self._write() as connection:
            try:
                connection.execute(
                    "INSERT INTO tables (id, revision, state, event_count, answer_count, deadline, active_at)"
                    " VALUES (?, 0, ?, ?, ?, ?, ?)",
                    (table, state_text, len(events), len(answers), deadline, time.time()),
                )
            except sqlite3.IntegrityError:
                raise TableExists(f"table {table} already exists", field="table") from None
            connection.executemany("INSERT INTO events VALUES (?, ?, ?)", event_rows)
            connection.executemany("INSERT INTO answers VALUES (?, ?, ?)", answer_rows)

    def load(self, table: str) -> StoredTable | None:
        with self._connection() as connection:
            return self._stored(connection, table)

    def load_with_events(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        check_slice(start, None)
        with self._connection() as connection:
            stored = self._stored(connection, table)
            if stored is None:
                return None
            bodies: list[str] | None = None
            if stored.revision != unless_revision:
                # Outside a transaction this query may see a later commit than the row above:
                # bounded by the row's event_count (events are only appended), it reads the same.
                bodies = _select_bodies(connection, "events", table, start, stored.event_count)
        return stored, None if bodies is None else [json.loads(body) for body in bodies]

    async def load_with_events_async(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        # In place, on the loop: in WAL mode a reader reads the file (or the OS's cache of it) and
        # never waits for the writer, in about a tenth of a worker thread's hop there and back.
        return self.load_with_events(table, start, unless_revision=unless_revision)

    def _stored(self, connection: sqlite3.Connection, table: str) -> StoredTable | None:
        row = connection.execute(
            "SELECT revision, state, event_count, answer_count, deadline FROM tables WHERE id = ?", (table,)
        ).fetchone()
        if row is None:
            return None
        revision, state_text, event_count, answer_count, deadline = row
        return StoredTable(table, revision, self._states.parse(table, state_text), event_count, answer_count, deadline)

    def events(self, table: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        check_slice(start, stop)
        with self._connection() as connection:
            bodies = _select_bodies(connection, "events", table, start, stop)
        return [json.loads(body) for body in bodies]

    def answers(self, table: str, start: int = 0) -> list[Any]:
        check_slice(start, None)
        with self._connection() as connection:
            bodies = _select_bodies(connection, "answers", table, start, None)
        return [json.loads(body) for body in bodies]

    def commit(
        self,
        table: str,
        revision: int,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> bool:
        # Encoded before the lock is taken (and before anything changes, should a value not be JSON).
        state_text = dump_json(state)
        event_texts = [dump_json(event) for event in events]
        answer_texts = [dump_json(answer) for answer in answers]
        with self._write() as connection:
            row = connection.execute(
                "SELECT revision, event_count, answer_count FROM tables WHERE id = ?", (table,)
            ).fetchone()
            if row is None or row[0] != revision:
                return False
            _, event_count, answer_count = row
            connection.executemany("INSERT INTO events VALUES (?, ?, ?)", _rows(table, event_count, event_texts))
            connection.executemany("INSERT INTO answers VALUES (?, ?, ?)", _rows(table, answer_count, answer_texts))
            connection.execute(
                "UPDATE tables SET revision = ?, state = ?, event_count = ?, answer_count = ?, deadline = ?,"
                " active_at = ? WHERE id = ?",
                (
                    revision + 1,
                    state_text,
                    event_count + len(events),
                    answer_count + len(answers),
                    deadline,
                    time.time(),
                    table,
                ),
            )
        return True

    def claim_due(self, now: float, lease_seconds: float, limit: int) -> list[str]:
        if limit <= 0:
            return []  # SQLite reads a negative LIMIT as "no limit"
        with self._write() as connection:
            due = [
                table
                for (table,) in connection.execute(
                    "SELECT id FROM tables WHERE deadline <= ? ORDER BY deadline LIMIT ?", (now, limit)
                )
            ]
            connection.executemany(
                "UPDATE tables SET deadline = ? WHERE id = ?", [(now + lease_seconds, table) for table in due]
            )
        return due

    def open_tables(self, now: float, idle_seconds: float) -> int:
        with self._connection() as connection:
            (count,) = connection.execute(
                "SELECT COUNT(*) FROM tables WHERE active_at >= ?", (now - idle_seconds,)
            ).fetchone()
        return int(count)

    def abandon_idle(self, now: float, idle_seconds: float, limit: int) -> list[str]:
        if limit <= 0:
            return []
        with self._write() as connection:
            idle = [
                table
                for (table,) in connection.execute(
                    "SELECT id FROM tables WHERE active_at < ? ORDER BY active_at LIMIT ?", (now - idle_seconds, limit)
                )
            ]
            for kind in ("events", "answers", "tables"):
                column = "id" if kind == "tables" else "table_id"
                connection.executemany(f"DELETE FROM {kind} WHERE {column} = ?", [(table,) for table in idle])
        return idle

    def notify_changes(self) -> AsyncIterator[str] | None:
        # No channel between processes sharing a file: the service polls the revisions instead.
        return None

    async def close_async(self) -> None:
        return None  # the loop's reads borrow the pool's connections, which close() closes

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


def _select_bodies(connection: sqlite3.Connection, kind: str, table: str, start: int, stop: int | None) -> list[str]:
    """The JSON texts of a table's ``kind`` (events or answers) at positions ``start`` to ``stop``, in order."""
    # ``kind`` is one of two names written in this module, never input.
    query = f"SELECT body FROM {kind} WHERE table_id = ? AND position >= ?"
    parameters: tuple[Any, ...] = (table, start)
    if stop is not None:
        query += " AND position < ?"
        parameters += (stop,)
    return [body for (body,) in connection.execute(query + " ORDER BY position", parameters).fetchall()]


def _rows(table: str, first_position: int, texts: Sequence[str]) -> list[tuple[str, int, str]]:
    return [(table, first_position + offset, text) for offset, text in enumerate(texts)]
