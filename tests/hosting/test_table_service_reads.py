"""The table service reads a table as of one revision, even when the table moves on meanwhile.

A view or a game is built from a state document read first and events or answers read after
it.  Between the two another thread or another process may commit (a bot's turn, another seat,
another replica): what is read second must stop at the revision read first.  Found by the
random clients of tests/api/test_tables_api.py: a view whose events ran past its ``version``
gave a seat the same events twice; and a game rebuilt from answers past its state was refused
as a store that disagrees with itself (a 500).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.hosting.store import TableStore, open_store
from app.hosting.tables import Clock, TableService, TableSpec

SPEC = TableSpec(
    rules="riichi", length="kyoku", seats=("client", "bot", "client", "bot"), seed="reads-1", clock=Clock()
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    opened = open_store(f"sqlite:///{tmp_path.absolute()}/tables.sqlite3")
    yield opened
    opened.close()


def moved_on(service: TableService) -> tuple[str, list[str | None]]:
    """A table whose first seat (a client, the dealer) has discarded, and its tokens."""
    opened = service.create(SPEC)
    table = opened["table"]
    tokens = [seat.get("token") for seat in opened["seats"]]
    return table, tokens


def test_a_view_shows_the_events_of_the_revision_it_read(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = moved_on(service)
    before = store.load(table)
    assert before is not None
    legal = service.view(before, 0)["legal"]
    service.act(table, tokens[0], before.event_count, legal[0])
    after = store.load(table)
    assert after is not None and after.event_count > before.event_count
    # The state read before the action, its events read after it.
    view = service.view(before, 2, after=before.event_count - 1)
    assert view["version"] == before.event_count
    assert len(view["events"]) == 1


def test_a_game_is_rebuilt_at_the_revision_read_not_past_it(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = moved_on(service)
    before = store.load(table)
    assert before is not None
    service.act(table, tokens[0], before.event_count, service.view(before, 0)["legal"][0])
    while True:  # the bots' turns, as the clock plays them, until a client is asked again
        if not service.fire(table):
            break
    later = store.load(table)
    assert later is not None and later.answer_count > before.answer_count
    # Another process (a fresh service: no game held) builds the game of the state it read
    # before those answers were committed.
    other = TableService(store, max_open_tables=10, idle_seconds=3600)
    game = other._game(table, before)
    assert len(game.events) == before.event_count and game.answer_count == before.answer_count
    # And one that holds the game at that revision catches up to the later one exactly.
    assert len(other._game(table, later).events) == later.event_count
