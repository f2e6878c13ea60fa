"""The table store contract (``app/hosting/store.py``), checked on both stores: SQLite and Redis.

Every test here takes the parametrized ``store`` (or ``store_url``) fixture, so each runs once
against a fresh SQLite file and once against a private, emptied ``redis-server``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_workers import claim_until_none_due, commit_in_turns

from app.hosting.store import InvalidTableId, StoredTable, TableExists, TableStore, open_store

START_EVENTS = [{"type": "start_game", "names": ["a", "b", "c", "d"]}, {"type": "start_kyoku", "kyoku": 1}]
HOUR = 3600.0
#: Table ids for the property test's examples, one new table each.
_PROPERTY_TABLES = itertools.count()


def event(number: int) -> dict[str, Any]:
    return {"type": "dahai", "actor": number % 4, "pai": f"{number % 9 + 1}m", "tsumogiri": False, "n": number}


def stored_everything(store: TableStore, table: str) -> tuple[StoredTable | None, list[Any], list[Any]]:
    """All a table holds, to compare before and after a change that must not happen."""
    return store.load(table), store.events(table), store.answers(table)


# -- create, load, events, answers ---------------------------------------------------------


def test_a_created_table_loads_at_revision_zero(store: TableStore) -> None:
    state = {"phase": "deal", "scores": [25000, 25000, 25000, 25000], "name": "東"}
    store.create("t_one", state, START_EVENTS, ["first"], deadline=1_800_000_000.25)
    assert store.load("t_one") == StoredTable("t_one", 0, state, 2, 1, 1_800_000_000.25)
    assert store.events("t_one") == START_EVENTS
    assert store.answers("t_one") == ["first"]
    assert store.load("t_absent") is None
    assert store.events("t_absent") == [] and store.answers("t_absent") == []


def test_a_table_may_start_empty_and_without_a_deadline(store: TableStore) -> None:
    store.create("t_empty", {}, [], [], deadline=None)
    assert store.load("t_empty") == StoredTable("t_empty", 0, {}, 0, 0, None)


def test_creating_a_taken_id_is_table_exists_and_changes_nothing(store: TableStore) -> None:
    store.create("t_taken", {"n": 1}, START_EVENTS, [], deadline=None)
    before = stored_everything(store, "t_taken")
    with pytest.raises(TableExists) as raised:
        store.create("t_taken", {"n": 2}, [event(1)], ["x"], deadline=5.0)
    assert raised.value.code == "table_exists"
    assert stored_everything(store, "t_taken") == before


@pytest.mark.parametrize("table", ["", "t_{x}", "t x", "t/1", "ｔ", "t" * 129])
def test_an_id_a_store_cannot_hold_is_refused(store: TableStore, table: str) -> None:
    with pytest.raises(InvalidTableId) as raised:
        store.create(table, {}, [], [], deadline=None)
    assert raised.value.code == "invalid_table_id"


def test_events_and_answers_slice_like_lists(store: TableStore) -> None:
    events = [event(number) for number in range(7)]
    answers: list[Any] = [{"seat": 0, "choice": "pass"}, None, 3, "text", [1, 2]]
    store.create("t_slices", {}, events[:3], answers[:2], deadline=None)
    assert store.commit("t_slices", 0, {}, events[3:], answers[2:], deadline=None)
    for start, stop in itertools.product(range(9), [None, *range(9)]):
        assert store.events("t_slices", start, stop) == events[start:stop], (start, stop)
    for start in range(7):
        assert store.answers("t_slices", start) == answers[start:]
    with pytest.raises(ValueError):
        store.events("t_slices", -1)
    with pytest.raises(ValueError):
        store.events("t_slices", 0, -1)


# -- commit: compare and set ---------------------------------------------------------------


def test_a_commit_appends_replaces_the_state_and_sets_the_deadline(store: TableStore) -> None:
    store.create("t_commit", {"turn": 0}, START_EVENTS, [], deadline=None)
    assert store.commit("t_commit", 0, {"turn": 1}, [event(1), event(2)], ["a"], deadline=1_900_000_000.5)
    assert store.load("t_commit") == StoredTable("t_commit", 1, {"turn": 1}, 4, 1, 1_900_000_000.5)
    assert store.commit("t_commit", 1, {"turn": 2}, [], [], deadline=None)  # clears the deadline
    assert store.load("t_commit") == StoredTable("t_commit", 2, {"turn": 2}, 4, 1, None)
    assert store.events("t_commit") == [*START_EVENTS, event(1), event(2)]


@pytest.mark.parametrize("revision", [0, 2, 99, -1])
def test_a_commit_on_another_revision_is_refused_and_changes_nothing(store: TableStore, revision: int) -> None:
    store.create("t_stale", {"turn": 0}, START_EVENTS, ["a"], deadline=1_800_000_000.0)
    assert store.commit("t_stale", 0, {"turn": 1}, [event(1)], ["b"], deadline=1_800_000_001.0)
    before = stored_everything(store, "t_stale")
    assert not store.commit("t_stale", revision, {"turn": 9}, [event(9)], ["z"], deadline=None)
    assert stored_everything(store, "t_stale") == before


def test_a_commit_to_an_absent_table_is_refused_and_creates_nothing(store: TableStore) -> None:
    assert not store.commit("t_nowhere", 0, {"turn": 1}, [event(1)], [], deadline=10.0)
    assert stored_everything(store, "t_nowhere") == (None, [], [])
    assert store.claim_due(now=20.0, lease_seconds=HOUR, limit=10) == []


def test_a_value_that_is_not_json_is_refused_before_anything_changes(store: TableStore) -> None:
    store.create("t_json", {"turn": 0}, [], [], deadline=None)
    before = stored_everything(store, "t_json")
    with pytest.raises(ValueError):
        store.commit("t_json", 0, {"turn": float("nan")}, [event(1)], [], deadline=None)
    assert stored_everything(store, "t_json") == before


def test_of_eight_threads_committing_on_one_revision_exactly_one_wins(store: TableStore) -> None:
    store.create("t_race", {"winner": None}, START_EVENTS, [], deadline=None)
    start = threading.Barrier(8)

    def attempt(worker: int) -> bool:
        start.wait()
        return store.commit("t_race", 0, {"winner": worker}, [event(worker)], [worker], deadline=None)

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(attempt, range(8)))
    assert outcomes.count(True) == 1
    winner = outcomes.index(True)
    assert store.load("t_race") == StoredTable("t_race", 1, {"winner": winner}, 3, 1, None)
    assert store.events("t_race", 2) == [event(winner)] and store.answers("t_race") == [winner]


def test_two_processes_committing_in_turns_never_lose_or_double_an_event(store: TableStore, store_url: str) -> None:
    store.create("t_turns", {}, [], [], deadline=None)
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(2), context.Queue()
    workers = [
        context.Process(target=commit_in_turns, args=(store_url, "t_turns", worker, 60, start, results))
        for worker in range(2)
    ]
    for process in workers:
        process.start()
    successes = dict(results.get(timeout=60) for _ in workers)
    for process in workers:
        process.join(timeout=30)
        assert process.exitcode == 0
    stored = store.load("t_turns")
    assert stored is not None and stored.revision == stored.event_count == sum(successes.values())
    events = store.events("t_turns")
    for worker in range(2):
        # Each worker's accepted events are in the log once each, in the order it sent them.
        attempts = [logged["attempt"] for logged in events if logged["worker"] == worker]
        assert len(attempts) == successes[worker] and attempts == sorted(set(attempts))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    commits=st.lists(
        st.tuples(st.sampled_from(["current", "behind", "ahead"]), st.integers(0, 4), st.integers(0, 2)),
        max_size=12,
    )
)
def test_the_log_is_the_accepted_commits_events_in_order(
    store: TableStore, commits: list[tuple[str, int, int]]
) -> None:
    # One fresh table per example (the store fixture lives for the whole test).
    table = f"t_property_{next(_PROPERTY_TABLES)}"
    store.create(table, {"commits": 0}, START_EVENTS, [], deadline=None)
    expected_events, expected_answers, revision, numbers = list(START_EVENTS), [], 0, itertools.count()
    for which, event_count, answer_count in commits:
        events = [event(next(numbers)) for _ in range(event_count)]
        answers = [f"answer {next(numbers)}" for _ in range(answer_count)]
        read = {"current": revision, "behind": revision - 1, "ahead": revision + 1}[which]
        accepted = store.commit(table, read, {"commits": revision + 1}, events, answers, deadline=None)
        assert accepted == (which == "current")
        if accepted:
            revision += 1
            expected_events += events
            expected_answers += answers
    assert store.events(table) == expected_events
    assert store.answers(table) == expected_answers
    assert store.load(table) == StoredTable(
        table, revision, {"commits": revision}, len(expected_events), len(expected_answers), None
    )


# -- deadlines -----------------------------------------------------------------------------


def test_claim_due_takes_the_due_deadlines_earliest_first_and_leases_them(store: TableStore) -> None:
    now = 1_800_000_000.0
    for table, deadline in [("t_late", now + 5), ("t_due", now - 1), ("t_earliest", now - 9), ("t_now", now)]:
        store.create(table, {}, [], [], deadline=deadline)
    store.create("t_unclocked", {}, [], [], deadline=None)
    assert store.claim_due(now, lease_seconds=30.0, limit=2) == ["t_earliest", "t_due"]
    assert store.claim_due(now, lease_seconds=30.0, limit=10) == ["t_now"]
    assert store.claim_due(now, lease_seconds=30.0, limit=10) == []
    assert store.claim_due(now, lease_seconds=30.0, limit=0) == []
    assert store.claim_due(now + 99, lease_seconds=30.0, limit=-1) == []
    for table in ["t_earliest", "t_due", "t_now"]:
        stored = store.load(table)
        assert stored is not None and stored.deadline == now + 30.0 and stored.revision == 0
    # A claimer that never commits: the table is due again when the lease is over.
    assert store.claim_due(now + 29.9, lease_seconds=30.0, limit=10) == ["t_late"]
    assert sorted(store.claim_due(now + 30.0, lease_seconds=30.0, limit=10)) == ["t_due", "t_earliest", "t_now"]


def test_a_commit_moves_or_clears_a_claimed_deadline(store: TableStore) -> None:
    now = 1_800_000_000.0
    store.create("t_moved", {}, [], [], deadline=now - 1)
    store.create("t_cleared", {}, [], [], deadline=now - 1)
    assert sorted(store.claim_due(now, lease_seconds=10.0, limit=10)) == ["t_cleared", "t_moved"]
    assert store.commit("t_moved", 0, {}, [], [], deadline=now + 100)
    assert store.commit("t_cleared", 0, {}, [], [], deadline=None)
    assert store.claim_due(now + 50, lease_seconds=10.0, limit=10) == []
    assert store.claim_due(now + 100, lease_seconds=10.0, limit=10) == ["t_moved"]


def test_two_processes_claiming_200_due_tables_claim_each_once(store: TableStore, store_url: str) -> None:
    now = 1_800_000_000.0
    tables = {f"t_due_{number}" for number in range(200)}
    for number, table in enumerate(sorted(tables)):
        store.create(table, {}, [], [], deadline=now - number)
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(2), context.Queue()
    claimers = [context.Process(target=claim_until_none_due, args=(store_url, now, start, results)) for _ in range(2)]
    for process in claimers:
        process.start()
    claimed = [results.get(timeout=60) for _ in claimers]
    for process in claimers:
        process.join(timeout=30)
        assert process.exitcode == 0
    assert claimed[0] and claimed[1], "one process claimed everything: the processes did not race"
    assert len(claimed[0]) + len(claimed[1]) == 200
    assert set(claimed[0]) | set(claimed[1]) == tables


# -- activity ------------------------------------------------------------------------------


def test_open_tables_counts_and_abandon_idle_deletes_by_last_activity(store: TableStore) -> None:
    store.create("t_idle", {}, START_EVENTS, ["a"], deadline=1.0)
    store.create("t_busy", {}, START_EVENTS, [], deadline=None)
    time.sleep(0.02)
    between = time.time()
    time.sleep(0.02)
    assert store.commit("t_busy", 0, {}, [event(1)], [], deadline=2.0)  # a commit is activity
    assert store.open_tables(between, idle_seconds=60) == 2
    assert store.open_tables(between, idle_seconds=0) == 1
    assert store.open_tables(time.time() + 120, idle_seconds=60) == 0

    assert store.abandon_idle(between, idle_seconds=0, limit=10) == ["t_idle"]
    assert stored_everything(store, "t_idle") == (None, [], [])
    assert not store.commit("t_idle", 0, {}, [event(2)], [], deadline=None)
    assert store.claim_due(now=10.0, lease_seconds=HOUR, limit=10) == ["t_busy"]  # t_idle's deadline went too
    assert store.open_tables(between, idle_seconds=0) == 1
    stored = store.load("t_busy")
    assert stored is not None and stored.revision == 1
    # An id freed by abandonment may be used again, from nothing.
    store.create("t_idle", {"again": True}, [], [], deadline=None)
    assert store.load("t_idle") == StoredTable("t_idle", 0, {"again": True}, 0, 0, None)


def test_abandon_idle_takes_at_most_limit_and_racing_callers_split_the_tables(store: TableStore) -> None:
    tables = {f"t_old_{number}" for number in range(40)}
    for table in sorted(tables):
        store.create(table, {}, [event(1)], [], deadline=None)
    later = time.time() + 120
    assert store.abandon_idle(later, idle_seconds=60, limit=0) == store.abandon_idle(later, 60, limit=-1) == []
    assert len(store.abandon_idle(later, idle_seconds=60, limit=4)) == 4
    start = threading.Barrier(4)

    def abandon(_: int) -> list[str]:
        start.wait()
        taken: list[str] = []
        while batch := store.abandon_idle(later, idle_seconds=60, limit=3):
            taken += batch
        return taken

    with ThreadPoolExecutor(4) as pool:
        taken = [table for batch in pool.map(abandon, range(4)) for table in batch]
    assert len(taken) == len(set(taken)) == 36
    assert store.open_tables(later, idle_seconds=HOUR) == 0


# -- the rest of the protocol --------------------------------------------------------------


def test_describe_names_the_kind_and_where(store: TableStore, store_url: str) -> None:
    described = store.describe()
    if store_url.startswith("sqlite"):
        assert described == {"kind": "sqlite", "path": store_url.removeprefix("sqlite:///")}
        assert store.notify_changes() is None
    else:
        assert described == {"kind": "redis", "url": store_url}


def test_a_second_opening_sees_the_same_tables(store: TableStore, store_url: str) -> None:
    store.create("t_shared", {"n": 1}, START_EVENTS, [], deadline=None)
    other = open_store(store_url)
    try:
        assert other.commit("t_shared", 0, {"n": 2}, [event(1)], [], deadline=None)
        assert store.load("t_shared") == StoredTable("t_shared", 1, {"n": 2}, 3, 0, None)
    finally:
        other.close()
