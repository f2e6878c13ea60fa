"""A seat's view takes its events from the game held in memory when that game is at the revision
read, and from the store otherwise; either way the answer is the same, byte for byte.

Run on both stores (the ``store``/``store_url`` fixtures: a SQLite file and a private
``redis-server``).  The reference view is built from ``store.events`` (the stored JSON, parsed),
as every view was before the held game was used, and both are rendered by ``JSONResponse``.
"""

from __future__ import annotations

import asyncio
import random
import socket
from typing import Any

import pytest
from fastapi.responses import JSONResponse

from app.hosting.store import StoredTable, StoreUnavailable, TableStore, open_store
from app.hosting.tables import CLIENT, Clock, StaleVersion, TableService, TableSpec

CLIENTS = (CLIENT,) * 4
LONG_CLOCK = Clock(600, 600)


class CountingStore:
    """``store`` with a count of the reads that brought events back from it."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.event_reads = 0
        load_with_events, events = store.load_with_events, store.events

        def counted_load(table: str, start: int, *, unless_revision: int | None = None) -> Any:
            loaded = load_with_events(table, start, unless_revision=unless_revision)
            if loaded is not None and loaded[1] is not None:
                self.event_reads += 1
            return loaded

        def counted_events(table: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
            self.event_reads += 1
            return events(table, start, stop)

        store.load_with_events = counted_load  # type: ignore[method-assign]
        store.events = counted_events  # type: ignore[method-assign]


def rendered(view: dict[str, Any] | None) -> bytes:
    assert view is not None
    return bytes(JSONResponse(view).body)


def stored_view(store: TableStore, service: TableService, table: str, seat: int, after: int) -> bytes:
    """The view as built from the store's own events (the reference)."""
    stored = store.load(table)
    assert stored is not None
    start = max(0, min(after, stored.event_count))
    return rendered(service.view(stored, seat, after, events=store.events(table, start, stored.event_count)))


def play(service: TableService, table: str, tokens: list[str], actions: int, rng: random.Random) -> None:
    """Up to ``actions`` random legal actions by the asked client seats (all four are clients)."""
    for _ in range(actions):
        stored = service.store.load(table)
        assert stored is not None
        if stored.state["status"] != "playing":
            return
        seat = next(seat for seat in stored.state["asked"] if stored.state["answered"][seat] is None)
        service.act(table, tokens[seat], stored.event_count, rng.choice(stored.state["legal"][seat]))


def open_clients(service: TableService, rules: str, seed: str) -> tuple[str, list[str]]:
    seats = CLIENTS[:3] if rules == "sanma" else CLIENTS
    opened = service.create(TableSpec(rules, "kyoku", seats, clock=LONG_CLOCK, seed=seed))
    return opened["table"], [seat["token"] for seat in opened["seats"]]


@pytest.mark.parametrize("rules", ["riichi", "sichuan"])  # sichuan: the exchange's passed tiles are masked too
def test_views_from_the_held_game_are_the_stored_views_byte_for_byte(store: TableStore, rules: str) -> None:
    counting = CountingStore(store)
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = open_clients(service, rules, f"memory-{rules}")
    rng = random.Random(35)
    for _step in range(12):
        play(service, table, tokens, 8, rng)
        version = store.load(table).event_count  # type: ignore[union-attr]
        for seat, token in enumerate(tokens):
            for after in (0, max(0, version - 3), version, version + 5):
                reads = counting.event_reads
                assert rendered(service.seat_view(table, token, after)) == stored_view(
                    store, service, table, seat, after
                )
                assert counting.event_reads == reads + 1, "the view read no events from the store"
    # The whole game so far, every seat, every ``after``.
    version = store.load(table).event_count  # type: ignore[union-attr]
    assert version > 60
    for seat, token in enumerate(tokens):
        for after in range(version + 1):
            assert rendered(service.seat_view(table, token, after)) == stored_view(store, service, table, seat, after)


def test_a_held_game_behind_the_store_is_not_used_for_a_newer_revision(store_url: str) -> None:
    first_store, second_store = open_store(store_url), open_store(store_url)
    try:
        first = TableService(first_store, max_open_tables=10, idle_seconds=3600)
        second = TableService(second_store, max_open_tables=10, idle_seconds=3600)
        table, tokens = open_clients(first, "riichi", "two-replicas")
        rng = random.Random(7)
        play(first, table, tokens, 5, rng)  # ``first`` holds the game at the store's revision
        for _turn in range(6):
            play(second, table, tokens, 3, rng)  # another replica moves the table on
            version = second_store.load(table).event_count  # type: ignore[union-attr]
            for seat, token in enumerate(tokens):
                for after in (0, version - 4, version):
                    expected = stored_view(second_store, second, table, seat, after)
                    assert rendered(first.seat_view(table, token, after)) == expected
            play(first, table, tokens, 2, rng)  # and back: ``first`` catches up and acts
    finally:
        first_store.close()
        second_store.close()


def test_a_view_during_an_action_shows_the_revision_read_not_the_game_ahead_of_it(store: TableStore) -> None:
    # The action's thread has stepped the held game (its record has the new events) and is
    # committing; a view reading the store now is at the revision before, and must show it.
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = open_clients(service, "riichi", "mid-action")
    play(service, table, tokens, 6, random.Random(3))
    before = store.load(table)
    assert before is not None
    expected = {seat: stored_view(store, service, table, seat, 0) for seat in range(4)}
    commit = store.commit
    seen: dict[int, bytes] = {}

    def view_then_commit(*args: Any) -> bool:
        held = service._held_at(table)
        assert held is not None and len(held.game.events) > before.event_count, "the game stepped ahead"
        for seat, token in enumerate(tokens):
            seen[seat] = rendered(service.seat_view(table, token, 0))
        return commit(*args)

    store.commit = view_then_commit  # type: ignore[method-assign]
    seat = next(seat for seat in before.state["asked"] if before.state["answered"][seat] is None)
    # The first legal action of the asked seat settles the ask (one seat asked: a discard turn).
    assert before.state["asked"] == [seat]
    service.act(table, tokens[seat], before.event_count, before.state["legal"][seat][0])
    assert seen == expected


def test_load_with_events_reads_the_table_and_its_events_at_one_revision(store: TableStore) -> None:
    events = [{"type": "start_game", "n": n} for n in range(5)]
    store.create("t_both", {"phase": "deal"}, events, ["a"], deadline=12.5)
    assert store.load_with_events("t_absent", 0) is None
    assert store.load_with_events("t_both", 0) == (StoredTable("t_both", 0, {"phase": "deal"}, 5, 1, 12.5), events)
    assert store.load_with_events("t_both", 3) == (store.load("t_both"), events[3:])
    assert store.load_with_events("t_both", 5)[1] == []  # type: ignore[index]
    assert store.load_with_events("t_both", 9)[1] == []  # type: ignore[index]
    # The caller holds revision 0's events: they are not read.
    assert store.load_with_events("t_both", 0, unless_revision=0) == (store.load("t_both"), None)
    assert store.commit("t_both", 0, {"phase": "play"}, [{"type": "tsumo"}], [], deadline=None)
    assert store.load_with_events("t_both", 4, unless_revision=0) == (
        StoredTable("t_both", 1, {"phase": "play"}, 6, 1, None),
        [events[4], {"type": "tsumo"}],
    )


def test_a_game_stepped_ahead_by_a_losing_action_is_not_read_for_the_winners_revision(store_url: str) -> None:
    # ``first`` steps its held game with one discard and, before it commits, ``second`` (another
    # replica) commits another discard of the same seat.  The held game is as long as the store
    # now but holds the discard that lost: a view at the winner's revision must not use it.
    first_store, second_store = open_store(store_url), open_store(store_url)
    try:
        first = TableService(first_store, max_open_tables=10, idle_seconds=3600)
        second = TableService(second_store, max_open_tables=10, idle_seconds=3600)
        table, tokens = open_clients(first, "riichi", "losing-action")
        read = first_store.load(table)
        assert read is not None and read.state["asked"] == [0]
        discards = [action for action in read.state["legal"][0] if action["type"] == "dahai"]
        ours, theirs = discards[0], next(action for action in discards if action["pai"] != discards[0]["pai"])
        commit = first_store.commit
        seen: dict[int, bytes] = {}
        expected: dict[int, bytes] = {}

        def other_replica_first(*args: Any) -> bool:
            second.act(table, tokens[0], read.event_count, theirs)
            for seat, token in enumerate(tokens):
                expected[seat] = stored_view(second_store, second, table, seat, 0)
                seen[seat] = rendered(first.seat_view(table, token, 0))
            return commit(*args)

        first_store.commit = other_replica_first  # type: ignore[method-assign]
        with pytest.raises(StaleVersion):
            first.act(table, tokens[0], read.event_count, ours)
        assert seen == expected
    finally:
        first_store.close()
        second_store.close()


def test_the_loops_read_is_the_threads_on_any_loop(store: TableStore) -> None:
    # Each asyncio.run is a new event loop: the Redis store's client of the loop before is not
    # reused on it (its connections belong to that loop).
    events = [{"type": "start_game", "n": n} for n in range(4)]
    store.create("t_loops", {"phase": "deal"}, events, [], deadline=None)

    async def read(start: int, unless: int | None) -> Any:
        loaded = await store.load_with_events_async("t_loops", start, unless_revision=unless)
        await store.close_async()  # closes only what belongs to this loop
        return loaded

    for start, unless in ((0, None), (2, None), (1, 0), (9, 5)):
        assert asyncio.run(read(start, unless)) == store.load_with_events("t_loops", start, unless_revision=unless)
    assert asyncio.run(read(0, None)) is not None
    assert asyncio.run(store.load_with_events_async("t_absent", 0)) is None


@pytest.mark.redis
def test_an_unreachable_redis_is_store_unavailable_on_the_loop_too() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = open_store(f"redis://127.0.0.1:{port}/0")
    try:
        with pytest.raises(StoreUnavailable):
            asyncio.run(store.load_with_events_async("t_any", 0))
    finally:
        store.close()
