"""A seat's long poll (``GET /tables/{table}?after=V&wait=S``) answers when the table changes.

Two ways a change once went unseen until the whole ``wait`` ran out (found by
``bench/tables_load.py``, where one seat sleeping 10 s stalls its table): a change committed
between the view's read and its wait (the wake-up was taken after the read), and, on SQLite, a
change committed by another process (no announcement reaches this one, and the poll that
should stand in for it was never bounded).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest
from api_helpers import started
from fastapi.testclient import TestClient

import app.api.routes.tables as table_routes
import app.api.table_host as table_host
from app.hosting.store import open_store
from app.hosting.tables import TableService
from app.settings import Settings

WAIT_SECONDS = 10.0
#: Well under WAIT_SECONDS, well over a loaded machine's answer time.
ANSWERED_WITHIN_SECONDS = 5.0


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    client = started(Settings(table_store=store_url))
    yield client
    client.__exit__(None, None, None)


def _open(client: TestClient) -> tuple[str, list[str]]:
    answer = client.post(
        "/tables",
        json={"rules": "riichi", "length": "kyoku", "seats": ["client"] * 4, "clock": {"decision_seconds": 60}},
    )
    assert answer.status_code == 201, answer.text
    opened = answer.json()
    return opened["table"], [seat["token"] for seat in opened["seats"]]


def _views(client: TestClient, table: str, tokens: list[str]) -> list[dict[str, Any]]:
    views = []
    for token in tokens:
        answer = client.get(f"/tables/{table}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        views.append(answer.json())
    return views


def _asked_and_waiting(views: list[dict[str, Any]]) -> tuple[int, int]:
    """The seat asked to act, and one that is not."""
    asked = [view["seat"] for view in views if view["legal"]]
    assert len(asked) == 1, asked
    return asked[0], next(view["seat"] for view in views if not view["legal"])


def test_a_change_between_the_views_read_and_its_wait_wakes_the_long_poll(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No poll to fall back on: only the wake-up can answer the long poll before its wait is over.
    monkeypatch.setattr(table_host, "POLL_SECONDS", 3600.0)
    table, tokens = _open(client)
    views = _views(client, table, tokens)
    actor, waiter = _asked_and_waiting(views)
    version = views[waiter]["version"]
    read_view = table_routes._new_view  # a long poll's look: None while there is nothing new
    raced = threading.Event()

    async def view_then_another_seat_acts(
        host: Any, table: str, token: str | None, after: int
    ) -> dict[str, Any] | None:
        # The read awaits the store (Redis's on the loop): another request's action may commit
        # and wake the table's waiters while it does, before this long poll waits.
        view = await read_view(host, table, token, after)
        if token == tokens[waiter] and not raced.is_set():
            raced.set()
            await anyio.to_thread.run_sync(host.service.act, table, tokens[actor], version, views[actor]["legal"][0])
            host.changed(table)  # as the action's route does
        return view

    monkeypatch.setattr(table_routes, "_new_view", view_then_another_seat_acts)
    began = time.monotonic()
    answer = client.get(
        f"/tables/{table}",
        params={"after": version, "wait": WAIT_SECONDS},
        headers={"Authorization": f"Bearer {tokens[waiter]}"},
    )
    elapsed = time.monotonic() - began
    assert raced.is_set()
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] > version
    assert elapsed < ANSWERED_WITHIN_SECONDS, f"the long poll slept through the change: {elapsed:.1f} s"


def test_on_sqlite_a_change_by_another_process_ends_the_long_poll_within_a_poll(
    client: TestClient, store_url: str
) -> None:
    table, tokens = _open(client)
    views = _views(client, table, tokens)
    actor, waiter = _asked_and_waiting(views)
    version = views[waiter]["version"]
    # Another process's service on the same file: its commit announces nothing to this one.
    other = TableService(open_store(store_url), max_open_tables=10, idle_seconds=3600)
    acting = threading.Timer(0.3, lambda: other.act(table, tokens[actor], version, views[actor]["legal"][0]))
    began = time.monotonic()
    acting.start()
    try:
        answer = client.get(
            f"/tables/{table}",
            params={"after": version, "wait": WAIT_SECONDS},
            headers={"Authorization": f"Bearer {tokens[waiter]}"},
        )
    finally:
        acting.join()
        other.store.close()
    elapsed = time.monotonic() - began
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] > version
    assert elapsed < ANSWERED_WITHIN_SECONDS, f"the long poll did not poll the store: {elapsed:.1f} s"


@pytest.mark.redis
def test_on_redis_views_read_on_the_loop_agree_with_another_replicas_and_follow_its_commits(
    empty_redis_url: str,
) -> None:
    # The app reads views with redis.asyncio on its event loop; another replica (a service with
    # its own store, reading synchronously) commits, and the long poll sees the change.
    client = started(Settings(table_store=empty_redis_url))
    other = TableService(open_store(empty_redis_url), max_open_tables=10, idle_seconds=3600)
    try:
        table, tokens = _open(client)
        views = _views(client, table, tokens)
        for seat, view in enumerate(views):
            assert view == other.seat_view(table, tokens[seat], 0)
        actor, waiter = _asked_and_waiting(views)
        version = views[waiter]["version"]
        acting = threading.Timer(0.3, lambda: other.act(table, tokens[actor], version, views[actor]["legal"][0]))
        began = time.monotonic()
        acting.start()
        try:
            answer = client.get(
                f"/tables/{table}",
                params={"after": version, "wait": WAIT_SECONDS},
                headers={"Authorization": f"Bearer {tokens[waiter]}"},
            )
        finally:
            acting.join()
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] > version
        assert time.monotonic() - began < ANSWERED_WITHIN_SECONDS
        assert answer.json() == other.seat_view(table, tokens[waiter], version)
        for token in tokens:
            for after in (0, version):
                shown = client.get(
                    f"/tables/{table}", params={"after": after}, headers={"Authorization": f"Bearer {token}"}
                )
                assert shown.json() == other.seat_view(table, token, after)
    finally:
        other.store.close()
        client.__exit__(None, None, None)
