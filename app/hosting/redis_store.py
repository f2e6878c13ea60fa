"""The shared table store: Redis, so that any number of replicas serve the same tables.

Keys (``tenpai`` is the namespace):

* ``tenpai:table:{ID}:meta``: a hash, ``revision`` and ``state`` (JSON text);
* ``tenpai:table:{ID}:events`` and ``tenpai:table:{ID}:answers``: lists of JSON texts;
* ``tenpai:deadlines``: a sorted set, table id scored by its deadline (epoch seconds);
* ``tenpai:activity``: a sorted set, table id scored by its last create or commit.

The braces are a hash tag: Redis Cluster would keep a table's own keys in one slot.  The writes
also touch the two shared sorted sets, so this store wants one primary (standalone, or Sentinel
with replicas), not a Cluster.

Every write that must be atomic is a Lua script (run by EVALSHA, loaded again by ``redis.Script``
when the server has forgotten it): a commit's revision check, appends, deadline and activity and
its ``PUBLISH`` on ``tenpai:tables`` happen at once or not at all; a claim reads and moves due
deadlines in one step, so two replicas never claim one deadline.  A commit is as durable as the
server is configured to be (``appendonly yes`` with ``appendfsync always`` survives a crash of
Redis itself; the loss of a tenpai replica loses nothing either way).

Any failure to reach the server is :class:`~app.hosting.store.StoreUnavailable`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any, cast

import redis
import redis.asyncio
import redis.exceptions
from redis.commands.core import AsyncScript

from app.hosting.store import (
    InvalidTableStore,
    ParsedStates,
    StoredTable,
    StoreUnavailable,
    TableExists,
    check_slice,
    check_table_id,
    dump_json,
)

#: A call waits this long for a connection, and then for an answer, before the store is unavailable.
CONNECT_TIMEOUT_SECONDS = 5.0
ANSWER_TIMEOUT_SECONDS = 10.0

# Lua's unpack() puts every value on the C stack, which holds a few thousand: long lists are
# pushed in chunks.
_PUSH = """
local function push(key, first, last)
  for i = first, last, 1000 do
    redis.call('RPUSH', key, unpack(ARGV, i, math.min(i + 999, last)))
  end
end
"""

# KEYS: meta, events, answers, deadlines, activity.
# ARGV: table, state, deadline ('' for none), now, number of events, the events..., the answers...
_CREATE = (
    _PUSH
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local event_count = tonumber(ARGV[5])
redis.call('HSET', KEYS[1], 'revision', 0, 'state', ARGV[2])
push(KEYS[2], 6, 5 + event_count)
push(KEYS[3], 6 + event_count, #ARGV)
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1]) end
redis.call('ZADD', KEYS[5], ARGV[4], ARGV[1])
return 1
"""
)

# KEYS: meta, events, answers, deadlines, activity.
# ARGV: table, revision read, state, deadline ('' clears it), now, channel, number of events,
# the events..., the answers...
_COMMIT = (
    _PUSH
    + """
if redis.call('HGET', KEYS[1], 'revision') ~= ARGV[2] then return 0 end
local event_count = tonumber(ARGV[7])
redis.call('HINCRBY', KEYS[1], 'revision', 1)
redis.call('HSET', KEYS[1], 'state', ARGV[3])
push(KEYS[2], 8, 7 + event_count)
push(KEYS[3], 8 + event_count, #ARGV)
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[4], ARGV[1])
else
  redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
end
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
redis.call('PUBLISH', ARGV[6], ARGV[1])
return 1
"""
)

# KEYS: meta, events, answers, deadlines.  ARGV: table, the first event, the revision whose
# events the caller holds ('' for none).  Read-only: the table and its events at one moment,
# in one round trip (a MULTI would need the list's length before the range's bounds).
_LOAD_WITH_EVENTS = """
local meta = redis.call('HMGET', KEYS[1], 'revision', 'state')
if not meta[1] then return false end
local event_count = redis.call('LLEN', KEYS[2])
local loaded = {meta[1], meta[2], event_count, redis.call('LLEN', KEYS[3]), redis.call('ZSCORE', KEYS[4], ARGV[1])}
if meta[1] ~= ARGV[3] and tonumber(ARGV[2]) < event_count then
  loaded[6] = redis.call('LRANGE', KEYS[2], ARGV[2], event_count - 1)
end
return loaded
"""

# KEYS: deadlines.  ARGV: now, the lease's end, the most to claim.
_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, table in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], table)
end
return due
"""

# KEYS: meta, events, answers, deadlines, activity.  ARGV: table, the activity cut-off.
# The idleness is checked again here: a commit since the caller's scan keeps the table.
_ABANDON = """
local active = redis.call('ZSCORE', KEYS[5], ARGV[1])
if not active or tonumber(active) >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
return 1
"""

#: What a lost, refused or timed-out connection (or a replica not yet promoted) raises.
_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.ReadOnlyError)


class RedisTableStore:
    """Tables in Redis (see the module docstring); thread-safe, shared by processes and replicas.

    The client decodes answers (``decode_responses=True``): every value read is a ``str``.
    """

    def __init__(self, url: str, *, namespace: str = "tenpai") -> None:
        self._url = url
        try:
            self._client = redis.Redis.from_url(
                url,
                decode_responses=True,
                socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                socket_timeout=ANSWER_TIMEOUT_SECONDS,
            )
        except ValueError as error:
            raise InvalidTableStore(f"the Redis URL in TENPAI_TABLE_STORE is malformed: {error}") from None
        self._shown_url = _url_without_secrets(url, self._client.connection_pool.connection_kwargs)
        self.namespace = namespace
        self._states = ParsedStates()
        self.channel = f"{namespace}:tables"
        self._deadlines = f"{namespace}:deadlines"
        self._activity = f"{namespace}:activity"
        self._create = self._client.register_script(_CREATE)
        self._commit = self._client.register_script(_COMMIT)
        self._claim_due = self._client.register_script(_CLAIM_DUE)
        self._load_with_events = self._client.register_script(_LOAD_WITH_EVENTS)
        #: The event loop's own client for a view's read (redis.asyncio's connections belong to
        #: the loop that opened them), with that loop; made on the first read there.
        self._on_loop: tuple[asyncio.AbstractEventLoop, redis.asyncio.Redis, AsyncScript] | None = None
        self._abandon = self._client.register_script(_ABANDON)

    def _keys(self, table: str) -> list[str]:
        """The table's own keys, then the shared sorted sets: the scripts' KEYS."""
        prefix = f"{self.namespace}:table:{{{table}}}"
        return [f"{prefix}:meta", f"{prefix}:events", f"{prefix}:answers", self._deadlines, self._activity]

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        try:
            yield
        except _UNREACHABLE as error:
            raise StoreUnavailable(f"the table store at {self._shown_url} cannot be reached: {error}") from error

    # -- the TableStore protocol -----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {"kind": "redis", "url": self._shown_url}

    def create(
        self,
        table: str,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> None:
        check_table_id(table)
        arguments = [table, dump_json(state), _score(deadline), repr(time.time()), str(len(events))]
        arguments += [dump_json(event) for event in events] + [dump_json(answer) for answer in answers]
        with self._reachable():
            created = self._create(keys=self._keys(table), args=arguments)
        if not created:
            raise TableExists(f"table {table} already exists", field="table")

    def load(self, table: str) -> StoredTable | None:
        meta, events, answers, deadlines, _ = self._keys(table)
        with self._reachable():
            # MULTI/EXEC: the five reads see one moment, never half of a commit.
            pipeline = self._client.pipeline(transaction=True)
            pipeline.hmget(meta, ["revision", "state"])
            pipeline.llen(events)
            pipeline.llen(answers)
            pipeline.zscore(deadlines, table)
            (revision, state), event_count, answer_count, deadline = pipeline.execute()
        if revision is None:
            return None
        return StoredTable(table, int(revision), self._states.parse(table, state), event_count, answer_count, deadline)

    def load_with_events(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        check_slice(start, None)
        meta, events, answers, deadlines, _ = self._keys(table)
        held = "" if unless_revision is None else str(unless_revision)
        with self._reachable():
            loaded = self._load_with_events(keys=[meta, events, answers, deadlines], args=[table, start, held])
        return self._loaded(table, held, loaded)

    async def load_with_events_async(
        self, table: str, start: int, *, unless_revision: int | None = None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        # On the loop, not in a worker thread: the hop there and back cost about 0.25 ms of CPU
        # a read, more than the round trip itself.
        check_slice(start, None)
        meta, events, answers, deadlines, _ = self._keys(table)
        held = "" if unless_revision is None else str(unless_revision)
        script = self._loop_script()
        with self._reachable():
            loaded = await script(keys=[meta, events, answers, deadlines], args=[table, start, held])
        return self._loaded(table, held, loaded)

    def _loop_script(self) -> AsyncScript:
        loop = asyncio.get_running_loop()
        if self._on_loop is None or self._on_loop[0] is not loop:
            client = redis.asyncio.Redis.from_url(
                self._url,
                decode_responses=True,
                socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                socket_timeout=ANSWER_TIMEOUT_SECONDS,
            )
            self._on_loop = (loop, client, client.register_script(_LOAD_WITH_EVENTS))
        return self._on_loop[2]

    def _loaded(
        self, table: str, held: str, loaded: list[Any] | None
    ) -> tuple[StoredTable, list[dict[str, Any]] | None] | None:
        """What the load script answered, as :meth:`load_with_events` returns it."""
        if not loaded:
            return None
        revision, state, event_count, answer_count, deadline = loaded[:5]
        stored = StoredTable(
            table,
            int(revision),
            self._states.parse(table, state),
            int(event_count),
            int(answer_count),
            None if deadline is None else float(deadline),
        )
        if revision == held:
            return stored, None
        texts: list[str] = loaded[5] if len(loaded) > 5 else []
        return stored, [json.loads(text) for text in texts]

    def events(self, table: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self._range(self._keys(table)[1], start, stop)]

    def answers(self, table: str, start: int = 0) -> list[Any]:
        return [json.loads(text) for text in self._range(self._keys(table)[2], start, None)]

    def _range(self, key: str, start: int, stop: int | None) -> list[str]:
        check_slice(start, stop)
        if stop is not None and stop <= start:
            return []  # LRANGE's end is inclusive and -1 means the last: stop=0 must not ask for it
        with self._reachable():
            return cast(list[str], self._client.lrange(key, start, -1 if stop is None else stop - 1))

    def commit(
        self,
        table: str,
        revision: int,
        state: dict[str, Any],
        events: list[dict[str, Any]],
        answers: list[Any],
        deadline: float | None,
    ) -> bool:
        arguments = [table, str(revision), dump_json(state), _score(deadline), repr(time.time()), self.channel]
        arguments += [str(len(events))]
        arguments += [dump_json(event) for event in events] + [dump_json(answer) for answer in answers]
        with self._reachable():
            return bool(self._commit(keys=self._keys(table), args=arguments))

    def claim_due(self, now: float, lease_seconds: float, limit: int) -> list[str]:
        if limit <= 0:
            return []  # ZRANGEBYSCORE reads LIMIT 0 -1 as "no limit"
        # The lease's end is computed here, in Python's floats: Lua would print it with 14 digits.
        with self._reachable():
            claimed: list[str] = self._claim_due(
                keys=[self._deadlines], args=[repr(now), repr(now + lease_seconds), limit]
            )
        return claimed

    def open_tables(self, now: float, idle_seconds: float) -> int:
        with self._reachable():
            return int(self._client.zcount(self._activity, repr(now - idle_seconds), "+inf"))

    def abandon_idle(self, now: float, idle_seconds: float, limit: int) -> list[str]:
        if limit <= 0:
            return []
        cutoff = repr(now - idle_seconds)
        with self._reachable():
            candidates = cast(
                list[str], self._client.zrangebyscore(self._activity, "-inf", f"({cutoff}", start=0, num=limit)
            )
            # One script per table, so that each declares its own keys; the script checks again.
            return [table for table in candidates if self._abandon(keys=self._keys(table), args=[table, cutoff])]

    def notify_changes(self) -> AsyncIterator[str]:
        return self._changes()

    async def _changes(self) -> AsyncIterator[str]:
        """The ids published by commits, from a subscription of its own on the caller's event loop."""
        # No socket timeout: a quiet channel is not a dead server.
        client = redis.asyncio.Redis.from_url(
            self._url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_SECONDS, socket_timeout=None
        )
        subscription = client.pubsub(ignore_subscribe_messages=True)
        try:
            with self._reachable():
                await subscription.subscribe(self.channel)
                async for message in subscription.listen():
                    if message["type"] == "message":
                        yield message["data"]
        finally:
            await subscription.aclose()
            await client.aclose()

    async def close_async(self) -> None:
        on_loop, self._on_loop = self._on_loop, None
        if on_loop is not None and on_loop[0] is asyncio.get_running_loop():
            await on_loop[1].aclose()

    def close(self) -> None:
        self._client.close()


def _score(deadline: float | None) -> str:
    """A deadline as the scripts take it: the float's exact repr, or '' for none."""
    return "" if deadline is None else repr(float(deadline))


def _url_without_secrets(url: str, connection: dict[str, Any]) -> str:
    """``url`` rebuilt from where it connects, without a user, password or other query option."""
    database = connection.get("db", 0)
    if "path" in connection:
        return f"unix://{connection['path']}?db={database}"
    scheme = url.partition("://")[0]
    host = str(connection.get("host", "localhost"))
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    return f"{scheme}://{host}:{connection.get('port', 6379)}/{database}"
