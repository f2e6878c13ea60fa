"""The table service where two writers meet: reads across another's commit, two clocks on one deadline.

Found by tests/ops/test_tables_survive.py's clients on two replicas sharing one Redis; here each
race is made to happen at once, on both stores.

* A view reads the table (state, version) and then its events; a commit in between (a bot's turn
  on another thread, an action on another replica) appended more.  Shown, they would sit beside
  the ``legal`` and ``version`` of before them.
* A game is built (caught up, or replayed) for the revision just read; the answers read after
  it may hold more, committed since by another replica, and a game past the read is not the one
  its state describes.
* Two replicas' clocks may act on one table at once (a claim's lease holds one ask, and the
  next ask is due for anyone): the compare-and-set keeps one answer, and only the replica whose
  answer was kept may count the deadline as fired.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.hosting.store import TableStore, open_store
from app.hosting.tables import CLIENT, Clock, TableService, TableSpec

SEATS = (CLIENT, "bot", "bot", "bot")


def test_a_view_shows_no_event_past_the_version_it_read(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    opened = service.create(TableSpec("riichi", "kyoku", SEATS, clock=Clock(60, 60), seed="view-moment"))
    table, token = opened["table"], opened["seats"][0]["token"]
    read, seat = service.authorize(table, token)
    assert seat == 0 and read.state["legal"][0], "the dealer's first turn is the client's"
    # The client's discard commits after ``read`` was taken: the table is further on now.
    service.act(table, token, read.event_count, read.state["legal"][0][0])
    assert store.load(table).event_count > read.event_count  # type: ignore[union-attr]

    for after in (0, read.event_count - 1):
        view = service.view(read, seat, after)
        assert view["version"] == read.event_count
        assert len(view["events"]) == read.event_count - after
        assert view["legal"] == read.state["legal"][0]


def test_a_clock_whose_answer_lost_the_race_counts_no_deadline_fired(store_url: str) -> None:
    first_store, second_store = open_store(store_url), open_store(store_url)
    first = TableService(first_store, max_open_tables=10, idle_seconds=3600)
    second = TableService(second_store, max_open_tables=10, idle_seconds=3600)
    # No time to decide and no bank: the client's first turn is due as soon as it is asked.
    opened = first.create(TableSpec("riichi", "kyoku", SEATS, clock=Clock(0.1, 0.0, 0.0), seed="two-clocks"))
    table = opened["table"]
    first.now = second.now = lambda: 4_000_000_000.0  # long past every deadline
    commit = first_store.commit
    raced = False

    def second_clock_first(*args: Any) -> bool:
        # The other replica's clock acts on the table between this one's read and its commit.
        nonlocal raced
        if not raced:
            raced = True
            assert second.fire(table) > 0
        return commit(*args)

    first_store.commit = second_clock_first  # type: ignore[method-assign]
    try:
        assert first.fire(table) == 0  # its answer lost: nothing of it is stored
        stored = second_store.load(table)
        assert stored is not None
        by_clock = sum(pair[0] == 0 for answer in second_store.answers(table) for pair in answer)
        by_clock += stored.state["answers_by"][0] == "clock"  # answered, the others still asked
        assert by_clock > 0
        assert first.counters["deadlines_fired"] == 0
        assert second.counters["deadlines_fired"] == by_clock
    finally:
        first_store.close()
        second_store.close()


@pytest.mark.parametrize("holding", [True, False], ids=["held-game", "rebuilt-game"])
def test_a_game_is_caught_up_to_the_revision_read_not_past_it(store_url: str, holding: bool) -> None:
    # ``first`` reads the table; before it reads the answers, ``second`` (another replica) answers
    # for the bots.  The game ``first`` builds must be the one its read describes: with the newer
    # answers it held more events than the store it read ("the replay holds N events, the store M").
    first_store, second_store = open_store(store_url), open_store(store_url)
    first = TableService(first_store, max_open_tables=10, idle_seconds=3600)
    second = TableService(second_store, max_open_tables=10, idle_seconds=3600)
    # Held: ``first`` dealt the game and holds it, behind by the action taken on ``second``, so it
    # catches up; rebuilt: ``first`` holds nothing and replays the table from its answers.
    opener = first if holding else second
    opened = opener.create(TableSpec("riichi", "kyoku", SEATS, clock=Clock(60, 60), seed="caught-up"))
    table, token = opened["table"], opened["seats"][0]["token"]
    read = second_store.load(table)
    assert read is not None
    second.act(table, token, read.event_count, read.state["legal"][0][0])  # now the bots are due
    load = first_store.load
    raced = False

    def second_clock_after_the_read(name: str) -> Any:
        nonlocal raced
        stored = load(name)
        if not raced:
            raced = True
            assert second.fire(name) > 0
        return stored

    first_store.load = second_clock_after_the_read  # type: ignore[method-assign]
    try:
        assert first.fire(table) == 0  # its read was overtaken: its answer is not stored
        assert first.counters["conflicts"] == 1
        # Nothing broke: the table goes on from the other replica's answers.
        assert first.fire(table) >= 0
    finally:
        first_store.close()
        second_store.close()
