"""What only the Redis store promises: change notices, its key layout, and a typed error when Redis is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis_server import RedisServer, redis_server

from app.hosting.redis_store import RedisTableStore
from app.hosting.store import StoredTable, StoreUnavailable, TableStore, open_store

pytestmark = pytest.mark.redis


@pytest.fixture
def store(empty_redis_url: str) -> Iterator[TableStore]:
    store = open_store(empty_redis_url)
    yield store
    store.close()


def subscribers(url: str, channel: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        [(_, count)] = client.pubsub_numsub(channel)
        return int(count)
    finally:
        client.close()


def test_committed_table_ids_reach_a_subscriber_and_refused_commits_do_not(store: TableStore, redis_url: str) -> None:
    committer = open_store(redis_url)  # as another replica would
    for table in ["t_a", "t_b", "t_c"]:
        committer.create(table, {}, [], [], deadline=None)

    async def listen() -> list[str]:
        changes = store.notify_changes()
        assert changes is not None
        received: list[str] = []
        try:
            async for table in changes:
                received.append(table)
                if len(received) == 3:
                    return received
        finally:
            await changes.aclose()
        return received

    async def commit_once_subscribed() -> list[str]:
        listening = asyncio.create_task(listen())
        # The subscription is made on the iterator's first step: commit only once it stands.
        for _ in range(200):
            if await asyncio.to_thread(subscribers, redis_url, "tenpai:tables"):
                break
            await asyncio.sleep(0.01)
        assert await asyncio.to_thread(committer.commit, "t_b", 0, {}, [{"type": "none"}], [], None)
        assert not await asyncio.to_thread(committer.commit, "t_a", 5, {}, [], [], None)  # stale: no notice
        assert await asyncio.to_thread(committer.commit, "t_a", 0, {}, [], [], None)
        assert await asyncio.to_thread(committer.commit, "t_b", 1, {}, [], [], None)
        return await asyncio.wait_for(listening, timeout=10)

    try:
        assert asyncio.run(commit_once_subscribed()) == ["t_b", "t_a", "t_b"]
    finally:
        committer.close()
    assert subscribers(redis_url, "tenpai:tables") == 0  # closing the iterator unsubscribed


def test_a_tables_keys_share_one_hash_tag_under_the_namespace(store: TableStore, empty_redis_url: str) -> None:
    store.create("t_keys", {}, [{"type": "start_game"}], ["a"], deadline=5.0)
    client = redis.Redis.from_url(empty_redis_url, decode_responses=True)
    try:
        assert sorted(client.keys("*")) == [
            "tenpai:activity",
            "tenpai:deadlines",
            "tenpai:table:{t_keys}:answers",
            "tenpai:table:{t_keys}:events",
            "tenpai:table:{t_keys}:meta",
        ]
        assert client.zscore("tenpai:deadlines", "t_keys") == 5.0
    finally:
        client.close()


def test_scripts_flushed_from_the_server_are_loaded_again(store: TableStore, empty_redis_url: str) -> None:
    store.create("t_flushed", {}, [], [], deadline=None)
    client = redis.Redis.from_url(empty_redis_url)
    try:
        client.script_flush()
    finally:
        client.close()
    assert store.commit("t_flushed", 0, {"after": "flush"}, [], [], deadline=1.0)
    assert store.claim_due(2.0, lease_seconds=1.0, limit=5) == ["t_flushed"]


def test_a_long_log_is_appended_whole(store: TableStore) -> None:
    # More values than one Lua unpack() may take at once.
    events = [{"n": number} for number in range(12_000)]
    store.create("t_long", {}, events, list(range(2_500)), deadline=None)
    assert store.commit("t_long", 0, {}, events, [], deadline=None)
    assert store.load("t_long") == StoredTable("t_long", 1, {}, 24_000, 2_500, None)
    assert store.events("t_long", 11_999, 12_001) == [{"n": 11_999}, {"n": 0}]


def test_the_unix_socket_reaches_the_same_tables(store: TableStore, redis_server: RedisServer) -> None:
    store.create("t_socket", {"via": "tcp"}, [], [], deadline=None)
    over_socket = open_store(redis_server.unix_url)
    try:
        assert over_socket.describe() == {"kind": "redis", "url": f"unix://{redis_server.socket_path}?db=0"}
        assert over_socket.commit("t_socket", 0, {"via": "socket"}, [], [], deadline=None)
    finally:
        over_socket.close()
    assert store.load("t_socket") == StoredTable("t_socket", 1, {"via": "socket"}, 0, 0, None)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://user:hunter2@127.0.0.1:6390/3", "redis://127.0.0.1:6390/3"),
        ("redis://:hunter2@cache.internal", "redis://cache.internal:6379/0"),
        ("rediss://default:hunter2@[::1]:6380/1", "rediss://[::1]:6380/1"),
        ("unix:///run/redis.sock?db=2&password=hunter2", "unix:///run/redis.sock?db=2"),
    ],
)
def test_describe_never_shows_a_password(url: str, shown: str) -> None:
    store = RedisTableStore(url)  # opening does not connect
    try:
        assert store.describe() == {"kind": "redis", "url": shown}
    finally:
        store.close()


def test_a_server_that_goes_away_makes_the_store_unavailable(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        store = open_store(server.url)
        store.create("t_lost", {}, [], [], deadline=None)
        assert store.load("t_lost") is not None
    try:
        for call in [
            lambda: store.load("t_lost"),
            lambda: store.commit("t_lost", 0, {}, [], [], deadline=None),
            lambda: store.claim_due(1.0, lease_seconds=1.0, limit=1),
            lambda: store.create("t_new", {}, [], [], deadline=None),
        ]:
            with pytest.raises(StoreUnavailable) as raised:
                call()
            assert raised.value.code == "store_unavailable"
            assert str(server.port) in str(raised.value)
    finally:
        store.close()

    async def first_change() -> str:
        changes = RedisTableStore(server.url).notify_changes()
        return await changes.__anext__()

    with pytest.raises(StoreUnavailable):
        asyncio.run(first_change())
